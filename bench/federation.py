"""The federation at scale (issue 30): a season of 30 clubs, 3,000 players and 200 events
generated through the services, then the ladder page (its first page of 100 lines, the ladder
kept) and a player's page timed against the plainest raw SQL giving the same numbers, the
ladder page's first read after a change (the kept ladder recomputed), a full re-rating
(``bench/ratings.py``'s ``measure``) and the import of a 138-player, 4-round results file.

The events are results files (``tarokclub.results/1``) played by the tournament engine
(``run_tournament``, a manual draw of tables of four and three and random table scores, so
the reader's recompute agrees) and imported by ``results_import``: the import makes the
players (each with a licence of the federation). A series of all of them (by placement on
the linear scale: each event's N − rank + 1, summed) and a rating list follow.

``build`` and ``measure`` run in any database the caller's Django is set up on (the test
``ledger/tests/bench/test_federation_bench.py`` runs a tiny one so the code cannot rot);
``python bench/federation.py`` runs the full size on a fresh SQLite file of its own, or on a
fresh ``<name>_fedbench`` PostgreSQL database when ``DATABASE_URL`` is given.
"""

from __future__ import annotations

import datetime
import os
import random
import secrets
import statistics
import subprocess
import sys
import time
from fractions import Fraction
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
GAME, FORMAT, SLUG = "slovenian_tarok", "sl_dp", "fedbench"
RULE = {"source": "placement", "scale": {"kind": "linear"}}
PASSWORD = "bench-password-1"


def _sizes(n: int) -> list[int]:
    """Tables of four, and of three for the rest (n ≥ 6, or a multiple of four or three)."""
    threes = (4 - n % 4) % 4
    return [3] * threes + [4] * ((n - 3 * threes) // 4)


def results_file(*, uid: str, name: str, date: datetime.date, players, rounds: int, seed: int):
    """A results file of ``players`` (``(code, name, club, licence)``) over ``rounds`` rounds,
    played by the tournament engine with a random manual draw and random table scores."""
    from ledger.federation.engine.results import RESULTS_FORMAT
    from ledger.tournaments import engine

    rng = random.Random(seed)
    codes = [p[0] for p in players]
    inputs = []
    for number in range(1, rounds + 1):
        order = codes[:]
        rng.shuffle(order)
        tables, at = [], 0
        for size in _sizes(len(order)):
            tables.append(tuple(order[at : at + size]))
            at += size
        inputs.append(
            engine.RoundInput(
                number=number,
                results={c: rng.randrange(-300, 305, 5) for c in codes},
                draw=engine.ManualDraw(tables=tuple(tables)),
            )
        )
    tournament = engine.Tournament(
        game=GAME,
        format_code=FORMAT,
        seed=name,
        params=engine.params_for(FORMAT, {"rounds": rounds}),
        entries=tuple(engine.Entry(id=c, name=n, club=club) for c, n, club, _l in players),
    )
    run = engine.run_tournament(tournament, inputs)
    rounds_doc = []
    for played in run.rounds:
        by_table: dict[int, list] = {}
        for seat in played.result.seats:
            by_table.setdefault(seat.table, []).append(seat)
        rounds_doc.append(
            {
                "number": played.number,
                "kind": played.kind,
                "tables": [
                    {
                        "number": number,
                        "seats": [
                            {
                                "player": s.player,
                                "score": s.score,
                                "place": s.place,
                                "points": str(s.points),
                                "first": s.first,
                            }
                            for s in sorted(seats, key=lambda s: tables_order(played, s))
                        ],
                    }
                    for number, seats in sorted(by_table.items())
                ],
                "byes": [],
            }
        )
    return {
        "format": RESULTS_FORMAT,
        "id": uid,
        "revision": 1,
        "exported_at": "2026-12-05T12:00:00+00:00",
        "source": "bench.example",
        "federation": SLUG,
        "game": GAME,
        "tournament_format": FORMAT,
        "name": name,
        "dates": [date.isoformat()],
        "seed": name,
        "params": {"rounds": rounds},
        "players": [
            {
                "id": c,
                "name": n,
                "club": club,
                "licence": licence,
                "ladder_rank": None,
                "from_round": 1,
            }
            for c, n, club, licence in players
        ],
        "rounds": rounds_doc,
        "ranking": [row.as_dict() for row in run.ranking],
        "corrections": [],
    }


def tables_order(played, seat) -> int:
    """A seat's place at its table in the draw's seat order."""
    return played.draw.tables[seat.table - 1].index(seat.player)


def _pool(players: int, clubs: int) -> list[tuple[str, str, str]]:
    return [(f"Player {i:04d}", f"Bench club {i % clubs}", f"B{i:05d}") for i in range(players)]


def build(
    *,
    clubs: int = 30,
    players: int = 3000,
    tournaments: int = 200,
    size: int = 40,
    rounds: int = 5,
    real: int = 3,
    seed: int = 1,
) -> dict:
    """Write the season through the services; return its federation, series, rating list,
    the user whose player (``hero``) plays the most events, and the counts."""
    from django.contrib.auth import get_user_model

    from ledger.models import ImportedPlacing, Member
    from ledger.services import federation as fed
    from ledger.services import people
    from ledger.services.federation.players import player_for_member
    from ledger.services.federation.results import results_import
    from ledger.services.setup import club_create

    rng = random.Random(seed)
    federation = fed.federation_create(name="Bench federation", slug=SLUG, game=GAME, language="sl")
    club_rows = []
    for i in range(clubs):
        club, _admin, _season = club_create(
            name=f"Bench club {i}",
            slug=f"fedbench-{i}",
            game=GAME,
            season_name="2026/27",
            season_starts_on=datetime.date(2026, 9, 1),
            season_ends_on=datetime.date(2027, 6, 30),
        )
        fed.club_join(federation=federation, club=club)
        club_rows.append(club)
    pool = _pool(players, clubs)
    # The hero: a member of the first club with a login, his player licensed, who plays in
    # every other event (the imports find him by his licence).
    user = get_user_model().objects.create_user(username="fedbench-hero", password=PASSWORD)
    member = Member.objects.create(club=club_rows[0], name=pool[0][0], user=user)
    people.seal_clubs({club_rows[0].pk})
    hero = player_for_member(member)
    fed.player_set_licence(player=hero, federation=federation, licence=pool[0][2])
    order = list(range(1, players))
    rng.shuffle(order)
    at = 0
    start = datetime.date(2026, 9, 5)
    events = []
    for t in range(tournaments):
        chosen = []
        while len(chosen) < size - (t % 2 == 0):
            if at == len(order):
                rng.shuffle(order)
                at = 0
            if order[at] not in chosen:
                chosen.append(order[at])
            at += 1
        if t % 2 == 0:
            chosen.insert(rng.randrange(len(chosen) + 1), 0)
        document = results_file(
            uid=f"00000000-0000-4000-8000-{t:012d}",
            name=f"Bench event {t}",
            date=start + datetime.timedelta(days=t * 270 // tournaments),
            players=[(str(k + 1), *pool[k]) for k in chosen],
            rounds=rounds,
            seed=seed * 100_000 + t,
        )
        events.append(results_import(document=document, federation=federation).event)
    real_tournaments = [
        play_tournament(club_rows[(k + 1) % clubs], k, seed=seed) for k in range(real)
    ]
    series = fed.series_create(
        name="Bench ladder",
        seed="bench",
        starts_on=datetime.date(2026, 9, 1),
        ends_on=datetime.date(2027, 6, 30),
        rule=RULE,
        federation=federation,
    )
    for event in events:
        fed.series_event_add(series=series, imported=event)
    rating_list = fed.rating_list_create(federation=federation, name="Bench rating")
    return {
        "federation": federation,
        "series": series,
        "rating_list": rating_list,
        "club": club_rows[0],
        "user": user,
        "hero": hero,
        "counts": {
            "clubs": federation.clubs.count(),
            "players": fed_players(federation),
            "events": len(events),
            "placings": ImportedPlacing.objects.filter(event__federation=federation).count(),
            "hero_events": hero.placings.count(),
            "real_tournaments": len(real_tournaments),
        },
    }


def play_tournament(club, k: int, *, seed: int, players: int = 8, hands: int = 4):
    """A real tournament of ``club``, played through the tournament services: ``players``
    of the pool entered from a pasted ladder (by their licences), one round drawn, published
    and started, ``hands`` random hands recorded at each table (``bench/tournament.py``'s
    ``fill_by_services``), the round closed and the tournament made final. Rated by the
    rating list, not in the ladder (its ranking lives in the engine, not in a table the raw
    SQL could sum)."""
    from types import SimpleNamespace

    from django.contrib.auth import get_user_model

    from bench.tournament import fill_by_services
    from ledger.models import Member
    from ledger.services import people
    from ledger.services import tournaments as tour

    user = get_user_model().objects.create_user(username=f"fedbench-director-{k}")
    Member.objects.create(club=club, name=f"Director {k}", user=user, role=Member.Role.ADMIN)
    people.seal_clubs([club.pk])
    tournament = tour.tournament_create(
        club=club,
        name=f"Bench cup {k}",
        date=datetime.date(2027, 5, 1) + datetime.timedelta(days=7 * k),
        game=GAME,
        tournament_format=FORMAT,
        params={"rounds": 1},
        seed=f"FEDBENCH-{k}",
        by=user,
    )
    # The entrants are players of the pool (found by their licences), a dozen per cup.
    rows = _pool(1 + (k + 1) * players, 30)[1 + k * players :]
    text = "\n".join(
        ["name,club,rank,id"]
        + [
            f"{name},{club_name},{i + 1},{licence}"
            for i, (name, club_name, licence) in enumerate(rows)
        ]
    )
    tour.entries_import(tournament=tournament, text=text, by=user)
    round_ = tour.round_draw(tournament=tournament, by=user)
    round_ = tour.round_start(round_=tour.round_publish(round_=round_, by=user), by=user)
    fill_by_services(
        round_.round_tables.select_related("table"),
        hands,
        SimpleNamespace(keeper=SimpleNamespace(user=user)),
        seed * 1000 + k,
    )
    tour.round_close(round_=round_, by=user)
    return tour.tournament_finish(tournament=tournament, by=user)


def fed_players(federation) -> int:
    """The federation's players (licensed by it)."""
    from ledger.models import Player

    return Player.objects.filter(federation=federation).count()


LADDER_SQL = """
SELECT p.player_id, pl.name, SUM(n.size - p.rank + 1) AS total, COUNT(*) AS events
FROM ledger_importedplacing p
JOIN (SELECT event_id, COUNT(*) AS size FROM ledger_importedplacing GROUP BY event_id) n
  ON n.event_id = p.event_id
JOIN ledger_seriesevent se ON se.imported_id = p.event_id AND se.series_id = %s
JOIN ledger_player pl ON pl.id = p.player_id
GROUP BY p.player_id, pl.name
ORDER BY total DESC, pl.name
"""

PLAYER_SQL = """
SELECT e.date, e.name, e.source, p.rank, p.points
FROM ledger_importedplacing p JOIN ledger_importedevent e ON e.id = p.event_id
WHERE p.player_id = %s
ORDER BY e.date DESC
"""


# The rest of what the player's page shows, by raw SQL: his rated tables (each one's list,
# date, label, rating before, expected, actual, K, change and rating after) and his lines on
# the kept ladders (position, total, best, wins, events).
PLAYER_RATED_SQL = """
SELECT t.rating_list_id, t.date, t.label, c.before, c.expected, c.actual, c.k, c.delta, c.after
FROM ledger_ratingchange c JOIN ledger_ratedtable t ON t.id = c.rated_table_id
WHERE c.player_id = %s
ORDER BY t.rating_list_id, t.position
"""

PLAYER_LADDER_SQL = """
SELECT l.series_id, l.position, l.total, l.best, l.wins, l.events
FROM ledger_keptladderline l WHERE l.player_id = %s ORDER BY l.series_id
"""


def raw_player_page(player) -> tuple[list, list, list]:
    """Everything the player's page shows by raw SQL: his results, his rated tables and his
    kept ladder lines."""
    from django.db import connection

    with connection.cursor() as cursor:
        found = []
        for sql in (PLAYER_SQL, PLAYER_RATED_SQL, PLAYER_LADDER_SQL):
            cursor.execute(sql, [player.pk])
            found.append(cursor.fetchall())
    return found[0], found[1], found[2]


def raw_ladder(series) -> dict[int, int]:
    """The ladder's totals by player id, by raw SQL."""
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute(LADDER_SQL, [series.pk])
        return {row[0]: int(row[2]) for row in cursor.fetchall()}


def raw_player(player) -> list[tuple]:
    """The player's imported results, by raw SQL."""
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute(PLAYER_SQL, [player.pk])
        return cursor.fetchall()


def check(world: dict) -> dict:
    """Check the pages' numbers equal the raw SQL's: the ladder's totals, and the player's
    results; return what was compared."""
    from ledger.selectors.federation import ladder_lines
    from ledger.selectors.ratings import user_players

    lines = ladder_lines(world["series"])
    page = {line.player.pk: line.total for line in lines}
    raw = raw_ladder(world["series"])
    assert page == {pk: Fraction(total) for pk, total in raw.items()}, "ladder totals differ"
    (mine,) = user_players(world["user"])
    results = [(r.date, r.rank) for r in mine.results]
    raw_rows = [(row[0], row[3]) for row in raw_player(world["hero"])]
    as_date = [
        (d if isinstance(d, datetime.date) else datetime.date.fromisoformat(d), r)
        for d, r in raw_rows
    ]
    assert sorted(results) == sorted(as_date), "the player's results differ"
    # The rest of his page: each rated table's figures, and his kept ladder lines.
    from ledger.selectors.federation import player_ladder_lines

    _results, rated, laddered = raw_player_page(world["hero"])
    page_rated = [
        (c.date, c.label, c.before, c.expected, c.actual, c.k, c.delta, c.after)
        for one in mine.ratings
        for c in one.changes
    ]
    raw_rated = [
        (d if isinstance(d, datetime.date) else datetime.date.fromisoformat(d), *rest)
        for _list, d, *rest in rated
    ]
    assert page_rated == raw_rated, "the player's rated tables differ"
    page_lines = [
        (x.series_id, x.position, x.total, x.best, x.wins, x.events)
        for x in player_ladder_lines(world["hero"])
    ]
    assert sorted(page_lines) == sorted(laddered), "the player's ladder lines differ"
    return {
        "ladder_players": len(lines),
        "hero_results": len(results),
        "hero_rated": len(rated),
        "hero_ladders": len(laddered),
    }


def _newcomer(club):
    """A member of ``club`` with a log-in whose player has played nothing; his user."""
    from django.contrib.auth import get_user_model

    from ledger.models import Member
    from ledger.services import people
    from ledger.services.federation.players import player_for_member

    user = get_user_model().objects.create_user(username="fedbench-newcomer", password=PASSWORD)
    member = Member.objects.create(club=club, name="Newcomer", user=user)
    people.seal_clubs({club.pk})
    player_for_member(member)
    return user


def stale(series) -> None:
    """Make the series' kept ladder stale, as any change it reads does (its fingerprint
    differs from the series' own), so that its next read recomputes it."""
    from ledger.models import KeptLadder

    KeptLadder.objects.filter(series=series).update(fingerprint="stale")


def _median(fn, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        began = time.perf_counter()
        fn()
        times.append(time.perf_counter() - began)
    return statistics.median(times)


def measure(world: dict, *, repeat: int = 7, import_players: int = 138) -> dict:
    """Time the pages against their raw SQL (medians of ``repeat``), a full re-rating and
    the import of a ``import_players``-player, 4-round results file."""
    from django.test import Client
    from django.urls import reverse

    from bench import ratings
    from ledger.selectors.federation import ladder_lines
    from ledger.selectors.ratings import user_players
    from ledger.services.federation.results import results_import

    checked = check(world)
    club, series = world["club"], world["series"]
    client = Client()
    client.force_login(world["user"])
    ladder_url = reverse("series_ladder", kwargs={"club": club.slug, "pk": series.pk})
    player_url = reverse("my_player")

    def get(url):
        answer = client.get(url)
        assert answer.status_code == 200, (url, answer.status_code)

    get(ladder_url)
    get(player_url)
    # The pages as their readers find them: the ladder kept (the first page of 100 lines).
    ladder = _median(lambda: get(ladder_url), repeat)
    ladder_sql = _median(lambda: raw_ladder(series), repeat)
    player = _median(lambda: get(player_url), repeat)
    # The same page of a member whose player has played nothing yet: what the page costs
    # before any result, rated table or ladder line (the request, session, log-in, his
    # player and memberships, the series that may count him, the site's template).
    newcomer = Client()
    newcomer.force_login(_newcomer(club))
    get_empty = lambda: newcomer.get(player_url)  # noqa: E731
    get_empty()
    player_empty = _median(get_empty, repeat)
    player_sql = _median(lambda: raw_player(world["hero"]), repeat)
    player_page_sql = _median(lambda: raw_player_page(world["hero"]), repeat)
    # The first read after a change: the kept ladder's fingerprint no longer matches (as
    # after a correction, an import, a merge), so the page recomputes it through the engine
    # and stores its lines before showing its first page.
    recompute = _median(lambda: (stale(series), get(ladder_url)), max(3, repeat // 2))
    # Where the time goes: the selectors alone (the rest is the page's rendering).
    ladder_reads = _median(lambda: ladder_lines(series), repeat)
    player_reads = _median(lambda: user_players(world["user"]), repeat)
    rated = ratings.measure(world["federation"], rating_list=world["rating_list"])
    pool = _pool(import_players, 30)
    document = results_file(
        uid="00000000-0000-4000-9000-000000000138",
        name="Bench open",
        date=datetime.date(2027, 6, 20),
        players=[
            (str(i + 1), f"Open {n}", club_name, f"O{i:05d}")
            for i, (n, club_name, _l) in enumerate(pool)
        ],
        rounds=4,
        seed=138,
    )
    began = time.perf_counter()
    results_import(document=document, federation=world["federation"])
    imported = time.perf_counter() - began
    return {
        **checked,
        "ladder_ms": round(ladder * 1000, 1),
        "ladder_sql_ms": round(ladder_sql * 1000, 1),
        "ladder_ratio": round(ladder / ladder_sql, 2),
        "ladder_recompute_ms": round(recompute * 1000, 1),
        "player_ms": round(player * 1000, 1),
        "player_sql_ms": round(player_sql * 1000, 1),
        "player_ratio": round(player / player_sql, 2),
        "player_page_sql_ms": round(player_page_sql * 1000, 1),
        "player_empty_ms": round(player_empty * 1000, 1),
        "player_page_ratio": round(player / player_page_sql, 2),
        "ladder_reads_ms": round(ladder_reads * 1000, 1),
        "player_reads_ms": round(player_reads * 1000, 1),
        "rating_s": rated["seconds"],
        "rated_tables": rated["tables"],
        "import_s": round(imported, 2),
    }


def table(figures: dict) -> list[tuple[str, str, str, bool]]:
    """Each figure, its aim and whether it is met."""
    return [
        (
            "ladder page vs raw SQL",
            f"{figures['ladder_ms']} ms / {figures['ladder_sql_ms']} ms = "
            f"{figures['ladder_ratio']}×",
            "≤ 1.5×",
            figures["ladder_ratio"] <= 1.5,
        ),
        (
            "player page vs raw SQL",
            f"{figures['player_ms']} ms / {figures['player_sql_ms']} ms = "
            f"{figures['player_ratio']}×",
            "≤ 1.5×",
            figures["player_ratio"] <= 1.5,
        ),
        (
            f"player page vs raw SQL of all it shows ({figures['hero_rated']} rated tables)",
            f"{figures['player_ms']} ms / {figures['player_page_sql_ms']} ms = "
            f"{figures['player_page_ratio']}×",
            "≤ 1.5×",
            figures["player_page_ratio"] <= 1.5,
        ),
        (
            "  the same page of a player with no result yet",
            f"{figures['player_empty_ms']} ms",
            "",
            True,
        ),
        (
            "ladder page, first read after a change",
            f"{figures['ladder_recompute_ms']} ms",
            "",
            True,
        ),
        ("  all the kept ladder's lines read", f"{figures['ladder_reads_ms']} ms", "", True),
        ("  of which the player's selector", f"{figures['player_reads_ms']} ms", "", True),
        (
            f"full re-rating ({figures['rated_tables']} tables)",
            f"{figures['rating_s']} s",
            "< 5 s",
            figures["rating_s"] < 5,
        ),
        (
            "import 138 players × 4 rounds",
            f"{figures['import_s']} s",
            "< 2 s",
            figures["import_s"] < 2,
        ),
    ]


def _database() -> str:
    """The bench's database, made afresh (``bench/fresh.py``)."""
    from bench.fresh import fresh_database

    return fresh_database("fedbench", "federation.sqlite3")


def main() -> int:
    sys.path.insert(0, str(ROOT))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tarokclub.settings")
    # Timed as production runs: DEBUG off (no query log), so a key.
    os.environ["DJANGO_DEBUG"] = "0"
    os.environ.setdefault("DJANGO_SECRET_KEY", secrets.token_urlsafe(40))
    os.environ.setdefault("AXES_ENABLED", "0")
    os.environ.setdefault("DJANGO_ALLOWED_HOSTS", "testserver,localhost,127.0.0.1")
    vendor = _database()
    import django
    from django.core.management import call_command

    django.setup()
    call_command("migrate", verbosity=0)
    began = time.perf_counter()
    world = build()
    print(f"Generated on {vendor} in {time.perf_counter() - began:.0f} s: {world['counts']}")
    figures = measure(world)
    load = subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip()
    loadavg = Path("/proc/loadavg").read_text().strip() if Path("/proc/loadavg").exists() else ""
    print(f"\n{'figure':58} {'measured':32} {'aim':8} met")
    for name, value, aim, met in table(figures):
        print(f"{name:58} {value:32} {aim:8} {('yes' if met else 'NO') if aim else ''}")
    print(f"uptime: {load}")
    if loadavg:
        print(f"/proc/loadavg: {loadavg}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
