"""No page reads a table that grows with the hands whole, planned as for a large history
(issue 31). SQLite plans by the statistics ANALYZE writes (``restore`` runs it, as does the
bench's bulk load); a small test history's statistics plan differently from a large one's (a
walk of a few hundred rows is the cheap way there). So the pages' world is grown as in
``test_page_query_counts.py`` and then given the statistics of ``make bench``'s full history
(96,000 hands, ``full_history_stats.json``, written by ``bench/stats.py``): every read of every
page must follow an index into the ledger's growing tables, never build a temporary one
(``AUTOMATIC``) nor read one whole (``SCAN``). ``tests/selectors/test_query_plans.py`` says
which reads once did."""

from __future__ import annotations

import pytest
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from ledger.tests.helpers import (
    as_the_full_history,
    build_world,
    client_for,
    kwargs_for,
    whole_reads,
)
from ledger.tests.views.test_page_query_counts import GET_PAGES, grow

pytestmark = pytest.mark.django_db

# A member's own data reads the hand revisions he wrote: in the bench's history one log-in
# wrote all 96,000 (its statistics say so), for whom reading them all is the plan.
HIS_OWN = {"my_data": ["SCAN ledger_handrevision"], "my_data_pdf": ["SCAN ledger_handrevision"]}


@pytest.mark.slow
def test_no_page_reads_a_growing_table_whole_as_planned_for_the_full_history():
    if connection.vendor != "sqlite":
        pytest.skip("SQLite's planner (EXPLAIN QUERY PLAN)")
    world = build_world()
    client = client_for(world["users"]["admin"])
    grow(world)
    as_the_full_history()
    urls = {name: reverse(name, kwargs=kwargs_for(name, world)) for name in GET_PAGES}
    found: dict[str, list] = {}
    for name, url in urls.items():
        cache.clear()  # the page as its first reader after a change finds it
        with CaptureQueriesContext(connection) as captured:
            client.get(url)
        for query in captured.captured_queries:
            sql = query["sql"]
            if steps := whole_reads(sql):
                if steps != HIS_OWN.get(name):
                    found.setdefault(name, []).append((sql[:200], steps))
    assert not found, found
