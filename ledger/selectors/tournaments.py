"""Reads of a tournament for the director's screens and the wall (issue 21)."""

from __future__ import annotations

import datetime
from collections import Counter
from dataclasses import dataclass, field
from typing import cast

from django.db.models import Q
from django.utils.dateparse import parse_datetime
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from ledger.models import Entry, Hand, Round, RoundTable, Tournament
from ledger.services import tournaments as service
from ledger.tournaments import engine
from ledger.tournaments.engine.rules import BEFORE_SPLIT, FINAL, FINAL_BASIS, LOT
from ledger.tournaments.web import author_text, violation_text

TIE_BREAK_NAMES = {
    "score_sum": _("score sum"),
    "firsts": _("firsts"),
    "best_round": _("best round"),
    "lot": _("the lot"),
}


def tournaments_for_club(*, club) -> list[Tournament]:
    return list(Tournament.objects.filter(club=club).order_by("-date", "-id"))


def running_tournaments(*, club) -> list[Tournament]:
    """Return the club's tournaments being played (started, not yet over), latest first."""
    return list(
        Tournament.objects.filter(club=club, status=Tournament.Status.RUNNING).order_by(
            "-date", "-id"
        )
    )


def tournament_of_evening(evening) -> Tournament | None:
    """Return the tournament whose evening (of one of its days) ``evening`` is (None for a
    club evening)."""
    if not evening.is_tournament:
        return None
    return (
        Tournament.objects.filter(Q(evening=evening) | Q(rounds__evening=evening))
        .select_related("club")
        .first()
    )


def tournament_for_club(*, club, pk: int) -> Tournament | None:
    return Tournament.objects.filter(club=club, pk=pk).select_related("club", "evening").first()


def round_for_club(*, club, pk: int) -> Round | None:
    return (
        Round.objects.filter(tournament__club=club, pk=pk)
        .select_related("tournament__club", "tournament__evening")
        .first()
    )


def closed_round_table(table) -> RoundTable | None:
    """Return the round table ``table`` was opened as, when its round is closed."""
    return (
        RoundTable.objects.filter(table=table, round__status=Round.Status.CLOSED)
        .select_related("round__tournament")
        .first()
    )


def entry_names(tournament: Tournament) -> dict[str, str]:
    return dict(tournament.entries.values_list("code", "name"))


@dataclass
class TableView:
    number: int
    seats: list[dict]
    table_id: int | None = None
    status: str = ""
    hands: int | None = None
    target: int | None = None
    held: bool = False  # a phone or tablet holds the table's own link
    missing: list[str] = field(default_factory=list)
    substitutes: list[tuple[str, str]] = field(default_factory=list)
    signal_hand: int | None = None
    ended_by: str = ""
    # Hands saved on the table's link still waiting for a second player (``confirm_hands``):
    # (number, the player who saved it); they are not in ``hands``.
    unconfirmed: list[tuple[int, str]] = field(default_factory=list)


@dataclass
class RoundView:
    round: Round
    tables: list[TableView]
    byes: list[dict]
    warnings: list[dict] = field(default_factory=list)
    started: int = 0
    players: list[tuple[str, str]] = field(default_factory=list)
    late: list[tuple[str, int]] = field(default_factory=list)  # (name, table) reported missing
    confirm_hands: bool = False  # the tournament's hands saved on a link wait for a second player

    @property
    def unconfirmed(self) -> int:
        """Return how many hands of the round wait for a second player's confirmation."""
        return sum(len(t.unconfirmed) for t in self.tables)


def round_view(round_: Round) -> RoundView:
    """Return a round's draw with names and clubs, its findings in words, and (once played)
    each table's progress: hands played against the target (a fixed number of queries)."""
    tournament = round_.tournament
    entries = {e.code: e for e in Entry.objects.filter(tournament=tournament)}
    names = {c: e.name for c, e in entries.items()}
    params = service.tournament_params(tournament)
    linked = {rt.number: rt for rt in round_.round_tables.select_related("table")}
    counts: Counter[int] = Counter()
    unconfirmed: dict[int, list[tuple[int, str]]] = {}
    hands = (
        Hand.objects.filter(table__round_table__round=round_)
        .exclude(status=Hand.Status.VOIDED)
        .order_by("number")
        .values_list("table_id", "number", "confirmation__saved_by", "confirmation__confirmed_at")
    )
    for table_id, number, saved_by, confirmed_at in hands:
        if saved_by is not None and confirmed_at is None:  # to confirm: not counted yet
            unconfirmed.setdefault(table_id, []).append((number, saved_by))
        else:
            counts[table_id] += 1
    tables = []
    for number, seats in enumerate(round_.tables, 1):
        rt = linked.get(number)
        results = rt.results if rt else {}
        view = TableView(
            number=number,
            seats=[
                {
                    "code": c,
                    "name": names.get(c, c),
                    "club": entries[c].club_name if c in entries else "",
                    "group": (round_.groups or {}).get(c, ""),
                    "result": results.get(c),
                    "points": engine.points_decimal(service.points_of(results[c]["points"]))
                    if c in results
                    else "",
                }
                for c in seats
            ],
            target=params.target_for(len(seats)),
        )
        if rt is not None:
            view.held = bool(rt.device)
            view.missing = [names.get(c, c) for c in rt.missing]
            view.substitutes = [(names.get(c, c), s["name"]) for c, s in rt.substitutes.items()]
            view.signal_hand = rt.signal_hand
            view.ended_by = rt.get_ended_by_display() if rt.ended_by else ""
        if rt is not None and rt.table is not None:
            view.table_id = rt.table_id
            view.status = rt.table.status
            table_id = cast(int, rt.table_id)  # rt.table is set
            view.hands = counts.get(table_id, 0)
            view.unconfirmed = unconfirmed.get(table_id, [])
        tables.append(view)
    bye_points = {b.entry.code: b.points for b in round_.bye_rows.select_related("entry")}
    byes = [
        {
            "code": c,
            "name": names.get(c, c),
            "points": engine.points_decimal(service.points_of(bye_points[c]))
            if bye_points.get(c)
            else "",
        }
        for c in round_.byes
    ]
    warnings = [
        {"severity": w.get("severity"), "text": violation_text(w, names)} for w in round_.warnings
    ]
    players = sorted(
        ((c, names.get(c, c)) for c in [*round_.byes, *(c for t in round_.tables for c in t)]),
        key=lambda p: p[1],
    )
    return RoundView(
        round=round_,
        tables=tables,
        byes=byes,
        warnings=warnings,
        started=sum(1 for t in tables if t.hands or t.unconfirmed),
        players=players,
        late=[(name, t.number) for t in tables for name in t.missing],
        confirm_hands=params.confirm_hands,
    )


@dataclass
class StandingLine:
    rank: int
    code: str
    name: str
    club: str
    ladder_rank: int | None
    round_points: list[str]
    points: str
    score_sum: int
    firsts: int
    best_round: int | None
    rounds_played: int
    byes: int
    status: str
    final_score: int | None
    final_group: int | None = None
    lot: str = ""


@dataclass
class StandingsInput:
    """What a tournament's standings are computed from (section 8), read in three queries
    whatever the history: its entries, its closed rounds' draws and their round tables'
    stored results ((round number, results) in order)."""

    tournament: Tournament
    entries: tuple[engine.Entry, ...]
    draws: tuple[engine.Draw, ...]
    results: tuple[tuple[int, dict], ...]


def standings_input(tournament: Tournament) -> StandingsInput:
    """Return what the standings after the closed rounds are computed from (three queries)."""
    closed = Round.Status.CLOSED
    draws = tournament.rounds.filter(status=closed).order_by("number")
    results = (
        RoundTable.objects.filter(round__tournament=tournament, round__status=closed)
        .order_by("round__number", "number")
        .values_list("round__number", "results")
    )
    return StandingsInput(
        tournament=tournament,
        entries=service.engine_entries(tournament),
        draws=tuple(service.stored_draw(r) for r in draws),
        results=tuple(results),
    )


@dataclass
class Standings:
    """The standings after a round (or the ranking after the closed rounds) and what the
    sheets say of them: the format's tie-breaks in order (the lot left out: it decides
    last, always), the rounds counted, whether a ladder rank or a final is there to show,
    and the neighbours only the lot set apart (section 12)."""

    lines: list[StandingLine]
    rounds: int
    tie_breaks: tuple[str, ...]
    ladder: bool
    final: bool
    lot_ties: list[tuple[StandingLine, StandingLine]]
    through: int | None = None


def standings_after(
    tournament: Tournament, *, through: int | None = None, given: StandingsInput | None = None
) -> Standings:
    """Return the ranking after the closed rounds, or the standings after round ``through``
    (later rounds left out, the entries as they stood then): one line per entry, points with
    two decimals (computed exactly by the engine), from ``given`` (read now when None: three
    queries, whatever the rounds)."""
    given = given or standings_input(tournament)
    results: dict[int, list[dict]] = {}
    for number, table_results in given.results:
        results.setdefault(number, []).append(table_results)
    played = [
        service.played_round(tournament, draw, results.get(draw.number, []))
        for draw in given.draws
        if through is None or draw.number <= through
    ]
    rows = service.ranking_of(tournament, given.entries, played, through=through)
    entries = {e.id: e for e in given.entries}
    lines = [
        StandingLine(
            rank=row.rank,
            code=row.id,
            name=cast(str, entries[row.id].name),  # standings_input names every entry
            club=entries[row.id].club or "",
            ladder_rank=entries[row.id].ladder_rank,
            round_points=[engine.points_decimal(p) for p in row.round_points],
            points=engine.points_decimal(row.points),
            score_sum=row.score_sum,
            firsts=row.firsts,
            best_round=row.best_round,
            rounds_played=row.rounds_played,
            byes=row.byes,
            status=row.status,
            final_score=row.final_score,
            final_group=row.final_group,
            lot=row.lot,
        )
        for row in rows
    ]
    by_code = {line.code: line for line in lines}
    ties = engine.lot_decided(format_code=tournament.tournament_format, rows=rows, rounds=played)
    rules = engine.FORMATS[tournament.tournament_format]
    return Standings(
        lines=lines,
        rounds=sum(1 for r in played if r.kind != FINAL),
        tie_breaks=tuple(t for t in rules.tie_breaks if t != LOT),
        ladder=any(line.ladder_rank is not None for line in lines),
        final=any(line.final_group is not None for line in lines),
        lot_ties=[(by_code[a], by_code[b]) for a, b in ties],
        through=through,
    )


def standings_lines(
    tournament: Tournament, given: StandingsInput | None = None
) -> list[StandingLine]:
    """Return the ranking after the closed rounds, one line per entry (``standings_after``)."""
    return standings_after(tournament, given=given).lines


LOT_DIGITS = 4  # of the lot's hash on a sheet: enough to see which is smaller, as the spec does


def lot_notes(standings: Standings) -> list[str]:
    """Return a sentence for each place the lot decided: the two neighbours, equal on every
    criterion but the lot, and the start of their lots (the smaller ranks higher)."""
    return [
        gettext(
            "Places {a_rank} and {b_rank}: {a} and {b} are equal on every criterion but the "
            "lot; the lot decided ({a_lot}… before {b_lot}…)."
        ).format(
            a_rank=a.rank,
            b_rank=b.rank,
            a=a.name,
            b=b.name,
            a_lot=a.lot[:LOT_DIGITS],
            b_lot=b.lot[:LOT_DIGITS],
        )
        for a, b in standings.lot_ties
    ]


@dataclass
class RoundResult:
    """A round's result for the notice board: its tables and byes with their figures, the
    standings after it (once it is closed) and the corrections made after it closed."""

    view: RoundView
    standings: Standings | None
    corrections: list[CorrectionLine]


def round_result(round_: Round) -> RoundResult:
    """Return the round's tables (seats, scores, places, points), its byes and, once it is
    closed, the standings after it: later rounds are left out (a fixed number of queries)."""
    closed = round_.status == Round.Status.CLOSED
    tournament = round_.tournament
    return RoundResult(
        view=round_view(round_),
        standings=standings_after(tournament, through=round_.number) if closed else None,
        corrections=corrections(tournament, round_=round_),
    )


# --- the table sheet of a round table -------------------------------------------------------

SCORE_BASIS = {BEFORE_SPLIT: _("before the split"), FINAL_BASIS: _("after the split")}


def score_basis_text(tournament: Tournament) -> str:
    """Return the format's score basis in words (section 6): the table score is a player's
    balance before the split (placement formats) or after it (sum formats)."""
    return str(SCORE_BASIS[engine.FORMATS[tournament.tournament_format].basis])


def rules_note(tournament: Tournament) -> str:
    """Return the note under a ranking: the format, the tie-break order and the seed."""
    rules = engine.FORMATS[tournament.tournament_format]
    return gettext("Format {format}; ties broken by {ties}; seed {seed}.").format(
        format=tournament.get_tournament_format_display(),
        ties=", ".join(str(TIE_BREAK_NAMES.get(t, t)) for t in rules.tie_breaks),
        seed=tournament.seed,
    )


@dataclass
class CorrectionLine:
    round: int
    table: int
    hand: int
    reason: str
    at: datetime.datetime | str  # a page writes it in the club's time zone and language
    by: str
    after_period: bool
    override_reason: str


def corrections(tournament: Tournament, *, round_: Round | None = None) -> list[CorrectionLine]:
    """Return the corrections made after a round closed (from the rounds' logs), in order."""
    rounds = [round_] if round_ is not None else list(tournament.rounds.order_by("number"))
    return [
        CorrectionLine(
            round=r.number,
            table=line.get("table", 0),
            hand=line.get("hand", 0),
            reason=line.get("reason", ""),
            at=parse_datetime(line.get("at", "")) or line.get("at", ""),
            by=author_text(line.get("by")),
            after_period=bool(line.get("after_period")),
            override_reason=line.get("override_reason", ""),
        )
        for r in rounds
        for line in r.log
        if line.get("action") == "correct"
    ]


@dataclass
class MyRound:
    number: int
    table: int | None
    score: int | None
    place: int | None
    points: str


@dataclass
class MyTournament:
    """A member's view of a running tournament he is entered in (issue 21 part 4)."""

    tournament: Tournament
    round: int | None  # the latest published round and where he sits in it
    table: int | None
    seat: int | None
    bye: bool
    rounds: list[MyRound]
    rank: int | None
    ranked: int


def my_tournaments(*, member) -> list[MyTournament]:
    """Return the running tournaments ``member`` is entered in: where he sits now (the latest
    published or playing round: table and seat, or a bye), his closed rounds (score, place,
    points) and his place in the standings."""
    out = []
    entries = Entry.objects.filter(
        member=member, tournament__status=Tournament.Status.RUNNING
    ).select_related("tournament")
    for entry in entries.order_by("tournament__date", "tournament_id"):
        tournament = entry.tournament
        rounds = list(
            tournament.rounds.exclude(status=Round.Status.DRAFTED)
            .prefetch_related("round_tables", "bye_rows__entry")
            .order_by("number")
        )
        mine = []
        for r in rounds:
            if r.status != Round.Status.CLOSED:
                continue
            row = MyRound(r.number, None, None, None, "")
            for rt in r.round_tables.all():
                if entry.code in rt.results:
                    res = rt.results[entry.code]
                    points = engine.points_decimal(service.points_of(res["points"]))
                    row = MyRound(r.number, rt.number, res["score"], res["place"], points)
            for bye in r.bye_rows.all():
                if bye.entry.code == entry.code:
                    row.points = engine.points_decimal(service.points_of(bye.points or "0"))
            mine.append(row)
        current = rounds[-1] if rounds else None
        table = seat = None
        if current is not None:
            for number, seats in enumerate(current.tables, 1):
                if entry.code in seats:
                    table, seat = number, seats.index(entry.code) + 1
        lines = standings_lines(tournament)
        rank = next((line.rank for line in lines if line.code == entry.code), None)
        out.append(
            MyTournament(
                tournament=tournament,
                round=current.number if current else None,
                table=table,
                seat=seat,
                bye=current is not None and entry.code in current.byes,
                rounds=mine,
                rank=rank if any(r.status == Round.Status.CLOSED for r in rounds) else None,
                ranked=len(lines),
            )
        )
    return out


LOG_ACTIONS = {
    "draw": _("drawn"),
    "redraw": _("drawn again"),
    "manual": _("set by hand"),
    "swap": _("two players swapped"),
    "publish": _("published"),
    "unpublish": _("draw withdrawn"),
    "start": _("started"),
    "close": _("closed"),
    "correct": _("a hand corrected after the close"),
    "confirm": _("a hand confirmed at its table"),
    "release": _("a table's link handed over"),
    "substitute": _("a substitute seated"),
    "finish": _("made final"),
    "reopen": _("reopened"),
    "cancel": _("cancelled"),
    "days": _("the tournament's days changed"),
    "day": _("the round's day changed"),
    "entries_series": _("entered from a qualifying series"),
    "ladder_series": _("the ladder's series named"),
    "ladder": _("ladder ranks taken from the series"),
    "ladder_rank": _("a ladder rank set by hand"),
}


@dataclass
class LogLine:
    """One act of the director on a round or the tournament, in words."""

    at: datetime.datetime | str
    text: str
    by: str
    detail: str


def log_lines(log: list[dict], names: dict[str, str]) -> list[LogLine]:
    """Return a round's or the tournament's log in words: when (a local time), what, who and
    the detail that matters (a table, the players swapped or replaced, a reason)."""
    lines = []
    for line in log:
        action = str(line.get("action", ""))
        verb = action.split(" ", 1)[0]  # "swap <first> <second>"
        details = []
        if line.get("table"):
            details.append(gettext("table {number}").format(number=line["table"]))
        if verb == "swap":
            details.append(" ⇄ ".join(names.get(c, c) for c in action.split(" ")[1:]))
        if line.get("absent"):
            absent = names.get(line["absent"], line["absent"])
            details.append(f"{absent} → {line.get('substitute')}")
        if line.get("confirmed_by"):
            details.append(
                gettext("hand {number} saved by {saver}, confirmed by {name}").format(
                    number=line.get("hand"), saver=line.get("saved_by"), name=line["confirmed_by"]
                )
            )
        if line.get("change"):
            details.append(str(line["change"]))
        if verb == "entries_series":
            details.append(
                gettext("{n} entered, {k} already entered").format(
                    n=line.get("entered"), k=line.get("skipped")
                )
            )
        if line.get("reason"):
            details.append(str(line["reason"]))
        lines.append(
            LogLine(
                at=parse_datetime(line.get("at", "")) or line.get("at", ""),
                text=str(LOG_ACTIONS.get(verb, verb)),
                by=author_text(line.get("by")),
                detail="; ".join(details),
            )
        )
    return lines
