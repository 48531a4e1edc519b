"""The bounded load run of make bench (issue 22.8): a busy evening, loopback only.

A club of its own with TABLES tables of four opens an evening. Each endpoint is first timed
idle (one client, nothing else running), then under load: a thread per table saves a hand
every SAVE_PAUSE seconds through the Django test client (the scorekeeper's POST, as the
tablet sends it; a real table saves every few minutes, so this is a busy evening compressed)
while WATCHERS
threads poll the table screen's live part, the live evening page and the wall about every
POLL_SECONDS as htmx does (with the ETag of their last answer, as the browser sends it) and
one reader opens the evening sheet page now and then. The load stops after LOAD_SECONDS or
when every table has saved HANDS hands, whichever comes first. Then: each endpoint's p50/p95
loaded and idle, how many polls were answered 304, whether every save is in the ledger once
(nothing lost, nothing doubled) and ``verify_ledger`` over the club.
"""

from __future__ import annotations

import json
import random
import threading
import time
import uuid

from django.contrib.auth import get_user_model
from django.db import connections
from django.test import Client
from django.urls import reverse

from bench.measure import bench_date
from ledger import services
from ledger.games.danish.engine import rotation
from ledger.games.danish.engine.generate import random_hand
from ledger.models import Club, Hand, Member, Table
from ledger.services import people

TABLES, WATCHERS, HANDS = 4, 8, 40
LOAD_SECONDS, POLL_SECONDS, SAVE_PAUSE = 40.0, 1.0, 2.5
IDLE_REPEAT = 10
HTMX = {"HTTP_HX_REQUEST": "true"}


def _percentiles(times: list[float]) -> dict:
    if not times:
        return {"p50_ms": None, "p95_ms": None, "n": 0}
    ordered = sorted(times)
    p95 = ordered[max(0, round(0.95 * len(ordered)) - 1)]
    return {
        "p50_ms": round(ordered[len(ordered) // 2] * 1000, 1),
        "p95_ms": round(p95 * 1000, 1),
        "n": len(ordered),
    }


def _setup():
    club = Club.objects.create(name="Load", slug="bench-load")
    users = get_user_model().objects
    keeper = users.create_user(username="bench-load-keeper", password=uuid.uuid4().hex)
    Member.objects.create(club=club, name="Keeper", user=keeper, role=Member.Role.SCOREKEEPER)
    watchers = []
    for i in range(WATCHERS):
        user = users.create_user(username=f"bench-load-w{i}", password=uuid.uuid4().hex)
        Member.objects.create(club=club, name=f"Watcher {i}", user=user)
        watchers.append(user)
    players = [Member.objects.create(club=club, name=f"P{i:02d}") for i in range(TABLES * 4 + 4)]
    people.seal_clubs([club.pk])  # sealed as a trusted set-up
    # A date evening_open accepts (within the year ahead), as the bench's other evenings.
    evening = services.evening_open(club=club, date=bench_date(3))
    tables = [
        services.table_open(evening=evening, members=players[4 * i : 4 * i + 4])
        for i in range(TABLES + 1)  # the last one for the idle saves
    ]
    return club, keeper, watchers, evening, tables


def _client(user) -> Client:
    """A logged-in browser, its handler's middleware loaded by a first request: a server loads
    it once at its start (whitenoise then reads the collected static files, 100 ms or more),
    not within a timed save or poll."""
    client = Client()
    client.force_login(user)
    client.get(reverse("healthz"))
    return client


def _save(client, club, table, rng, number) -> float:
    seats = list(table.seats.filter(left=False).order_by("position").values_list("name", flat=True))
    dealer, out = rotation.hand_schedule(seats, seats[0], number)
    record = random_hand(rng, seats, dealer, sitting_out=out, with_table=False)
    url = reverse("hand_new", kwargs={"club": club.slug, "pk": table.pk})
    # The number and the table's version, as the tablet's form sends them (a save without them
    # is refused): read before the save is timed, as the form has them already.
    data = {
        "record": json.dumps(record),
        "token": str(uuid.uuid4()),
        "number": number,
        "version": services.table_version(table.pk),
    }
    started = time.perf_counter()
    response = client.post(url, data)
    elapsed = time.perf_counter() - started
    if response.status_code >= 400:
        raise RuntimeError(f"save {table.pk}/{number}: {response.status_code}")
    return elapsed


class Watcher:
    """A member's browser: polls with the ETag of its last answer, counts the 304s."""

    def __init__(self, client):
        self.client = client
        self.etags: dict[str, str] = {}
        self.not_modified = 0

    def poll(self, url: str) -> float:
        headers = dict(HTMX)
        if url in self.etags:
            headers["HTTP_IF_NONE_MATCH"] = self.etags[url]
        started = time.perf_counter()
        response = self.client.get(url, **headers)
        elapsed = time.perf_counter() - started
        if response.status_code == 304:
            self.not_modified += 1
        elif response.status_code == 200:
            if response.has_header("ETag"):
                self.etags[url] = response["ETag"]
        else:
            raise RuntimeError(f"poll {url}: {response.status_code}")
        return elapsed


def run(verify) -> dict:
    """Run the idle and the loaded measures; ``verify(tables)`` returns (ok, problems)."""
    rng = random.Random(22)
    club, keeper, watcher_users, evening, tables = _setup()
    play, idle_table = tables[:TABLES], tables[TABLES]
    urls = {
        "poll_table": reverse("table", kwargs={"club": club.slug, "pk": play[0].pk}),
        "poll_evening": reverse("evening", kwargs={"club": club.slug, "pk": evening.pk}),
        "poll_wall": reverse("evening_wall", kwargs={"club": club.slug, "pk": evening.pk}),
    }
    sheet_url = reverse("evening_sheet", kwargs={"club": club.slug, "pk": evening.pk})
    # A few hands first, so the screens have something to show.
    for table in play:
        keeper_client = _client(keeper)
        for number in range(1, 4):
            _save(keeper_client, club, table, rng, number)
    saved = {table.pk: 3 for table in play}

    idle: dict[str, list[float]] = {name: [] for name in (*urls, "save", "sheet_page")}
    keeper_client = _client(keeper)
    for number in range(1, IDLE_REPEAT + 1):
        idle["save"].append(_save(keeper_client, club, idle_table, rng, number))
    watcher = Watcher(_client(watcher_users[0]))
    for name, url in urls.items():
        for _ in range(IDLE_REPEAT):
            idle[name].append(watcher.poll(url))
    for _ in range(3):
        started = time.perf_counter()
        watcher.client.get(sheet_url)
        idle["sheet_page"].append(time.perf_counter() - started)

    loaded: dict[str, list[float]] = {name: [] for name in idle}
    errors: list[str] = []
    lock = threading.Lock()
    stop = threading.Event()
    deadline = time.perf_counter() + LOAD_SECONDS
    watchers = [Watcher(_client(user)) for user in watcher_users]

    def record(name, seconds):
        with lock:
            loaded[name].append(seconds)

    def saver(table, seed):
        client, own = _client(keeper), random.Random(seed)
        try:
            while not stop.is_set() and saved[table.pk] < HANDS:
                number = saved[table.pk] + 1
                record("save", _save(client, club, table, own, number))
                saved[table.pk] = number
                time.sleep(SAVE_PAUSE)
        except Exception as error:
            errors.append(f"saver {table.pk}: {error!r}")
        finally:
            connections.close_all()

    def watch(w, index):
        own = random.Random(index)
        try:
            while not stop.is_set():
                # The table screen's watchers look at their own table.
                table = play[index % TABLES]
                url_table = reverse("table", kwargs={"club": club.slug, "pk": table.pk})
                for name, url in (
                    ("poll_table", url_table),
                    ("poll_evening", urls["poll_evening"]),
                    ("poll_wall", urls["poll_wall"]),
                ):
                    record(name, w.poll(url))
                time.sleep(POLL_SECONDS * (0.5 + own.random()))
        except Exception as error:
            errors.append(f"watcher {index}: {error!r}")
        finally:
            connections.close_all()

    def reader():
        client = _client(watcher_users[-1])
        try:
            while not stop.is_set():
                started = time.perf_counter()
                client.get(sheet_url)
                record("sheet_page", time.perf_counter() - started)
                time.sleep(2)
        except Exception as error:
            errors.append(f"reader: {error!r}")
        finally:
            connections.close_all()

    threads = [threading.Thread(target=saver, args=(t, i)) for i, t in enumerate(play)]
    threads += [threading.Thread(target=watch, args=(w, i)) for i, w in enumerate(watchers)]
    threads.append(threading.Thread(target=reader))
    started = time.perf_counter()
    for thread in threads:
        thread.start()
    while time.perf_counter() < deadline and any(saved[t.pk] < HANDS for t in play):
        time.sleep(0.2)
    stop.set()
    for thread in threads:
        thread.join()
    seconds = time.perf_counter() - started

    in_ledger = {t.pk: Hand.objects.filter(table=t).count() for t in play}
    ok, problems = verify(Table.objects.filter(evening__club=club))
    polls = sum(len(loaded[name]) for name in urls)
    return {
        "load": {
            "tables": TABLES,
            "watchers": WATCHERS,
            "seconds": round(seconds, 1),
            "saves": sum(saved.values()) - 3 * TABLES,
            "polls": polls,
            "polls_304": sum(w.not_modified for w in watchers),
            "lost_or_doubled": sum(abs(in_ledger[pk] - saved[pk]) for pk in saved),
            "errors": errors[:5],
            "verify_ok": ok,
            "problems": problems[:5],
            "endpoints": {
                name: {"idle": _percentiles(idle[name]), "loaded": _percentiles(loaded[name])}
                for name in idle
            },
        }
    }


def print_load(results: dict) -> None:
    r = results.get("load")
    if not r:
        return
    print()
    print(
        f"load: {r['tables']} tables saving, {r['watchers']} watchers polling, "
        f"{r['seconds']} s: {r['saves']} saves, {r['polls']} polls ({r['polls_304']} answered "
        f"304), lost or doubled {r['lost_or_doubled']}, verify_ledger "
        f"{'OK' if r['verify_ok'] else 'FAIL'}"
    )
    if r["errors"]:
        print(f"errors: {r['errors']}")
    print(f"{'endpoint':20} {'idle p50/p95 ms':>22} {'loaded p50/p95 ms':>22} {'p95 x idle':>11}")
    for name, e in r["endpoints"].items():
        i, lo = e["idle"], e["loaded"]
        ratio = round(lo["p95_ms"] / i["p95_ms"], 1) if i["p95_ms"] and lo["p95_ms"] else "–"
        print(
            f"{name:20} {str(i['p50_ms']) + ' / ' + str(i['p95_ms']):>22} "
            f"{str(lo['p50_ms']) + ' / ' + str(lo['p95_ms']):>22} {ratio:>11}"
        )
