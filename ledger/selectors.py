"""Reads of the ledger: balances are aggregations over transfers, read from their summary."""

from __future__ import annotations

from django.db.models import Q, Sum

from ledger.models import Account, AccountBalance, Evening, Posting, Seat, Transfer

# Postings that change what a table's jetons should be: hands (a correction posts one too),
# late arrivals' funding, and the reversal of a hand (a void). Adjustments reconcile the
# ledger with a count, and a reopening only reverses the split: neither makes a count stale.
CHANGES_THE_COUNT = Q(kind__in=[Posting.Kind.HAND, Posting.Kind.FUNDING]) | Q(
    kind=Posting.Kind.REVERSAL, reverses__kind=Posting.Kind.HAND
)


def account_balances(table_id: int) -> dict[int, int]:
    """Return every account's balance of a table, by account id (one query).

    Read from the summary (``AccountBalance``), written with the transfers it sums and
    re-checked by ``verify_ledger``; an account without transfers is missing (its balance is 0).
    """
    return dict(
        AccountBalance.objects.filter(account__table_id=table_id).values_list(
            "account_id", "balance"
        )
    )


def account_balances_from_transfers(table_id: int) -> dict[int, int]:
    """Return every account's balance of a table summed from its transfers (two queries)."""
    balances: dict[int, int] = {}
    for row in (
        Transfer.objects.filter(table_id=table_id)
        .values("target_id")
        .annotate(total=Sum("points"))
        .order_by()
    ):
        balances[row["target_id"]] = balances.get(row["target_id"], 0) + row["total"]
    for row in (
        Transfer.objects.filter(table_id=table_id)
        .values("source_id")
        .annotate(total=Sum("points"))
        .order_by()
    ):
        balances[row["source_id"]] = balances.get(row["source_id"], 0) - row["total"]
    return balances


def table_accounts(table_id: int) -> dict[str, Account]:
    """Return the accounts of a table by code: the seats' names as seated and the pools."""
    return {a.code: a for a in Account.objects.filter(table_id=table_id).select_related("member")}


def table_balances(table_id: int) -> dict[str, int]:
    """Return each account's balance by code (members as seated, and the game's pools)."""
    balances = account_balances(table_id)
    return {
        code: balances.get(pk, 0)
        for pk, code in Account.objects.filter(table_id=table_id).values_list("pk", "code")
    }


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
    return list(
        Seat.objects.filter(table_id=table_id).select_related("member").order_by("position")
    )


def current_seats(table_id: int) -> list[Seat]:
    """Return the seats still at the table, in the direction of play."""
    return list(
        Seat.objects.filter(table_id=table_id, left=False)
        .select_related("member")
        .order_by("position")
    )


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
