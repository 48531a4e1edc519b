"""Concurrent tablets at one table, on PostgreSQL where the row locks are real."""

import pytest
from django.db import connection

from ledger import selectors, services
from ledger.models import Hand, Posting
from ledger.selectors.verify import verify_ledger
from ledger.tests.conftest import load_example
from ledger.tests.factories import evening_e, make_club
from ledger.tests.helpers import run_together

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

HANDS = load_example("EVENING_E.evening.json")["hands"]


@pytest.fixture(autouse=True)
def _postgres_only():
    if connection.vendor != "postgresql":
        pytest.skip("concurrency tests need PostgreSQL's row locks (run by make test-postgres)")


def test_same_token_twice_records_one_hand():
    """Two tablets submitting the same token at once record exactly one hand."""
    _, table, _ = evening_e(make_club())
    call = lambda: services.hand_record(table=table, record=HANDS[0], token="same-token")  # noqa: E731
    results, errors = run_together(call, call)
    assert errors == [None, None]
    assert results[0].pk == results[1].pk
    assert Hand.objects.filter(table=table).count() == 4
    assert Posting.objects.filter(table=table, kind="hand").count() == 4
    assert verify_ledger().ok


def test_two_hands_at_once_get_consecutive_numbers():
    """Two different hands submitted at once get numbers 4 and 5 and a correct ledger."""
    _, table, _ = evening_e(make_club())
    results, errors = run_together(
        lambda: services.hand_record(table=table, record=HANDS[0], token="t1"),
        lambda: services.hand_record(table=table, record=HANDS[1], token="t2"),
    )
    assert errors == [None, None]
    assert sorted(h.number for h in results) == [4, 5]
    assert verify_ledger().ok
    balances = selectors.table_balances(table.pk)
    assert sum(balances.values()) == 0


def test_correction_and_new_hand_at_once():
    """A correction racing a new hand: both land, serialised, and the ledger re-verifies."""
    _, table, hands = evening_e(make_club())
    results, errors = run_together(
        lambda: services.hand_correct(hand=hands[0], record=HANDS[0], reason="recheck"),
        lambda: services.hand_record(table=table, record=HANDS[0], token="t3"),
    )
    assert errors == [None, None]
    assert verify_ledger().ok
