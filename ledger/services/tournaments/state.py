"""The engine's view of a stored tournament: its entries, its published draws and the rounds
played, the ranking after a round (what the draws and the selectors read)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import replace

from ledger.models import Round, Tournament
from ledger.tournaments import engine


def engine_entries(tournament: Tournament) -> tuple[engine.Entry, ...]:
    """Return the tournament's entries as the engine sees them, in the order entered (read as
    plain values: the standings read them on every request)."""
    rows = tournament.entries.order_by("pk").values_list(
        "code", "name", "club_name", "ladder_rank", "from_round", "withdrawn_after"
    )
    return tuple(
        engine.Entry(
            id=code,
            name=name,
            club=club_name or None,
            ladder_rank=ladder_rank,
            from_round=from_round,
            withdrawn_after=withdrawn_after,
        )
        for code, name, club_name, ladder_rank, from_round, withdrawn_after in rows
    )


def stored_draw(round_: Round) -> engine.Draw:
    return engine.Draw(
        number=round_.number,
        kind=round_.kind,
        mode=round_.mode,
        tables=tuple(tuple(t) for t in round_.tables),
        byes=tuple(round_.byes),
        groups=dict(round_.groups or {}),
    )


def played_rounds(
    tournament: Tournament, *, through: int | None = None
) -> list[engine.PlayedRound]:
    """Return the closed rounds (up to round ``through``) as the engine sees them (points
    recomputed from the stored table scores, so a stored figure can be checked against
    them)."""
    rounds = tournament.rounds.filter(status=Round.Status.CLOSED).prefetch_related("round_tables")
    if through is not None:
        rounds = rounds.filter(number__lte=through)
    return [
        played_round(tournament, stored_draw(r), [rt.results for rt in r.round_tables.all()])
        for r in rounds.order_by("number")
    ]


def played_round(
    tournament: Tournament, draw: engine.Draw, results: Iterable[dict]
) -> engine.PlayedRound:
    """Return a closed round as the engine sees it: its stored ``draw`` and the points its
    round tables' stored ``results`` (one ``{code: result}`` per table) give now."""
    scores, leavers = {}, set()
    for table_results in results:
        for code, result in table_results.items():
            scores[code] = result["score"]
            if result.get("left"):
                leavers.add(code)
    points = engine.round_points(
        tournament.tournament_format,
        tournament.game,
        draw.tables,
        scores,
        byes=draw.byes,
        leavers=leavers,
    )
    return engine.PlayedRound(draw, points)


def entries_as_of(entries: Sequence[engine.Entry], through: int | None) -> tuple[engine.Entry, ...]:
    """Return the entries as they stood after round ``through`` (None: now): those entered by
    then, a withdrawal only if it came after that round or before."""
    if through is None:
        return tuple(entries)
    return tuple(
        e
        if e.withdrawn_after is None or e.withdrawn_after <= through
        else replace(e, withdrawn_after=None)
        for e in entries
        if e.from_round <= through
    )


def ranking_after(
    tournament: Tournament, *, through: int | None = None
) -> tuple[tuple[engine.StandingRow, ...], list[engine.PlayedRound]]:
    """Return the ranking after the closed rounds (every entry, section 8), or after round
    ``through`` and the closed rounds before it (the entries as they stood then), with the
    rounds it counts."""
    played = played_rounds(tournament, through=through)
    return ranking_of(tournament, engine_entries(tournament), played, through=through), played


def ranking_of(
    tournament: Tournament,
    entries: Sequence[engine.Entry],
    played: Sequence[engine.PlayedRound],
    *,
    through: int | None = None,
) -> tuple[engine.StandingRow, ...]:
    """Return the ranking of ``entries`` (as they stood after round ``through``) over the
    ``played`` rounds (section 8)."""
    return engine.final_ranking(
        format_code=tournament.tournament_format,
        seed=tournament.seed,
        entries=entries_as_of(entries, through),
        rounds=list(played),
    )


def current_standings(tournament: Tournament) -> tuple[engine.StandingRow, ...]:
    """Return the ranking after the closed rounds (every entry, section 8)."""
    return ranking_after(tournament)[0]
