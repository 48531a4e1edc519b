"""Reads of a round table for its phone, its sheet and its strip: where the players sit, the
table's sheet to sign, the clock and the hands target, the table's own link (issue 21 part 4)."""

from __future__ import annotations

import datetime
import re
from dataclasses import dataclass, field

from django.utils import timezone

from ledger.models import Entry, Posting, Round, RoundTable, Seat, Tournament
from ledger.selectors.tournaments import (
    CorrectionLine,
    corrections,
    entry_names,
    round_for_club,
    score_basis_text,
)
from ledger.services import tournaments as service
from ledger.tournaments import engine
from ledger.tournaments.engine.rules import BEFORE_SPLIT


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
    results = rt.results if closed and rt is not None else {}
    players: list[SheetPlayer] = []
    ended_at = None
    hands = None
    table = rt.table if rt is not None else None
    if rt is not None and table is not None:  # a table only with its round table
        scores = service.table_scores(table)
        replaced = {
            sub.get("member"): by_code[code].name if code in by_code else code
            for code, sub in (rt.substitutes or {}).items()
        }
        seated = set()
        seats = Seat.objects.filter(table=table).select_related("member").order_by("position")
        for i, seat in enumerate(seats, 1):
            entry = by_member.get(seat.member_id)
            before, final, left = scores.get(seat.member_id, (0, 0, seat.left))
            score = before if rules.basis == BEFORE_SPLIT else final
            if entry is None or entry.code not in codes:
                players.append(
                    SheetPlayer(
                        seat=i,
                        # An erased substitute by his label, not the name he was seated by.
                        name=seat.member.name if seat.member.erased_at else seat.name,
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
