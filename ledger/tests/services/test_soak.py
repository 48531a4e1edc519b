"""A bounded soak on PostgreSQL ends with a ledger that verifies."""

import datetime

import pytest
from django.db import connection

from ledger import services
from ledger.models import Hand
from ledger.selectors.verify import verify_ledger
from ledger.tests.factories import make_club, new_member
from ledger.tests.soak import run_soak

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def test_soak_small_bound():
    """4 threads × 25 operations at 2 tables: no error, every hand numbered once, ledger OK."""
    if connection.vendor != "postgresql":
        pytest.skip("the soak needs PostgreSQL's row locks (run by make test-postgres)")
    club = make_club()
    members = [new_member(club=club, name=n) for n in "ABCDEFG"]
    evening = services.evening_open(club=club, date=datetime.date(2026, 12, 3))
    tables = [
        services.table_open(evening=evening, members=members[:4]),
        services.table_open(evening=evening, members=members[4:]),
    ]
    stats = run_soak(tables, threads=4, operations=25, seed=3)
    assert stats["errors"] == []
    assert stats["record"] > 0 and stats["correct"] > 0
    assert stats["record"] + stats["correct"] + stats["void"] + stats["refused"] == 100
    assert Hand.objects.count() == stats["record"]
    report = verify_ledger()
    assert report.ok, report.problems
