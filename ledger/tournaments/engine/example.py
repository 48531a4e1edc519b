"""Reading the example files of spec section 14, checking every field, and printing the results.

Two kinds of file share the format ``tarokclub.tournament-example/1``: a **tournament** (game,
format, seed, params, entries, rounds) that ``tournament_run`` plays, and a **checker** file
(``checks`` and ``plans``) that ``tournament_check`` answers. Every refusal is a Problem naming
its field path (``entries[3].id``, ``rounds[1].results.P07``, ``checks[0].proposed.tables[2]``)
and all problems of a file are reported at once; a file's ``expected``, ``notes`` and
``description`` are read past, as are a check's ``expected_violations`` and a plan's ``sizes``
and ``byes`` (they are what the commands compute).

Bounds (a club's tournament needs none larger; they keep a hostile file from making the
engine run for hours): at most 500 entries, ids and names of at most 100 characters, table
scores of at most 10^9 either way, 200 checks and 1000 plans, plans for at most 10 000 players.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Mapping
from fractions import Fraction
from types import MappingProxyType

from ledger.games.errors import Problems, _

from .checker import check_draw
from .errors import TournamentError
from .model import Entry, PastRound
from .plan import table_plan
from .rules import FORMATS, KINDS, MAX_ROUNDS, TABLE_SIZES, default_params, read_params
from .tournament import Correction, ManualDraw, RoundInput, Tournament, run_tournament

FILE_FORMAT = "tarokclub.tournament-example/1"
MAX_ENTRIES = 500
MAX_ID_LENGTH = 100
MAX_TEXT_LENGTH = 500
MAX_SCORE = 10**9
MAX_LADDER_RANK = 10**6
MAX_CHECKS = 200
MAX_PLANS = 1000
MAX_PLAN_PLAYERS = 10_000
MAX_SEATS = 20

_IGNORED = {"description", "notes", "name"}
_TOURNAMENT_KEYS = _IGNORED | {
    "format",
    "expected",
    "game",
    "tournament_format",
    "seed",
    "params",
    "entries",
    "rounds",
}
_CHECKER_KEYS = _IGNORED | {"format", "seed", "checks", "plans"}
_ENTRY_KEYS = {"id", "name", "club", "ladder_rank", "from_round"}
_ROUND_KEYS = {"number", "results", "withdraw_before", "corrections_after_draw", "draw"}
_CORRECTION_KEYS = {"round", "scores", "reason"}
_DRAW_KEYS = {"tables", "byes"}
_CHECK_KEYS = _IGNORED | {
    "seed",
    "game",
    "tournament_format",
    "round",
    "kind",
    "params",
    "entries",
    "active",
    "history",
    "byes_so_far",
    "proposed",
    "expected_violations",
}
_HISTORY_KEYS = {"round", "tables", "byes"}
_PLAN_KEYS = _IGNORED | {"game", "players", "sizes", "byes"}


def _whole(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


class _Reader:
    """Field-by-field checks that add a problem and return None for a refused value."""

    def __init__(self):
        self.problems = Problems()

    def add(self, path: str, template: str, **params) -> None:
        self.problems.add(path, template, **params)

    def object(self, path: str, value, allowed=None) -> Mapping | None:
        if not isinstance(value, Mapping):
            if not path:
                self.add("file", _("the file must hold a JSON object"))
            else:
                self.add(path, _("{what} must be an object"), what=path)
            return None
        for key in value:
            if allowed is not None and key not in allowed:
                self.add(_join(path, _short(key)), _("unknown key {key}"), key=_short(key))
        return value

    def list(self, path: str, value, *, limit: int) -> list | None:
        if not isinstance(value, list):
            self.add(path, _("{what} must be a list"), what=path)
            return None
        if len(value) > limit:
            self.add(path, _("{what} has more than {limit} items"), what=path, limit=limit)
            return None
        return value

    def whole(self, path: str, value, low: int, high: int) -> int | None:
        if not _whole(value):
            self.add(path, _("{what} must be a whole number"), what=path)
            return None
        if not low <= value <= high:
            self.add(path, _("{what} must be from {low} to {high}"), what=path, low=low, high=high)
            return None
        return value

    def text(self, path: str, value, *, limit: int = MAX_TEXT_LENGTH, blank=False) -> str | None:
        if not isinstance(value, str) or (not blank and not value.strip()):
            self.add(path, _("{what} must be a non-empty text"), what=path)
            return None
        if len(value) > limit:
            self.add(path, _("{what} has more than {limit} characters"), what=path, limit=limit)
            return None
        if any(unicodedata.category(c) == "Cc" for c in value):
            self.add(path, _("{what} holds a control character"), what=path)
            return None
        return value

    def player(self, path: str, value) -> str | None:
        if not isinstance(value, str) or not value.strip():
            self.add(path, _("a player id must be a non-empty text"))
            return None
        return self.text(path, value, limit=MAX_ID_LENGTH)

    def players(self, path: str, value, *, limit: int = MAX_ENTRIES) -> tuple[str, ...] | None:
        items = self.list(path, value, limit=limit)
        if items is None:
            return None
        ids = [self.player(f"{path}[{i}]", item) for i, item in enumerate(items)]
        found = [i for i in ids if i is not None]
        return tuple(found) if len(found) == len(ids) else None

    def optional_text(self, path: str, value) -> tuple[bool, str | None]:
        """Return (accepted, text) for a name or club; None or blank text means none."""
        if value is None or (isinstance(value, str) and not value.strip()):
            return True, None
        text = self.text(path, value, limit=MAX_ID_LENGTH)
        return text is not None, text

    def game(self, path: str, value) -> str | None:
        if not isinstance(value, str) or value not in TABLE_SIZES:
            self.add(
                path,
                _("unknown game {game}; choose one of {choices}"),
                game=_short(value),
                choices=", ".join(TABLE_SIZES),
            )
            return None
        return value

    def tournament_format(self, path: str, value, game: str | None) -> str | None:
        if not isinstance(value, str) or value not in FORMATS:
            self.add(
                path,
                _("unknown tournament format {format}; choose one of {choices}"),
                format=_short(value),
                choices=", ".join(FORMATS),
            )
            return None
        if game is not None and not FORMATS[value].plays(game):
            self.add(
                path, _("the format {format} is not played at {game}"), format=value, game=game
            )
            return None
        return value

    def scores(self, path: str, value) -> dict[str, int] | None:
        data = self.object(path, value)
        if data is None:
            return None
        scores, ok = {}, True
        for key, score in data.items():
            where = _join(path, _short(key))
            if self.player(where, key) is None:
                ok = False
            elif self.whole(where, score, -MAX_SCORE, MAX_SCORE) is None:
                ok = False
            else:
                scores[key] = score
        return scores if ok else None

    def entries(self, path: str, value, *, last_round: int) -> tuple[Entry, ...] | None:
        items = self.list(path, value, limit=MAX_ENTRIES)
        if items is None:
            return None
        if not items:
            self.add(path, _("a tournament needs at least one entry"))
            return None
        entries, seen, ok = [], set(), True
        for i, item in enumerate(items):
            where = f"{path}[{i}]"
            data = self.object(where, item, _ENTRY_KEYS)
            if data is None:
                ok = False
                continue
            player = self.player(f"{where}.id", data.get("id"))
            if player is not None and player in seen:
                self.add(f"{where}.id", _("{player} is entered twice"), player=player)
                player = None
            seen.add(player)
            rank = data.get("ladder_rank")
            if rank is not None:
                rank = self.whole(f"{where}.ladder_rank", rank, 1, MAX_LADDER_RANK)
                ok = ok and rank is not None
            from_round = data.get("from_round", 1)
            from_round = self.whole(f"{where}.from_round", from_round, 1, last_round)
            name_ok, name = self.optional_text(f"{where}.name", data.get("name"))
            club_ok, club = self.optional_text(f"{where}.club", data.get("club"))
            if player is None or from_round is None or not (name_ok and club_ok):
                ok = False
                continue
            entries.append(Entry(player, name, club, rank, from_round))
        return tuple(entries) if ok else None

    def tables(self, path: str, value) -> tuple[tuple[str, ...], ...] | None:
        items = self.list(path, value, limit=MAX_ENTRIES)
        if items is None:
            return None
        tables = [self.players(f"{path}[{i}]", t, limit=MAX_SEATS) for i, t in enumerate(items)]
        found = [t for t in tables if t is not None]
        return tuple(found) if len(found) == len(tables) else None


def _short(value, limit: int = 40) -> str:
    text = value if isinstance(value, str) else repr(value)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _join(path: str, key: str) -> str:
    return f"{path}.{key}" if path else key


def _check_format(reader: _Reader, data: Mapping) -> None:
    if "format" in data and data["format"] != FILE_FORMAT:
        reader.add("format", _("the format must be {expected}"), expected=FILE_FORMAT)


def read_tournament(data) -> tuple[Tournament, tuple[RoundInput, ...]]:
    """Return the tournament and its rounds from a tournament example file.

    Raise TournamentError naming every refused field.
    """
    reader = _Reader()
    if reader.object("", data, _TOURNAMENT_KEYS) is None:
        reader.problems.raise_if_any(TournamentError)
    if "rounds" not in data:
        reader.add("rounds", _("a tournament file lists its rounds"))
    _check_format(reader, data)
    game = reader.game("game", data.get("game"))
    format_code = reader.tournament_format("tournament_format", data.get("tournament_format"), game)
    seed = reader.text("seed", data.get("seed"), limit=MAX_TEXT_LENGTH)
    params = None
    if format_code is not None:
        params = read_params(reader.problems, "params", format_code, data.get("params"))
    last = (
        FORMATS[format_code].last_round(params.rounds)
        if params and format_code is not None
        else MAX_ROUNDS + 1
    )
    entries = reader.entries("entries", data.get("entries"), last_round=last)
    rounds = _read_rounds(reader, data.get("rounds", []), last)
    reader.problems.raise_if_any(TournamentError)
    if game is None or format_code is None or seed is None or params is None or entries is None:
        raise TournamentError(reader.problems.items)  # not reached: each None is a problem
    tournament = Tournament(game, format_code, seed, params, entries)
    return tournament, rounds


def _read_rounds(reader: _Reader, value, last: int) -> tuple[RoundInput, ...]:
    items = reader.list("rounds", value, limit=MAX_ROUNDS + 1)
    if items is None:
        return ()
    rounds = []
    for i, item in enumerate(items):
        where = f"rounds[{i}]"
        data = reader.object(where, item, _ROUND_KEYS)
        if data is None:
            continue
        number = reader.whole(f"{where}.number", data.get("number"), 1, MAX_ROUNDS + 1)
        if number is not None and number != i + 1:
            reader.add(
                f"{where}.number",
                _("the rounds are numbered 1, 2, … in order: this one is round {expected}"),
                expected=i + 1,
            )
        elif number is not None and number > last:
            reader.add(
                f"{where}.number",
                _("the tournament has {last} rounds, not {number}"),
                last=last,
                number=number,
            )
        if "results" not in data:
            reader.add(f"{where}.results", _("a round lists its table scores in results"))
        results = reader.scores(f"{where}.results", data.get("results", {}))
        withdraw = reader.players(f"{where}.withdraw_before", data.get("withdraw_before", []))
        corrections = _read_corrections(
            reader, f"{where}.corrections_after_draw", data.get("corrections_after_draw", [])
        )
        draw = None
        if data.get("draw") is not None:
            draw = _read_draw(reader, f"{where}.draw", data["draw"])
        if number is None or results is None or withdraw is None or corrections is None:
            continue
        rounds.append(
            RoundInput(
                number=number,
                results=MappingProxyType(results),
                withdraw_before=withdraw,
                corrections_after_draw=corrections,
                draw=draw,
            )
        )
    return tuple(rounds)


def _read_corrections(reader: _Reader, path: str, value) -> tuple[Correction, ...] | None:
    items = reader.list(path, value, limit=MAX_ENTRIES)
    if items is None:
        return None
    corrections, ok = [], True
    for j, item in enumerate(items):
        where = f"{path}[{j}]"
        data = reader.object(where, item, _CORRECTION_KEYS)
        if data is None:
            ok = False
            continue
        number = reader.whole(f"{where}.round", data.get("round"), 1, MAX_ROUNDS + 1)
        scores = reader.scores(f"{where}.scores", data.get("scores"))
        if scores == {}:
            reader.add(f"{where}.scores", _("a correction replaces at least one score"))
            scores = None
        reason = reader.text(f"{where}.reason", data.get("reason"))
        if number is None or scores is None or reason is None:
            ok = False
            continue
        corrections.append(Correction(number, MappingProxyType(scores), reason))
    return tuple(corrections) if ok else None


def _read_draw(reader: _Reader, path: str, value) -> ManualDraw | None:
    data = reader.object(path, value, _DRAW_KEYS)
    if data is None:
        return None
    if "tables" not in data:
        reader.add(f"{path}.tables", _("a draw lists its tables"))
        return None
    tables = reader.tables(f"{path}.tables", data["tables"])
    byes = reader.players(f"{path}.byes", data.get("byes", []))
    if tables is None or byes is None:
        return None
    return ManualDraw(tables, byes)


def _points_text(value: Fraction) -> str:
    return str(value)


def run_file(data) -> dict:
    """Play a tournament example file and return what ``tournament_run`` prints (section 14).

    Points are exact rationals in lowest terms; ``points`` and ``places`` list players by id.
    A ``hu_kupa`` final shows its points as any round of the format would (the table score,
    a bye 0), but they do not add to the standings: the final ranks by ``final_score``.
    """
    tournament, rounds = read_tournament(data)
    run = run_tournament(tournament, rounds)
    return {
        "rounds": [
            {
                "number": played.number,
                "tables": [list(t) for t in played.draw.tables],
                "byes": list(played.draw.byes),
                "points": {p: _points_text(v) for p, v in sorted(played.result.points.items())},
                "places": dict(sorted(played.result.places.items())),
            }
            for played in run.rounds
        ],
        "ranking": [row.as_dict() for row in run.ranking],
    }


def check_file(data) -> dict:
    """Answer a checker example file: what ``tournament_check`` prints (section 14)."""
    reader = _Reader()
    if reader.object("", data, _CHECKER_KEYS) is None:
        reader.problems.raise_if_any(TournamentError)
    _check_format(reader, data)
    if "checks" not in data and "plans" not in data:
        reader.add("checks", _("a checker file lists checks, plans or both"))
    seed = None
    if "seed" in data:
        seed = reader.text("seed", data["seed"])
    checks = _read_checks(reader, data.get("checks", []), seed)
    plans = _read_plans(reader, data.get("plans", []))
    reader.problems.raise_if_any(TournamentError)
    return {
        "checks": [[v.as_dict() for v in check_draw(**check)] for check in checks],
        "plans": [table_plan(players, game).as_dict() for game, players in plans],
    }


def _read_checks(reader: _Reader, value, seed: str | None) -> list[dict]:
    items = reader.list("checks", value, limit=MAX_CHECKS)
    if items is None:
        return []
    checks = []
    for i, item in enumerate(items):
        where = f"checks[{i}]"
        data = reader.object(where, item, _CHECK_KEYS)
        if data is None:
            continue
        check = _read_check(reader, where, data, seed)
        if check is not None:
            checks.append(check)
    return checks


def _read_check(reader: _Reader, where: str, data: Mapping, seed: str | None) -> dict | None:
    before = len(reader.problems.items)
    own_seed = reader.text(f"{where}.seed", data["seed"]) if "seed" in data else seed
    if own_seed is None and "seed" not in data:
        reader.add("seed", _("a check needs the seed (of the file or of the check)"))
    game = reader.game(f"{where}.game", data.get("game"))
    format_code = reader.tournament_format(
        f"{where}.tournament_format", data.get("tournament_format"), game
    )
    params = None
    if format_code is not None:
        params = read_params(reader.problems, f"{where}.params", format_code, data.get("params"))
    last = (
        FORMATS[format_code].last_round(params.rounds)
        if params and format_code is not None
        else MAX_ROUNDS + 1
    )
    number = reader.whole(f"{where}.round", data.get("round"), 1, MAX_ROUNDS + 1)
    kind = data.get("kind")
    if kind is None:
        if format_code is not None and number is not None:
            rounds = (params or default_params(format_code)).rounds
            kind = FORMATS[format_code].kind_of(number, rounds)
    elif not isinstance(kind, str) or kind not in KINDS:
        reader.add(
            f"{where}.kind",
            _("unknown kind of round {kind}; choose one of {choices}"),
            kind=_short(kind),
            choices=", ".join(KINDS),
        )
    entries = reader.entries(f"{where}.entries", data.get("entries"), last_round=last)
    known = {e.id for e in entries or ()}
    active = None
    if data.get("active") is not None:
        active = reader.players(f"{where}.active", data["active"])
        listed = active or ()
        for j, p in enumerate(listed):
            if entries is not None and p not in known:
                reader.add(f"{where}.active[{j}]", _("{player} has no entry"), player=p)
            elif p in listed[:j]:
                reader.add(f"{where}.active[{j}]", _("{player} is active twice"), player=p)
    history = _read_history(reader, f"{where}.history", data.get("history", []), number)
    byes_so_far = None
    if data.get("byes_so_far") is not None:
        byes_so_far = _read_bye_counts(reader, f"{where}.byes_so_far", data["byes_so_far"])
    proposed = reader.object(f"{where}.proposed", data.get("proposed"), _DRAW_KEYS)
    tables = byes = None
    if proposed is not None:
        if "tables" not in proposed:
            reader.add(f"{where}.proposed.tables", _("a draw lists its tables"))
        else:
            tables = reader.tables(f"{where}.proposed.tables", proposed["tables"])
        byes = reader.players(f"{where}.proposed.byes", proposed.get("byes", []))
    if len(reader.problems.items) > before:
        return None
    return {
        "game": game,
        "format_code": format_code,
        "round_number": number,
        "kind": kind,
        "seed": own_seed,
        "entries": entries,
        "tables": tables,
        "byes": byes,
        "history": history,
        "byes_so_far": byes_so_far,
        "active": active,
        "params": params,
    }


def _read_history(reader: _Reader, path: str, value, number: int | None):
    items = reader.list(path, value, limit=MAX_ROUNDS)
    if items is None:
        return None
    history, seen = [], set()
    for i, item in enumerate(items):
        where = f"{path}[{i}]"
        data = reader.object(where, item, _HISTORY_KEYS)
        if data is None:
            continue
        high = (number - 1) if number is not None and number > 1 else MAX_ROUNDS
        past = reader.whole(f"{where}.round", data.get("round"), 1, high)
        if number == 1:
            reader.add(f"{where}.round", _("round 1 has no earlier rounds"))
            past = None
        if past is not None and past in seen:
            reader.add(f"{where}.round", _("round {round} is in the history twice"), round=past)
            past = None
        seen.add(past)
        if "tables" not in data:
            reader.add(f"{where}.tables", _("a round of the history lists its tables"))
            continue
        tables = reader.tables(f"{where}.tables", data["tables"])
        byes = reader.players(f"{where}.byes", data.get("byes", []))
        if past is not None and tables is not None and byes is not None:
            history.append(PastRound(past, tables, byes))
    return tuple(history)


def _read_bye_counts(reader: _Reader, path: str, value) -> dict[str, int] | None:
    data = reader.object(path, value)
    if data is None:
        return None
    counts = {}
    for key, count in data.items():
        where = _join(path, _short(key))
        if reader.player(where, key) is not None:
            got = reader.whole(where, count, 0, MAX_ROUNDS)
            if got is not None:
                counts[key] = got
    return counts


def _read_plans(reader: _Reader, value) -> list[tuple[str, int]]:
    items = reader.list("plans", value, limit=MAX_PLANS)
    if items is None:
        return []
    plans = []
    for i, item in enumerate(items):
        where = f"plans[{i}]"
        data = reader.object(where, item, _PLAN_KEYS)
        if data is None:
            continue
        game = reader.game(f"{where}.game", data.get("game"))
        players = reader.whole(f"{where}.players", data.get("players"), 0, MAX_PLAN_PLAYERS)
        if game is not None and players is not None:
            plans.append((game, players))
    return plans
