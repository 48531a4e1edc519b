"""Reads of the jeton reconciliation: each table's expected and counted jetons per account."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

from django.db.models import (
    Max,
    OuterRef,
    Q,
    Subquery,
)

from ledger.models import (
    Account,
    Evening,
    JetonCount,
    Posting,
    Seat,
    Table,
    Transfer,
    not_reversed,
)
from ledger.services.treasury import jeton_expected

# --- jeton reconciliation ------------------------------------------------------------------


@dataclass
class JetonLine:
    """One account of a table: the jetons it should hold, the latest count, the difference."""

    account_id: int
    name: str
    is_cup: bool
    expected: int
    counted: int | None
    # The count was made before the table's latest change (a hand, a correction, an
    # adjustment): it needs a recount or an explicit confirmation.
    stale: bool = False

    @property
    def difference(self) -> int | None:
        return None if self.counted is None else self.counted - self.expected


@dataclass
class JetonTable:
    table: Table
    lines: list[JetonLine]
    # The table's version (``table_version``: its latest posting's id) the lines were read at:
    # the one-tap "every count as expected" confirms these figures and no others.
    version: int = 0

    @property
    def stale(self) -> bool:
        """Some count was made before the table's latest change."""
        return any(line.stale for line in self.lines)

    @property
    def counted(self) -> bool:
        return any(line.counted is not None for line in self.lines)

    @property
    def total_expected(self) -> int:
        return sum(line.expected for line in self.lines)

    @property
    def total_counted(self) -> int | None:
        counted = [line.counted for line in self.lines if line.counted is not None]
        return sum(counted) if counted else None

    @property
    def total_difference(self) -> int:
        return sum(line.difference or 0 for line in self.lines)

    @property
    def differences(self) -> dict[str, int]:
        return {line.name: line.difference for line in self.lines if line.difference}


def evening_jetons(*, evening: Evening) -> list[JetonTable]:
    """Return each table's expected and counted jetons per account, and each table's version
    (seven queries).

    Expected is ``services.jeton_expected`` (a member's starting stack plus his balance, a
    cup its balance); counted is the latest ``JetonCount`` of each account, as in
    ``services.jeton_differences``. Once the evening is closed, expected is as it stood before
    the split, when the jetons were counted.
    """
    accounts = list(
        Account.objects.filter(table__evening=evening)
        .select_related("member", "table__evening")
        .order_by("table__number", "kind", "member__name")
    )
    balances: dict[int, int] = defaultdict(int)
    transfers = Transfer.objects.filter(table__evening=evening).order_by()
    if not evening.is_open:
        # The jetons were counted before the split: compare with the balances before it.
        transfers = transfers.exclude(
            Q(posting__kind=Posting.Kind.SPLIT) & not_reversed("posting_id")
        )
    balances.update(transfers.balances())
    latest = JetonCount.objects.filter(account=OuterRef("account")).order_by("-counted_at", "-pk")
    counted, counted_at = {}, {}
    for account_id, points, at in (
        JetonCount.objects.filter(table__evening=evening)
        .filter(pk=Subquery(latest.values("pk")[:1]))
        .values_list("account_id", "points", "counted_at")
    ):
        counted[account_id], counted_at[account_id] = points, at
    changed_at = dict(
        Posting.objects.filter(table__evening=evening)
        .changing_the_count()
        .values("table_id")
        .annotate(at=Max("created_at"))
        .values_list("table_id", "at")
    )
    versions = dict(
        Posting.objects.filter(table__evening=evening)
        .values("table_id")
        .annotate(v=Max("pk"))
        .values_list("table_id", "v")
    )
    seat_order: dict[tuple[int, int | None], int] = {
        (table_id, member_id): position
        for table_id, member_id, position in Seat.objects.filter(
            table__evening=evening
        ).values_list("table_id", "member_id", "position")
    }
    tables: dict[int, list[Account]] = defaultdict(list)
    for account in accounts:
        tables[account.table_id].append(account)
    result = []
    for table_accounts in tables.values():
        table = table_accounts[0].table
        members = sorted(
            (a for a in table_accounts if a.member_id),
            key=lambda a: seat_order.get((a.table_id, a.member_id), 0),
        )
        cups = sorted((a for a in table_accounts if not a.member_id), key=lambda a: a.code)
        ordered = members + cups
        expected = jeton_expected(table, {a.name: balances[a.pk] for a in ordered})
        lines = [
            JetonLine(
                account_id=a.pk,
                name=a.name,
                is_cup=not a.member_id,
                expected=expected[a.name],
                counted=counted.get(a.pk),
                stale=a.pk in counted_at
                and changed_at.get(a.table_id) is not None
                and counted_at[a.pk] < changed_at[a.table_id],
            )
            for a in ordered
        ]
        result.append(JetonTable(table=table, lines=lines, version=versions.get(table.pk, 0)))
    result.sort(key=lambda t: t.table.number)
    return result
