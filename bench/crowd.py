"""The crowd benches of issue 31: a busy club night and a championship hall, over HTTP against
the real production start (``scripts/serve-production.sh``, gunicorn on PostgreSQL), every
client a process of its own.

    .venv/bin/python bench/crowd.py [night|hall|all]     (make bench runs ``all``)

**The night.** A Danish evening of ``NIGHT_TABLES`` (12) tables of four: each table's tablet
opens the entry form and saves a random Danish hand about every ``NIGHT_EVERY`` (2) seconds,
while ``NIGHT_WATCHERS`` (20) members watch as htmx does: each polls the live part of a table
(its own), the live evening and the wall every 5 s (half to one and a half times it), with the
ETag of its last answer (``If-None-Match``), for ``NIGHT_SECONDS`` (60). Before it, in the same
run and against the same server: one tablet alone at a table of its own, and one watcher alone
polling each fragment without an ETag (a full render: what a watcher's poll costs when its
page changed). Then: every save offered was answered as saved and is in the ledger once (a
resent save of each tablet, with the same token, is answered as saved and not recorded again),
``verify_ledger`` is OK, and each p95 against its alone baseline.

**The hall.** A 138-player DP (46 tables of three), its first round started: each table's
phone enters a Slovenian hand every 60 to 180 s (a real pace), the first within the first
two minutes, while ``HALL_SPECTATORS`` (300) spectators read, a third each: the tournament's
public page (its ranking and published draws, reloaded about every 30 s), the hall's wall
(htmx, every 5 s) and the round's page (every 30 s), for ``HALL_SECONDS``. Alone baselines as
for the night.

The server: the production start's own default (``BENCH_CROWD_SERVERS`` unset), or each of a
list such as ``sync:2,sync:3,sync:5,gthread:2x8`` in turn (the comparison that chose the
default, docs/benchmarks.md). The figures go to ``bench/results-crowd.json``.
The clients log in once per role (the log-in form, as a browser) and share that session's
cookies, so 300 log-ins do not load the server before the measure.
"""

from __future__ import annotations

import http.cookiejar
import json
import multiprocessing
import os
import queue
import random
import secrets
import sys
import time
import urllib.error
import urllib.request
from collections import Counter, defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench import tablets  # noqa: E402 - no Django in the clients
from bench.tournament import Server, env_number, load_average, percentiles, serve  # noqa: E402

NIGHT_TABLES = int(env_number("BENCH_NIGHT_TABLES", 12))
NIGHT_WATCHERS = int(env_number("BENCH_NIGHT_WATCHERS", 20))
NIGHT_SECONDS = env_number("BENCH_NIGHT_SECONDS", 60)
NIGHT_EVERY = 2.0
POLL_EVERY = 5.0
HALL_PLAYERS = 138
HALL_SPECTATORS = int(env_number("BENCH_HALL_SPECTATORS", 300))
HALL_SECONDS = env_number("BENCH_HALL_SECONDS", 300)
HALL_EVERY = 120.0  # x (0.5 to 1.5): a hand every 60 to 180 s
READ_EVERY = 30.0
ALONE_SAVES, ALONE_READS = 10, 10
AIMS = {"night_save_x": 3.0, "night_poll_x": 5.0, "hall_save_x": 2.0, "hall_read_ms": 300.0}


# --- the clients: processes of their own, no Django ------------------------------------------


def browser(base: str, cookies: list[tuple[str, str]]) -> tablets.Tablet:
    """A ``Tablet`` carrying the cookies of a session logged in by the bench."""
    tab = tablets.Tablet(base)
    for name, value in cookies:
        tab.cookies.set_cookie(
            http.cookiejar.Cookie(
                0,
                name,
                value,
                None,
                False,
                "127.0.0.1",
                False,
                False,
                "/",
                True,
                False,
                None,
                False,
                None,
                None,
                {},
            )
        )
    return tab


def get(tab: tablets.Tablet, path: str, headers: dict) -> tuple[int, str | None]:
    """GET ``path``; return its status and ETag (a 304 is an answer, not an error)."""
    req = urllib.request.Request(tab.base_url + path, headers=headers)  # noqa: S310 - loopback
    try:
        with tab.opener.open(req, timeout=tablets.TIMEOUT) as response:
            response.read()
            return response.status, response.headers.get("ETag")
    except urllib.error.HTTPError as error:
        error.read()
        return error.code, error.headers.get("ETag")


def record_for(game: str, rng: random.Random, page: str) -> tuple[dict, dict]:
    """Return the hidden fields of an entry form's page and a random valid hand for it."""
    config = json.loads(tablets._CONFIG.search(page).group(1))
    seats, dealer = config["seats"], config["record"]["dealer"]
    if game == "danish_tarok":
        from ledger.games.danish.engine.generate import random_hand as danish

        out = config["record"].get("sitting_out") or None
        hand = danish(rng, seats, dealer, sitting_out=out, with_table=False)
    else:
        from ledger.games.slovenian.engine.generate import random_hand as slovenian

        hand = slovenian(rng, seats, dealer, with_table=False)
    return config, {**hand, "seats": seats}


def tablet_loop(tab, spec, start: float, end: float, rng, out) -> None:
    """Enter hands at one table from ``start`` to ``end``, one about every ``spec["every"]``
    seconds (half to one and a half times it), the first within the first interval; the
    first save is posted twice with its token (a retried submit)."""
    path = spec["entry"]
    next_at = start + rng.uniform(0, spec["every"]) * spec.get("stagger", 1.0)
    while True:
        time.sleep(max(0.0, min(next_at, end) - time.time()))
        if time.time() >= end:
            return
        next_at += spec["every"] * rng.uniform(0.5, 1.5)
        try:
            began = time.perf_counter()
            fields, page = tab.form(path)
            out["times"]["form"].append(time.perf_counter() - began)
            _config, record = record_for(spec["game"], rng, page)
            post = {
                "csrfmiddlewaretoken": fields["csrfmiddlewaretoken"],
                "record": json.dumps(record),
                "token": fields["token"],
                "number": fields["number"],
                "version": fields["version"],
            }
            out["offered"] += 1
            began = time.perf_counter()
            status, body = tab.request(path, post)
            elapsed = time.perf_counter() - began
            if status != 302:
                out["errors"].append(f"save: {status} {body[:160]!r}")
                continue
            out["times"]["save"].append(elapsed)
            out["saved"] += 1
            if out["resent"] is None:
                out["resent"] = tab.request(path, post)[0]
                out["resent_token"] = post["token"]
        except (OSError, tablets.Refused, ValueError, KeyError, AttributeError) as error:
            out["errors"].append(f"tablet: {error!r}")


def reader_loop(tab, spec, start: float, end: float, rng, out) -> None:
    """Read each of ``spec["reads"]`` (name, path, htmx) in turn, then wait about
    ``spec["every"]`` seconds; an htmx read names the ETag of its last answer."""
    etags: dict[str, str] = {}
    first = start + rng.uniform(0, spec["every"])
    time.sleep(max(0.0, min(first, end) - time.time()))
    while time.time() < end:
        for name, path, htmx in spec["reads"]:
            headers = {"HX-Request": "true"} if htmx else {}
            if htmx and spec.get("etag", True) and path in etags:
                headers["If-None-Match"] = etags[path]
            try:
                began = time.perf_counter()
                status, etag = get(tab, path, headers)
                out["times"][name].append(time.perf_counter() - began)
            except OSError as error:
                out["errors"].append(f"{name}: {error!r}")
                continue
            out["status"][f"{name} {status}"] += 1
            if status == 200 and etag:
                etags[path] = etag
            elif status not in (200, 304):
                out["errors"].append(f"{name}: {status}")
        if spec.get("count") and out["status"].total() >= spec["count"]:
            return
        time.sleep(max(0.0, min(spec["every"] * rng.uniform(0.5, 1.5), end - time.time())))


def client(spec: dict, clock, outbox) -> None:
    """One client process: wait for the start the bench sets (``clock``), run its loop for
    ``spec["seconds"]``, report its timings."""
    rng = random.Random(spec["seed"])
    tab = browser(spec["base"], spec["cookies"])
    out: dict = {
        "kind": spec["kind"],
        "table": spec.get("table"),
        "times": defaultdict(list),
        "status": Counter(),
        "errors": [],
        "offered": 0,
        "saved": 0,
        "resent": None,
        "resent_token": None,
    }
    outbox.put({"ready": True})
    while clock.value == 0:
        time.sleep(0.05)
    start = clock.value
    end = start + spec["seconds"]
    try:
        (tablet_loop if spec["kind"] == "tablet" else reader_loop)(tab, spec, start, end, rng, out)
    finally:
        out["times"] = dict(out["times"])
        out["status"] = dict(out["status"])
        outbox.put(out)


def crowd(specs: list[dict], seconds: float) -> list[dict]:
    """Run every spec as a process of its own (forked: no Django state is used by them),
    started together once all are up; return their reports."""
    from django.db import connections

    connections.close_all()  # a forked client must not share the bench's connection
    context = multiprocessing.get_context("fork")
    clock = context.Value("d", 0.0)
    outbox = context.Queue()
    processes = []
    for spec in specs:
        process = context.Process(
            target=client, args=({**spec, "seconds": seconds}, clock, outbox), daemon=True
        )
        process.start()
        processes.append(process)
    for _ in specs:
        outbox.get(timeout=300)
    clock.value = time.time() + 1.0
    reports = []
    deadline = time.monotonic() + seconds + 300
    while len(reports) < len(specs):
        try:
            reports.append(outbox.get(timeout=1))
        except queue.Empty:
            if time.monotonic() > deadline:
                raise RuntimeError(f"{len(reports)} of {len(specs)} clients answered") from None
    for process in processes:
        process.join(timeout=10)
    return reports


# --- the bench's side: set-up through the services, counts, figures -------------------------


def log_in(base: str, username: str, password: str) -> list[tuple[str, str]]:
    tab = tablets.Tablet(base)
    tab.log_in(username, password)
    return [(c.name, c.value) for c in tab.cookies if c.value is not None]


def gathered(reports: list[dict], kind: str | None = None) -> dict[str, list[float]]:
    times: dict[str, list[float]] = defaultdict(list)
    for r in reports:
        if kind is None or r["kind"] == kind:
            for name, values in r["times"].items():
                times[name].extend(values)
    return times


def statuses(reports: list[dict]) -> dict[str, int]:
    total: Counter = Counter()
    for r in reports:
        total.update(r["status"])
    return dict(sorted(total.items()))


def ledger_counts(reports: list[dict]) -> dict:
    """Compare what the tablets were answered with what the tables hold."""
    from django.db.models import Count

    from ledger.models import Hand

    tablets_ = [r for r in reports if r["kind"] == "tablet"]
    held = dict(
        Hand.objects.filter(table_id__in=[r["table"] for r in tablets_])
        .values("table_id")
        .annotate(n=Count("pk"))
        .values_list("table_id", "n")
    )
    tokens = [r["resent_token"] for r in tablets_ if r["resent_token"]]
    once = set(Hand.objects.filter(token__in=tokens).values_list("token", flat=True))
    return {
        "offered": sum(r["offered"] for r in tablets_),
        "saved": sum(r["saved"] for r in tablets_),
        "held": sum(held.values()),
        "lost": sum(max(0, r["saved"] - held.get(r["table"], 0)) for r in tablets_),
        # A save the tablet gave up on (its 60 s timeout) may still have been recorded: more
        # hands than the saves offered would be doubled ones.
        "doubled": sum(max(0, held.get(r["table"], 0) - r["offered"]) for r in tablets_),
        "unanswered": sum(r["offered"] - r["saved"] for r in tablets_),
        "resent": len(tokens),
        "resent_answered_saved": sum(
            1 for r in tablets_ if r["resent_token"] in once and r["resent"] == 302
        ),
    }


def night_setup(password: str):
    from django.contrib.auth import get_user_model
    from django.contrib.auth.hashers import make_password
    from django.utils import timezone

    from bench.measure import bench_date
    from ledger import services
    from ledger.models import Member
    from ledger.services import people
    from ledger.services import setup as setup_services

    users = get_user_model().objects
    hashed = make_password(password, hasher="pbkdf2_sha256")
    admin = users.create(username="night-admin", password=hashed)
    starts, ends = setup_services.season_dates(timezone.localdate())
    club, _admin, _season = setup_services.club_create(
        name="Night club",
        slug="night",
        game="danish_tarok",
        season_name="bench",
        season_starts_on=starts,
        season_ends_on=ends,
        admin_user=admin,
        admin_name="Admin",
    )
    keeper = users.create(username="night-keeper", password=hashed)
    Member.objects.create(club=club, name="Keeper", user=keeper, role=Member.Role.SCOREKEEPER)
    watcher = users.create(username="night-watcher", password=hashed)
    Member.objects.create(club=club, name="Watcher", user=watcher)
    players = [
        Member.objects.create(club=club, name=f"Spiller {i:02d}")
        for i in range(4 * (NIGHT_TABLES + 1))
    ]
    people.seal_clubs([club.pk])  # made behind the services, sealed as a set-up
    evening = services.evening_open(club=club, date=bench_date(7))
    tables = [
        services.table_open(evening=evening, members=players[4 * i : 4 * i + 4])
        for i in range(NIGHT_TABLES + 1)  # the last one for the tablet alone
    ]
    return club, evening, tables


def ratio(loaded: dict, alone: dict) -> float | None:
    if not loaded.get("p95_ms") or not alone.get("p95_ms"):
        return None
    return round(loaded["p95_ms"] / alone["p95_ms"], 2)


def run_night(server: Server, progress=print) -> dict:
    from django.conf import settings
    from django.urls import reverse

    from ledger.selectors.verify import verify_ledger

    password = secrets.token_urlsafe(16)
    club, evening, tables = night_setup(password)
    play, alone_table = tables[:NIGHT_TABLES], tables[NIGHT_TABLES]
    seal = getattr(settings, "LEDGER_SEAL_SECRET", None) or settings.SECRET_KEY
    slug = club.slug
    evening_url = reverse("evening", kwargs={"club": slug, "pk": evening.pk})
    wall_url = reverse("evening_wall", kwargs={"club": slug, "pk": evening.pk})

    def table_url(t):
        return reverse("table", kwargs={"club": slug, "pk": t.pk})

    def entry_url(t):
        return reverse("hand_new", kwargs={"club": slug, "pk": t.pk})

    results: dict = {"server": server.describe(), "load_start": load_average()}
    with serve(database_url(), seal_secret=seal, server=server) as base:
        keeper = log_in(base, "night-keeper", password)
        watcher = log_in(base, "night-watcher", password)
        common = {"base": base, "game": "danish_tarok"}
        tablet = {**common, "kind": "tablet", "cookies": keeper, "every": NIGHT_EVERY}
        # Alone: one tablet (its first hands), then one watcher's full renders.
        alone = crowd(
            [
                {
                    **tablet,
                    "table": alone_table.pk,
                    "entry": entry_url(alone_table),
                    "seed": 1,
                    "every": 1.0,
                    "stagger": 0,
                }
            ],
            ALONE_SAVES * 1.0,
        )
        reads = [
            ("poll_table", table_url(play[0]), True),
            ("poll_evening", evening_url, True),
            ("poll_wall", wall_url, True),
        ]
        alone += crowd(
            [
                {
                    **common,
                    "kind": "watcher",
                    "cookies": watcher,
                    "reads": reads,
                    "every": 0.3,
                    "etag": False,
                    "count": 3 * ALONE_READS,
                    "seed": 2,
                }
            ],
            60,
        )
        progress(f"  the night alone: {len(alone)} clients done; now the crowd ...")
        specs = [
            {**tablet, "table": t.pk, "entry": entry_url(t), "seed": 10 + i}
            for i, t in enumerate(play)
        ]
        specs += [
            {
                **common,
                "kind": "watcher",
                "cookies": watcher,
                "every": POLL_EVERY,
                "seed": 100 + i,
                "reads": [("poll_table", table_url(play[i % NIGHT_TABLES]), True), *reads[1:]],
            }
            for i in range(NIGHT_WATCHERS)
        ]
        loaded = crowd(specs, NIGHT_SECONDS)
    results["load_end"] = load_average()
    results.update(ledger_counts([r for r in loaded + alone if r["kind"] == "tablet"]))
    # What the tablets would have saved at their pace had every save been instant.
    results["at_pace"] = round(NIGHT_TABLES * NIGHT_SECONDS / NIGHT_EVERY)
    report = verify_ledger()
    results["verify_ok"] = report.ok
    results["errors"] = [e for r in loaded + alone for e in r["errors"]][:10]
    results["statuses"] = statuses(loaded)
    a, lo = gathered(alone), gathered(loaded)
    results["endpoints"] = {
        name: {"alone": percentiles(a.get(name, [])), "loaded": percentiles(lo.get(name, []))}
        for name in ("save", "form", "poll_table", "poll_evening", "poll_wall")
    }
    for e in results["endpoints"].values():
        e["x"] = ratio(e["loaded"], e["alone"])
    ends = results["endpoints"]
    results["aims"] = {
        "save p95 <= 3x alone": bool(ends["save"]["x"] and ends["save"]["x"] <= 3),
        "each poll p95 <= 5x alone": all(
            ends[n]["x"] is not None and ends[n]["x"] <= 5
            for n in ("poll_table", "poll_evening", "poll_wall")
        ),
        "every offered save done": results["offered"] == results["saved"],
        "the tablets' pace kept (90% of it)": results["saved"] >= 0.9 * results["at_pace"],
        "nothing lost or doubled": results["lost"] == results["doubled"] == 0
        and results["resent"] == results["resent_answered_saved"],
        "verify_ledger OK": report.ok,
    }
    return results


def run_hall(server: Server, progress=print) -> dict:
    from django.conf import settings
    from django.contrib.auth import get_user_model
    from django.contrib.auth.hashers import make_password
    from django.urls import reverse

    from bench import tournament as tb
    from ledger.models import Club, Member
    from ledger.selectors.verify import verify_ledger
    from ledger.services import people

    password = secrets.token_urlsafe(16)
    world = tb.setup(players=HALL_PLAYERS, rounds=2, password=password)
    Club.objects.filter(pk=world.club.pk).update(publish_results=True)
    user = get_user_model().objects.create(
        username="tbench-spectator", password=make_password(password, hasher="pbkdf2_sha256")
    )
    Member.objects.create(club=world.club, name="Gledalec", user=user)
    people.seal_clubs([world.club.pk])
    round_, _detail = tb.draw_and_start(world)
    tables = [rt.table_id for rt in round_.round_tables.order_by("number")]
    slug, t = world.club.slug, world.tournament.pk
    reads = {
        "public_ranking": (reverse("public_tournament", kwargs={"club": slug, "pk": t}), False),
        "wall": (reverse("tournament_wall", kwargs={"club": slug, "pk": t}), True),
        "round_page": (reverse("tournament_round", kwargs={"club": slug, "pk": round_.pk}), False),
    }
    seal = getattr(settings, "LEDGER_SEAL_SECRET", None) or settings.SECRET_KEY
    results: dict = {
        "server": server.describe(),
        "tables": len(tables),
        "spectators": HALL_SPECTATORS,
        "seconds": HALL_SECONDS,
        "load_start": load_average(),
    }

    def entry(pk):
        return reverse("hand_new", kwargs={"club": slug, "pk": pk})

    with serve(database_url(), seal_secret=seal, server=server) as base:
        cookies = {
            "keeper": log_in(base, world.keeper.user.username, password),
            "spectator": log_in(base, "tbench-spectator", password),
            "director": log_in(base, world.director.username, password),
            "public": [],
        }
        who = {"public_ranking": "public", "wall": "spectator", "round_page": "director"}
        common = {"base": base, "game": "slovenian_tarok"}
        tablet = {**common, "kind": "tablet", "cookies": cookies["keeper"]}
        alone = crowd(
            [
                {
                    **tablet,
                    "table": tables[0],
                    "entry": entry(tables[0]),
                    "seed": 1,
                    "every": 1.0,
                    "stagger": 0,
                }
            ],
            ALONE_SAVES * 1.0,
        )
        for name, (path, htmx) in reads.items():
            alone += crowd(
                [
                    {
                        **common,
                        "kind": "spectator",
                        "cookies": cookies[who[name]],
                        "every": 0.3,
                        "reads": [(name, path, htmx)],
                        "count": ALONE_READS,
                        "seed": 2,
                    }
                ],
                60,
            )
        progress("  the hall alone done; now the crowd ...")
        specs = [
            {**tablet, "table": pk, "entry": entry(pk), "seed": 10 + i, "every": HALL_EVERY}
            for i, pk in enumerate(tables[1:])
        ]
        names = list(reads)
        for i in range(HALL_SPECTATORS):
            name = names[i % 3]
            path, htmx = reads[name]
            specs.append(
                {
                    **common,
                    "kind": "spectator",
                    "cookies": cookies[who[name]],
                    "seed": 1000 + i,
                    "reads": [(name, path, htmx)],
                    "every": POLL_EVERY if htmx else READ_EVERY,
                }
            )
        loaded = crowd(specs, HALL_SECONDS)
    results["load_end"] = load_average()
    results.update(ledger_counts([r for r in loaded + alone if r["kind"] == "tablet"]))
    report = verify_ledger()
    results["verify_ok"] = report.ok
    results["errors"] = [e for r in loaded + alone for e in r["errors"]][:10]
    results["statuses"] = statuses(loaded)
    a, lo = gathered(alone), gathered(loaded)
    results["endpoints"] = {
        name: {"alone": percentiles(a.get(name, [])), "loaded": percentiles(lo.get(name, []))}
        for name in ("save", "form", *reads)
    }
    for e in results["endpoints"].values():
        e["x"] = ratio(e["loaded"], e["alone"])
    ends = results["endpoints"]
    results["aims"] = {
        "save p95 <= 2x one table alone": bool(ends["save"]["x"] and ends["save"]["x"] <= 2),
        "spectators' p95 <= 300 ms": all(
            (ends[n]["loaded"]["p95_ms"] or 1e9) <= AIMS["hall_read_ms"] for n in reads
        ),
        "no error": not results["errors"] and results["lost"] == results["doubled"] == 0,
        "verify_ledger OK": report.ok,
    }
    return results


def database_url() -> str:
    from django.conf import settings

    from bench.tournament import database_url_of

    return database_url_of(settings.DATABASES["default"])


def servers() -> list[Server]:
    """The servers to measure: ``BENCH_CROWD_SERVERS`` (``sync:3``, ``gthread:2x8``, ...), or
    the production start's own default."""
    given = os.environ.get("BENCH_CROWD_SERVERS", "").strip()
    if not given:
        return [Server(workers=0, threads=0)]
    out = []
    for item in given.split(","):
        kind, _, shape = item.strip().partition(":")
        workers, _, threads = shape.partition("x")
        out.append(Server(workers=int(workers), threads=int(threads or 1)))
        if kind == "sync" and out[-1].threads != 1:
            raise SystemExit(f"{item}: a sync worker has one thread")
    return out


def fresh_database(url: str, suffix: str) -> str:
    import psycopg

    if not url.startswith("postgres"):
        url = "postgres://postgres@127.0.0.1:5432/tarokclub"
    base, name = url.split("?", 1)[0].rsplit("/", 1)
    bench = f"{name}_{suffix}"
    with psycopg.connect(f"{base}/postgres", autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{bench}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{bench}"')
    return f"{base}/{bench}"


def print_run(name: str, r: dict) -> None:
    print(
        f"\n{name} ({r['server']}; load {r['load_start']} -> {r['load_end']}): at the "
        f"tablets' pace {r.get('at_pace', '–')}, offered "
        f"{r['offered']}, saved {r['saved']}, held {r['held']}, lost {r['lost']}, doubled "
        f"{r['doubled']}, resent {r['resent_answered_saved']}/{r['resent']} answered saved, "
        f"verify_ledger {'OK' if r['verify_ok'] else 'FAIL'}"
    )
    print(f"  answers: {r['statuses']}")
    if r["errors"]:
        print(f"  errors: {r['errors'][:3]}")
    for endpoint, e in r["endpoints"].items():
        print(
            f"  {endpoint:15} alone p50/p95 {e['alone']['p50_ms']}/{e['alone']['p95_ms']} ms"
            f"  loaded {e['loaded']['p50_ms']}/{e['loaded']['p95_ms']} ms (n {e['loaded']['n']})"
            f"  x{e['x']}"
        )
    for aim, met in r["aims"].items():
        print(f"  {'met' if met else 'NOT MET'}: {aim}")


README_START = "<!-- bench:crowd:start (written by bench/crowd.py) -->"
README_END = "<!-- bench:crowd:end -->"


def readme_block(runs: list[dict], *, when: str, source: str) -> str:
    """The latest run's figures as a Markdown table, between the markers."""
    lines = [
        README_START,
        f"Latest `bench/crowd.py` ({when}, PostgreSQL, {os.cpu_count()} cores; `{source}`):",
        "",
        "| bench | server | load (1 min) start → end | saves at pace / offered / done, lost, "
        "doubled "
        "| p95 loaded / alone (ms, ×) | aims |",
        "|---|---|---|---|---|---|",
    ]
    for r in runs:
        figures = "; ".join(
            f"{name} {e['loaded']['p95_ms']} / {e['alone']['p95_ms']} (×{e['x']})"
            for name, e in r["endpoints"].items()
        )
        missed = [aim for aim, met in r["aims"].items() if not met]
        lines.append(
            f"| {r['bench']} | {r['server']} | {r['load_start'][0]} → {r['load_end'][0]} "
            f"| {r.get('at_pace', '–')} / {r['offered']} / {r['saved']}, {r['lost']}, "
            f"{r['doubled']} | {figures} "
            f"| {'all met' if not missed else 'not met: ' + ', '.join(missed)} |"
        )
    lines.append(README_END)
    return "\n".join(lines)


def main() -> int:
    which = sys.argv[1] if len(sys.argv) > 1 else "all"
    import psycopg

    runs: list[dict] = []
    given = os.environ.get("DATABASE_URL", "")
    for server in servers():
        for name in ("night", "hall") if which == "all" else (which,):
            try:
                url = fresh_database(given, f"crowd_{name}")
            except psycopg.OperationalError as error:
                print(f"The crowd bench needs PostgreSQL ({error}); skipped.")
                return 0
            os.environ.update(
                DATABASE_URL=url,
                DJANGO_SETTINGS_MODULE="tarokclub.settings",
                DJANGO_DEBUG="0",
                DJANGO_ALLOWED_HOSTS="testserver,127.0.0.1",
            )
            os.environ.setdefault("DJANGO_SECRET_KEY", secrets.token_urlsafe(40))
            # One process per database: the settings read DATABASE_URL once.
            result = run_one(name, server)
            runs.append({"bench": name, **result})
    out = ROOT / "bench" / "results-crowd.json"
    out.write_text(json.dumps(runs, indent=2, ensure_ascii=False) + "\n")
    print(f"\nwritten to {out.relative_to(ROOT)}")
    block = readme_block(runs, when=time.strftime("%Y-%m-%d"), source=str(out.relative_to(ROOT)))
    page = ROOT / "docs" / "benchmarks.md"
    text = page.read_text()
    if README_START in text and README_END in text:  # as bench.measure.replace_in_readme
        before, rest = text.split(README_START, 1)
        page.write_text(before + block + rest.split(README_END, 1)[1])
        print("the figures are recorded in docs/benchmarks.md")
    return 0 if all(r["verify_ok"] and r["lost"] == r["doubled"] == 0 for r in runs) else 1


def run_one(name: str, server: Server) -> dict:
    """Run one bench in a process of its own (its database, its settings); return its
    results."""
    import subprocess

    env = {
        **os.environ,
        "CROWD_ONE": name,
        "CROWD_SERVER": f"{server.workers}x{server.threads}",
    }
    done = subprocess.run([sys.executable, __file__, "--one"], env=env)
    path = ROOT / "bench" / f".crowd-{name}.json"
    if done.returncode != 0 or not path.exists():
        raise SystemExit(f"the {name} bench failed ({done.returncode})")
    result = json.loads(path.read_text())
    path.unlink()
    print_run(name, result)
    return result


def one() -> int:
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    name = os.environ["CROWD_ONE"]
    workers, threads = (int(x) for x in os.environ["CROWD_SERVER"].split("x"))
    server = Server(workers=workers, threads=threads)
    print(f"{name}: {server.describe()} ...")
    result = (run_night if name == "night" else run_hall)(server)
    (ROOT / "bench" / f".crowd-{name}.json").write_text(json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(one() if sys.argv[1:] == ["--one"] else main())
