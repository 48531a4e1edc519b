"""The federation's scale bench (``bench/federation.py``) at a tiny size, so its code cannot
rot: the season generated through the services, its numbers consistent, the pages' numbers
equal to the raw SQL's, the figures all there. Nothing is timed here; speed is the bench's to
measure."""

import pytest

from bench import federation as bench
from ledger.federation.engine.results import recompute
from ledger.models import Entry, ImportedEvent, ImportedPlacing, Player, Tournament
from ledger.services.federation.ratings import rating_list_difference

pytestmark = pytest.mark.django_db


def test_a_results_file_of_the_bench_recomputes():
    """138 players (tables of four and three), 4 rounds: the reader agrees with the engine."""
    players = [(str(i + 1), f"P{i}", "Club", "") for i in range(138)]
    document = bench.results_file(
        uid="00000000-0000-4000-8000-000000000001",
        name="Open",
        date=bench.datetime.date(2027, 1, 1),
        players=players,
        rounds=4,
        seed=1,
    )
    played, ranking = recompute(document)
    assert len(played) == 4 and len(ranking) == 138
    assert sorted(len(t["seats"]) for t in document["rounds"][0]["tables"]) == [3, 3] + [4] * 33


def test_a_tiny_season_is_consistent():
    """Three clubs, 30 players, six events of ten players over two rounds, three cups."""
    world = bench.build(clubs=3, players=30, tournaments=6, size=10, rounds=2)
    counts = world["counts"]
    assert counts == {
        "clubs": 3,
        "players": 30,
        "events": 6,
        "placings": 60,
        "hero_events": 3,
        "real_tournaments": 3,
    }
    # the three cups (eight players of the pool each, one round) are final, their entrants
    # the pool's players found by licence: still 30 players
    cups = Tournament.objects.filter(name__startswith="Bench cup")
    assert [t.status for t in cups] == [Tournament.Status.FINAL] * 3
    assert (
        Entry.objects.filter(tournament__in=cups, player__federation=world["federation"]).count()
        == 24
    )
    assert Player.objects.filter(federation=world["federation"]).count() == 30
    assert ImportedEvent.objects.count() == world["series"].events.count() == 6
    # every player of the pool plays (the events go through the pool in turn)
    assert ImportedPlacing.objects.values("player").distinct().count() == 30
    figures = bench.measure(world, repeat=1, import_players=14)
    assert figures["ladder_players"] == 30
    assert figures["hero_results"] == 3
    # ten players: tables of 3, 3 and 4; a cup of eight: two tables
    assert figures["rated_tables"] == 6 * 2 * 3 + 3 * 2
    assert rating_list_difference(world["rating_list"]) is None
    assert ImportedEvent.objects.count() == 7
    # his page checked against all it shows by raw SQL: his rated tables, his ladder line
    assert figures["hero_rated"] > 0 and figures["hero_ladders"] == 1
    assert figures["player_empty_ms"] > 0
    assert len(bench.table(figures)) == 9
