"""The one ranking of the site: best first, and equal points share a rank (1, 2, 2, 4)."""

from __future__ import annotations

from collections.abc import Callable, Iterable


def ranked(rows: Iterable, *, points: Callable, name: Callable, set_rank: Callable) -> list:
    """Return ``rows`` best first (most ``points``, then by ``name``, case-folded) after calling
    ``set_rank(row, rank)`` on each: equal points share the rank of the first of them."""
    ordered = sorted(rows, key=lambda r: (-points(r), name(r).casefold()))
    rank = 0
    for i, row in enumerate(ordered):
        if i == 0 or points(row) != points(ordered[i - 1]):
            rank = i + 1
        set_rank(row, rank)
    return ordered
