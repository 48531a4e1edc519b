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


def test_the_same_token_at_two_tables_at_once_is_a_refusal_not_an_error():
    """One form's token sent to two tables at the same instant: each locks its own table, so
    both pass the token check; the unique index refuses one, which is a LedgerError naming
    ``token`` (a 4xx on the tablet), and the other table has its hand."""
    from ledger.services.errors import LedgerError

    _, one, _ = evening_e(make_club(slug="one"))
    _, two, _ = evening_e(make_club(slug="two"))
    results, errors = run_together(
        lambda: services.hand_record(table=one, record=HANDS[0], token="one-form"),
        lambda: services.hand_record(table=two, record=HANDS[0], token="one-form"),
    )
    refused = [e for e in errors if e is not None]
    assert len(refused) == 1 and isinstance(refused[0], LedgerError), errors
    assert refused[0].field == "token"
    assert Hand.objects.filter(token="one-form").count() == 1
    assert verify_ledger().ok


def test_two_evenings_of_one_date_at_once_open_one():
    """Two treasurers start the evening of one date at the same instant: one evening opens,
    the other is told the date is taken (a LedgerError naming ``date``)."""
    import datetime

    from ledger.models import Evening
    from ledger.services.errors import LedgerError

    club = make_club(slug="race")
    day = datetime.date(2026, 11, 12)
    results, errors = run_together(
        lambda: services.evening_open(club=club, date=day),
        lambda: services.evening_open(club=club, date=day),
    )
    refused = [e for e in errors if e is not None]
    assert len(refused) == 1 and isinstance(refused[0], LedgerError), errors
    assert refused[0].field == "date"
    assert Evening.objects.filter(club=club, date=day).count() == 1


def test_two_invitations_choosing_one_user_name_at_once_make_one_log_in():
    """Two invited members choose the same user name at the same instant: one log-in is made,
    the other is a LedgerError naming ``username`` (a form error, not a 500)."""
    from django.contrib.auth import get_user_model

    from ledger.services.errors import LedgerError
    from ledger.tests.factories import make_member

    club = make_club(slug="invites")
    tokens = [
        services.invitation_create(member=make_member(club, name))[1] for name in ("Anna", "Bo")
    ]
    results, errors = run_together(
        *[
            (
                lambda t=t: services.invitation_accept(
                    token=t, password="x-1234567890", username="bo"
                )
            )
            for t in tokens
        ]
    )
    refused = [e for e in errors if e is not None]
    assert len(refused) == 1 and isinstance(refused[0], LedgerError), errors
    assert refused[0].field == "username"
    assert get_user_model().objects.filter(username="bo").count() == 1
    assert club.members.filter(user__isnull=False).count() == 1
