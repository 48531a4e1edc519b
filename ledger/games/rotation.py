"""The "dealer sits out at five seats" rotation, shared by Slovenian and Hungarian tables.

Pure Python. Seats are listed in the direction of play. The deal moves one seat on each
hand. At 5 seats the dealer sits out and the other four play; at fewer seats everyone
plays. Forehand is the first active seat after the dealer.
"""

from __future__ import annotations

from collections.abc import Sequence

from ledger.games.base import Dealt, Schedule


def seat_after(seats: Sequence[str], dealt: Dealt, steps: int = 1) -> str:
    """Return the seat ``steps`` on from the dealer of ``dealt`` in the current ``seats``.

    The current order decides, so a late arrival seated after the dealer is dealt in from his
    seat. A dealer who has left since counts as sitting where he sat: the first seat after him
    in ``dealt.seats`` that is still at the table is one step on, and so on from there.
    """
    seats = tuple(seats)
    if not seats:
        raise ValueError("no seats")
    if dealt.dealer in seats:
        return seats[(seats.index(dealt.dealer) + steps) % len(seats)]
    if steps < 1:
        raise ValueError("a dealer who has left is no seat")
    old = tuple(dealt.seats)
    start = old.index(dealt.dealer) if dealt.dealer in old else -1
    for k in range(1, len(old) + 1):
        seat = old[(start + k) % len(old)] if old else None
        if seat in seats:
            return seats[(seats.index(seat) + steps - 1) % len(seats)]
    return seats[(steps - 1) % len(seats)]


def next_dealer_of(seats: Sequence[str], previous: Sequence[Dealt], first: str) -> str:
    """Return who deals the next hand when the deal moves one seat each hand: the seat after
    the last hand's dealer (``seat_after``), or ``first`` before any hand (if still seated)."""
    if previous:
        return seat_after(seats, previous[-1])
    return first if first in seats else next(iter(seats))


def sitting_out(seats: Sequence[str], dealer: str) -> tuple[str, ...]:
    """Return who sits out when ``dealer`` deals: the dealer at 5 seats, else nobody."""
    return (dealer,) if len(seats) == 5 else ()


def active_players(seats: Sequence[str], dealer: str) -> tuple[str, ...]:
    """Return the players of the hand, in seat order."""
    out = set(sitting_out(seats, dealer))
    return tuple(s for s in seats if s not in out)


def forehand(seats: Sequence[str], dealer: str) -> str:
    """Return the first active seat after the dealer; he leads."""
    seats = tuple(seats)
    n = len(seats)
    d = seats.index(dealer)
    out = set(sitting_out(seats, dealer))
    for step in range(1, n + 1):
        seat = seats[(d + step) % n]
        if seat not in out:
            return seat
    raise ValueError("no active player after the dealer")


def next_dealer(seats: Sequence[str], dealer: str) -> str:
    """Return who deals the next hand: the next seat."""
    seats = tuple(seats)
    return seats[(seats.index(dealer) + 1) % len(seats)]


def dealer_of(seats: Sequence[str], first_dealer: str, hand_number: int) -> str:
    """Return the dealer of hand ``hand_number`` (1 = the first, dealt by ``first_dealer``)."""
    if hand_number < 1:
        raise ValueError("hand numbers start at 1")
    seats = tuple(seats)
    return seats[(seats.index(first_dealer) + hand_number - 1) % len(seats)]


def schedule_roles(seats: Sequence[str], dealer: str) -> dict[str, str]:
    """Return each seat's place in the deal.

    ``out`` for the dealer at 5 seats, ``dealer`` for a dealer who plays, ``forehand``,
    and ``player`` for the others.
    """
    out = set(sitting_out(seats, dealer))
    lead = forehand(seats, dealer)
    roles = {}
    for seat in seats:
        if seat in out:
            roles[seat] = "out"
        elif seat == lead:
            roles[seat] = "forehand"
        elif seat == dealer:
            roles[seat] = "dealer"
        else:
            roles[seat] = "player"
    return roles


def schedule_of(seats: Sequence[str], dealer: str) -> Schedule:
    """Return the Schedule of a hand that ``dealer`` deals."""
    seats = tuple(seats)
    return Schedule(
        dealer=dealer,
        sitting_out=sitting_out(seats, dealer),
        active=active_players(seats, dealer),
        forehand=forehand(seats, dealer),
        roles=schedule_roles(seats, dealer),
        seats=seats,
    )


def schedule(seats: Sequence[str], previous: Sequence[Dealt], first: str) -> Schedule:
    """Return the Schedule of the next hand: dealt by the seat after the last hand's dealer."""
    return schedule_of(seats, next_dealer_of(seats, previous, first))


class DealerSitsOut:
    """The ``sitting_out``, ``active`` and ``forehand`` of a record of ``seats`` and ``dealer``."""

    seats: tuple[str, ...]
    dealer: str

    @property
    def sitting_out(self) -> tuple[str, ...]:
        return sitting_out(self.seats, self.dealer)

    @property
    def active(self) -> tuple[str, ...]:
        return active_players(self.seats, self.dealer)

    @property
    def forehand(self) -> str:
        return forehand(self.seats, self.dealer)
