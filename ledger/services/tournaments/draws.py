"""The draw: computed by the engine from the seed, set by hand, swapped, published, withdrawn
(sections 3 to 8)."""

from __future__ import annotations

import datetime
from collections.abc import Sequence
from typing import TYPE_CHECKING

from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from ledger.models import (
    Bye,
    Round,
    RoundTable,
    Tournament,
)
from ledger.services.errors import ALL, LedgerError, later, problem
from ledger.services.ledger import writing
from ledger.services.targets import tournament_params
from ledger.services.tournaments.common import (
    REFUSED_CODES,
    check_not_over,
    check_round_day,
    lock_round,
    lock_tournament,
    log_act,
)
from ledger.services.tournaments.links import link_authors_create, new_link_token
from ledger.services.tournaments.state import engine_entries, played_rounds, stored_draw
from ledger.tournaments import engine
from ledger.tournaments.engine.rules import FINAL, STANDINGS
from ledger.tournaments.web import violation_text

if TYPE_CHECKING:
    from django_stubs_ext import StrOrPromise


def _compute_draw(tournament: Tournament, number: int) -> engine.Draw:
    params = tournament_params(tournament)
    rules = engine.FORMATS[tournament.tournament_format]
    if number > rules.last_round(params.rounds):
        raise LedgerError(_("the tournament has no round {number}"), "__all__", number=number)
    kind = rules.kind_of(number, params.rounds)
    played = played_rounds(tournament)
    entries = engine_entries(tournament)
    order = None
    if kind in (STANDINGS, FINAL):
        rows = engine.standings(
            format_code=tournament.tournament_format,
            seed=tournament.seed,
            entries=entries,
            rounds=played,
        )
        order = [row.id for row in rows]
    return engine.draw_round(
        number=number,
        kind=kind,
        game=tournament.game,
        format_code=tournament.tournament_format,
        seed=tournament.seed,
        entries=entries,
        history=[p.draw.as_past() for p in played],
        standings=order,
        params=params,
    )


def _draw_fields(draw: engine.Draw) -> dict:
    return {
        "kind": draw.kind,
        "mode": draw.mode,
        "tables": [list(t) for t in draw.tables],
        "byes": list(draw.byes),
        "groups": dict(draw.groups),
        "warnings": [v.as_dict() for v in sorted(draw.violations, key=_violation_key)],
    }


def _violation_key(v: engine.Violation):
    return (v.severity, v.code, repr(v.details))


def next_round_day(tournament: Tournament, last: Round | None) -> datetime.date:
    """The day of a new round after ``last`` (the latest round, None for round 1) unless the
    director chooses another: today while the tournament is being played (and not before the
    previous round's day), else the previous round's day, else the first day."""
    earliest = last.day if last is not None else tournament.date
    today = timezone.localdate()
    return today if earliest <= today <= tournament.last_date else earliest


def round_draw(*, tournament: Tournament, day: datetime.date | None = None, by=None) -> Round:
    """Draw the next round with the engine (the seed makes it reproducible) and store it,
    unpublished, with the checker's findings, for ``day`` (by default ``_default_day``). The
    previous round must be closed."""
    with writing():
        tournament = lock_tournament(tournament)
        check_not_over(tournament)
        last = tournament.rounds.order_by("-number").first()
        if last is not None and last.status != Round.Status.CLOSED:
            raise LedgerError(_("round {number} is not closed yet"), "__all__", number=last.number)
        number = last.number + 1 if last else 1
        if day is None:
            day = next_round_day(tournament, last)
        check_round_day(tournament, number, day)
        if not tournament.entries.exists():
            raise LedgerError(_("enter the players first"), "__all__")
        draw = _compute_draw(tournament, number)
        if not draw.tables:
            raise LedgerError(_("too few players for one table"), "__all__")
        fields = _draw_fields(draw)
        params = tournament_params(tournament)
        round_ = Round(
            tournament=tournament,
            number=number,
            day=day,
            time_limit_min=engine.time_limit_min(params, draw.kind),
            computed={"tables": fields["tables"], "byes": fields["byes"], "mode": draw.mode},
            **fields,
        )
        log_act(round_, "draw", by, mode=draw.mode)
        round_.save()
    return round_


def round_set_day(*, round_: Round, day: datetime.date, by=None) -> Round:
    """Move a round not started to another of the tournament's days (never before an earlier
    round's day, nor after a later one's); logged. A round started keeps its day: its tables
    are at that day's evening."""
    with writing():
        tournament = lock_tournament(round_.tournament)
        round_ = lock_round(round_.pk)
        if round_.status not in (Round.Status.DRAFTED, Round.Status.PUBLISHED):
            raise LedgerError(_("the day of a round already started never changes"), "day")
        check_round_day(tournament, round_.number, day)
        if day == round_.day:
            return round_
        log_act(round_, "day", by, change=f"{round_.day.isoformat()} → {day.isoformat()}")
        round_.day = day
        round_.save(update_fields=["day", "log"])
    return round_


def round_redraw(*, round_: Round, by=None) -> Round:
    """Draw an unpublished round again (after a late entry or a withdrawal, section 9)."""
    with writing():
        tournament = lock_tournament(round_.tournament)
        round_ = lock_round(round_.pk)
        if round_.status != Round.Status.DRAFTED:
            raise LedgerError(_("a published draw never changes"), "__all__")
        draw = _compute_draw(tournament, round_.number)
        fields = _draw_fields(draw)
        for key, value in fields.items():
            setattr(round_, key, value)
        round_.computed = {"tables": fields["tables"], "byes": fields["byes"], "mode": draw.mode}
        log_act(round_, "redraw", by, mode=draw.mode)
        round_.save()
    return round_


def _history_before(tournament: Tournament, number: int) -> list[engine.PastRound]:
    return [
        stored_draw(r).as_past()
        for r in tournament.rounds.filter(number__lt=number).order_by("number")
    ]


def round_set_draw(
    *,
    round_: Round,
    tables: Sequence[Sequence[str]],
    byes: Sequence[str] = (),
    by=None,
    action: str = "manual",
) -> Round:
    """Replace an unpublished round's draw by a hand-made one, checked again (section 5.5).

    Refused, naming the player: one seated twice or missing, unknown or inactive, tables of
    the wrong sizes, the wrong number of byes, a second bye while a seated player has fewer.
    The computed draw stays in ``computed``, the change in the log.
    """
    with writing():
        lock_tournament(round_.tournament)
        round_ = lock_round(round_.pk)
        if round_.status != Round.Status.DRAFTED:
            raise LedgerError(_("a published draw never changes"), "__all__")
        draw, problems = _checked(round_, tables, byes)
        if problems is not None:
            raise LedgerError(problems=[problem("tables", problems)])
        fields = _draw_fields(draw)
        fields["groups"] = round_.groups  # the groups are the players', whatever their table
        for key, value in fields.items():
            setattr(round_, key, value)
        log_act(round_, action, by, tables=fields["tables"], byes=fields["byes"])
        round_.save()
    return round_


def _checked(round_: Round, tables, byes) -> tuple[engine.Draw, StrOrPromise | None]:
    """Return ``tables`` and ``byes`` as a hand-made draw of ``round_`` checked against the
    entries now (section 13), and its refused findings in words, written when shown (None when
    none)."""
    tournament = round_.tournament
    draw = engine.manual_draw(
        number=round_.number,
        kind=round_.kind,
        game=tournament.game,
        format_code=tournament.tournament_format,
        seed=tournament.seed,
        entries=engine_entries(tournament),
        tables=[list(t) for t in tables],
        byes=list(byes),
        history=_history_before(tournament, round_.number),
        params=tournament_params(tournament),
    )
    refused = [v for v in draw.violations if v.code in REFUSED_CODES]
    if not refused:
        return draw, None
    names = dict(tournament.entries.values_list("code", "name"))
    return draw, later(_findings, sorted(refused, key=_violation_key), names)


def _findings(violations, names: dict[str, str]) -> str:
    """The checker's findings in one sentence, in the active language."""
    return "; ".join(violation_text(v, names) for v in violations)


def _check_still_valid(round_: Round) -> None:
    """Refuse to publish a draft that no longer fits the entries (one removed, withdrawn or
    entered since it was drawn): the checker's errors of structure, named; draw it again."""
    _draw, problems = _checked(round_, round_.tables, round_.byes)
    if problems is not None:
        template = _("the entries changed since this round was drawn ({problems}): draw it again")
        raise LedgerError(problems=[problem(ALL, template, problems=problems)])


def round_swap(*, round_: Round, first: str, second: str, by=None) -> Round:
    """Swap two players (entry codes) of an unpublished draw: seats or a bye; checked again."""
    if first == second:
        raise LedgerError(_("choose two different players"), "second")
    tables = [list(t) for t in round_.tables]
    byes = list(round_.byes)
    places = {}
    for i, table in enumerate(tables):
        for j, code in enumerate(table):
            places[code] = ("t", i, j)
    for j, code in enumerate(byes):
        places[code] = ("b", 0, j)
    for field, code in (("first", first), ("second", second)):
        if code not in places:
            raise LedgerError(_("this player is not in the draw"), field)

    def put(place, code):
        kind, i, j = place
        if kind == "t":
            tables[i][j] = code
        else:
            byes[j] = code

    a, b = places[first], places[second]
    put(a, second)
    put(b, first)
    return round_set_draw(
        round_=round_, tables=tables, byes=byes, by=by, action=f"swap {first} {second}"
    )


def round_publish(*, round_: Round, by=None) -> Round:
    """Publish a round's draw: from now on it never changes (section 5.5)."""
    with writing():
        lock_tournament(round_.tournament)
        round_ = lock_round(round_.pk)
        if round_.status != Round.Status.DRAFTED:
            raise LedgerError(_("the draw is already published"), "__all__")
        _check_still_valid(round_)
        round_.status = Round.Status.PUBLISHED
        round_.published_at = timezone.now()
        log_act(round_, "publish", by)
        round_.save(update_fields=["status", "published_at", "log"])
        RoundTable.objects.bulk_create(
            RoundTable(round=round_, number=i, seats=list(seats), token=new_link_token())
            for i, seats in enumerate(round_.tables, 1)
        )
        entries = {e.code: e for e in round_.tournament.entries.all()}
        Bye.objects.bulk_create(Bye(round=round_, entry=entries[c]) for c in round_.byes)
        link_authors_create(round_)
    return round_


def round_unpublish(*, round_: Round, by=None) -> Round:
    """Withdraw a published draw that has not started (section 9: a player cannot play, so
    the round is drawn again): the round is a draft again; its tables were never opened."""
    with writing():
        lock_tournament(round_.tournament)
        round_ = lock_round(round_.pk)
        if round_.status != Round.Status.PUBLISHED:
            raise LedgerError(_("only a published round that has not started can be withdrawn"))
        if round_.round_tables.filter(table__isnull=False).exists():
            raise LedgerError(_("only a published round that has not started can be withdrawn"))
        round_.round_tables.all().delete()
        round_.bye_rows.all().delete()
        round_.status = Round.Status.DRAFTED
        round_.published_at = None
        log_act(round_, "unpublish", by)
        round_.save(update_fields=["status", "published_at", "log"])
    return round_
