"""Who deals, who sits out and who leads, for Hungarian tables of 4 and 5 seats.

Seats are listed in the direction of play. The dealer moves one seat each hand; with
5 seats the dealer sits out and the other four play; forehand is the first active seat
after the dealer (hungarian-tarokk.md section 1).
"""

from __future__ import annotations

from ledger.games.base import Schedule

SEAT_COUNTS = (4, 5)


def sitting_out(seats, dealer: str) -> tuple[str, ...]:
    """Return who sits out when ``dealer`` deals: the dealer at 5 seats, nobody at 4."""
    return (dealer,) if len(seats) == 5 else ()


def active_players(seats, dealer: str) -> tuple[str, ...]:
    """Return the four players of the hand, in seat order."""
    out = set(sitting_out(seats, dealer))
    return tuple(s for s in seats if s not in out)


def forehand(seats, dealer: str) -> str:
    """Return the first active seat after the dealer; he opens the bidding and leads."""
    n = len(seats)
    d = list(seats).index(dealer)
    out = set(sitting_out(seats, dealer))
    for step in range(1, n):
        seat = seats[(d + step) % n]
        if seat not in out:
            return seat
    raise ValueError("no active player after the dealer")


def in_order_from(seats, start: str, members) -> list[str]:
    """Return ``members`` in the direction of play, beginning after ``start``."""
    n = len(seats)
    s = list(seats).index(start)
    wanted = set(members)
    return [seats[(s + step) % n] for step in range(1, n) if seats[(s + step) % n] in wanted]


def next_dealer(seats, dealer: str) -> str:
    """Return the dealer of the next hand: the next seat."""
    seats = list(seats)
    return seats[(seats.index(dealer) + 1) % len(seats)]


def dealer_of(seats, first_dealer: str, hand_number: int) -> str:
    """Return the dealer of hand ``hand_number`` (1 = first, dealt by ``first_dealer``)."""
    seats = list(seats)
    if hand_number < 1:
        raise ValueError("hand numbers start at 1")
    if len(seats) not in SEAT_COUNTS:
        raise ValueError("a Hungarian table seats 4 or 5 members")
    if first_dealer not in seats:
        raise ValueError("the first dealer is not seated")
    return seats[(seats.index(first_dealer) + hand_number - 1) % len(seats)]


def schedule(seats, first_dealer: str, hand_number: int) -> Schedule:
    """Return the Schedule of hand ``hand_number`` of a table.

    ``roles`` maps every seat to ``out`` (the sitting-out dealer), ``dealer`` (a dealer
    who plays, at 4 seats), ``forehand`` or ``player``.
    """
    seats = tuple(seats)
    dealer = dealer_of(seats, first_dealer, hand_number)
    out = sitting_out(seats, dealer)
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
    return Schedule(
        dealer=dealer,
        sitting_out=out,
        active=active_players(seats, dealer),
        forehand=lead,
        roles=roles,
    )
