"""The hash, the lot and the random order of spec section 3: chance enters only through the seed.

Every string comparison is by Unicode code point (Python's own ``str`` order), so another program
that follows the spec reproduces every order, draw and tie-break exactly [FIDE-C04].
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable


def h(seed: str, *parts: str | int) -> str:
    """Return the SHA-256 of ``seed|part|part|…`` in lowercase hexadecimal (integers in decimal)."""
    text = "|".join([seed, *(str(part) for part in parts)])
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def lot(seed: str, player: str) -> str:
    """Return the player's lot: the smaller lot ranks higher, after every other tie-break."""
    return h(seed, "lot", player)


def random_order(seed: str, round_number: int, players: Iterable[str]) -> tuple[str, ...]:
    """Return ``players`` in the random order of round ``round_number`` (hash ascending)."""
    return tuple(sorted(players, key=lambda p: (h(seed, "order", round_number, p), p)))


def hash_sorted(seed: str, players: Iterable[str], *parts: str | int) -> tuple[str, ...]:
    """Return ``players`` sorted by ``h(seed, *parts, id)`` ascending."""
    return tuple(sorted(players, key=lambda p: (h(seed, *parts, p), p)))
