"""Reads of a tournament for the director's screens and the wall (issue 21)."""

from __future__ import annotations

import datetime
import re
from collections import Counter
from dataclasses import dataclass, field

from django.utils import timezone
from django.utils.dateparse import parse_datetime
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from ledger.models import Entry, Hand, Posting, Round, RoundTable, Seat, Tournament
from ledger.services import tournaments as service
from ledger.tournaments import engine
from ledger.tournaments.engine.rules import BEFORE_SPLIT, FINAL, FINAL_BASIS, LOT
from ledger.tournaments.web import violation_text

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
    """Return the tournament whose evening ``evening`` is (None for a club evening)."""
    if not evening.is_tournament:
        return None
    return Tournament.objects.filter(evening=evening).select_related("club").first()


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


@dataclass
class RoundView:
    round: Round
    tables: list[TableView]
    byes: list[dict]
    warnings: list[dict] = field(default_factory=list)
    started: int = 0
    players: list[tuple[str, str]] = field(default_factory=list)
    late: list[tuple[str, int]] = field(default_factory=list)  # (name, table) reported missing


def round_view(round_: Round) -> RoundView:
    """Return a round's draw with names and clubs, its findings in words, and (once played)
    each table's progress: hands played against the target (a fixed number of queries)."""
    tournament = round_.tournament
    entries = {e.code: e for e in Entry.objects.filter(tournament=tournament)}
    names = {c: e.name for c, e in entries.items()}
    params = service.tournament_params(tournament)
    linked = {rt.number: rt for rt in round_.round_tables.select_related("table")}
    counts = Counter(
        Hand.objects.filter(table__round_table__round=round_)
        .exclude(status=Hand.Status.VOIDED)
        .values_list("table_id", flat=True)
    )
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
            view.hands = counts.get(rt.table_id, 0)
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
        started=sum(1 for t in tables if t.hands),
        players=players,
        late=[(name, t.number) for t in tables for name in t.missing],
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
            name=entries[row.id].name,
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


@dataclass
class SheetPlayer:
    """One who sat at a round table (or was drawn there) on its sheet: his round result, or
    his balance so far before the round closes. A substitute (no entry of the tournament)
    plays for the table and his result counts for no one (section 9)."""

    seat: int | None
    name: str
    club: str
    score: int | None
    place: int | None = None
    points: str = ""
    first: bool = False
    left: bool = False
    substitute: bool = False
    replaces: str = ""  # a substitute: the name of the drawn player he sits in for
    from_hand: int | None = None  # a substitute: the hand he joined at


@dataclass
class RoundTableSheet:
    """What the table sheet of a round table adds to the ordinary one (section 12)."""

    tournament: Tournament
    round: Round
    number: int
    round_table: RoundTable | None
    players: list[SheetPlayer]
    target: int | None
    hands: int | None
    started_at: datetime.datetime | None
    ended_at: datetime.datetime | None
    ended_by: str
    basis: str
    closed: bool
    corrections: list[CorrectionLine]
    signal_hand: int | None = None  # the hand the table marked begun before the signal


def round_table_for_club(
    *, club, round_pk: int, number: int
) -> tuple[Round, RoundTable | None] | None:
    """Return the club's round ``round_pk`` and its table ``number`` (None before the draw is
    published, when the draw alone seats it); None when the round or the table is not there."""
    round_ = round_for_club(club=club, pk=round_pk)
    if round_ is None or not 1 <= number <= len(round_.tables):
        return None
    rt = (
        RoundTable.objects.filter(round=round_, number=number)
        .select_related("table__evening__club", "table__evening__season")
        .first()
    )
    return round_, rt


def round_table_sheet(round_: Round, rt: RoundTable | None, number: int) -> RoundTableSheet:
    """Return the tournament's part of a round table's sheet: who sat there in seat order
    (seat 1 dealt first) with his table score in the format's basis, place and tournament
    points (before the close: the balance so far), a substitute marked, the start (the
    round's) and the end (the table's first close), why it ended, the hands against the
    target and the corrections made to it after the round closed. A fixed number of
    queries."""
    tournament = round_.tournament
    rules = engine.FORMATS[tournament.tournament_format]
    params = service.tournament_params(tournament)
    entries = list(tournament.entries.all())
    by_code = {e.code: e for e in entries}
    by_member = {e.member_id: e for e in entries}
    codes = list(rt.seats) if rt is not None else list(round_.tables[number - 1])
    closed = round_.status == Round.Status.CLOSED and rt is not None
    results = rt.results if closed else {}
    players: list[SheetPlayer] = []
    ended_at = None
    hands = None
    table = rt.table if rt is not None else None
    if table is not None:
        scores = service.table_scores(table)
        replaced = {
            sub.get("member"): by_code[code].name if code in by_code else code
            for code, sub in (rt.substitutes or {}).items()
        }
        seated = set()
        for i, seat in enumerate(Seat.objects.filter(table=table).order_by("position"), 1):
            entry = by_member.get(seat.member_id)
            before, final, left = scores.get(seat.member_id, (0, 0, seat.left))
            score = before if rules.basis == BEFORE_SPLIT else final
            if entry is None or entry.code not in codes:
                players.append(
                    SheetPlayer(
                        seat=i,
                        name=seat.name,
                        club="",
                        score=score,
                        left=left,
                        substitute=True,
                        replaces=replaced.get(seat.member_id, ""),
                        from_hand=seat.joined_at_hand,
                    )
                )
                continue
            seated.add(entry.code)
            players.append(_drawn_player(entry, i, results.get(entry.code), score, left))
        for code in codes:  # drawn, never seated (a substitute sat in for him)
            if code not in seated and code in by_code:
                players.append(_drawn_player(by_code[code], None, results.get(code), None, False))
        hands = (
            rt.hands_played
            if closed and rt.hands_played is not None
            else (service.hands_played(table.pk))
        )
        ended_at = (
            Posting.objects.filter(table=table, kind=Posting.Kind.SPLIT)
            .order_by("created_at")
            .values_list("created_at", flat=True)
            .first()
        )
    else:
        players = [
            _drawn_player(by_code[c], i, None, None, False)
            if c in by_code
            else SheetPlayer(seat=i, name=c, club="", score=None)
            for i, c in enumerate(codes, 1)
        ]
    return RoundTableSheet(
        tournament=tournament,
        round=round_,
        number=number,
        round_table=rt,
        players=players,
        target=params.target_for(len(codes)),
        hands=hands,
        started_at=round_.started_at,
        ended_at=ended_at,
        ended_by=rt.get_ended_by_display() if rt is not None and rt.ended_by else "",
        basis=score_basis_text(tournament),
        closed=closed,
        corrections=[c for c in corrections(tournament, round_=round_) if c.table == number],
        signal_hand=rt.signal_hand if rt is not None else None,
    )


def _drawn_player(entry: Entry, seat, result: dict | None, score, left: bool) -> SheetPlayer:
    if result is None:
        return SheetPlayer(seat=seat, name=entry.name, club=entry.club_name, score=score, left=left)
    return SheetPlayer(
        seat=seat,
        name=entry.name,
        club=entry.club_name,
        score=result["score"],
        place=result["place"],
        points=engine.points_decimal(service.points_of(result["points"])),
        first=bool(result.get("first")),
        left=bool(result.get("left")),
    )


def where_to_sit(round_: Round | None) -> list[dict]:
    """Return every player of the round alphabetically with his table and seat (or a bye)."""
    if round_ is None:
        return []
    return where_to_sit_in(round_, entry_names(round_.tournament))


@dataclass
class AfterRound:
    """What a round table's phone shows once its round is over (as a Bridgemate tells each
    table where to move): each of its players' result of the round and, once the next round
    is published, where each of them sits next."""

    results: list[dict]
    next_round: int | None = None
    next_seats: list[dict] = field(default_factory=list)


def after_round(rt: RoundTable) -> AfterRound:
    """Return the table's results of its closed round and its players' next tables."""
    round_ = rt.round
    names = entry_names(round_.tournament)
    results = []
    for code in rt.seats:
        result = (rt.results or {}).get(code)
        results.append(
            {
                "name": names.get(code, code),
                "score": result["score"] if result else None,
                "place": result["place"] if result else None,
                "points": engine.points_decimal(service.points_of(result["points"]))
                if result
                else None,
            }
        )
    following = (
        Round.objects.filter(
            tournament_id=round_.tournament_id,
            number=round_.number + 1,
            status__in=(Round.Status.PUBLISHED, Round.Status.PLAYING, Round.Status.CLOSED),
        )
        .only("number", "tables", "byes", "tournament_id")
        .first()
    )
    view = AfterRound(results=results)
    if following is not None:
        mine = {names.get(c, c) for c in rt.seats}
        view.next_round = following.number
        view.next_seats = [row for row in where_to_sit_in(following, names) if row["name"] in mine]
    return view


def where_to_sit_in(round_: Round, names: dict[str, str]) -> list[dict]:
    """Return every player of the round alphabetically with his table and seat (or a bye)."""
    rows = []
    for number, seats in enumerate(round_.tables, 1):
        for seat, code in enumerate(seats, 1):
            rows.append({"name": names.get(code, code), "table": number, "seat": seat})
    rows.extend({"name": names.get(c, c), "table": None, "seat": None} for c in round_.byes)
    return sorted(rows, key=lambda r: r["name"].casefold())


def draw_of(seats: list[dict]) -> dict:
    """Return the draw by table from ``where_to_sit``'s rows: ``tables`` (each its number and
    its players' names in seat order) and ``byes`` (names), for the hall's wall."""
    tables: dict[int, list[dict]] = {}
    for row in seats:
        if row["table"] is not None:
            tables.setdefault(row["table"], []).append(row)
    return {
        "tables": [
            {"number": n, "names": [r["name"] for r in sorted(rows, key=lambda r: r["seat"])]}
            for n, rows in sorted(tables.items())
        ],
        "byes": [row["name"] for row in seats if row["table"] is None],
    }


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
            by=line.get("by") or "",
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


@dataclass
class RoundStrip:
    """What a round table's own screens show of its round (issue 21 part 4): the round, the
    table, the hands against the target, the clock (seconds to the signal and, after it, to
    the end of the entry grace) and the table's reports, for ``_round_strip.html``."""

    round_table: RoundTable
    round: Round
    tournament: Tournament
    hands: int
    target: int | None
    left: int | None
    grace_left: int | None
    may_mark: bool
    players: list[tuple[str, str]]
    missing: list[str]
    substitutes: list[tuple[str, str]]

    @property
    def closed(self) -> bool:
        return self.round.status == Round.Status.CLOSED

    @property
    def after_signal(self) -> bool:
        return self.left == 0 and not self.closed

    @property
    def finished(self) -> bool:
        """Return whether the table takes no more hands: its target played, its hands closed
        after the signal's grace, or its round closed."""
        if self.closed or self.grace_left == 0:
            return True
        return self.target is not None and self.hands >= self.target

    @property
    def left_text(self) -> str:
        return clock_text(self.left or 0)

    @property
    def closes_at(self):
        """Return when the table's hands close: the signal plus the entry grace."""
        signal = self.round.signal_at
        if signal is None:
            return None
        grace = service.tournament_params(self.tournament).entry_grace_min
        return signal + datetime.timedelta(minutes=grace)

    @property
    def next_hand(self) -> int:
        return self.hands + 1


def clock_text(seconds: int) -> str:
    """Return a count of seconds as the round's clock shows it: H:MM:SS."""
    seconds = max(0, int(seconds))
    return f"{seconds // 3600}:{seconds % 3600 // 60:02d}:{seconds % 60:02d}"


def round_strip(table, *, now=None) -> RoundStrip | None:
    """Return the round strip of ``table`` when it is a round table of a tournament, else
    None (three queries; one for another table)."""
    rt = RoundTable.objects.filter(table_id=table.pk).select_related("round__tournament").first()
    if rt is None:
        return None
    return strip_of(rt, hands=service.hands_played(table.pk), now=now)


def strip_of(rt: RoundTable, *, hands: int, now=None) -> RoundStrip:
    """Return the strip of the round table ``rt`` (its round and tournament selected)."""
    round_, tournament = rt.round, rt.round.tournament
    params = service.tournament_params(tournament)
    left = grace_left = None
    if round_.started_at is not None:
        elapsed = ((now or timezone.now()) - round_.started_at).total_seconds()
        signal = round_.time_limit_min * 60
        left = max(0, int(signal - elapsed))
        if left == 0:
            grace_left = max(0, int(signal + params.entry_grace_min * 60 - elapsed))
    names = dict(tournament.entries.filter(code__in=rt.seats).values_list("code", "name"))
    return RoundStrip(
        round_table=rt,
        round=round_,
        tournament=tournament,
        hands=hands,
        target=params.target_for(len(rt.seats)),
        left=left,
        grace_left=grace_left,
        may_mark=params.at_signal != "abort" and rt.signal_hand is None,
        players=[(c, names.get(c, c)) for c in rt.seats],
        missing=[names.get(c, c) for c in rt.missing],
        substitutes=[(names.get(c, c), s.get("name", "")) for c, s in rt.substitutes.items()],
    )


# A round table's link token: ``secrets.token_urlsafe`` text (URL-safe base64), at most 64.
LINK_TOKEN = re.compile(r"[A-Za-z0-9_-]{1,64}")


def round_table_by_token(*, club, token: str) -> RoundTable | None:
    """Return the round table of ``club`` whose own link is ``token`` (its round and
    tournament selected), or None."""
    if not token or not LINK_TOKEN.fullmatch(token):
        return None
    return (
        RoundTable.objects.filter(token=token, round__tournament__club=club)
        .select_related("round__tournament__club", "table")
        .first()
    )


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
    "release": _("a table's link handed over"),
    "substitute": _("a substitute seated"),
    "finish": _("made final"),
    "reopen": _("reopened"),
    "cancel": _("cancelled"),
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
        if line.get("reason"):
            details.append(str(line["reason"]))
        lines.append(
            LogLine(
                at=parse_datetime(line.get("at", "")) or line.get("at", ""),
                text=str(LOG_ACTIONS.get(verb, verb)),
                by=line.get("by") or "",
                detail="; ".join(details),
            )
        )
    return lines
