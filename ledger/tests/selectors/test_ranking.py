"""One ranking everywhere: equal points share a rank on the evening, the standings and my page."""

from __future__ import annotations

import datetime

import pytest

from ledger import selectors, services
from ledger.selectors.ranking import ranked
from ledger.tests.factories import make_club, make_member, make_season

pytestmark = pytest.mark.django_db


def test_ranked_shares_a_rank_between_equal_points():
    """5, 5, −10 rank 1, 1, 3; names break the order only, never the rank."""
    rows = [{"n": "bo", "p": 5}, {"n": "Anna", "p": 5}, {"n": "Carl", "p": -10}]
    out = ranked(
        rows,
        points=lambda r: r["p"],
        name=lambda r: r["n"],
        set_rank=lambda r, rank: r.update(rank=rank),
    )
    assert [(r["n"], r["rank"]) for r in out] == [("Anna", 1), ("bo", 1), ("Carl", 3)]


def test_the_standings_and_my_page_share_a_rank_on_ties():
    """Two members on equal points in the season share rank 1 in the standings and on each
    one's own page; the third is ranked 3."""
    club = make_club()
    season = make_season(club)
    anna, bo, carl = (make_member(club, n) for n in ("Anna", "Bo", "Carl"))
    evening = services.evening_open(club=club, date=datetime.date(2026, 11, 5))
    table = services.table_open(evening=evening, members=[anna, bo, carl])
    services.adjustment_post(table=table, source="Carl", target="Anna", points=10, reason="x")
    services.adjustment_post(table=table, source="Carl", target="Bo", points=10, reason="x")
    rows = selectors.standings_for_season(season=season)
    assert [(r.name, r.rank) for r in rows] == [("Anna", 1), ("Bo", 1), ("Carl", 3)]
    assert selectors.season_rank(season=season, member=bo) == (1, 3)
    assert selectors.season_rank(season=season, member=carl) == (3, 3)
