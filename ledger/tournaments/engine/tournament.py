"""A whole tournament, round by round: withdrawals, draw, corrections, results, ranking.

This is what ``manage.py tournament_run`` computes and what the web side will compute when the
director publishes a round: for round r, first the withdrawals before it (section 9), then the
draw from the standings as they stand (5), then the corrections made after that draw was
published (they change earlier rounds' points and later draws, never this draw, 11), then the
round's results (6, 7).

Choices the spec leaves open, made here:

- A hand-made draw (``RoundInput.draw``) is refused when it seats an unknown or inactive
  player, seats one twice, leaves an active player out or has a table of a size the game
  cannot play; every other finding of the checker is the director's call and stays on the draw.
- Nobody withdraws before round 1 (leave the entry out), and a player withdraws only after a
  round he was entered for.
- One who leaves during a round (``RoundInput.leavers``) takes the last place at his table and
  is withdrawn after that round (section 9).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace

from ledger.games.errors import Problems, _

from .draw import draw_round, manual_draw
from .errors import TournamentError
from .model import MANUAL, Draw, Entry, StandingRow
from .points import round_points
from .rules import FINAL, FORMATS, STANDINGS, TABLE_SIZES, Params
from .standings import PlayedRound, final_ranking, standings

_REFUSED_IN_A_MANUAL_DRAW = {
    "unknown_player": _("{player} is in the draw but has no entry"),
    "inactive_player": _("{player} is in the draw but does not play round {round}"),
    "duplicate_player": _("the draw seats {player} twice"),
    "missing_player": _("the draw leaves out {player}, who plays round {round}"),
}


@dataclass(frozen=True)
class Tournament:
    """The tournament as the rules see it: game, format, seed, parameters and entries."""

    game: str
    format_code: str
    seed: str
    params: Params
    entries: tuple[Entry, ...]


@dataclass(frozen=True)
class Correction:
    """Scores of an earlier round replaced after this round's draw was published (section 11)."""

    round: int
    scores: Mapping[str, int]
    reason: str = ""


@dataclass(frozen=True)
class ManualDraw:
    """The director's hand-made tables and byes for a round (section 5.5)."""

    tables: tuple[tuple[str, ...], ...]
    byes: tuple[str, ...] = ()


@dataclass(frozen=True)
class RoundInput:
    """What happened in a round: table scores of the seated players and the director's acts."""

    number: int
    results: Mapping[str, int]
    withdraw_before: tuple[str, ...] = ()
    corrections_after_draw: tuple[Correction, ...] = ()
    draw: ManualDraw | None = None
    leavers: frozenset[str] = field(default_factory=frozenset)


@dataclass(frozen=True)
class TournamentRun:
    """Every round played (draw and results) and the ranking after the last of them.

    ``entries`` are the tournament's entries with the withdrawals applied.
    """

    rounds: tuple[PlayedRound, ...]
    ranking: tuple[StandingRow, ...]
    entries: tuple[Entry, ...]


def run_tournament(
    tournament: Tournament, rounds: Sequence[RoundInput], *, path: str = "rounds"
) -> TournamentRun:
    """Play ``rounds`` in order and return their draws, results and the ranking.

    Raise TournamentError naming the field (``rounds[i].results.<id>`` and so on) of the first
    round that cannot be played as given, with every problem of that round.
    """
    rules = FORMATS[tournament.format_code]
    params = tournament.params
    entries = {e.id: e for e in tournament.entries}
    last = rules.last_round(params.rounds)
    draws: list[Draw] = []
    scores: list[dict[str, int]] = []
    leavers: list[frozenset[str]] = []

    def played() -> list[PlayedRound]:
        return [
            PlayedRound(d, _points(tournament, d, s, left))
            for d, s, left in zip(draws, scores, leavers, strict=True)
        ]

    for index, given in enumerate(rounds):
        here = f"{path}[{index}]"
        number = index + 1
        problems = Problems()
        if given.number != number:
            problems.add(
                f"{here}.number",
                _("round {index} must have the number {number}"),
                index=index + 1,
                number=number,
            )
        if number > last:
            problems.add(
                f"{here}.number",
                _("the format {format} with {rounds} rounds has no round {number}"),
                format=tournament.format_code,
                rounds=params.rounds,
                number=number,
            )
        problems.raise_if_any(TournamentError)
        _withdraw(problems, f"{here}.withdraw_before", entries, given.withdraw_before, number)
        problems.raise_if_any(TournamentError)

        kind = rules.kind_of(number, params.rounds)
        history = [d.as_past() for d in draws]
        order = None
        if kind in (STANDINGS, FINAL):
            rows = standings(
                format_code=tournament.format_code,
                seed=tournament.seed,
                entries=tuple(entries.values()),
                rounds=played(),
            )
            order = [row.id for row in rows]
        draw = _draw(tournament, number, kind, given, tuple(entries.values()), history, order)
        _check_manual(problems, f"{here}.draw", tournament.game, draw)
        problems.raise_if_any(TournamentError)

        for j, correction in enumerate(given.corrections_after_draw):
            _correct(problems, f"{here}.corrections_after_draw[{j}]", correction, number, draws)
        problems.raise_if_any(TournamentError)
        for correction in given.corrections_after_draw:
            scores[correction.round - 1].update(correction.scores)

        _check_results(problems, f"{here}.results", entries, draw, given.results)
        seated = set(draw.seated)
        for p in sorted(given.leavers):
            if p not in seated:
                problems.add(
                    f"{here}.leavers",
                    _("{player} is not seated in round {round}"),
                    player=p,
                    round=number,
                )
        problems.raise_if_any(TournamentError)
        draws.append(draw)
        scores.append(dict(given.results))
        leavers.append(frozenset(given.leavers))
        for p in given.leavers:
            entries[p] = replace(entries[p], withdrawn_after=number)

    done = played()
    ranking = final_ranking(
        format_code=tournament.format_code,
        seed=tournament.seed,
        entries=tuple(entries.values()),
        rounds=done,
    )
    return TournamentRun(tuple(done), ranking, tuple(entries.values()))


def _points(tournament: Tournament, draw: Draw, scores, left):
    return round_points(
        tournament.format_code,
        tournament.game,
        draw.tables,
        scores,
        byes=draw.byes,
        leavers=left,
    )


def _draw(tournament, number, kind, given: RoundInput, entries, history, order) -> Draw:
    common = dict(
        number=number,
        kind=kind,
        game=tournament.game,
        format_code=tournament.format_code,
        seed=tournament.seed,
        entries=entries,
        history=history,
        params=tournament.params,
    )
    if given.draw is not None:
        return manual_draw(**common, tables=given.draw.tables, byes=given.draw.byes)
    return draw_round(**common, standings=order)


def _withdraw(problems: Problems, path: str, entries: dict, ids: Sequence[str], number: int):
    seen = set()
    for j, p in enumerate(ids):
        where = f"{path}[{j}]"
        entry = entries.get(p)
        if number == 1:
            problems.add(
                where,
                _("nobody withdraws before round 1: leave {player} out of the entries"),
                player=p,
            )
        elif p in seen:
            problems.add(where, _("{player} is withdrawn twice"), player=p)
        elif entry is None:
            problems.add(where, _("{player} has no entry"), player=p)
        elif entry.withdrawn_after is not None:
            problems.add(
                where,
                _("{player} has already withdrawn after round {after}"),
                player=p,
                after=entry.withdrawn_after,
            )
        elif entry.from_round > number - 1:
            problems.add(
                where,
                _("{player} enters in round {first}, so cannot withdraw after round {after}"),
                player=p,
                first=entry.from_round,
                after=number - 1,
            )
        else:
            entries[p] = replace(entry, withdrawn_after=number - 1)
        seen.add(p)


def _check_manual(problems: Problems, path: str, game: str, draw: Draw) -> None:
    if draw.mode != MANUAL:
        return
    for violation in draw.violations:
        template = _REFUSED_IN_A_MANUAL_DRAW.get(violation.code)
        if template:
            problems.add(path, template, player=violation.get("id"), round=draw.number)
    allowed = TABLE_SIZES[game].allowed
    for j, table in enumerate(draw.tables):
        if len(table) not in allowed:
            problems.add(
                f"{path}.tables[{j}]",
                _("a table of {game} has {allowed} seats, not {size}"),
                game=game,
                allowed=" or ".join(map(str, sorted(allowed))),
                size=len(table),
            )


def _correct(problems: Problems, path: str, correction: Correction, number: int, draws):
    if not 1 <= correction.round < number:
        problems.add(
            f"{path}.round",
            _("a correction after the draw of round {round} is of an earlier round (1 to {last})"),
            round=number,
            last=number - 1,
        )
        return
    seated = set(draws[correction.round - 1].seated)
    for p in correction.scores:
        if p not in seated:
            problems.add(
                f"{path}.scores.{p}",
                _("{player} did not sit at a table in round {round}"),
                player=p,
                round=correction.round,
            )


def _check_results(problems: Problems, path: str, entries, draw: Draw, results) -> None:
    seated = draw.seated
    seated_set, byes = set(seated), set(draw.byes)
    for p in seated:
        if p not in results:
            problems.add(
                f"{path}.{p}",
                _("{player} is seated in round {round} but has no result"),
                player=p,
                round=draw.number,
            )
    for p, score in results.items():
        if p in seated_set:
            if not isinstance(score, int) or isinstance(score, bool):
                problems.add(f"{path}.{p}", _("a table score must be a whole number"))
            continue
        if p not in entries:
            problems.add(f"{path}.{p}", _("{player} has no entry"), player=p)
        elif p in byes:
            problems.add(
                f"{path}.{p}",
                _("{player} has a bye in round {round}, so no table score"),
                player=p,
                round=draw.number,
            )
        else:
            problems.add(
                f"{path}.{p}",
                _("{player} does not sit at a table in round {round}"),
                player=p,
                round=draw.number,
            )
