"""The pure tournament engine of ``tournament.md``: plans, draws, points, standings, checker.

No Django, no database and no game named: the games' table sizes and their own formats come
in as data (``use_games``, a ``Catalogue`` of the games' ``Features``). The web side and the
commands ``tournament_run`` and ``tournament_check`` call the same functions, so the draw a
director publishes is the one the command computes for the same entries, seed and results
(spec section 14).
"""

from .checker import check_draw, count_byes
from .clock import HandAdmission, admit_hand, below_minimum, ended_by, time_limit_min
from .corrections import correction_period_end, needs_override, ranking_status
from .display import points_decimal, points_mixed, points_text
from .draw import draw_round, manual_draw, priority_order, round_kind
from .errors import TournamentError
from .example import check_file, read_tournament, run_file
from .hashing import h, lot, random_order
from .model import (
    DIRECT,
    ERROR,
    FALLBACK,
    MANUAL,
    SEARCH,
    WARNING,
    Draw,
    Entry,
    PastRound,
    Plan,
    RoundPoints,
    SeatResult,
    StandingRow,
    Violation,
)
from .plan import choose_byes, plan_sizes, table_plan
from .points import round_points, table_points
from .rules import (
    FORMATS,
    GENERIC_FORMATS,
    KINDS,
    TABLE_SIZES,
    Catalogue,
    FormatRules,
    Params,
    TableSizes,
    bye_points,
    catalogue,
    catalogue_of,
    default_params,
    params_for,
    placement_points,
    plays,
    use_games,
)
from .search import Conflicts
from .seeding import ladder, seeding_groups
from .standings import PlayedRound, final_ranking, lot_decided, standings
from .tournament import (
    Correction,
    ManualDraw,
    RoundInput,
    Tournament,
    TournamentRun,
    run_tournament,
)

__all__ = [
    "DIRECT",
    "ERROR",
    "FALLBACK",
    "FORMATS",
    "GENERIC_FORMATS",
    "KINDS",
    "MANUAL",
    "SEARCH",
    "TABLE_SIZES",
    "WARNING",
    "Catalogue",
    "Conflicts",
    "Correction",
    "Draw",
    "Entry",
    "FormatRules",
    "HandAdmission",
    "ManualDraw",
    "Params",
    "PastRound",
    "Plan",
    "PlayedRound",
    "RoundInput",
    "RoundPoints",
    "SeatResult",
    "StandingRow",
    "TableSizes",
    "Tournament",
    "TournamentError",
    "TournamentRun",
    "Violation",
    "admit_hand",
    "below_minimum",
    "bye_points",
    "catalogue",
    "catalogue_of",
    "check_draw",
    "check_file",
    "choose_byes",
    "correction_period_end",
    "count_byes",
    "default_params",
    "draw_round",
    "ended_by",
    "final_ranking",
    "h",
    "ladder",
    "lot",
    "lot_decided",
    "manual_draw",
    "needs_override",
    "params_for",
    "placement_points",
    "plan_sizes",
    "plays",
    "points_decimal",
    "points_mixed",
    "points_text",
    "priority_order",
    "random_order",
    "ranking_status",
    "read_tournament",
    "round_kind",
    "round_points",
    "run_file",
    "run_tournament",
    "seeding_groups",
    "standings",
    "table_plan",
    "table_points",
    "time_limit_min",
    "use_games",
]
