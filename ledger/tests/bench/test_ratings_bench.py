"""The ratings bench (``bench/ratings.py``) at a small size, so its code cannot rot: the
season written, a list rated and re-rated in full, equal to its recomputation. Nothing is
timed here; speed is the bench's to measure."""

import pytest

from bench import ratings as bench
from ledger.models import RatingList
from ledger.services.federation.ratings import rating_list_difference

pytestmark = pytest.mark.django_db


def test_a_small_season_is_rated():
    """Three tournaments of eight players and two rounds: twelve tables, 48 changes."""
    federation = bench.build(clubs=2, players=12, tournaments=3, size=8, rounds=2)
    assert bench.measure(federation)["tables"] == 12
    listed = RatingList.objects.get(name="Bench")
    assert listed.rated_tables.count() == 12
    assert rating_list_difference(listed) is None
