"""Who pays whom in money after an evening: the fewest payments that square it.

Pure Python. Members with a positive result receive, members with a negative result pay.
A pair whose amounts cancel exactly settles in one payment first; the rest is matched
greedily, the largest debt against the largest claim, which needs at most n − 1 payments for
n members with a non-zero result (and never more than paying through a cash box, which needs
one payment per member).
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal


@dataclass(frozen=True)
class Payment:
    payer: str
    payee: str
    amount: Decimal


def fewest_payments(results: dict[str, Decimal]) -> list[Payment]:
    """Return payments that bring every member's ``results`` (money, summing to 0) to 0."""
    total = sum(results.values(), Decimal(0))
    if total != 0:
        raise ValueError(f"the results sum to {total}, not 0")
    debts = {name: -amount for name, amount in results.items() if amount < 0}
    claims = {name: amount for name, amount in results.items() if amount > 0}
    payments = []
    for debtor in sorted(debts):
        match = next(
            (c for c in sorted(claims) if claims[c] == debts[debtor] and debts[debtor]), None
        )
        if match is not None:
            payments.append(Payment(debtor, match, debts[debtor]))
            debts[debtor] = claims[match] = Decimal(0)
    debts = {n: a for n, a in debts.items() if a}
    claims = {n: a for n, a in claims.items() if a}
    while debts:
        debtor = max(debts, key=lambda n: (debts[n], n))
        creditor = max(claims, key=lambda n: (claims[n], n))
        amount = min(debts[debtor], claims[creditor])
        payments.append(Payment(debtor, creditor, amount))
        for book, name in ((debts, debtor), (claims, creditor)):
            book[name] -= amount
            if not book[name]:
                del book[name]
    return sorted(payments, key=lambda p: (p.payer, p.payee))
