"""The account balance summary (``AccountBalance``): the one module that writes it.

A summary kept for speed, as django-hordak keeps a running total per account: each account's
balance and number of transfers. ``add`` is called by
``ledger.services.ledger.TableLedger.post_accounts`` (and by the bench's bulk generator) in
the same transaction as the transfers it sums, as one statement that adds to the rows already
there (an upsert, on SQLite and PostgreSQL alike), so it never depends on what the caller
read. ``rebuild`` recomputes it from the transfers (after a ``loaddata``, and by ``manage.py
rebuild_balances``); ``derive`` is what ``verify_ledger`` compares it with.
"""

from __future__ import annotations

from collections import defaultdict

from django.db import connection

from ledger.models import Account, AccountBalance, Transfer

_BATCH = 400


def deltas(moves) -> dict[int, list[int]]:
    """Return account id -> [points, transfers] for ``moves`` of (source, target, points)."""
    change: dict[int, list[int]] = defaultdict(lambda: [0, 0])
    for source_id, target_id, points in moves:
        change[source_id][0] -= points
        change[source_id][1] += 1
        change[target_id][0] += points
        change[target_id][1] += 1
    return change


def add(change: dict[int, list[int]]) -> None:
    """Add ``change`` (account id -> [points, transfers]) to the summary, in one statement
    per 400 accounts (one for a posting)."""
    items = sorted(change.items())
    table = AccountBalance._meta.db_table
    quote = connection.ops.quote_name
    for start in range(0, len(items), _BATCH):
        batch = items[start : start + _BATCH]
        values = ", ".join(["(%s, %s, %s)"] * len(batch))
        params = [v for pk, (points, n) in batch for v in (pk, points, n)]
        sql = (
            f"INSERT INTO {quote(table)} (account_id, balance, transfers) VALUES {values} "  # noqa: S608
            f"ON CONFLICT (account_id) DO UPDATE SET "
            f"balance = {quote(table)}.balance + excluded.balance, "
            f"transfers = {quote(table)}.transfers + excluded.transfers"
        )
        with connection.cursor() as cursor:
            cursor.execute(sql, params)


def derive(transfers) -> dict[int, list[int]]:
    """Return account id -> [balance, transfers] summed over the ``transfers`` queryset (the
    one sum over transfers, ``TransferQuerySet.balances_and_counts``)."""
    return {pk: [b, n] for pk, (b, n) in transfers.balances_and_counts().items()}


def rebuild(tables=None) -> int:
    """Recompute the summary of ``tables`` (a Table queryset; every table when None) from
    their transfers; return the number of rows written. Call it inside a transaction."""
    accounts = Account.objects.all() if tables is None else Account.objects.filter(table__in=tables)
    transfers = (
        Transfer.objects.all() if tables is None else Transfer.objects.filter(table__in=tables)
    )
    AccountBalance.objects.filter(account__in=accounts).delete()
    rows = [
        AccountBalance(account_id=pk, balance=balance, transfers=n)
        for pk, (balance, n) in sorted(derive(transfers).items())
    ]
    AccountBalance.objects.bulk_create(rows, batch_size=2000)
    return len(rows)
