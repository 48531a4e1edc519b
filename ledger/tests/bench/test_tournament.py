"""The tournament bench (``bench/tournament.py``, issue 21 part 6) on a small tournament, so
its code cannot rot: the set-up through the services, gunicorn serving the test database,
the tablets in processes of their own over HTTP, the closes, the raw SQL's standings and
``verify_ledger``. Nothing is timed here; speed is the bench's to measure."""

from __future__ import annotations

import pytest
from django.db import connection

from bench import tournament as bench

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


@pytest.fixture(autouse=True)
def _postgres_only():
    if connection.vendor != "postgresql":
        pytest.skip("the tournament bench runs on PostgreSQL (make test-postgres runs this)")


def test_tablets_entering_at_once_over_http_lose_and_double_nothing():
    """Nine players at three tables of three hands: in round 1 one tablet enters its table
    alone and the services fill the others, in round 2 three tablets (processes) enter their
    tables at once through gunicorn. Every table holds its three hands, each save sent twice
    with its token is answered as saved and recorded once, verify_ledger is OK, and the raw
    SQL's standings are the page's after each round."""
    results = bench.run(
        database_url=bench.database_url_of(connection.settings_dict),
        players=9,
        rounds=2,
        concurrent_rounds=1,
        think=0.05,
        server=bench.Server(workers=2, production=False),
        params={"hands_target": 3},
        repeat=2,
        progress=lambda _line: None,
    )
    assert results["errors"] == [] and results["verify_problems"] == []
    assert (results["lost"], results["doubled"]) == (0, 0)
    assert results["resent"] == results["resent_answered_saved"] == 1 + 3
    assert results["one_table"]["saves"]["n"] == 3
    assert results["together"]["saves"]["n"] == 3 * 3
    assert [d["counted"]["hands"] for d in results["rounds_detail"]] == [3, 9]
    assert [d["mode"] for d in results["rounds_detail"]] == ["direct", "search"]
    assert all(d["standings"]["raw_agrees_with_page"] for d in results["rounds_detail"])
    assert results["verify_ok"] and bench.correct(results)
