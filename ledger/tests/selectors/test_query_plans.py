"""The evening sheet's reads follow the indexes after ANALYZE (issue 31), as ``restore`` runs it
and as the bench's bulk load does: SQLite's statistics then say that the unique index of a
posting's ``reverses`` holds one value for every row (its NULLs), and a posting's "not
reversed" written as a join made SQLite build a temporary index of every posting for each
read, or walk every transfer in the order of its posting (128 ms for an evening's transfers at
96,000 hands, against 4 ms through the indexes). ``models.not_reversed`` is one NOT EXISTS
on that index; this pins the plans, which grow with nothing but the evening."""

from __future__ import annotations

import datetime

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from ledger import selectors, services
from ledger.tests.factories import evening_e, make_club, random_table_hands

pytestmark = pytest.mark.django_db


# The tables that grow with every hand: none is read whole (a club's members or an evening's
# tables may be, where SQLite finds that cheaper).
GROWING = [
    ["SCAN", name]
    for name in ("ledger_transfer", "ledger_posting", "ledger_hand", "ledger_handrevision")
]


def plan(sql: str) -> list[str]:
    with connection.cursor() as cursor:
        cursor.execute(f"EXPLAIN QUERY PLAN {sql}")
        return [row[-1] for row in cursor.fetchall()]


def test_the_evening_sheets_reads_build_no_index_and_walk_no_ledger_table():
    if connection.vendor != "sqlite":
        pytest.skip("SQLite's planner (EXPLAIN QUERY PLAN); PostgreSQL plans the anti-join")
    club = make_club()
    evenings = []
    for day in (1, 8, 15):
        evening, table, _ = evening_e(club, date=datetime.date(2026, 11, day))
        random_table_hands(table, 12, seed=day)
        evenings.append(services.evening_close(evening=evening))
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE")
    with CaptureQueriesContext(connection) as captured:
        sheet = selectors.evening_sheet(evening=evenings[1])
    assert sheet.tables and sheet.tables[0].postings
    for query in captured.captured_queries:
        steps = plan(query["sql"])
        assert not [s for s in steps if "AUTOMATIC" in s], (query["sql"], steps)
        walks = [s for s in steps if s.split(" ")[:2] in GROWING]
        assert not walks, (query["sql"], steps)
