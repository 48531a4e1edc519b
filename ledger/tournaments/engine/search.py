"""The ordered fill of spec section 5.3: a depth-first search with a node budget, and its fallback.

The search is written with an explicit stack, not recursion, so a field of hundreds of players
never meets Python's recursion limit. Its order of trials and its count of nodes are exactly the
spec's pseudo-code: a node is one candidate tested, counted before the test, and the search is
abandoned as soon as the count passes the budget.

The checker (section 13) asks a wider question with the same machinery: can the same players be
seated at the same multiset of table sizes, **in any order of sizes**, without a repeated pair?
There each table may take any size still unused; the head rule stays (the first remaining player
must sit somewhere), so the search is still complete.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Mapping, Sequence
from itertools import combinations

from .model import PastRound


class BudgetExhausted(Exception):
    """Raised when a search tests more candidates than its node budget allows."""


class Conflicts:
    """The conflict weight w(a, b) of section 5.3 and the rounds in which each pair met.

    w(a, b) = the number of earlier rounds with a and b at one table, plus 1 when ``clubs`` is
    given (``club_apart`` on) and both have the same non-empty club.
    """

    def __init__(self, history: Iterable[PastRound], clubs: Mapping[str, str | None] | None = None):
        met: dict[tuple[str, str], set[int]] = defaultdict(set)
        for past in history:
            for table in past.tables:
                for a, b in combinations(sorted(set(table)), 2):
                    met[(a, b)].add(past.number)
        self._met = {pair: tuple(sorted(rounds)) for pair, rounds in met.items()}
        self._clubs = {p: c for p, c in (clubs or {}).items() if c}
        self._against: dict[str, set[str]] = defaultdict(set)
        for a, b in self._met:
            self._against[a].add(b)
            self._against[b].add(a)
        by_club: dict[str, list[str]] = defaultdict(list)
        for player, club in self._clubs.items():
            by_club[club].append(player)
        for members in by_club.values():
            for a, b in combinations(members, 2):
                self._against[a].add(b)
                self._against[b].add(a)

    def met(self, a: str, b: str) -> tuple[int, ...]:
        """Return the earlier rounds in which ``a`` and ``b`` sat at one table, ascending."""
        return self._met.get((a, b) if a < b else (b, a), ())

    def same_club(self, a: str, b: str) -> str | None:
        """Return the club ``a`` and ``b`` share when clubs are kept apart, else None."""
        club = self._clubs.get(a)
        return club if club is not None and club == self._clubs.get(b) else None

    def weight(self, a: str, b: str) -> int:
        """Return w(a, b)."""
        return len(self.met(a, b)) + (1 if self.same_club(a, b) else 0)

    def compatible(self, a: str, b: str) -> bool:
        """Return whether w(a, b) = 0."""
        return b not in self._against.get(a, ())


class _Frame:
    """One table under construction: its head, the candidates after it, the seats chosen."""

    __slots__ = ("chosen", "cursor", "head", "need", "option", "options", "rest")

    def __init__(self, remaining: Sequence[str], options: tuple[int, ...]):
        self.head = remaining[0]
        self.rest = remaining[1:]
        self.options = options
        self.option = 0
        self.need = options[0] - 1
        self.chosen: list[int] = []
        self.cursor = 0

    @property
    def size(self) -> int:
        return self.options[self.option]

    def table(self) -> tuple[str, ...]:
        return (self.head, *(self.rest[i] for i in self.chosen))

    def left_over(self) -> list[str]:
        taken = set(self.chosen)
        return [p for i, p in enumerate(self.rest) if i not in taken]


def _search(
    order: Sequence[str],
    sizes: Sequence[int],
    compatible: Callable[[str, str], bool],
    budget: int,
    *,
    any_order: bool,
) -> tuple[tuple[str, ...], ...] | None:
    """Return the first draw found (tables in number order) or None when there is none.

    Raise BudgetExhausted when more than ``budget`` candidates are tested.
    """
    if sum(sizes) != len(order):
        raise ValueError("the table sizes do not seat exactly the players given")
    if not order:
        return ()
    unused = Counter(sizes)

    def options(k: int) -> tuple[int, ...]:
        if any_order:
            return tuple(sorted(size for size, count in unused.items() if count))
        return (sizes[k],)

    nodes = 0
    frames = [_Frame(list(order), options(0))]
    while True:
        frame = frames[-1]
        if len(frame.chosen) == frame.need:
            left = frame.left_over()
            if not left:
                return tuple(f.table() for f in frames)
            unused[frame.size] -= 1
            frames.append(_Frame(left, options(len(frames))))
            continue
        advanced = False
        rest, need = frame.rest, frame.need
        i = frame.cursor
        while i < len(rest):
            if len(rest) - i < need - len(frame.chosen):
                break
            nodes += 1
            if nodes > budget:
                raise BudgetExhausted
            candidate = rest[i]
            if compatible(candidate, frame.head) and all(
                compatible(candidate, rest[j]) for j in frame.chosen
            ):
                frame.chosen.append(i)
                frame.cursor = i + 1
                advanced = True
                break
            i += 1
        if not advanced and not _retreat(frames, unused):
            return None


def _retreat(frames: list[_Frame], unused: Counter) -> bool:
    """Undo the last choice that can be undone; return False when the whole search has failed."""
    while frames:
        frame = frames[-1]
        if frame.chosen:
            frame.cursor = frame.chosen.pop() + 1
            return True
        if frame.option + 1 < len(frame.options):
            frame.option += 1
            frame.need = frame.size - 1
            frame.cursor = 0
            return True
        frames.pop()
        if frames:
            # The table before this one was complete; give its size back before undoing it.
            unused[frames[-1].size] += 1
    return False


def ordered_fill(
    order: Sequence[str], sizes: Sequence[int], conflicts: Conflicts, budget: int
) -> tuple[tuple[str, ...], ...] | None:
    """Return the search's draw of section 5.3 (sizes in table order), or None if there is none.

    Raise BudgetExhausted when the node budget runs out.
    """
    return _search(order, sizes, conflicts.compatible, budget, any_order=False)


def repeat_free_exists(
    players: Sequence[str], sizes: Sequence[int], conflicts: Conflicts, budget: int
) -> bool | None:
    """Return whether ``players`` fit tables of ``sizes`` (any order) with no pair met before.

    Only earlier meetings count here, not clubs (section 13's ``avoidable``). None when the
    budget runs out before the question is decided.
    """
    try:
        found = _search(
            players, sizes, lambda a, b: not conflicts.met(a, b), budget, any_order=True
        )
    except BudgetExhausted:
        return None
    return found is not None


def fallback_fill(
    order: Sequence[str], sizes: Sequence[int], conflicts: Conflicts
) -> tuple[tuple[str, ...], ...]:
    """Return the seat-by-seat fallback of section 5.3 (no backtracking).

    Seat 1 is the first remaining player; each further seat takes the remaining player with the
    smallest sum of w to those already at the table, the earliest in ``order`` among equals.
    """
    if sum(sizes) != len(order):
        raise ValueError("the table sizes do not seat exactly the players given")
    remaining = list(order)
    tables = []
    for size in sizes:
        table = [remaining.pop(0)]
        while len(table) < size:
            best = min(
                range(len(remaining)),
                key=lambda i: (sum(conflicts.weight(remaining[i], x) for x in table), i),
            )
            table.append(remaining.pop(best))
        tables.append(tuple(table))
    return tuple(tables)
