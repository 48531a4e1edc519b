"""How many tables, of what size, and who has a bye (spec section 4)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from .model import Plan
from .rules import TABLE_SIZES


def plan_sizes(players: int, game: str) -> tuple[int, ...] | None:
    """Return ``plan(m)`` of section 4 for exactly ``players`` seats, or None when there is none.

    Base tables come first, exception tables last (they get the highest numbers).
    """
    sizes = TABLE_SIZES[game]
    b, m = sizes.base, players
    if m >= b and m % b == 0:
        return (b,) * (m // b)
    for e in sizes.exceptions:
        if e < b:
            t = -(-m // b)
            d = t * b - m
            if d % (b - e) == 0 and d // (b - e) <= t:
                k = d // (b - e)
                return (b,) * (t - k) + (e,) * k
        else:
            t = m // b
            r = m - t * b
            if t >= 1 and r % (e - b) == 0 and r // (e - b) <= t:
                k = r // (e - b)
                return (b,) * (t - k) + (e,) * k
    return None


def table_plan(players: int, game: str) -> Plan:
    """Return the plan for ``players`` active players: the largest m ≤ n with a plan, n − m byes.

    Fewer players than the smallest table give no table and all byes. ``game`` is a game code.
    """
    if players < 0:
        raise ValueError("a round cannot have fewer than no players")
    for m in range(players, 0, -1):
        sizes = plan_sizes(m, game)
        if sizes:
            return Plan(sizes, players - m)
    return Plan((), players)


def choose_byes(
    order: Sequence[str], count: int, byes_so_far: Mapping[str, int]
) -> tuple[str, ...]:
    """Return the ``count`` players who have the round's byes, in the order ``order``.

    They are the last of ``order`` among those with the fewest byes so far: sort by (byes so
    far ascending, position descending) and take the first ``count`` [FIDE-C041].
    """
    if count <= 0:
        return ()
    position = {p: i for i, p in enumerate(order)}
    ranked = sorted(order, key=lambda p: (byes_so_far.get(p, 0), -position[p]))
    chosen = set(ranked[:count])
    return tuple(p for p in order if p in chosen)
