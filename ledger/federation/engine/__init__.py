"""The pure federation engine of ``federation.md``: series standings (the ladder) and ratings.

No Django and no database: the officer's screens and the commands ``series_run`` and
``rating_run`` call the same functions, so the ladder a federation publishes is the one the
command computes for the same rule and events (spec section 4).
"""

from .errors import FederationError
from .example import read_rating, read_series, run_rating_file, run_series_file
from .rating import (
    RatedTable,
    RatingList,
    RatingParams,
    SeatRating,
    Standing,
    TableRating,
    rate_table,
    rate_tables,
)
from .series import (
    FIELD,
    LINEAR,
    PLACEMENT,
    POINTS,
    SCALES,
    SOURCES,
    TABLE,
    Event,
    Placing,
    Scale,
    SeriesRow,
    SeriesRule,
    event_results,
    ladder_ranks,
    series_standings,
)

__all__ = [
    "FIELD",
    "LINEAR",
    "PLACEMENT",
    "POINTS",
    "SCALES",
    "SOURCES",
    "TABLE",
    "Event",
    "FederationError",
    "Placing",
    "RatedTable",
    "RatingList",
    "RatingParams",
    "Scale",
    "SeatRating",
    "SeriesRow",
    "SeriesRule",
    "Standing",
    "TableRating",
    "event_results",
    "ladder_ranks",
    "rate_table",
    "rate_tables",
    "read_rating",
    "read_series",
    "run_rating_file",
    "run_series_file",
    "series_standings",
]
