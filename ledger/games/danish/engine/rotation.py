"""Who deals, who sits out and who does not count, for tables of 3, 4 and 5 seats.

Seats are listed in the direction of play. With 5 seats the default
``two_sitters`` rotation has the dealer play with the seats just before and
after; the deal skips a seat. ``hermansen`` sits each member out for a block of
5 hands in turn, the other four playing as a 4-seat table.
"""

from __future__ import annotations

from ledger.games.base import Dealt
from ledger.games.rotation import seat_after

HERMANSEN_BLOCK = 5


def default_sitting_out(seats, dealer: str, rotation: str = "two_sitters"):
    """Return the members who sit out when ``dealer`` deals, or None if it cannot be told.

    With ``hermansen`` the sitters depend on the hand's place in the evening,
    so a single hand record must name them.
    """
    n = len(seats)
    d = seats.index(dealer)
    if n == 3:
        return ()
    if n == 4:
        return (seats[(d + 2) % 4],)
    if rotation == "hermansen":
        return None
    out = {(d + 2) % 5, (d + 3) % 5}
    return tuple(seats[i] for i in sorted(out))


def active_players(seats, sitting_out) -> tuple[str, ...]:
    """Return the three players of the hand, in seat order."""
    out = set(sitting_out)
    return tuple(s for s in seats if s not in out)


def forehand(seats, dealer: str, sitting_out) -> str:
    """Return the first active player after the dealer; forehand leads the first trick."""
    n = len(seats)
    d = seats.index(dealer)
    out = set(sitting_out)
    for step in range(1, n):
        seat = seats[(d + step) % n]
        if seat not in out:
            return seat
    raise ValueError("no active player after the dealer")


def next_dealer(seats, dealer: str, sitting_out, rotation: str = "two_sitters") -> str:
    """Return who deals the next hand by the table's rotation."""
    n = len(seats)
    d = seats.index(dealer)
    if n == 5 and rotation == "two_sitters":
        return seats[(d + 2) % 5]
    if n == 5:
        # Hermansen: within the block the four play as a 4-seat table.
        return forehand(seats, dealer, sitting_out)
    return seats[(d + 1) % n]


def non_counter(seats, dealer: str, sitting_out, rotation: str = "two_sitters") -> str:
    """Return the active player who does not count: the next dealer, else forehand."""
    nd = next_dealer(seats, dealer, sitting_out, rotation)
    if nd not in set(sitting_out):
        return nd
    return forehand(seats, dealer, sitting_out)


def hand_schedule(seats, first_dealer: str, hand_number: int, rotation: str = "two_sitters"):
    """Return ``(dealer, sitting_out)`` of the ``hand_number``-th hand (1-based) of a table.

    The first hand is dealt by ``first_dealer``. With ``hermansen`` the first
    block's sitter is the seat before the first dealer and the sitter moves on
    one seat every block; the deal passes round the table skipping the sitter.
    """
    if hand_number < 1:
        raise ValueError("hand numbers start at 1")
    seats = tuple(seats)
    n = len(seats)
    first = seats.index(first_dealer)
    if n in (3, 4):
        dealer = seats[(first + hand_number - 1) % n]
        return dealer, default_sitting_out(seats, dealer, rotation)
    if rotation == "two_sitters":
        dealer = seats[(first + 2 * (hand_number - 1)) % 5]
        return dealer, default_sitting_out(seats, dealer, rotation)
    d = first
    for k in range(1, hand_number + 1):
        sitter = (first - 1 + (k - 1) // HERMANSEN_BLOCK) % 5
        if k > 1:
            d = (d + 1) % 5
        if d == sitter:
            d = (d + 1) % 5
    four = [i for i in (d, (d + 1) % 5, (d + 2) % 5, (d + 3) % 5, (d + 4) % 5) if i != sitter]
    opposite = four[2]
    return seats[d], tuple(seats[i] for i in sorted((sitter, opposite)))


def _hermansen_sitters(seats, dealer: str, sitting_out) -> tuple[str, ...]:
    """Return who may be the block's sitter of a Hermansen hand (of five seats) dealt by
    ``dealer`` with ``sitting_out``: each sitter whose four leave the other opposite the dealer.

    Two when the two sit just opposite the dealer (either may be the block's sitter, the other
    opposite), one otherwise, none for a hand that is no Hermansen deal.
    """
    found = []
    for sitter in sitting_out:
        four = [s for s in _from(seats, dealer) if s != sitter]
        if len(four) == 4 and four[2] in sitting_out and four[2] != sitter:
            found.append(sitter)
    return tuple(found)


def _hermansen_block(seats, run) -> tuple[str | None, int]:
    """Return the block's sitter after the hands ``run`` (the latest hands, dealt at these five
    seats) and how many hands in a row he has sat out (``None``, 0: no Hermansen hand).

    Read forwards: each hand keeps the sitter while his block lasts, else the seat after him
    takes over; a hand whose two sitters could be either (they sit just opposite the dealer)
    is read as the block expected, so the order of the seats never decides.
    """
    sitter, count = None, 0
    for hand in run:
        candidates = _hermansen_sitters(seats, hand.dealer, hand.sitting_out)
        if not candidates:
            sitter, count = None, 0
            continue
        if sitter is None:
            expected = seats[seats.index(hand.dealer) - 1]  # a block's start: the seat before
            sitter = expected if expected in candidates else candidates[0]
            count = 1
            continue
        following = seats[(seats.index(sitter) + 1) % len(seats)]
        prefer = (following, sitter) if count >= HERMANSEN_BLOCK else (sitter, following)
        pick = next((s for s in prefer if s in candidates), candidates[0])
        count = count + 1 if pick == sitter else 1
        sitter = pick
    return sitter, count


def _from(seats, dealer: str) -> list[str]:
    """Return ``seats`` in the direction of play, beginning with ``dealer``."""
    d = list(seats).index(dealer)
    return [seats[(d + k) % len(seats)] for k in range(len(seats))]


def _hermansen_deal(seats, sitter: str, dealer: str) -> tuple[str, tuple[str, ...]]:
    """Return ``(dealer, sitting_out)`` of a Hermansen hand: the block's sitter and the seat
    opposite the dealer among the other four sit out."""
    four = [s for s in _from(seats, dealer) if s != sitter]
    return dealer, tuple(s for s in seats if s in (sitter, four[2]))


def next_deal(
    seats, previous: list[Dealt] | tuple[Dealt, ...], first: str, rotation: str = "two_sitters"
) -> tuple[str, tuple[str, ...] | None]:
    """Return ``(dealer, sitting_out)`` of the next hand, continuing from the hands dealt.

    The deal moves on from the last hand's real dealer in the current seat order
    (``seat_after``): one seat at 3 and 4 seats, two at 5 with ``two_sitters``. With
    ``hermansen`` the last hand's sitter keeps sitting out until he has sat out a block of 5
    hands in a row, then the seat after him sits out; the deal moves one seat, skipping the
    sitter. Before any hand ``first`` deals (a Hermansen block then starts with the seat
    before him sitting out).
    """
    seats = tuple(seats)
    n = len(seats)
    if not previous:
        dealer = first if first in seats else seats[0]
        if n == 5 and rotation == "hermansen":
            return _hermansen_deal(seats, seats[seats.index(dealer) - 1], dealer)
        return dealer, default_sitting_out(seats, dealer, rotation)
    last = previous[-1]
    if n in (3, 4):
        dealer = seat_after(seats, last)
        return dealer, default_sitting_out(seats, dealer, rotation)
    if rotation == "two_sitters":
        dealer = seat_after(seats, last, 2)
        return dealer, default_sitting_out(seats, dealer, rotation)
    run = []
    for hand in reversed(previous):
        if tuple(hand.seats) != seats or hand.dealer not in seats:
            break
        run.append(hand)
    sitter, count = _hermansen_block(seats, run[::-1])
    if sitter is None:  # the table has just become five: a block starts
        dealer = seat_after(seats, last)
        return _hermansen_deal(seats, seats[seats.index(dealer) - 1], dealer)
    if count >= HERMANSEN_BLOCK:
        sitter = seats[(seats.index(sitter) + 1) % 5]
    dealer = seat_after(seats, last)
    if dealer == sitter:
        dealer = seats[(seats.index(dealer) + 1) % 5]
    return _hermansen_deal(seats, sitter, dealer)
