"""Reading the series and rating example files of spec section 4, checking every field.

``series_run`` reads ``tarokclub.series-example/1`` (seed, rule, optional ``as_of``, events)
and ``rating_run`` reads ``tarokclub.rating-example/1`` (params, optional start, tables). Every
refusal is a Problem naming its field path (``rule.scale.points[2]``,
``events[1].ranking[4].rank``, ``tables[3].scores.r05``) and all problems of a file are
reported at once; a file's ``expected``, ``notes`` and ``description`` are read past.

Exact figures (points, factors, a scale's points, base and gaps, table scores) are whole
numbers or text such as ``"13/2"``, ``"-3/4"`` or ``"4.5"`` (in lowest terms a denominator of
at most 1000); never JSON floats, whose value is not what they print. Rating parameters and
start ratings are numbers (doubles, spec 3).

Bounds (a federation's season needs none larger; they keep a hostile file from making the
engine run for hours): 500 events of 500 ranked players, 20 000 rated tables of at most 20
seats, ids of at most 100 characters, integers and the parts of a fraction of at most 18
digits, ratings and scores of at most 10^9 either way.
"""

from __future__ import annotations

import datetime
import re
from collections.abc import Mapping
from fractions import Fraction
from types import MappingProxyType

from ledger.games.errors import _
from ledger.tournaments.engine.example import MAX_ID_LENGTH, MAX_SEATS, _join, _Reader, _short

from .errors import FederationError
from .rating import RatedTable, RatingParams, Standing, rate_tables
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
    SeriesRule,
    series_standings,
)

SERIES_FORMAT = "tarokclub.series-example/1"
RATING_FORMAT = "tarokclub.rating-example/1"
MAX_EVENTS = 500
MAX_RANKED = 500
MAX_SCALE = 1000
MAX_COUNT = 10**6
MAX_TABLES = 20_000
MAX_NUMBER = 10**9
MAX_K = 10**4
MAX_DIGITS = 18
# Tournament points have denominators such as 2, 3, 4, 6 or 12 and factors such as 3/2. A
# bound keeps every sum of a season within lcm(1 … 1000)² (under 900 digits), so a hostile
# file of many coprime denominators cannot grow a total past what ``str`` prints (4300 digits).
MAX_DENOMINATOR = 1000

_IGNORED = {"description", "notes", "expected"}
_SERIES_KEYS = _IGNORED | {"format", "seed", "rule", "as_of", "events"}
_RULE_KEYS = {"source", "scale", "best_of", "strike_worst", "qualify"}
_SCALE_KEYS = {
    TABLE: {"kind", "points", "beyond"},
    LINEAR: {"kind"},
    FIELD: {"kind", "base", "gaps"},
}
_EVENT_KEYS = {"id", "date", "factor", "ranking"}
_PLACING_KEYS = {"rank", "player", "points"}
_RATING_KEYS = _IGNORED | {"format", "params", "start", "tables"}
_PARAMS_KEYS = {"initial", "scale", "k_new", "k", "new_tables"}
_START_KEYS = {"rating", "tables"}
_TABLE_KEYS = {"id", "scores"}

_RATIONAL = re.compile(rf"-?\d{{1,{MAX_DIGITS}}}(?:(?:/|\.)\d{{1,{MAX_DIGITS}}})?")
_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")


class _FederationReader(_Reader):
    """The tournament files' field checks, and exact rationals, numbers and dates."""

    def rational(self, path: str, value, *, positive: bool = False) -> Fraction | None:
        if isinstance(value, int) and not isinstance(value, bool):
            number = Fraction(value)
        elif isinstance(value, str) and _RATIONAL.fullmatch(value):
            if "/" in value and int(value.partition("/")[2]) == 0:
                self.add(path, _("{what} has a denominator of 0"), what=path)
                return None
            number = Fraction(value)
        else:
            self.add(
                path,
                _("{what} must be a whole number or an exact fraction such as 13/2"),
                what=path,
            )
            return None
        if number.denominator > MAX_DENOMINATOR:
            self.add(
                path,
                _("{what} has a denominator of more than {limit}"),
                what=path,
                limit=MAX_DENOMINATOR,
            )
            return None
        if positive and number <= 0:
            self.add(path, _("{what} must be more than 0"), what=path)
            return None
        return number

    def rationals(self, path: str, value, *, limit: int) -> tuple[Fraction, ...] | None:
        items = self.list(path, value, limit=limit)
        if items is None:
            return None
        numbers = [self.rational(f"{path}[{i}]", item) for i, item in enumerate(items)]
        exact = tuple(n for n in numbers if n is not None)
        return exact if len(exact) == len(numbers) else None

    def number(self, path: str, value, low: float, high: float) -> float | None:
        if not isinstance(value, (int, float)) or isinstance(value, bool):
            self.add(path, _("{what} must be a number"), what=path)
            return None
        if not low <= value <= high:
            self.add(path, _("{what} must be from {low} to {high}"), what=path, low=low, high=high)
            return None
        return float(value)

    def date(self, path: str, value) -> datetime.date | None:
        if isinstance(value, str) and _DATE.fullmatch(value):
            try:
                return datetime.date.fromisoformat(value)
            except ValueError:
                pass
        self.add(path, _("{what} must be a date written YYYY-MM-DD"), what=path)
        return None

    def required(self, data: Mapping, path: str, key: str) -> bool:
        if key not in data:
            self.add(_join(path, key), _("{what} is required"), what=_join(path, key))
            return False
        return True

    def check_format(self, data: Mapping, expected: str) -> None:
        if "format" in data and data["format"] != expected:
            self.add("format", _("the format must be {expected}"), expected=expected)


def read_series(data) -> tuple[str, SeriesRule, tuple[Event, ...], datetime.date | None]:
    """Return the seed, rule, events and ``as_of`` date of a series example file.

    Raise FederationError naming every refused field.
    """
    reader = _FederationReader()
    if reader.object("", data, _SERIES_KEYS) is None:
        reader.problems.raise_if_any(FederationError)
    reader.check_format(data, SERIES_FORMAT)
    seed = reader.text("seed", data.get("seed"))
    rule = _read_rule(reader, data.get("rule")) if reader.required(data, "", "rule") else None
    as_of = reader.date("as_of", data["as_of"]) if data.get("as_of") is not None else None
    # A ranking is read by the rule's source even when another part of the rule is refused.
    source = data["rule"].get("source") if isinstance(data.get("rule"), Mapping) else None
    events: tuple[Event, ...] = ()
    if reader.required(data, "", "events"):
        events = _read_events(reader, data["events"], source if source in SOURCES else None)
    reader.problems.raise_if_any(FederationError)
    return seed, rule, events, as_of  # type: ignore[return-value]  # no problem: none is None


def _read_rule(reader: _FederationReader, value) -> SeriesRule | None:
    data = reader.object("rule", value, _RULE_KEYS)
    if data is None:
        return None
    before = len(reader.problems.items)
    source = data.get("source")
    if "source" not in data:
        reader.required(data, "rule", "source")
    elif source not in SOURCES:
        reader.add(
            "rule.source",
            _("unknown source {source}; choose one of {choices}"),
            source=_short(source),
            choices=", ".join(SOURCES),
        )
    scale = None
    if source == PLACEMENT:
        if reader.required(data, "rule", "scale"):
            scale = _read_scale(reader, data["scale"])
    elif "scale" in data and source == POINTS:
        reader.add("rule.scale", _("a scale is only used by a rule by placement"))
    counts = {}
    for key in ("best_of", "strike_worst", "qualify"):
        if data.get(key) is not None:
            low = 0 if key == "qualify" else 1
            counts[key] = reader.whole(f"rule.{key}", data[key], low, MAX_COUNT)
    if counts.get("best_of") is not None and counts.get("strike_worst") is not None:
        reader.add("rule.strike_worst", _("a rule sets best_of or strike_worst, never both"))
    if len(reader.problems.items) > before:
        return None
    return SeriesRule(str(source), scale, **counts)


def _read_scale(reader: _FederationReader, value) -> Scale | None:
    data = reader.object("rule.scale", value)
    if data is None:
        return None
    kind = data.get("kind")
    if kind not in SCALES:
        reader.add(
            "rule.scale.kind",
            _("unknown scale {kind}; choose one of {choices}"),
            kind=_short(kind),
            choices=", ".join(SCALES),
        )
        return None
    reader.object("rule.scale", data, _SCALE_KEYS[kind])
    before = len(reader.problems.items)
    if kind == TABLE:
        points = beyond = None
        if reader.required(data, "rule.scale", "points"):
            points = reader.rationals("rule.scale.points", data["points"], limit=MAX_SCALE)
        beyond = reader.rational("rule.scale.beyond", data.get("beyond", 0))
        if len(reader.problems.items) == before and points is not None and beyond is not None:
            return Scale(TABLE, points=points, beyond=beyond)
    elif kind == FIELD:
        base = gaps = None
        if reader.required(data, "rule.scale", "base"):
            base = reader.rational("rule.scale.base", data["base"])
        if reader.required(data, "rule.scale", "gaps"):
            gaps = reader.rationals("rule.scale.gaps", data["gaps"], limit=MAX_SCALE)
        if len(reader.problems.items) == before and base is not None and gaps is not None:
            return Scale(FIELD, base=base, gaps=gaps)
    elif len(reader.problems.items) == before:
        return Scale(LINEAR)
    return None


def _read_events(reader: _FederationReader, value, source: str | None) -> tuple[Event, ...]:
    items = reader.list("events", value, limit=MAX_EVENTS)
    if items is None:
        return ()
    events, seen = [], set()
    for i, item in enumerate(items):
        where = f"events[{i}]"
        data = reader.object(where, item, _EVENT_KEYS)
        if data is None:
            continue
        event_id = reader.text(f"{where}.id", data.get("id"), limit=MAX_ID_LENGTH)
        if event_id is not None and event_id in seen:
            reader.add(f"{where}.id", _("the id {id} is used twice"), id=event_id)
            event_id = None
        seen.add(event_id)
        date = reader.date(f"{where}.date", data.get("date"))
        factor = reader.rational(f"{where}.factor", data.get("factor", 1), positive=True)
        ranking = None
        if reader.required(data, where, "ranking"):
            ranking = _read_ranking(reader, f"{where}.ranking", data["ranking"], source)
        if event_id is not None and date and factor is not None and ranking is not None:
            events.append(Event(event_id, date, ranking, factor))
    return tuple(events)


def _read_ranking(
    reader: _FederationReader, path: str, value, source: str | None
) -> tuple[Placing, ...] | None:
    items = reader.list(path, value, limit=MAX_RANKED)
    if items is None:
        return None
    if not items:
        reader.add(path, _("a final ranking lists at least one player"))
        return None
    placings, players, ok = [], set(), True
    ranks: dict[int | None, int] = {}
    for j, item in enumerate(items):
        where = f"{path}[{j}]"
        data = reader.object(where, item, _PLACING_KEYS)
        if data is None:
            ok = False
            continue
        rank = reader.whole(f"{where}.rank", data.get("rank"), 1, MAX_RANKED)
        if rank is not None and rank in ranks:
            reader.add(f"{where}.rank", _("rank {rank} is given twice"), rank=rank)
            rank = None
        ranks.setdefault(rank, j)
        player = reader.player(f"{where}.player", data.get("player"))
        if player is not None and player in players:
            reader.add(f"{where}.player", _("{player} is ranked twice"), player=player)
            player = None
        players.add(player)
        points = None
        if source == POINTS:
            if "points" not in data:
                reader.add(f"{where}.points", _("a rule by points needs each player's points"))
                ok = False
            else:
                points = reader.rational(f"{where}.points", data["points"])
                ok = ok and points is not None
        elif "points" in data and data["points"] is not None:
            points = reader.rational(f"{where}.points", data["points"])
            ok = ok and points is not None
        if rank is None or player is None:
            ok = False
            continue
        placings.append(Placing(rank, player, points))
    if ok:
        # Positions 1 … N, none shared: N distinct ranks all within 1 … N.
        missing = [r for r in range(1, len(items) + 1) if r not in ranks]
        for rank in missing:
            reader.add(path, _("the ranking has no rank {rank}"), rank=rank)
        ok = not missing
    return tuple(placings) if ok else None


def run_series_file(data) -> dict:
    """Compute a series example file's standings: what ``series_run`` prints (section 4)."""
    seed, rule, events, as_of = read_series(data)
    rows = series_standings(seed, rule, events, as_of)
    return {"standings": [row.as_dict() for row in rows]}


def read_rating(data) -> tuple[RatingParams, dict[str, Standing], tuple[RatedTable, ...]]:
    """Return the parameters, start and tables of a rating example file.

    Raise FederationError naming every refused field.
    """
    reader = _FederationReader()
    if reader.object("", data, _RATING_KEYS) is None:
        reader.problems.raise_if_any(FederationError)
    reader.check_format(data, RATING_FORMAT)
    params = _read_params(reader, data.get("params", {}))
    start = _read_start(reader, data.get("start", {}))
    tables: tuple[RatedTable, ...] = ()
    if reader.required(data, "", "tables"):
        tables = _read_tables(reader, data["tables"])
    reader.problems.raise_if_any(FederationError)
    return params, start, tables  # type: ignore[return-value]  # no problem: none is None


def _read_params(reader: _FederationReader, value) -> RatingParams | None:
    data = reader.object("params", value, _PARAMS_KEYS)
    if data is None:
        return None
    default = RatingParams()
    got = {
        "initial": reader.number(
            "params.initial", data.get("initial", default.initial), -MAX_NUMBER, MAX_NUMBER
        ),
        "scale": reader.number("params.scale", data.get("scale", default.scale), 0, MAX_NUMBER),
        "k_new": reader.number("params.k_new", data.get("k_new", default.k_new), 0, MAX_K),
        "k": reader.number("params.k", data.get("k", default.k), 0, MAX_K),
        "new_tables": reader.whole(
            "params.new_tables", data.get("new_tables", default.new_tables), 0, MAX_COUNT
        ),
    }
    if got["scale"] == 0:
        reader.add("params.scale", _("{what} must be more than 0"), what="params.scale")
        got["scale"] = None
    initial, scale, k_new, k, new_tables = got.values()
    if initial is None or scale is None or k_new is None or k is None or new_tables is None:
        return None
    return RatingParams(float(initial), float(scale), float(k_new), float(k), int(new_tables))


def _read_start(reader: _FederationReader, value) -> dict[str, Standing] | None:
    data = reader.object("start", value)
    if data is None:
        return None
    start, ok = {}, True
    for key, item in data.items():
        where = _join("start", _short(key))
        player = reader.player(where, key)
        line = reader.object(where, item, _START_KEYS)
        if player is None or line is None:
            ok = False
            continue
        rating = tables = None
        if reader.required(line, where, "rating"):
            rating = reader.number(f"{where}.rating", line["rating"], -MAX_NUMBER, MAX_NUMBER)
        tables = reader.whole(f"{where}.tables", line.get("tables", 0), 0, MAX_COUNT)
        if rating is None or tables is None:
            ok = False
            continue
        start[player] = Standing(rating, tables)
    return start if ok else None


def _read_tables(reader: _FederationReader, value) -> tuple[RatedTable, ...]:
    items = reader.list("tables", value, limit=MAX_TABLES)
    if items is None:
        return ()
    tables, seen = [], set()
    for i, item in enumerate(items):
        where = f"tables[{i}]"
        data = reader.object(where, item, _TABLE_KEYS)
        if data is None:
            continue
        table_id = reader.text(f"{where}.id", data.get("id"), limit=MAX_ID_LENGTH)
        if table_id is not None and table_id in seen:
            reader.add(f"{where}.id", _("the id {id} is used twice"), id=table_id)
            table_id = None
        seen.add(table_id)
        scores = None
        if reader.required(data, where, "scores"):
            scores = _read_scores(reader, f"{where}.scores", data["scores"])
        if table_id is not None and scores is not None:
            tables.append(RatedTable(table_id, MappingProxyType(scores)))
    return tuple(tables)


def _read_scores(reader: _FederationReader, path: str, value) -> dict[str, Fraction] | None:
    data = reader.object(path, value)
    if data is None:
        return None
    if len(data) > MAX_SEATS:
        reader.add(path, _("{what} has more than {limit} items"), what=path, limit=MAX_SEATS)
        return None
    scores, ok = {}, True
    for key, score in data.items():
        where = _join(path, _short(key))
        player = reader.player(where, key)
        number = reader.rational(where, score)
        if number is not None and abs(number) > MAX_NUMBER:
            reader.add(
                where,
                _("{what} must be from {low} to {high}"),
                what=where,
                low=-MAX_NUMBER,
                high=MAX_NUMBER,
            )
            number = None
        if player is None or number is None:
            ok = False
            continue
        scores[player] = number
    if ok and len(scores) < 2:
        reader.add(path, _("a rated table has at least 2 players"))
        ok = False
    return scores if ok else None


def run_rating_file(data) -> dict:
    """Rate a rating example file's tables: what ``rating_run`` prints (section 4)."""
    params, start, tables = read_rating(data)
    return rate_tables(tables, params, start).as_dict()


def read_rule(value) -> SeriesRule:
    """Return a series' rule read from its JSON (``source``, ``scale``, ``best_of`` or
    ``strike_worst``, ``qualify``), as a series file's ``rule``; FederationError naming every
    refused field (``rule.strike_worst``)."""
    reader = _FederationReader()
    rule = _read_rule(reader, value)
    reader.problems.raise_if_any(FederationError)
    return rule  # type: ignore[return-value]  # no problem: not None


def read_factor(value, path: str = "factor") -> Fraction:
    """Return an event's factor, a positive exact rational (``3/2``, ``2``); FederationError
    naming ``path`` otherwise."""
    reader = _FederationReader()
    factor = reader.rational(path, value, positive=True)
    reader.problems.raise_if_any(FederationError)
    return factor  # type: ignore[return-value]  # no problem: not None
