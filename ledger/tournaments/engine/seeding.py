"""Round 1 of ``sl_dp``: the ladder and the seeding groups A, B, C and X (spec section 5.2)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from .hashing import h, hash_sorted
from .model import Entry

GROUP_LETTERS = ("A", "B", "C")
EXTRA = "X"


def ladder(seed: str, entries: Iterable[Entry]) -> tuple[str, ...]:
    """Return the ladder: ranked players by rank (equal ranks by hash), then the unranked by hash.

    The hash is ``h(seed, "unranked", id)``; newcomers without a rank start at the bottom
    [SKATTISCH].
    """
    entries = list(entries)

    def key(entry: Entry):
        unranked = entry.ladder_rank is None
        return (unranked, entry.ladder_rank or 0, h(seed, "unranked", entry.id), entry.id)

    return tuple(e.id for e in sorted(entries, key=key))


def seeding_groups(seed: str, seated: Sequence[str], tables: int) -> dict[str, tuple[str, ...]]:
    """Split the seated players (in ladder order) into A, B, C of ``tables`` each and X.

    A keeps the ladder order; B, C and X are sorted by ``h(seed, "group", letter, id)``.
    """
    groups = {
        "A": tuple(seated[:tables]),
        "B": hash_sorted(seed, seated[tables : 2 * tables], "group", "B"),
        "C": hash_sorted(seed, seated[2 * tables : 3 * tables], "group", "C"),
        EXTRA: hash_sorted(seed, seated[3 * tables :], "group", EXTRA),
    }
    return groups


def letters(groups: Mapping[str, Sequence[str]]) -> dict[str, str]:
    """Return each player's group letter."""
    return {player: letter for letter, members in groups.items() for player in members}


def seeded_tables(
    groups: Mapping[str, Sequence[str]], sizes: Sequence[int]
) -> tuple[tuple[str, ...], ...]:
    """Seat table i with A_i, B_i, C_i, then fill the larger tables, in order, from X."""
    tables = [
        [groups[letter][i] for letter in GROUP_LETTERS if i < len(groups[letter])]
        for i in range(len(sizes))
    ]
    extras = list(groups[EXTRA])
    for table, size in zip(tables, sizes, strict=True):
        while len(table) < size and extras:
            table.append(extras.pop(0))
    return tuple(tuple(table) for table in tables)
