"""Tournaments (issue 21, ``tournament.md``): create, enter players, draw, publish, play, close,
correct, in rooms of their own:

- ``lifecycle``: create a tournament, make it final, reopen it;
- ``entries``: members and guests entered, the pasted ladder list, withdrawals;
- ``draws``: draw, redraw, set by hand, swap, publish, withdraw a draw;
- ``play``: start a round (every table opened) and close it (every table closed, results
  written), each in one transaction;
- ``links``: the table's own link for one phone, late players, substitutes;
- ``confirmations``: a hand saved on a table's own link confirmed by a second player;
- ``corrections``: a hand corrected after its round closed, and what follows recomputed;
- ``results`` and ``state``: a table's result and the engine's view of the stored tournament,
  which the rooms and the selectors read; ``common``: the locks, the log, the refusals.

The rules are the pure engine's (``ledger.tournaments.engine``): the draw the director
publishes is the one ``tournament_run`` computes for the same entries, seed and results. These
modules only store what the engine decided and play each round table as an ordinary table of
the tournament's evening through the table services (``round_table_open``, ``close_locked``).
A round table's target, which the hand services ask, is ``ledger.services.targets``.

Every write is one ``writing()`` transaction: ``round_start`` opens every table of the round
and ``round_close`` closes them with the round, all or nothing. The tournament's evening is of
kind tournament: no club role's service opens, counts, closes or settles it. Every service
locks the tournament or its round first (``common.lock_tournament``, ``common.lock_round``), which
raises its version and seals it before it commits.

Choices the spec leaves open, made here:

- The director is the club's admin (no new role).
- A guest is a member row of the club, inactive (he has no log-in and is left out of the
  club's lists), named as entered; his club is the entry's ``club_name``.
- A hand-made change (a swap) is refused when the checker finds an error of the structure
  (unknown, inactive, twice, missing, sizes, bye count) or a second bye while a seated player
  has fewer; a repeat or a broken seeding group is the director's call and stays on the draw
  as a warning.
- The tournament starts (its rate card frozen, its evening opened) when round 1 starts.
- A tournament of several days has an evening per day played, opened when the day's first
  round starts; each round has its day (set when it is drawn, moved until it starts) and the
  rounds' days never go back. The standings run across every round, whatever its day. An
  evening of a tournament is never closed, as a one-day tournament's never was.
"""

from ledger.services.targets import (
    check_hand_target,
    hands_played,
    note_begun_hand,
    tournament_params,
    unconfirmed_hand,
)
from ledger.services.tournaments.common import MAX_IMPORT_LINES, REFUSED_CODES, points_of
from ledger.services.tournaments.confirmations import tournament_hand_confirm
from ledger.services.tournaments.corrections import (
    CORRECTION_MINUTES_AFTER_LAST,
    correction_period_over,
    tournament_hand_correct,
)
from ledger.services.tournaments.draws import (
    next_round_day,
    round_draw,
    round_publish,
    round_redraw,
    round_set_day,
    round_set_draw,
    round_swap,
    round_unpublish,
)
from ledger.services.tournaments.entries import (
    LadderRow,
    entries_add,
    entries_import,
    entry_add_guest,
    entry_remove,
    entry_withdraw,
    parse_ladder,
)
from ledger.services.tournaments.lifecycle import (
    tournament_cancel,
    tournament_create,
    tournament_finish,
    tournament_reopen,
    tournament_set_days,
)
from ledger.services.tournaments.links import (
    LINK_ROUNDS,
    device_digest,
    link_author,
    new_link_token,
    round_substitute,
    round_table_claim,
    round_table_release,
    round_table_report_missing,
)
from ledger.services.tournaments.play import round_close, round_reopen, round_start
from ledger.services.tournaments.results import round_results, table_ended_by, table_scores
from ledger.services.tournaments.state import (
    current_standings,
    engine_entries,
    entries_as_of,
    played_round,
    played_rounds,
    ranking_after,
    ranking_of,
    stored_draw,
)

__all__ = [
    "CORRECTION_MINUTES_AFTER_LAST",
    "LINK_ROUNDS",
    "MAX_IMPORT_LINES",
    "REFUSED_CODES",
    "LadderRow",
    "check_hand_target",
    "correction_period_over",
    "current_standings",
    "device_digest",
    "engine_entries",
    "entries_add",
    "entries_as_of",
    "entries_import",
    "entry_add_guest",
    "entry_remove",
    "entry_withdraw",
    "hands_played",
    "link_author",
    "new_link_token",
    "next_round_day",
    "note_begun_hand",
    "parse_ladder",
    "played_round",
    "played_rounds",
    "points_of",
    "ranking_after",
    "ranking_of",
    "round_close",
    "round_draw",
    "round_publish",
    "round_redraw",
    "round_reopen",
    "round_results",
    "round_set_day",
    "round_set_draw",
    "round_start",
    "round_substitute",
    "round_swap",
    "round_table_claim",
    "round_table_release",
    "round_table_report_missing",
    "round_unpublish",
    "stored_draw",
    "table_ended_by",
    "table_scores",
    "tournament_cancel",
    "tournament_create",
    "tournament_finish",
    "tournament_hand_confirm",
    "tournament_hand_correct",
    "tournament_params",
    "tournament_reopen",
    "tournament_set_days",
    "unconfirmed_hand",
]
