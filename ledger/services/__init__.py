"""The only code that writes ledger rows, by area: ``ledger`` (every service's transaction, the
locks and one table's ledger), ``tables`` (evenings and tables), ``hands``, ``treasury``
(counts, adjustments, closing), ``setup`` (clubs, members, seasons, invitations) and the two
summaries (``balances``, ``stats``). ``invitations`` keeps the links' tokens; ``demo`` writes
the demo clubs.

The public services are importable from here (``services.hand_record``); see
``ledger.services.ledger`` for the transaction and the lock order every one of them follows.
"""

from ledger.services.errors import (
    BusyError,
    CupNegativeError,
    EveningClosedError,
    JetonDifferenceError,
    LedgerError,
    SeatingError,
    StaleFormError,
)
from ledger.services.hands import hand_correct, hand_record, hand_void
from ledger.services.ledger import (
    evening_game,
    next_hand_number,
    rate_card,
    table_balances,
    table_state,
    table_version,
)
from ledger.services.setup import (
    CLUB_SETTINGS,
    club_create,
    club_update,
    invitation_accept,
    invitation_create,
    invitation_refusal,
    invitations_create_missing,
    member_update,
    members_add,
    parse_names,
    protected_login,
    rate_card_set,
    season_dates,
    season_name,
    season_save,
    user_language_set,
    username_free,
    validated_rate_card,
)
from ledger.services.tables import (
    evening_file_under,
    evening_open,
    open_club_evening,
    table_close,
    table_leave,
    table_open,
    table_seat,
    table_substitute,
)
from ledger.services.treasury import (
    adjustment_post,
    evening_close,
    evening_reopen,
    jeton_counts_stale,
    jeton_differences,
    jeton_expected,
    jetons_confirm,
    jetons_count,
    stale_count_changes,
)

__all__ = [
    "CLUB_SETTINGS",
    "BusyError",
    "CupNegativeError",
    "EveningClosedError",
    "JetonDifferenceError",
    "LedgerError",
    "SeatingError",
    "StaleFormError",
    "adjustment_post",
    "club_create",
    "club_update",
    "evening_close",
    "evening_file_under",
    "evening_game",
    "evening_open",
    "evening_reopen",
    "hand_correct",
    "hand_record",
    "hand_void",
    "invitation_accept",
    "invitation_create",
    "invitation_refusal",
    "invitations_create_missing",
    "jeton_counts_stale",
    "jeton_differences",
    "jeton_expected",
    "jetons_confirm",
    "jetons_count",
    "member_update",
    "members_add",
    "next_hand_number",
    "open_club_evening",
    "parse_names",
    "protected_login",
    "rate_card",
    "rate_card_set",
    "season_dates",
    "season_name",
    "season_save",
    "stale_count_changes",
    "table_balances",
    "table_close",
    "table_leave",
    "table_open",
    "table_seat",
    "table_state",
    "table_substitute",
    "table_version",
    "user_language_set",
    "username_free",
    "validated_rate_card",
]
