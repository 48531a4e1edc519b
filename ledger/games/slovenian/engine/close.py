"""The close of a Slovenian table (``slovenian-tarok.md`` section 12).

1. Radli penalties: each member pays ``radelc_penalty`` per open radelc into the pool.
2. The split: the pool is shared equally by every member of the table in units of
   ``split_unit``. A pool above 0 pays each member the same number of units and the units
   over (and any amount below one unit) to the member with the lowest balance before the
   split; a pool below 0 is paid the same way, the units over by the highest balance.
   Ties go to the first in seat order. Afterwards the pool is 0.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from ledger.games.base import Move

from .hand import POOL
from .ratecard import RateCard


def penalty_moves(radli: Mapping[str, int], rates: RateCard, members: Sequence[str]) -> list[Move]:
    """Return the radli penalties of ``members`` (seat order), member → pool, reason radelc."""
    if not rates.radli or not rates.radelc_penalty:
        return []
    moves = []
    for member in members:
        open_radli = radli.get(member, 0)
        if open_radli > 0:
            moves.append(Move(member, POOL, open_radli * rates.radelc_penalty, "radelc"))
    return moves


def split_shares(balances: Mapping[str, int], pool: int, unit: int) -> dict[str, int]:
    """Return what each member receives from the pool (negative: pays into it).

    ``balances`` are the members' balances before the split, in seat order.
    """
    members = list(balances)
    if not members:
        raise ValueError("a split needs at least one member")
    if unit < 1:
        raise ValueError("the split unit is at least 1")
    size = abs(pool)
    units, below = divmod(size, unit)
    each, units_over = divmod(units, len(members))
    shares = {m: each * unit for m in members}
    if pool > 0:
        chosen = min(members, key=lambda m: (balances[m], members.index(m)))
    else:
        chosen = min(members, key=lambda m: (-balances[m], members.index(m)))
    shares[chosen] += units_over * unit + below
    sign = 1 if pool >= 0 else -1
    return {m: sign * share for m, share in shares.items()}


def split_moves(shares: Mapping[str, int]) -> list[Move]:
    """Return the transfers of the split: pool → member or member → pool, reason split."""
    moves = []
    for member, share in shares.items():
        if share > 0:
            moves.append(Move(POOL, member, share, "split"))
        elif share < 0:
            moves.append(Move(member, POOL, -share, "split"))
    return moves


def close_table(
    balances: Mapping[str, int],
    radli: Mapping[str, int] | None,
    rates: RateCard | None = None,
    seats: Sequence[str] = (),
) -> list[Move]:
    """Return the moves that end a table: the radli penalties, then the pool split.

    ``balances`` has every account key: the members in seat order and ``pool``. The
    members sharing the pool are the seats of ``seats`` in that order (0 when missing from
    ``balances``), then any other member key of ``balances``. The pool is ``balances["pool"]`` when
    given, else minus the members' sum.
    """
    rates = rates or RateCard()
    radli = radli or {}
    # Seat order decides ties and the order of the moves, whatever order ``balances`` has.
    members = {seat: balances.get(seat, 0) for seat in seats}
    for key, value in balances.items():
        if key != POOL:
            members.setdefault(key, value)
    pool = balances.get(POOL, -sum(members.values()))
    moves = penalty_moves(radli, rates, list(members))
    before = dict(members)
    for move in moves:
        before[move.source] -= move.points
        pool += move.points
    if pool:
        moves += split_moves(split_shares(before, pool, rates.split_unit))
    return moves
