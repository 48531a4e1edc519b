"""The federation in the ledger (``federation.md`` section 1): federations and their member
clubs, players across clubs, the entries' players, and an officer's merge of two records of
one person:

- ``clubs``: ``federation_create``, ``club_join``, ``officer_add``, ``officer_remove``,
  ``federation_publish_set``;
- ``players``: ``player_for_member``, ``player_match_guest``, ``player_merge``,
  ``player_set_licence``;
- ``series``: ``series_create``, ``series_event_add``, ``series_change``,
  ``series_event_factor_set``, ``series_event_remove``, ``series_ladder``, ``ladder_ranks_for``,
  ``tournament_ladder_set``, ``ladder_ranks_apply``, ``ladder_rank_override``,
  ``entries_from_series`` (a Masters filled from a qualifying series);
- ``ratings``: ``rating_list_create``, ``rating_list_recompute``, ``tournament_rating_set``
  (the lists' tables, changes and ratings are derived data, rebuilt when their events change).

Every service writes in one ``writing()`` transaction and refuses bad input with a
``LedgerError`` naming its field, writing nothing.
"""

from ledger.services.federation.clubs import (
    club_join,
    federation_create,
    federation_publish_set,
    officer_add,
    officer_remove,
)
from ledger.services.federation.players import (
    federation_of_club,
    player_for_member,
    player_match_guest,
    player_merge,
    player_set_licence,
)
from ledger.services.federation.ratings import (
    rating_list_create,
    rating_list_recompute,
    tournament_rating_set,
)
from ledger.services.federation.series import (
    entries_from_series,
    ladder_rank_override,
    ladder_ranks_apply,
    ladder_ranks_for,
    series_change,
    series_create,
    series_event_add,
    series_event_factor_set,
    series_event_remove,
    series_ladder,
    tournament_ladder_set,
)

__all__ = [
    "club_join",
    "entries_from_series",
    "federation_create",
    "federation_of_club",
    "federation_publish_set",
    "ladder_rank_override",
    "ladder_ranks_apply",
    "ladder_ranks_for",
    "officer_add",
    "officer_remove",
    "player_for_member",
    "player_match_guest",
    "player_merge",
    "player_set_licence",
    "rating_list_create",
    "rating_list_recompute",
    "series_change",
    "series_create",
    "series_event_add",
    "series_event_factor_set",
    "series_event_remove",
    "series_ladder",
    "tournament_ladder_set",
    "tournament_rating_set",
]
