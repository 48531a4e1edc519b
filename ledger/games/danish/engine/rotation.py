"""Who deals, who sits out and who does not count, for tables of 3, 4 and 5 seats.

Seats are listed in the direction of play. With 5 seats the default
``two_sitters`` rotation has the dealer play with the seats just before and
after; the deal skips a seat. ``hermansen`` sits each member out for a block of
5 hands in turn, the other four playing as a 4-seat table.
"""

from __future__ import annotations

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
