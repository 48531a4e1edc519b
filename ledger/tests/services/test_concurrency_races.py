"""Races the hardening closed, on PostgreSQL where the row locks are real: one open evening
per date, and closing an evening while its tablets save hands."""

import datetime

import pytest
from django.db import OperationalError, connection

from ledger import services
from ledger.models import Evening, Hand, Posting, Table
from ledger.selectors.verify import verify_ledger
from ledger.services.errors import EveningClosedError, LedgerError
from ledger.tests.conftest import load_example
from ledger.tests.factories import make_club, make_member
from ledger.tests.helpers import run_together

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

HANDS = load_example("EVENING_E.evening.json")["hands"]
DAY = datetime.date(2026, 11, 5)


@pytest.fixture(autouse=True)
def _postgres_only():
    if connection.vendor != "postgresql":
        pytest.skip("concurrency tests need PostgreSQL's row locks (run by make test-postgres)")


def test_four_starts_of_one_date_open_one_evening():
    """Four threads start the same date at once: one evening, the others get LedgerError."""
    club = make_club()
    call = lambda: services.evening_open(club=club, date=DAY)  # noqa: E731
    results, errors = run_together(call, call, call, call)
    assert Evening.objects.filter(club=club, date=DAY).count() == 1
    opened = [r for r in results if r is not None]
    assert len(opened) == 1
    refused = [e for e in errors if e is not None]
    assert len(refused) == 3
    assert all(type(e) is LedgerError and e.field == "date" for e in refused), errors


@pytest.mark.parametrize("round_", range(4))
def test_closing_while_tablets_save_never_deadlocks(round_):
    """A close races saves at two tables: no deadlock, each save lands before the close or
    is refused as closed; the ledger verifies afterwards."""
    club = make_club(slug=f"c{round_}")
    members = [make_member(club, n) for n in ("Anna", "Bo", "Carl", "Dorte", "Erik", "Finn")]
    evening = services.evening_open(club=club, date=DAY)
    tables = [
        services.table_open(evening=evening, members=members[:3]),
        services.table_open(evening=evening, members=members[3:]),
    ]
    second = tables[1]
    # Table 2 seats Dorte, Erik and Finn: Evening E's hands with its names.
    names = {"Anna": "Dorte", "Bo": "Erik", "Carl": "Finn"}

    def renamed(hand):
        import json

        text = json.dumps(hand)
        for old, new in names.items():
            text = text.replace(f'"{old}"', f'"{new}"')
        return json.loads(text)

    def save(table, record, token):
        return lambda: services.hand_record(table=table, record=record, token=token)

    calls = []
    for i, hand in enumerate(HANDS):
        calls.append(save(tables[0], hand, f"r{round_}-a{i}"))
        calls.append(save(second, renamed(hand), f"r{round_}-b{i}"))
    calls.insert(len(calls) // 2, lambda: services.evening_close(evening=evening))
    results, errors = run_together(*calls)
    close_index = len(calls) // 2
    assert errors[close_index] is None, errors[close_index]
    for i, error in enumerate(errors):
        if i == close_index or error is None:
            continue
        assert not isinstance(error, OperationalError), error
        assert isinstance(error, EveningClosedError), repr(error)
    saved = [r for i, r in enumerate(results) if i != close_index and r is not None]
    assert Hand.objects.filter(table__evening=evening).count() == len(saved)
    assert Evening.objects.get(pk=evening.pk).status == Evening.Status.CLOSED
    assert not Table.objects.filter(evening=evening, status=Table.Status.OPEN).exists()
    # Every saved hand precedes its table's close.
    for table in tables:
        split = Posting.objects.filter(table=table, kind=Posting.Kind.SPLIT).first()
        if split is not None:
            assert not Posting.objects.filter(table=table, pk__gt=split.pk).exists()
    report = verify_ledger()
    assert report.ok, report.problems
