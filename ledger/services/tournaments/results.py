"""A round table's result: its score in the format's basis, places and points, why it ended
(sections 6 and 10)."""

from __future__ import annotations

from collections.abc import Sequence

from django.utils.translation import gettext_lazy as _

from ledger.games.base import SPLIT
from ledger.games.registry import get_game
from ledger.models import (
    Posting,
    Round,
    RoundTable,
    Seat,
    Table,
    Transfer,
    not_reversed,
)
from ledger.services.errors import LedgerError
from ledger.services.ledger import table_balances
from ledger.services.targets import hands_played
from ledger.services.tournaments.common import refused
from ledger.tournaments import engine
from ledger.tournaments.engine.errors import TournamentError
from ledger.tournaments.engine.rules import BEFORE_SPLIT


def table_ended_by(rt: RoundTable, params: engine.Params, game: str, *, closed_at) -> str:
    """Return why a round table's round ended (section 10): ``short`` when a player left and
    too few stayed for the game, ``target`` when it played its hands target, ``director`` when
    the round was closed (at ``closed_at``) before its signal, else ``time``."""
    staying = Seat.objects.filter(table_id=rt.table_pk, left=False).count()
    short = staying < get_game(game).features.min_seats
    signal = rt.round.signal_at
    return engine.ended_by(
        params=params,
        table_size=len(rt.seats),
        hands_played=hands_played(rt.table_pk),
        short=short,
        before_signal=signal is not None and closed_at < signal,
    )


def table_scores(table: Table) -> dict[int, tuple[int, int, bool]]:
    """Return each seated member's (before_split, final, left) of a closed table, by member
    id: ``final`` his balance after the close, ``before_split`` that less his share of the
    split (the close's moves of reason ``SPLIT``; a Slovenian radelc penalty of the close
    counts before the split, section 6)."""
    balances = table_balances(table.pk)
    split = Posting.objects.filter(not_reversed(), table=table, kind=Posting.Kind.SPLIT).first()
    net: dict[str, int] = {}
    if split is not None:
        shares = Transfer.objects.filter(posting=split, reason=SPLIT)
        for t in shares.select_related("source", "target"):
            net[t.source.code] = net.get(t.source.code, 0) - t.points
            net[t.target.code] = net.get(t.target.code, 0) + t.points
    result = {}
    for seat in Seat.objects.filter(table=table):
        final = balances.get(seat.name, 0)
        result[seat.member_id] = (final - net.get(seat.name, 0), final, seat.left)
    return result


def round_results(round_: Round, round_tables: Sequence[RoundTable]):
    """Return what the closed tables of a round give (section 6): per round table the results
    of its seats ({code: {score, place, points, first, left}}), the byes' points and the
    players who left. Read from each table's close, in the format's basis; ``round_close``
    stores it and ``verify_ledger`` compares it with what was stored.

    Raise LedgerError for a tournament player with a result at a table the draw did not seat
    him at, or a drawn player without one (a substitute's result counts for no one).
    """
    tournament = round_.tournament
    entries = {e.member_id: e for e in tournament.entries.all()}
    basis = engine.FORMATS[tournament.tournament_format].basis
    flat: dict[str, int] = {}
    leavers: set[str] = set()
    for rt in round_tables:
        seated = set(rt.seats)
        for member_id, (before, final, left) in table_scores(rt.started_table).items():
            entry = entries.get(member_id)
            if entry is None:
                continue  # a substitute
            if entry.code not in seated:
                raise LedgerError(
                    _("{name} has a result at table {number} but is not seated there"),
                    "__all__",
                    name=entry.name,
                    number=rt.number,
                )
            flat[entry.code] = before if basis == BEFORE_SPLIT else final
            if left:
                leavers.add(entry.code)
    try:
        points = engine.round_points(
            tournament.tournament_format,
            tournament.game,
            [tuple(rt.seats) for rt in round_tables],
            flat,
            byes=tuple(round_.byes),
            leavers=leavers,
        )
    except TournamentError as error:
        raise refused(error, "__all__") from error
    seats = {s.player: s for s in points.seats}
    results = {
        rt.pk: {
            code: {
                "score": seats[code].score,
                "place": seats[code].place,
                "points": str(seats[code].points),
                "first": seats[code].first,
                "left": seats[code].left,
            }
            for code in rt.seats
        }
        for rt in round_tables
    }
    return results, str(points.bye_points), leavers
