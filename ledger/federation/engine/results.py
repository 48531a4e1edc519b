"""Results files (``federation.md`` section 5): ``tarokclub.results/1`` read as untrusted input
and recomputed by the tournament engine.

``read_results`` checks a parsed document against the JSON Schema the project ships
(``docs/schemas/tarokclub.results-1.schema.json``), then what a schema cannot say: every
seated player and bye is a player of the file, once per round; rounds are numbered 1, 2, …;
the ranking lists every player once, in rank order. ``recompute`` plays the file's rounds
through the tournament engine (its tables as drawn, its table scores, who left) and refuses a
file whose places, points, firsts, byes' points or ranking rows disagree, naming the first
row that does. Every refusal is a Problem naming its field path (``rounds[1].tables[0]
.seats[2].points``), all of a file's schema problems at once.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Mapping
from pathlib import Path

from jsonschema import Draft202012Validator

from ledger.games.errors import Problems, _
from ledger.tournaments import engine as tournament_engine
from ledger.tournaments.engine.errors import TournamentError

from .errors import FederationError

RESULTS_FORMAT = "tarokclub.results/1"
SCHEMA_PATH = (
    Path(__file__).resolve().parents[3] / "docs" / "schemas" / "tarokclub.results-1.schema.json"
)
MAX_SCHEMA_PROBLEMS = 20  # a hostile file could have thousands; the first ones name the fault


@functools.cache
def schema() -> dict:
    """Return the results file's JSON Schema (read once)."""
    return json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))


@functools.cache
def _validator() -> Draft202012Validator:
    return Draft202012Validator(schema(), format_checker=Draft202012Validator.FORMAT_CHECKER)


def _path(parts) -> str:
    text = ""
    for part in parts:
        text += f"[{part}]" if isinstance(part, int) else (f".{part}" if text else str(part))
    return text or "file"


# What a schema keyword's failure means, in words a translator can render.
_SCHEMA_TEMPLATES = {
    "required": _("is missing"),
    "additionalProperties": _("is not a field of a results file"),
    "type": _("has the wrong type (expected {expected})"),
    "const": _("must be {expected}"),
    "pattern": _("is not in the expected form"),
    "format": _("is not a valid {expected}"),
    "minLength": _("is too short"),
    "maxLength": _("is too long (at most {expected} characters)"),
    "minimum": _("is too small (at least {expected})"),
    "maximum": _("is too large (at most {expected})"),
    "minItems": _("has too few items (at least {expected})"),
    "maxItems": _("has too many items (at most {expected})"),
    "maxProperties": _("has too many fields (at most {expected})"),
}


def _schema_problems(data) -> Problems:
    found: list[tuple] = []
    for error in _validator().iter_errors(data):
        parts = list(error.absolute_path)
        expected = error.validator_value
        if error.validator == "required":
            present = error.instance if isinstance(error.instance, Mapping) else {}
            template = _SCHEMA_TEMPLATES["required"]
            found.extend((_path([*parts, k]), template, "") for k in expected if k not in present)
            continue
        if error.validator == "additionalProperties" and isinstance(error.instance, Mapping):
            known = set(error.schema.get("properties", {}))
            extra = sorted(str(k) for k in error.instance if k not in known)
            parts.append(extra[0][:40] if extra else "?")
        template = _SCHEMA_TEMPLATES.get(str(error.validator), _("does not match the schema"))
        if isinstance(expected, (list, tuple)):
            expected = " or ".join(str(v) for v in expected)
        found.append((_path(parts), template, str(expected)[:60]))
    problems = Problems()
    for field, template, expected in sorted(set(found))[:MAX_SCHEMA_PROBLEMS]:
        problems.add(field, template, expected=expected)
    return problems


def read_results(data) -> dict:
    """Return ``data`` when it is a valid results file: the schema, then the references a
    schema cannot check. Raise FederationError naming every field that is not."""
    problems = _schema_problems(data)
    problems.raise_if_any(FederationError)
    ids = [p["id"] for p in data["players"]]
    known = set(ids)
    for i, code in enumerate(ids):
        if ids.index(code) != i:
            problems.add(f"players[{i}].id", _("player {id} is listed twice"), id=code)
    if data["tournament_format"] not in tournament_engine.FORMATS:
        problems.add(
            "tournament_format",
            _("{value} is not a tournament format"),
            value=data["tournament_format"],
        )
    for r, round_ in enumerate(data["rounds"]):
        where = f"rounds[{r}]"
        if round_["number"] != r + 1:
            problems.add(f"{where}.number", _("the rounds are numbered 1, 2, … in order"))
        seen: set[str] = set()
        places = [
            (f"{where}.tables[{t}].seats[{s}].player", seat["player"])
            for t, table in enumerate(round_["tables"])
            for s, seat in enumerate(table["seats"])
        ] + [(f"{where}.byes[{b}].player", bye["player"]) for b, bye in enumerate(round_["byes"])]
        for field, code in places:
            if code not in known:
                problems.add(field, _("{id} is not a player of the file"), id=code)
            elif code in seen:
                problems.add(field, _("{id} plays twice in one round"), id=code)
            seen.add(code)
    ranked = [row["id"] for row in data["ranking"]]
    for i, row in enumerate(data["ranking"]):
        if row["id"] not in known:
            problems.add(f"ranking[{i}].id", _("{id} is not a player of the file"), id=row["id"])
        elif ranked.index(row["id"]) != i:
            problems.add(f"ranking[{i}].id", _("player {id} is listed twice"), id=row["id"])
    for code in sorted(known - set(ranked)):
        problems.add("ranking", _("player {id} is missing from the ranking"), id=code)
    problems.raise_if_any(FederationError)
    return data


def _entries(data) -> tuple[tournament_engine.Entry, ...]:
    return tuple(
        tournament_engine.Entry(
            id=p["id"],
            name=p["name"],
            club=p["club"] or None,
            ladder_rank=p.get("ladder_rank"),
            from_round=p.get("from_round", 1),
            withdrawn_after=p.get("withdrawn_after"),
        )
        for p in data["players"]
    )


def _played(data, r: int, round_) -> tournament_engine.PlayedRound:
    tables = sorted(round_["tables"], key=lambda t: t["number"])
    seats = tuple(tuple(s["player"] for s in t["seats"]) for t in tables)
    byes = tuple(b["player"] for b in round_["byes"])
    scores = {s["player"]: s["score"] for t in tables for s in t["seats"]}
    leavers = {s["player"] for t in tables for s in t["seats"] if s.get("left")}
    try:
        points = tournament_engine.round_points(
            data["tournament_format"], data["game"], seats, scores, byes=byes, leavers=leavers
        )
    except TournamentError as error:
        raise FederationError(
            [type(p)(f"rounds[{r}].{p.field}", p.template, p.params) for p in error.problems]
        ) from error
    draw = tournament_engine.Draw(
        number=round_["number"],
        kind=round_["kind"],
        mode=tournament_engine.MANUAL,
        tables=seats,
        byes=byes,
    )
    return tournament_engine.PlayedRound(draw, points)


def _first_round_difference(r: int, round_, played) -> Problems:
    problems = Problems()
    computed = {s.player: s for s in played.result.seats}
    for t, table in enumerate(round_["tables"]):
        for s, seat in enumerate(table["seats"]):
            mine = computed[seat["player"]]
            for key, value in (
                ("place", mine.place),
                ("points", str(mine.points)),
                ("first", mine.first),
            ):
                if seat[key] != value:
                    problems.add(
                        f"rounds[{r}].tables[{t}].seats[{s}].{key}",
                        _("is {stored} in the file, but the rounds give {computed}"),
                        stored=json.dumps(seat[key]),
                        computed=json.dumps(value),
                    )
                    return problems
    for b, bye in enumerate(round_["byes"]):
        if bye["points"] != str(played.result.bye_points):
            problems.add(
                f"rounds[{r}].byes[{b}].points",
                _("is {stored} in the file, but the rounds give {computed}"),
                stored=json.dumps(bye["points"]),
                computed=json.dumps(str(played.result.bye_points)),
            )
            return problems
    return problems


def recompute(data) -> tuple[list[tournament_engine.PlayedRound], tuple]:
    """Return the file's rounds as the engine plays them and its ranking, after checking
    that the file says the same: raise FederationError naming the first row that does not."""
    read_results(data)
    played = []
    for r, round_ in enumerate(data["rounds"]):
        result = _played(data, r, round_)
        _first_round_difference(r, round_, result).raise_if_any(FederationError)
        played.append(result)
    try:
        ranking = tournament_engine.final_ranking(
            format_code=data["tournament_format"],
            seed=data["seed"],
            entries=_entries(data),
            rounds=played,
        )
    except TournamentError as error:
        raise FederationError(error.problems) from error
    for i, (stored, row) in enumerate(zip(data["ranking"], ranking, strict=True)):
        computed = row.as_dict()
        for key, value in computed.items():
            if stored.get(key) != value:
                problems = Problems()
                problems.add(
                    f"ranking[{i}].{key}",
                    _("is {stored} in the file, but the rounds give {computed}"),
                    stored=json.dumps(stored.get(key)),
                    computed=json.dumps(value),
                )
                problems.raise_if_any(FederationError)
    return played, ranking
