"""The evening sheet's reads and a save's follow the indexes after ANALYZE (issue 31), as
``restore`` runs it and as the bench's bulk load does: SQLite's statistics then say that the
unique index of a posting's ``reverses`` holds one value for every row (its NULLs), and a
posting's "not reversed" written as a join made SQLite build a temporary index of every
posting for each read (a save 39.6 ms at 96,000 hands, 7.9 ms without), and the sheet's
transfers ordered by posting were read by walking every transfer in its posting index's order
(128 ms for an evening's, 4 ms through the tables' index). ``models.not_reversed`` is one NOT
EXISTS on that index and the sheet orders its transfers itself; this pins the plans, given the
full history's statistics (``helpers.as_the_full_history``; each test fails at the code
before the fix)."""

from __future__ import annotations

import datetime

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from ledger import selectors, services
from ledger.tests.factories import evening_e, make_club, random_table_hands
from ledger.tests.helpers import as_the_full_history, whole_reads

pytestmark = pytest.mark.django_db


def whole_reads_of(captured) -> list[tuple[str, list[str]]]:
    """Return each captured read whose plan builds an index or reads a growing table whole."""
    found = [(q["sql"], whole_reads(q["sql"])) for q in captured.captured_queries]
    return [(sql, steps) for sql, steps in found if steps]


@pytest.fixture
def history():
    """Three closed evenings of twelve hands, planned with the full history's statistics."""
    if connection.vendor != "sqlite":
        pytest.skip("SQLite's planner (EXPLAIN QUERY PLAN); PostgreSQL plans the anti-join")
    club = make_club()
    evenings = []
    for day in (1, 8, 15):
        evening, table, _ = evening_e(club, date=datetime.date(2026, 11, day))
        random_table_hands(table, 12, seed=day)
        evenings.append(services.evening_close(evening=evening))
    as_the_full_history()
    return club, evenings


def test_the_evening_sheets_reads_build_no_index_and_walk_no_ledger_table(history):
    _club, evenings = history
    with CaptureQueriesContext(connection) as captured:
        sheet = selectors.evening_sheet(evening=evenings[1])
    assert sheet.tables and sheet.tables[0].postings
    assert whole_reads_of(captured) == []


def test_a_saves_reads_build_no_index_and_walk_no_ledger_table(history):
    """The save's one read under the table's lock (its slot's constant subqueries, the live
    hands among them) was 39.6 ms at 96,000 hands with the join, 7.9 with NOT EXISTS."""
    club, _evenings = history
    _evening, table, _hands = evening_e(club, date=datetime.date(2026, 11, 22))
    with CaptureQueriesContext(connection) as captured:
        random_table_hands(table, 1, seed=99)
    assert whole_reads_of(captured) == []
