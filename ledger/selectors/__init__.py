"""Reads, by area: ``table`` (one table's seats, accounts and balances), ``season`` (seasons,
standings, a member's season and hands), ``sheet`` (an evening's sheet), ``jetons`` (the
jeton reconciliation), ``me`` (a member's own page), ``public`` (the published results),
``setup`` (the club set-up screens) and ``verify`` (the whole-ledger check). Selectors return
rows, querysets or plain data and know nothing of HTTP: "not found" is ``None``, which a view
maps to 404.

The read functions are importable from here (``selectors.standings_for_season``).
"""

from ledger.selectors.jetons import evening_jetons
from ledger.selectors.me import last_hands, season_rank, tonight, user_idle_minutes, user_languages
from ledger.selectors.preview import settle_preview, transfer_summary
from ledger.selectors.public import (
    closed_evenings,
    evening_results,
    published_club,
    published_evening,
    published_tournaments,
)
from ledger.selectors.season import (
    member_hands,
    member_season,
    season_evenings,
    season_pick,
    season_resolve,
    seasons_for_club,
    standings_for_season,
)
from ledger.selectors.setup import pending_invitations, people_log
from ledger.selectors.sheet import evening_for_club, evening_sheet, table_account_names
from ledger.selectors.table import (
    account_balances,
    account_balances_from_transfers,
    all_seats,
    current_seats,
    dealt_hands,
    evening_ranking,
    evening_tables,
    hand_rows,
    live_hand_postings,
    next_hand,
    pool_balances,
    pool_items,
    pools_after,
    pools_before_hand,
    posting_effects,
    season_open_evenings,
    seated_at_open_tables,
    state_is_pools,
    table_accounts,
    table_balances,
    table_overview,
    table_state_data,
)

__all__ = [
    "account_balances",
    "account_balances_from_transfers",
    "all_seats",
    "closed_evenings",
    "current_seats",
    "dealt_hands",
    "evening_for_club",
    "evening_jetons",
    "evening_ranking",
    "evening_results",
    "evening_sheet",
    "evening_tables",
    "hand_rows",
    "last_hands",
    "live_hand_postings",
    "member_hands",
    "member_season",
    "next_hand",
    "pending_invitations",
    "people_log",
    "pool_balances",
    "pool_items",
    "pools_after",
    "pools_before_hand",
    "posting_effects",
    "published_club",
    "published_evening",
    "published_tournaments",
    "season_evenings",
    "season_open_evenings",
    "season_pick",
    "season_rank",
    "season_resolve",
    "seasons_for_club",
    "seated_at_open_tables",
    "settle_preview",
    "standings_for_season",
    "state_is_pools",
    "table_account_names",
    "table_accounts",
    "table_balances",
    "table_overview",
    "table_state_data",
    "tonight",
    "transfer_summary",
    "user_idle_minutes",
    "user_languages",
]
