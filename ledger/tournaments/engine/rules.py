"""The formats and their parameters (spec section 7), and the games they are played at.

The engine names no game: each game declares its table sizes (section 4) and the formats that
belong to it alone in its ``Features`` (``ledger.games.base``); the generic formats here read
the sizes of whichever game a tournament plays. The app hands the engine those declarations
as data, a ``Catalogue``, through ``use_games`` (``ledger.apps`` installs the registry's, built
from ``settings.TAROK_GAMES``); ``TABLE_SIZES`` and ``FORMATS`` read the catalogue in force.

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

from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction
from types import MappingProxyType

from ledger.games.base import TableSizes
from ledger.games.errors import Problems, _

from .errors import TournamentError

SEEDED_GROUPS = "seeded_groups"
RANDOM = "random"
STANDINGS = "standings"
FINAL = "final"
KINDS = (SEEDED_GROUPS, RANDOM, STANDINGS, FINAL)

PLACEMENT = "placement"
SUM = "sum"
BEFORE_SPLIT = "before_split"
FINAL_BASIS = "final"
SCORINGS = (PLACEMENT, SUM)
BASES = (BEFORE_SPLIT, FINAL_BASIS)

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
class FormatRules:
    """What a tournament format decides (the columns of section 7's table).

    ``games`` are the codes of the games that play it; none means every game (the generic
    formats, which read the game's table sizes). ``placement`` gives the points of places
    1..n at a table of n seats where the format has its own (the Slovenian DP); other sizes
    score n-1, n-2, ..., 0. ``title`` names it on the screens (marked for translation).
    """

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
    placement: Mapping[int, tuple[Fraction, ...]] = field(
        default_factory=lambda: MappingProxyType({})
    )
    title: str = ""

    def kind_of(self, round_number: int, rounds: int) -> str:
        """Return the kind of round ``round_number`` when ``rounds`` are preliminary."""
        if self.has_final and round_number == rounds + 1:
            return FINAL
        return self.first_kind if round_number == 1 else self.later_kind

    def last_round(self, rounds: int) -> int:
        """Return the number of the last round: the preliminary rounds and the final, if any."""
        return rounds + 1 if self.has_final else rounds

    def plays(self, game: str) -> bool:
        """Return whether the format is played at ``game`` (any game when it names none)."""
        return not self.games or game in self.games


SUM_TIES = (FIRSTS, BEST_ROUND, LOT)
PLACEMENT_TIES = (SCORE_SUM, FIRSTS, LOT)

# The formats of no one game: they seat the players by the game's own table sizes.
GENERIC_FORMATS: Mapping[str, FormatRules] = MappingProxyType(
    {
        "generic_sum": FormatRules(
            code="generic_sum",
            games=(),
            first_kind=RANDOM,
            later_kind=STANDINGS,
            rounds=3,
            scoring=SUM,
            basis=FINAL_BASIS,
            tie_breaks=SUM_TIES,
            time_limit_min=90,
            title=_("Sum of points"),
        ),
        "generic_placement": FormatRules(
            code="generic_placement",
            games=(),
            first_kind=RANDOM,
            later_kind=STANDINGS,
            rounds=3,
            scoring=PLACEMENT,
            basis=BEFORE_SPLIT,
            tie_breaks=PLACEMENT_TIES,
            time_limit_min=90,
            title=_("Placement points"),
        ),
    }
)


@dataclass(frozen=True)
class Catalogue:
    """The games a tournament may play, by code, with their table sizes, and every format:
    each game's own, then the generic ones. Built by ``catalogue_of`` from the games'
    declarations; the engine reads nothing else about a game."""

    sizes: Mapping[str, TableSizes]
    formats: Mapping[str, FormatRules]


def catalogue_of(
    games: Iterable[tuple[str, TableSizes | None, Sequence[FormatRules]]],
) -> Catalogue:
    """Return the catalogue of ``games``: (code, table sizes, own formats) each. A game
    without table sizes plays no tournament; a format that another already has is left out
    (``manage.py check`` names the clash)."""
    sizes: dict[str, TableSizes] = {}
    formats: dict[str, FormatRules] = {}
    for code, table_sizes, own in games:
        if table_sizes is not None:
            sizes[code] = table_sizes
        for rules in own:
            if rules.code not in GENERIC_FORMATS:
                formats.setdefault(rules.code, rules)
    formats.update(GENERIC_FORMATS)
    return Catalogue(MappingProxyType(sizes), MappingProxyType(formats))


_source: list[Callable[[], Catalogue]] = []


def use_games(
    source: Callable[[], Catalogue] | Catalogue | None,
) -> Callable[[], Catalogue] | None:
    """Make ``source`` (a catalogue, or a callable returning the one in force; None for none)
    what the engine reads the games' sizes and the formats from. Return the source it
    replaces, so that a caller can put it back."""
    previous = _source[0] if _source else None
    if source is None:
        _source.clear()
    else:
        _source[:] = [source if callable(source) else (lambda: source)]
    return previous


def catalogue() -> Catalogue:
    """Return the catalogue in force; LookupError when none was given (``use_games``)."""
    if not _source:
        raise LookupError("the tournament engine has no games: call use_games(catalogue) first")
    return _source[0]()


class _Live(Mapping):
    """A read-only view of one part of the catalogue in force."""

    def __init__(self, part: str):
        self._part = part

    def _now(self) -> Mapping:
        return getattr(catalogue(), self._part)

    def __getitem__(self, key):
        return self._now()[key]

    def __iter__(self) -> Iterator:
        return iter(self._now())

    def __len__(self) -> int:
        return len(self._now())

    def __repr__(self) -> str:
        return f"{self._part.upper()}({', '.join(self)})"


# The table sizes of each game that plays tournaments (section 4) and every format (section 7).
TABLE_SIZES: Mapping[str, TableSizes] = _Live("sizes")
FORMATS: Mapping[str, FormatRules] = _Live("formats")


def plays(format_code: str, game: str) -> bool:
    """Return whether the format ``format_code`` is played at ``game``: the game has table
    sizes and the format is its own or a generic one."""
    rules = FORMATS.get(format_code)
    return rules is not None and game in TABLE_SIZES and rules.plays(game)


def format_rules(code: str) -> FormatRules:
    """Return the rules of the format ``code``; KeyError for an unknown one."""
    return FORMATS[code]


def placement_points(format_code: str, size: int) -> tuple[Fraction, ...]:
    """Return the points of places 1..size at a table of ``size`` seats (section 7)."""
    own = FORMATS[format_code].placement.get(size)
    if own is not None:
        return tuple(own)
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
