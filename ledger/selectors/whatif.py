"""What if: an evening's or a season's hands replayed under another rate card, beside the
points, money and rank they really gave. Read-only: nothing is written, the ledger is only read.

The replay walks each table's postings in the order they were written, as ``verify_ledger``
does (``selectors.verify._verify_table``, the check that the stored moves are the rules'
moves), but settles each under the other card:

- a **hand** posting settles its revision's stored record (the game facts entered at the
  table) from the state the replay holds (cups, pools, radli carried from the hand before
  through ``next_state``); a hand the other card refuses (a contract it does not know, a
  bound it breaks) is **unscored**: it moves nothing, it is listed with the card's reason,
  and the state runs on from the hand before it;
- a **reversal** (a void, a correction, a reopening) mirrors the replayed moves of the
  posting it reverses, and a reversed hand's state is forgotten, as the ledger forgets it;
- a **funding** (a table's opening, a late arrival) is the other card's ``seat_moves`` for
  each member it funded;
- an **adjustment** (the treasurer's reconciliation with a jeton count) moves what it moved;
- a **split** (the close) is the game's ``close`` under the other card, from the replayed
  balances.

A member's points of an evening are the sum of his accounts' balances over the evening's
tables, his money ``to_money(points, evening.price_per_point)`` at the evening's own price (the
other card changes the points, not the price), and a season sums both over its closed club
evenings; the rank is the site's one ranking (``selectors.ranking.ranked``). Under the
evening's own card the replay gives back the ledger exactly (a test holds it on every closed
evening of the demo clubs).
"""

from __future__ import annotations

import copy
import datetime
from collections import defaultdict
from collections.abc import Mapping
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any, cast

from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from ledger.games.base import preset_card
from ledger.games.errors import RateCardError, RulesError
from ledger.games.money import to_money
from ledger.games.registry import get_game, get_web
from ledger.games.validation import check_moves
from ledger.models import (
    Account,
    Club,
    Evening,
    Posting,
    Season,
    Seat,
    Table,
    Transfer,
)
from ledger.selectors.ranking import ranked
from ledger.selectors.tournaments import standings_input
from ledger.services import tournaments as service
from ledger.services.errors import problem, problem_text
from ledger.tournaments import engine

# How many of the hands that changed most a comparison explains.
TOP_HANDS = 5


# --- the other card ------------------------------------------------------------------------


@dataclass(frozen=True)
class Card:
    """The rate card to replay under: its game, the card, and how the screens name it."""

    game: str
    rates: Any  # the game's rate card (``Game.rate_card``)
    label: str


def card_from_preset(game_code: str, name: str) -> Card:
    """Return the card of the preset ``name`` of the game ``game_code``; RateCardError naming
    ``preset`` for a name the game has no preset of."""
    game = get_game(game_code)
    card = preset_card(game, name)
    preset = next(p for p in game.presets if p.name == name)
    return Card(game.code, card, gettext("preset {title}").format(title=gettext(preset.title)))


def card_from_data(game_code: str, data) -> Card:
    """Return the card of ``data`` (a ``tarokclub.rates/1`` object: keys it leaves out take the
    game's defaults); RateCardError naming each bad key, or ``game`` when the card is of
    another game than the evenings compared."""
    game = get_game(game_code)
    if not isinstance(data, Mapping):
        raise RateCardError([problem("rates", _("a rate card must be a JSON object"))])
    named = data.get("game", game.code)
    if named != game.code:
        raise RateCardError(
            [
                problem(
                    "game",
                    _("the rate card is of the game {card}, the evenings of {game}"),
                    card=named,
                    game=game.code,
                )
            ]
        )
    return Card(game.code, game.rate_card(dict(data)), gettext("the rate card entered"))


def card_from_club(game_code: str, club: Club) -> Card:
    """Return the house rules of ``club`` (another club of the installation) as the card;
    RateCardError naming ``club`` when it plays another game."""
    game = get_game(game_code)
    if club.game != game.code:
        raise RateCardError(
            [
                problem(
                    "club",
                    _("{club} plays {other}, not {game}"),
                    club=club.name,
                    other=club.game,
                    game=game.code,
                )
            ]
        )
    return Card(
        game.code,
        game.rate_card(club.rate_card or {}),
        gettext("the house rules of {club}").format(club=club.name),
    )


def clubs_of_game(game_code: str, *, exclude: Club | None = None) -> list[Club]:
    """Return the clubs of the installation playing ``game_code`` (their cards may be tried)."""
    clubs = Club.objects.filter(game=game_code).order_by("name", "pk").only("pk", "name", "slug")
    if exclude is not None:
        clubs = clubs.exclude(pk=exclude.pk)
    return list(clubs)


# --- the result ----------------------------------------------------------------------------


@dataclass
class MemberLine:
    """One member's points, money and rank as played and as they would have been."""

    member_id: int
    name: str
    points_played: int = 0
    points_whatif: int = 0
    money_played: Decimal = Decimal("0.00")
    money_whatif: Decimal = Decimal("0.00")
    rank_played: int = 0
    rank_whatif: int = 0

    @property
    def points_difference(self) -> int:
        return self.points_whatif - self.points_played

    @property
    def money_difference(self) -> Decimal:
        return self.money_whatif - self.money_played

    @property
    def rank_difference(self) -> int:
        """Places gained (positive) or lost (negative) under the other card."""
        return self.rank_played - self.rank_whatif

    def as_json(self) -> dict:
        return {
            "member": self.name,
            "points_played": self.points_played,
            "points_whatif": self.points_whatif,
            "money_played": str(self.money_played),
            "money_whatif": str(self.money_whatif),
            "rank_played": self.rank_played,
            "rank_whatif": self.rank_whatif,
        }


@dataclass
class Unscored:
    """A hand (or a table's close, ``hand`` None) the other card cannot score, and why."""

    evening_id: int
    date: datetime.date
    table: int
    hand: int | None
    reasons: list[str]

    def as_json(self) -> dict:
        return {
            "evening": self.evening_id,
            "date": self.date.isoformat(),
            "table": self.table,
            "hand": self.hand,
            "reasons": self.reasons,
        }


@dataclass
class HandChange:
    """A live hand whose moves differ under the other card: each member's points from it as
    played and as they would have been, and both stories in the preview's words."""

    evening_id: int
    date: datetime.date
    table: int
    hand: int
    change: int  # the points that moved differently, summed over the members
    members: list[tuple[str, int, int]]  # (name, as played, what if), those that changed
    story_played: list[str] = field(default_factory=list)
    story_whatif: list[str] = field(default_factory=list)

    def as_json(self) -> dict:
        return {
            "evening": self.evening_id,
            "date": self.date.isoformat(),
            "table": self.table,
            "hand": self.hand,
            "members": [
                {"member": name, "points_played": played, "points_whatif": whatif}
                for name, played, whatif in self.members
            ],
            "story_played": [str(line) for line in self.story_played],
            "story_whatif": [str(line) for line in self.story_whatif],
        }


@dataclass
class Comparison:
    """The members side by side, the unscored hands, the hands that changed most, and the
    evenings left as played (of another game than the card's)."""

    card_label: str
    members: list[MemberLine]
    unscored: list[Unscored]
    hands: list[HandChange]
    evenings: int = 0
    other_game: list = field(default_factory=list)  # evenings kept as played

    @property
    def differences(self) -> int:
        """How many members' points differ."""
        return sum(1 for m in self.members if m.points_difference)

    def as_json(self) -> dict:
        return {
            "card": str(self.card_label),
            "evenings": self.evenings,
            "members": [m.as_json() for m in self.members],
            "unscored": [u.as_json() for u in self.unscored],
            "hands": [h.as_json() for h in self.hands],
            "other_game": [e.pk for e in self.other_game],
        }


# --- reading the facts ---------------------------------------------------------------------


@dataclass
class _Table:
    table: Table
    seats: list[str] = field(default_factory=list)  # every seat, in the direction of play
    codes: dict[int, str] = field(default_factory=dict)  # account id -> code, in id order
    member_of: dict[str, int] = field(default_factory=dict)  # member code -> member id
    postings: list[tuple] = field(default_factory=list)
    moves: dict[int, list[tuple]] = field(default_factory=lambda: defaultdict(list))


def _facts(evenings: list[Evening]) -> tuple[list[_Table], dict[int, str]]:
    """Return every table of ``evenings`` with its seats, accounts, postings and stored moves,
    and the members' current names by id (five queries, whatever the number of evenings)."""
    tables = {
        t.pk: _Table(table=t)
        for t in Table.objects.filter(evening__in=[e.pk for e in evenings]).order_by(
            "evening_id", "number"
        )
    }
    by_id = {e.pk: e for e in evenings}
    for facts in tables.values():
        facts.table.evening = by_id[facts.table.evening_id]
    for table_id, name in (
        Seat.objects.filter(table__in=list(tables))
        .order_by("table_id", "position")
        .values_list("table_id", "name")
    ):
        tables[table_id].seats.append(name)
    names: dict[int, str] = {}
    for pk, table_id, code, member_id, member_name in (
        Account.objects.filter(table__in=list(tables))
        .order_by("pk")
        .values_list("pk", "table_id", "code", "member_id", "member__name")
    ):
        tables[table_id].codes[pk] = code
        if member_id is not None:
            tables[table_id].member_of[code] = member_id
            names[member_id] = member_name
    for row in (
        Posting.objects.filter(table__in=list(tables))
        .order_by("pk")
        .values_list(
            "pk", "table_id", "kind", "hand__number", "revision__record", "reverses_id",
            "state_before",
        )
    ):  # fmt: skip
        tables[row[1]].postings.append(row)
    for posting_id, table_id, source, target, points, reason in (
        Transfer.objects.filter(table__in=list(tables))
        .order_by("posting_id", "pk")
        .values_list("posting_id", "table_id", "source_id", "target_id", "points", "reason")
    ):
        codes = tables[table_id].codes
        tables[table_id].moves[posting_id].append((codes[source], codes[target], points, reason))
    return list(tables.values()), names


# --- the replay ----------------------------------------------------------------------------


@dataclass
class _Replay:
    """One table replayed: the balances by code, each posting's moves, the state each hand
    was settled from, and the hands and close the card could not score."""

    balances: dict[str, int]
    moves: dict[int, list[tuple]]
    states: dict[int, Mapping]
    unscored: list[tuple[int | None, list[str]]]


def _reasons(error: RulesError) -> list[str]:
    return [(f"{p.field}: " if p.field else "") + problem_text(p) for p in error.problems]


def replay_table(facts: _Table, rates) -> _Replay:
    """Replay the table's postings in order under ``rates`` (see the module's docstring)."""
    game = get_game(facts.table.game)
    pools = game.features.pool_codes
    balance: dict[str, int] = {code: 0 for code in facts.codes.values()}
    moves: dict[int, list[tuple]] = {}
    states: dict[int, Mapping] = {}
    live: dict[int, Mapping | None] = {}  # live hand postings, in order: their state after
    unscored: list[tuple[int | None, list[str]]] = []
    for pk, _table, kind, number, record, reverses, _before in facts.postings:
        previous = live[max(live)] if live else None
        pool_now = {code: balance[code] for code in pools}
        these: list[tuple] = []
        if kind == Posting.Kind.HAND:
            state = game.next_state(previous, pool_now, (record or {}).get("seats", facts.seats))
            states[pk] = state
            try:
                parsed = game.parse_hand(record, rates, state=state)
                settlement = game.settle(parsed, rates, state)
                check_moves(settlement.transfers)
            except RulesError as error:
                unscored.append((number, _reasons(error)))
                live[pk] = previous  # the hand moves nothing; the state runs on
            else:
                these = [(t.source, t.target, t.points, t.reason) for t in settlement.transfers]
                live[pk] = settlement.state_after
        elif kind == Posting.Kind.REVERSAL:
            these = [(t, s, p, r) for s, t, p, r in reversed(moves.get(reverses, []))]
            live.pop(reverses, None)
        elif kind == Posting.Kind.FUNDING:
            funded = dict.fromkeys(
                code
                for move in facts.moves.get(pk, [])
                for code in move[:2]
                if code in facts.member_of
            )
            these = [
                (m.source, m.target, m.points, m.reason)
                for code in funded
                for m in game.seat_moves(code, rates)
            ]
        elif kind == Posting.Kind.SPLIT:
            state = game.next_state(previous, pool_now, facts.seats)
            try:
                close = game.close(dict(balance), state, rates, facts.seats)
                check_moves(close)
            except RulesError as error:
                unscored.append((None, _reasons(error)))
            else:
                these = [(m.source, m.target, m.points, m.reason) for m in close]
        else:  # an adjustment moves what the treasurer asked
            these = list(facts.moves.get(pk, []))
        moves[pk] = these
        for source, target, points, _reason in these:
            balance[source] = balance.get(source, 0) - points
            balance[target] = balance.get(target, 0) + points
    return _Replay(balance, moves, states, unscored)


def _net(moves, code: str) -> int:
    return sum(p for _s, t, p, _r in moves if t == code) - sum(
        p for s, _t, p, _r in moves if s == code
    )


def _stories(facts: _Table, pk: int, record, rates, state) -> list[str]:
    """Return the preview's words for the hand of posting ``pk`` settled under ``rates``."""
    game = get_game(facts.table.game)
    try:
        parsed = game.parse_hand(record, rates, state=state)
        settlement = game.settle(parsed, rates, state)
    except RulesError:
        return []
    return list(get_web(facts.table.game).preview_story(parsed, settlement, state))


# --- comparing -----------------------------------------------------------------------------


def compare(evenings: list[Evening], card: Card | None, *, top: int = TOP_HANDS) -> Comparison:
    """Replay ``evenings`` under ``card`` (None: each evening's own card) and compare each
    member's points, money and rank with the ledger's. An evening of another game than the
    card's is kept as played and named in ``other_game``."""
    tables, names = _facts(evenings)
    lines: dict[int, MemberLine] = {}
    unscored: list[Unscored] = []
    changes: list[tuple[HandChange, _Table, int, tuple]] = []
    other_game = [e for e in evenings if card is not None and e.game != card.game]
    per_evening: dict[tuple[int, int], list[int]] = defaultdict(lambda: [0, 0])
    for facts in tables:
        evening = facts.table.evening
        own = get_game(facts.table.game).rate_card(evening.rate_card)
        if card is None:
            rates = own
        elif card.game == facts.table.game:
            rates = card.rates
        else:
            rates = None
        played = {code: 0 for code in facts.codes.values()}
        for these in facts.moves.values():
            for source, target, points, _reason in these:
                played[source] -= points
                played[target] += points
        replay = replay_table(facts, rates) if rates is not None else None
        whatif = replay.balances if replay is not None else played
        for code, member_id in facts.member_of.items():
            cell = per_evening[(member_id, evening.pk)]
            cell[0] += played.get(code, 0)
            cell[1] += whatif.get(code, 0)
        if replay is None:
            continue
        for number, reasons in replay.unscored:
            unscored.append(Unscored(evening.pk, evening.date, facts.table.number, number, reasons))
        reversed_ids = {row[5] for row in facts.postings if row[5]}
        for row in facts.postings:
            pk, kind, number = row[0], row[2], row[3]
            if kind != Posting.Kind.HAND or pk in reversed_ids:
                continue
            stored, again = facts.moves.get(pk, []), replay.moves.get(pk, [])
            if stored == again:
                continue
            members = [
                (code, _net(stored, code), _net(again, code))
                for code in facts.member_of
                if _net(stored, code) != _net(again, code)
            ]
            size = sum(abs(w - p) for _c, p, w in members)
            change = HandChange(evening.pk, evening.date, facts.table.number, number, size, members)
            changes.append((change, facts, pk, (row[4], own, rates, row[6], replay.states[pk])))
    evening_of = {e.pk: e for e in evenings}
    for (member_id, evening_id), (points, points_whatif) in per_evening.items():
        line = lines.setdefault(member_id, MemberLine(member_id, names.get(member_id, "")))
        price = evening_of[evening_id].price_per_point
        line.points_played += points
        line.points_whatif += points_whatif
        line.money_played += to_money(points, price)
        line.money_whatif += to_money(points_whatif, price)
    rows = list(lines.values())
    ranked(
        rows,
        points=lambda r: r.points_whatif,
        name=lambda r: r.name,
        set_rank=lambda r, rank: setattr(r, "rank_whatif", rank),
    )
    rows = ranked(
        rows,
        points=lambda r: r.points_played,
        name=lambda r: r.name,
        set_rank=lambda r, rank: setattr(r, "rank_played", rank),
    )
    changes.sort(key=lambda c: (-c[0].change, c[0].date, c[0].table, c[0].hand))
    hands = []
    for change, facts, pk, (record, own, rates, state_before, state) in changes[:top]:
        change.story_played = _stories(facts, pk, record, own, state_before)
        change.story_whatif = _stories(facts, pk, record, rates, state)
        hands.append(change)
    unscored.sort(key=lambda u: (u.date, u.evening_id, u.table, u.hand or 0))
    return Comparison(
        card_label=card.label if card else gettext("each evening's own rate card"),
        members=rows,
        unscored=unscored,
        hands=hands,
        evenings=len(evenings),
        other_game=other_game,
    )


def compare_evening(evening: Evening, card: Card | None, **options) -> Comparison:
    """Compare one evening (open or closed) under ``card``."""
    return compare([evening], card, **options)


def season_evenings_closed(season: Season) -> list[Evening]:
    """Return the season's closed club evenings, oldest first: what a season's what-if replays."""
    return list(
        Evening.objects.filter(
            season=season, status=Evening.Status.CLOSED, kind=Evening.Kind.CLUB
        ).order_by("date", "pk")
    )


def compare_season(season: Season, card: Card | None, **options) -> Comparison:
    """Compare the season's closed club evenings under ``card``."""
    return compare(season_evenings_closed(season), card, **options)


def game_of_evenings(evenings: list[Evening], default: str) -> str:
    """Return the game the evenings are played in (the most common; ``default`` for none)."""
    counts: dict[str, int] = defaultdict(int)
    for evening in evenings:
        counts[evening.game] += 1
    return max(counts, key=lambda g: (counts[g], g)) if counts else default


# --- a tournament under another format -----------------------------------------------------


@dataclass
class EntryLine:
    """One entry's tournament points and rank as played and under the other format."""

    code: str
    name: str
    points_played: str = ""
    points_whatif: str = ""
    rank_played: int = 0
    rank_whatif: int = 0

    @property
    def rank_difference(self) -> int:
        return self.rank_played - self.rank_whatif

    def as_json(self) -> dict:
        return {
            "member": self.name,
            "points_played": self.points_played,
            "points_whatif": self.points_whatif,
            "money_played": None,
            "money_whatif": None,
            "rank_played": self.rank_played,
            "rank_whatif": self.rank_whatif,
        }


@dataclass
class TournamentComparison:
    """A tournament's ranking as played and under another format's points and tie-breaks."""

    format_played: str
    format_whatif: str
    rounds: int
    members: list[EntryLine]

    @property
    def differences(self) -> int:
        return sum(
            1 for m in self.members if m.rank_difference or m.points_played != m.points_whatif
        )

    def as_json(self) -> dict:
        return {
            "format": self.format_whatif,
            "rounds": self.rounds,
            "members": [m.as_json() for m in self.members],
            "unscored": [],
        }


def formats_for(tournament) -> list[str]:
    """Return the formats a tournament's closed rounds can be ranked under: those of its game
    whose table score has the same basis as its own (the stored scores are in that basis)."""
    own = engine.FORMATS[tournament.tournament_format]
    return [
        code
        for code, rules in engine.FORMATS.items()
        if engine.plays(code, tournament.game) and rules.basis == own.basis
    ]


def compare_tournament(tournament, format_code: str) -> TournamentComparison:
    """Rank the tournament's closed rounds (their draws and stored table scores as played)
    under ``format_code``'s points and tie-breaks beside its own ranking; RulesError naming
    ``format`` for a format its scores cannot be ranked under. The draws stay as they were:
    a later round's draw is not redrawn from the other standings."""
    allowed = formats_for(tournament)
    if format_code not in allowed:
        raise RulesError(
            [
                problem(
                    "format",
                    _("{format} cannot rank this tournament's scores; its formats are: {names}"),
                    format=format_code,
                    names=", ".join(allowed),
                )
            ]
        )
    given = standings_input(tournament)
    other = copy.copy(tournament)
    other.tournament_format = format_code
    results: dict[int, list[dict]] = {}
    for number, table_results in given.results:
        results.setdefault(number, []).append(table_results)
    lines: dict[str, EntryLine] = {
        # standings_input names every entry (the engine's name is optional)
        e.id: EntryLine(code=e.id, name=cast(str, e.name))
        for e in given.entries
    }
    for which, subject in (("played", tournament), ("whatif", other)):
        played = [
            service.played_round(subject, draw, results.get(draw.number, []))
            for draw in given.draws
        ]
        for row in service.ranking_of(subject, given.entries, played):
            line = lines[row.id]
            setattr(line, f"points_{which}", engine.points_decimal(row.points))
            setattr(line, f"rank_{which}", row.rank)
    members = sorted(lines.values(), key=lambda m: (m.rank_played, m.code))
    return TournamentComparison(
        format_played=tournament.tournament_format,
        format_whatif=format_code,
        rounds=len(given.draws),
        members=members,
    )
