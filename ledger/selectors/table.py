"""Reads of one table: its seats, its accounts and their balances (read from the summary)."""

from __future__ import annotations

from ledger.models import Account, AccountBalance, Evening, Seat, Transfer
from ledger.services.ledger import table_balances

__all__ = [
    "account_balances",
    "account_balances_from_transfers",
    "all_seats",
    "current_seats",
    "pool_balances",
    "seated_at_open_tables",
    "season_open_evenings",
    "table_accounts",
    "table_balances",
]


def account_balances(table_id: int) -> dict[int, int]:
    """Return every account's balance of a table, by account id (one query).

    Read from the summary (``AccountBalance``), written with the transfers it sums and
    re-checked by ``verify_ledger``; an account without transfers is missing (its balance is 0).
    """
    return AccountBalance.objects.of_table(table_id)


def account_balances_from_transfers(table_id: int) -> dict[int, int]:
    """Return every account's balance of a table summed from its transfers (two queries)."""
    return Transfer.objects.filter(table_id=table_id).balances()


def table_accounts(table_id: int) -> dict[str, Account]:
    """Return the accounts of a table by code: the seats' names as seated and the pools."""
    return {a.code: a for a in Account.objects.filter(table_id=table_id).select_related("member")}


def pool_balances(table_id: int) -> dict[str, int]:
    """Return the balance of each pool of the table's game (the Danish cups, a pool)."""
    balances = account_balances(table_id)
    return {
        code: balances.get(pk, 0)
        for pk, code in Account.objects.filter(
            table_id=table_id, kind=Account.Kind.POOL
        ).values_list("pk", "code")
    }


def all_seats(table_id: int) -> list[Seat]:
    """Return every seat of the table, those who left included, in the direction of play."""
    return Seat.objects.of_table(table_id, current=False)


def current_seats(table_id: int) -> list[Seat]:
    """Return the seats still at the table, in the direction of play."""
    return Seat.objects.of_table(table_id)


def seated_at_open_tables(evening) -> dict[int, int]:
    """Return member id -> table number for everyone seated at an open table of ``evening``."""
    return dict(
        Seat.objects.filter(table__evening=evening, table__status="open", left=False).values_list(
            "member_id", "table__number"
        )
    )


def season_open_evenings(season) -> list[Evening]:
    """Return the season's open evenings, oldest first (one query; usually none or tonight's):
    the standings count their points so far."""
    return list(
        Evening.objects.filter(season=season, status=Evening.Status.OPEN)
        .only("pk", "date", "game", "season_id")
        .order_by("date", "pk")
    )
