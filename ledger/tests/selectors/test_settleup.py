"""The fewest payments that square an evening's money results."""

from decimal import Decimal as D

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ledger.selectors.settleup import Payment, fewest_payments


def test_evening_e_needs_two_payments():
    """Evening E's money (16.25, −7.50, −8.75): Bo and Carl each pay Anna."""
    payments = fewest_payments({"Anna": D("16.25"), "Bo": D("-7.50"), "Carl": D("-8.75")})
    assert payments == [Payment("Bo", "Anna", D("7.50")), Payment("Carl", "Anna", D("8.75"))]


def test_an_exact_pair_pays_once():
    """Dorte owes what Erik is owed: one payment between them, not through the others."""
    payments = fewest_payments(
        {"Anna": D("10"), "Bo": D("-4"), "Carl": D("-6"), "Dorte": D("-3"), "Erik": D("3")}
    )
    assert Payment("Dorte", "Erik", D("3")) in payments
    assert len(payments) == 3


def test_results_that_do_not_balance_are_refused():
    with pytest.raises(ValueError, match="sum to 1"):
        fewest_payments({"Anna": D("1")})


@given(st.lists(st.integers(-10_000, 10_000), min_size=1, max_size=10))
def test_payments_square_every_result_in_at_most_n_minus_one(cents):
    """Any balanced results are squared by at most (members with a result − 1) payments."""
    results = {f"m{i}": D(c) / 100 for i, c in enumerate(cents)}
    results["last"] = -sum(results.values(), D(0))
    payments = fewest_payments(results)
    left = dict(results)
    for p in payments:
        assert p.amount > 0
        left[p.payer] += p.amount
        left[p.payee] -= p.amount
    assert all(v == 0 for v in left.values())
    assert len(payments) <= max(0, sum(1 for v in results.values() if v) - 1)
