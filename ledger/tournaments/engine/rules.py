"""The games' table sizes (spec section 4), the formats and their parameters (section 7).

A format fixes the round kinds, the scoring, the score basis, the tie-breaks and the defaults a
tournament may override in its ``params``; ``read_params`` checks such overrides field by field.

Choices the spec leaves open, made here:

- ``hands_target`` in ``params`` is ``null`` (no target), one whole number for every table size,
  or an object by table size (``{"3": 21, "4": 20}``); sizes left out keep the format's default.
- Bounds on the parameters (``rounds`` at most 50, ``node_budget`` at most 2 000 000, minutes at
  most a day) keep a hostile file from making the engine run for hours; a director needs none
  of them larger.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from fractions import Fraction
from types import MappingProxyType

from ledger.games.errors import Problems, _

from .errors import TournamentError

DANISH = "danish_tarok"
SLOVENIAN = "slovenian_tarok"
HUNGARIAN = "hungarian_tarokk"
GAME_CODES = (DANISH, SLOVENIAN, HUNGARIAN)

SEEDED_GROUPS = "seeded_groups"
RANDOM = "random"
STANDINGS = "standings"
FINAL = "final"
KINDS = (SEEDED_GROUPS, RANDOM, STANDINGS, FINAL)

PLACEMENT = "placement"
SUM = "sum"
BEFORE_SPLIT = "before_split"
FINAL_BASIS = "final"

SCORE_SUM = "score_sum"
FIRSTS = "firsts"
BEST_ROUND = "best_round"
LOT = "lot"

AT_SIGNAL_CHOICES = ("finish", "abort")
DEFAULT_NODE_BUDGET = 200_000
MAX_NODE_BUDGET = 2_000_000
MAX_ROUNDS = 50
MAX_MINUTES = 24 * 60
MAX_HANDS = 1000


@dataclass(frozen=True)
class TableSizes:
    """A game's base table size and its exception sizes in order of preference (section 4)."""

    base: int
    exceptions: tuple[int, ...]

    @property
    def allowed(self) -> tuple[int, ...]:
        return (self.base, *self.exceptions)

    @property
    def smallest(self) -> int:
        return min(self.allowed)


TABLE_SIZES: Mapping[str, TableSizes] = MappingProxyType(
    {
        SLOVENIAN: TableSizes(3, (4, 5)),
        DANISH: TableSizes(4, (3, 5)),
        HUNGARIAN: TableSizes(4, (5,)),
    }
)


@dataclass(frozen=True)
class FormatRules:
    """What a tournament format decides (the columns of section 7's table)."""

    code: str
    games: tuple[str, ...]
    first_kind: str
    later_kind: str
    rounds: int
    scoring: str
    basis: str
    tie_breaks: tuple[str, ...]
    time_limit_min: int
    final_time_limit_min: int | None = None
    hands_target: Mapping[int, int] = field(default_factory=lambda: MappingProxyType({}))
    has_final: bool = False

    def kind_of(self, round_number: int, rounds: int) -> str:
        """Return the kind of round ``round_number`` when ``rounds`` are preliminary."""
        if self.has_final and round_number == rounds + 1:
            return FINAL
        return self.first_kind if round_number == 1 else self.later_kind

    def last_round(self, rounds: int) -> int:
        """Return the number of the last round: the preliminary rounds and the final, if any."""
        return rounds + 1 if self.has_final else rounds


_SUM_TIES = (FIRSTS, BEST_ROUND, LOT)
_PLACEMENT_TIES = (SCORE_SUM, FIRSTS, LOT)

FORMATS: Mapping[str, FormatRules] = MappingProxyType(
    {
        "sl_dp": FormatRules(
            code="sl_dp",
            games=(SLOVENIAN,),
            first_kind=SEEDED_GROUPS,
            later_kind=STANDINGS,
            rounds=4,
            scoring=PLACEMENT,
            basis=BEFORE_SPLIT,
            tie_breaks=_PLACEMENT_TIES,
            time_limit_min=90,
            hands_target=MappingProxyType({3: 21, 4: 20, 5: 20}),
        ),
        "dk_dm": FormatRules(
            code="dk_dm",
            games=(DANISH,),
            first_kind=RANDOM,
            later_kind=RANDOM,
            rounds=2,
            scoring=SUM,
            basis=FINAL_BASIS,
            tie_breaks=_SUM_TIES,
            time_limit_min=75,
        ),
        "hu_kupa": FormatRules(
            code="hu_kupa",
            games=(HUNGARIAN,),
            first_kind=RANDOM,
            later_kind=RANDOM,
            rounds=4,
            scoring=SUM,
            basis=FINAL_BASIS,
            tie_breaks=_SUM_TIES,
            time_limit_min=55,
            final_time_limit_min=60,
            has_final=True,
        ),
        "generic_sum": FormatRules(
            code="generic_sum",
            games=GAME_CODES,
            first_kind=RANDOM,
            later_kind=STANDINGS,
            rounds=3,
            scoring=SUM,
            basis=FINAL_BASIS,
            tie_breaks=_SUM_TIES,
            time_limit_min=90,
        ),
        "generic_placement": FormatRules(
            code="generic_placement",
            games=GAME_CODES,
            first_kind=RANDOM,
            later_kind=STANDINGS,
            rounds=3,
            scoring=PLACEMENT,
            basis=BEFORE_SPLIT,
            tie_breaks=_PLACEMENT_TIES,
            time_limit_min=90,
        ),
    }
)

# The DP's 2 / 1 / 1/2 [GG], and for 4 and 5 seats the same top, step and bottom (7.1).
_SL_DP_POINTS = {
    3: (Fraction(2), Fraction(1), Fraction(1, 2)),
    4: (Fraction(2), Fraction(3, 2), Fraction(1), Fraction(1, 2)),
    5: (Fraction(2), Fraction(3, 2), Fraction(1), Fraction(1, 2), Fraction(0)),
}


def format_rules(code: str) -> FormatRules:
    """Return the rules of the format ``code``; KeyError for an unknown one."""
    return FORMATS[code]


def placement_points(format_code: str, size: int) -> tuple[Fraction, ...]:
    """Return the points of places 1..size at a table of ``size`` seats (section 7)."""
    if format_code == "sl_dp" and size in _SL_DP_POINTS:
        return _SL_DP_POINTS[size]
    return tuple(Fraction(size - 1 - i) for i in range(size))


def bye_points(format_code: str, game: str) -> Fraction:
    """Return what a bye scores: the base table's mean (placement) or 0 (sum), section 7."""
    rules = FORMATS[format_code]
    if rules.scoring == SUM:
        return Fraction(0)
    points = placement_points(format_code, TABLE_SIZES[game].base)
    return sum(points, Fraction(0)) / len(points)


@dataclass(frozen=True)
class Params:
    """A tournament's parameters: the format's defaults with its ``params`` applied."""

    rounds: int
    club_apart: bool = False
    node_budget: int = DEFAULT_NODE_BUDGET
    time_limit_min: int = 90
    final_time_limit_min: int | None = None
    hands_target: Mapping[int, int] = field(default_factory=lambda: MappingProxyType({}))
    at_signal: str = "finish"
    entry_grace_min: int = 10
    min_hands: int | None = None
    # A hand saved on a round table's own link counts once a second player confirms it.
    confirm_hands: bool = False

    def target_for(self, size: int) -> int | None:
        """Return the hands target of a table of ``size`` seats, or None when it has none."""
        return self.hands_target.get(size)


def default_params(format_code: str) -> Params:
    """Return the parameters of section 7 for the format ``format_code``."""
    rules = FORMATS[format_code]
    return Params(
        rounds=rules.rounds,
        time_limit_min=rules.time_limit_min,
        final_time_limit_min=rules.final_time_limit_min,
        hands_target=rules.hands_target,
    )


def _whole(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _check_whole(problems: Problems, path: str, value, low: int, high: int) -> bool:
    if not _whole(value):
        problems.add(path, _("{what} must be a whole number"), what=path.rsplit(".", 1)[-1])
        return False
    if not low <= value <= high:
        problems.add(
            path,
            _("{what} must be from {low} to {high}"),
            what=path.rsplit(".", 1)[-1],
            low=low,
            high=high,
        )
        return False
    return True


def read_params(problems: Problems, path: str, format_code: str, data) -> Params:
    """Return the format's defaults overridden by ``data``; add a problem for each bad field.

    ``data`` may be None (no overrides). A field that is refused keeps its default, so the
    caller can go on checking and raise all problems at once.
    """
    params = default_params(format_code)
    if data is None:
        return params
    if not isinstance(data, Mapping):
        problems.add(path, _("params must be an object"))
        return params
    changes: dict = {}
    for key, value in data.items():
        where = f"{path}.{key}"
        if key == "rounds":
            if _check_whole(problems, where, value, 1, MAX_ROUNDS):
                changes[key] = value
        elif key == "node_budget":
            if _check_whole(problems, where, value, 1, MAX_NODE_BUDGET):
                changes[key] = value
        elif key in ("time_limit_min", "final_time_limit_min"):
            if key == "final_time_limit_min" and not FORMATS[format_code].has_final:
                problems.add(where, _("the format {format} has no final"), format=format_code)
            elif _check_whole(problems, where, value, 1, MAX_MINUTES):
                changes[key] = value
        elif key == "entry_grace_min":
            if _check_whole(problems, where, value, 0, MAX_MINUTES):
                changes[key] = value
        elif key == "min_hands":
            if value is None or _check_whole(problems, where, value, 1, MAX_HANDS):
                changes[key] = value
        elif key == "club_apart":
            if isinstance(value, bool):
                changes[key] = value
            else:
                problems.add(where, _("club_apart must be true or false"))
        elif key == "confirm_hands":
            if isinstance(value, bool):
                changes[key] = value
            else:
                problems.add(where, _("confirm_hands must be true or false"))
        elif key == "at_signal":
            if value in AT_SIGNAL_CHOICES:
                changes[key] = value
            else:
                problems.add(
                    where,
                    _("at_signal must be one of {choices}"),
                    choices=", ".join(AT_SIGNAL_CHOICES),
                )
        elif key == "hands_target":
            target = _read_hands_target(problems, where, params.hands_target, value)
            if target is not None:
                changes[key] = target
        else:
            problems.add(where, _("unknown key {key}: params has no such setting"), key=key)
    return replace(params, **changes)


def _read_hands_target(problems: Problems, path: str, default: Mapping[int, int], value):
    sizes = sorted({size for game in TABLE_SIZES.values() for size in game.allowed})
    if value is None:
        return MappingProxyType({})
    if _whole(value):
        if _check_whole(problems, path, value, 1, MAX_HANDS):
            return MappingProxyType(dict.fromkeys(sizes, value))
        return None
    if not isinstance(value, Mapping):
        problems.add(
            path, _("hands_target must be null, a whole number or an object by table size")
        )
        return None
    target = dict(default)
    ok = True
    for key, hands in value.items():
        where = f"{path}.{key}"
        if key not in {str(size) for size in sizes}:
            problems.add(
                where,
                _("{key} is no table size; choose one of {choices}"),
                key=key,
                choices=", ".join(map(str, sizes)),
            )
            ok = False
        elif hands is None:
            target.pop(int(key), None)
        elif _check_whole(problems, where, hands, 1, MAX_HANDS):
            target[int(key)] = hands
        else:
            ok = False
    return MappingProxyType(target) if ok else None


def params_for(format_code: str, data=None, *, path: str = "params") -> Params:
    """Return the parameters of a tournament of ``format_code`` with ``data`` applied.

    Raise TournamentError naming every refused field.
    """
    problems = Problems()
    params = read_params(problems, path, format_code, data)
    problems.raise_if_any(TournamentError)
    return params
