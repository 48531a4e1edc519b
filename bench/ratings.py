"""The ratings bench: a federation's season written straight into the database (clubs,
players, final tournaments of several rounds of tables of four with their results) and a
full re-rating of a rating list timed (``rating_list_recompute`` from the start).

``build`` and ``measure`` run in any database the caller's Django is set up on (the test
``ledger/tests/bench/test_ratings_bench.py`` runs a small one so the code cannot rot);
``python bench/ratings.py`` runs the full size (30 clubs, 3,000 players, 200 tournaments of
40 players and 7 rounds: 14,000 tables) on a fresh SQLite file or ``DATABASE_URL``.
"""

from __future__ import annotations

import datetime
import os
import random
import sys
import time
from pathlib import Path


def build(
    *,
    clubs: int = 30,
    players: int = 3000,
    tournaments: int = 200,
    size: int = 40,
    rounds: int = 7,
    seed: int = 1,
):
    """Write the season; return its federation."""
    from ledger.models import (
        Club,
        Entry,
        Federation,
        Member,
        Player,
        Round,
        RoundTable,
        Tournament,
    )

    rng = random.Random(seed)
    game = "slovenian_tarok"
    federation = Federation.objects.create(name="Bench", slug="bench", game=game, language="sl")
    club_rows = Club.objects.bulk_create(
        Club(name=f"Club {i}", slug=f"bench-{i}", game=game) for i in range(clubs)
    )
    federation.clubs.set(club_rows)
    player_rows = Player.objects.bulk_create(
        Player(name=f"P{i}", federation=federation) for i in range(players)
    )
    members = Member.objects.bulk_create(
        Member(club=club_rows[i % clubs], name=f"P{i}", player=p) for i, p in enumerate(player_rows)
    )
    start = datetime.date(2026, 9, 1)
    tour_rows = Tournament.objects.bulk_create(
        Tournament(
            club=club_rows[i % clubs],
            name=f"T{i}",
            date=start + datetime.timedelta(days=i * 300 // tournaments),
            last_date=start + datetime.timedelta(days=i * 300 // tournaments),
            game=game,
            tournament_format="sl_dp",
            status=Tournament.Status.FINAL,
        )
        for i in range(tournaments)
    )
    entries = []
    fields = {}
    for t in tour_rows:
        chosen = rng.sample(range(players), size)
        fields[t.pk] = [f"e{k}" for k in chosen]
        entries.extend(
            Entry(
                tournament=t, member=members[k], code=f"e{k}", name=f"P{k}", player=player_rows[k]
            )
            for k in chosen
        )
    Entry.objects.bulk_create(entries, batch_size=2000)
    round_rows = Round.objects.bulk_create(
        Round(
            tournament=t,
            number=n,
            day=t.date,
            kind="random",
            mode="random",
            status=Round.Status.CLOSED,
            time_limit_min=90,
        )
        for t in tour_rows
        for n in range(1, rounds + 1)
    )
    tables = []
    for r in round_rows:
        codes = fields[r.tournament_id][:]
        rng.shuffle(codes)
        for n in range(size // 4):
            seats = codes[4 * n : 4 * n + 4]
            results = {
                c: {"score": rng.randrange(-200, 200, 5), "place": 1, "points": "1", "first": 0}
                for c in seats
            }
            tables.append(RoundTable(round=r, number=n + 1, seats=seats, results=results))
    RoundTable.objects.bulk_create(tables, batch_size=2000)
    return federation


def measure(federation, rating_list=None) -> dict:
    """Create a rating list (rated once) unless ``rating_list`` is given, then time a full
    re-rating."""
    from ledger.models import RatingChange
    from ledger.services.federation import ratings

    listed = rating_list or ratings.rating_list_create(federation=federation, name="Bench")
    began = time.perf_counter()
    tables = ratings.rating_list_recompute(rating_list=listed)
    seconds = time.perf_counter() - began
    return {
        "tables": tables,
        "changes": RatingChange.objects.filter(rated_table__rating_list=listed).count(),
        "seconds": round(seconds, 2),
    }


def main() -> None:
    root = Path(__file__).resolve().parent.parent
    sys.path.insert(0, str(root))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tarokclub.settings")
    os.environ.setdefault("DJANGO_DEBUG", "1")
    path = root / "bench" / "ratings.sqlite3"
    if "DATABASE_URL" not in os.environ:
        path.unlink(missing_ok=True)
        os.environ["DATABASE_URL"] = f"sqlite:///{path}"
    import django
    from django.core.management import call_command

    django.setup()
    call_command("migrate", verbosity=0)
    print(measure(build()))


if __name__ == "__main__":
    main()
