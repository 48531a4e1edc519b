"""make bench: measure tarokclub at a federation's scale.

Generates 3 clubs x 5 seasons x 40 evenings x 4 tables x 40 hands (about 100,000 hands and
over a million transfers) into a fresh database, then measures the real services, pages,
verify_ledger and PDFs. SQLite (bench/bench.sqlite3) by default; PostgreSQL when
DATABASE_URL is set (a database named <name>_bench is created afresh). Prints a table and
writes bench/results.json. BENCH_SCALE=small runs a tenth of the history, for a quick look.

Then the tournament bench (``bench/tournament.py``, a process of its own on a PostgreSQL
database of its own, whatever the database above), unless ``BENCH_TOURNAMENT=0``, and the
score sheet's (``bench/sheet.py``: the evening sheet PDF against its former text rows),
unless ``BENCH_SHEET=0``, the kept PDFs' (``bench/kept.py``: each heavy PDF against its
page, kept downloads, the render process and a gunicorn worker's memory), unless
``BENCH_KEPT=0``, the crowd benches (``bench/crowd.py``: a busy club night and a
championship hall over HTTP against the production start), unless ``BENCH_CROWD=0``, and the
federation at scale (``bench/federation.py``: 30 clubs, 3,000 players, 200 events; the ladder
and a player's page against raw SQL, a full re-rating, a results file's import), unless
``BENCH_FEDERATION=0``.
"""

from __future__ import annotations

import json
import os
import secrets
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tarokclub.settings")
# Timed as production runs: DEBUG off (no query log, no template debugging), so a key.
os.environ["DJANGO_DEBUG"] = "0"
os.environ.setdefault("DJANGO_SECRET_KEY", secrets.token_urlsafe(40))
os.environ.setdefault("AXES_ENABLED", "0")
os.environ.setdefault("DJANGO_ALLOWED_HOSTS", "testserver,localhost,127.0.0.1")

SCALE = os.environ.get("BENCH_SCALE", "full")


def prepare_database() -> str:
    """The bench's database, made afresh (``bench/fresh.py``)."""
    from bench.fresh import fresh_database

    return fresh_database("bench", "bench.sqlite3")


def timed(fn, repeat: int):
    times = []
    for _ in range(repeat):
        started = time.perf_counter()
        fn()
        times.append(time.perf_counter() - started)
    return times


def ms(seconds: float) -> float:
    return round(seconds * 1000, 2)


def summary(times) -> dict:
    ordered = sorted(times)
    p95 = ordered[max(0, round(0.95 * len(ordered)) - 1)]
    return {"median_ms": ms(statistics.median(ordered)), "p95_ms": ms(p95), "n": len(ordered)}


def main() -> int:
    given_url = os.environ.get("DATABASE_URL", "")
    vendor = prepare_database()
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    from bench import measure
    from bench.generate import generate

    scale = (
        {"clubs": 3, "seasons": 5, "evenings": 40, "tables": 4, "hands": 40}
        if SCALE == "full"
        else {"clubs": 3, "seasons": 1, "evenings": 20, "tables": 4, "hands": 40}
    )
    print(f"Generating {scale} on {vendor} ...")
    started = time.perf_counter()
    counts = generate(**scale)
    uptime = subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip()
    print(f"uptime: {uptime}")
    results = {
        "database": vendor,
        "uptime": uptime.split("load average:")[-1].strip(),
        "scale": scale,
        "history": counts,
        "generate_seconds": round(time.perf_counter() - started, 1),
    }
    results.update(measure.run_all(summary=summary, timed=timed, ms=ms))
    out = (
        ROOT / "bench" / "results.json"
        if SCALE == "full"
        else ROOT / "bench" / "results-small.json"
    )
    if vendor == "postgresql" and SCALE == "full":
        out = ROOT / "bench" / "results-postgresql.json"
    out.write_text(json.dumps(results, indent=2, ensure_ascii=False) + "\n")
    measure.print_table(results)
    print(f"\nwritten to {out.relative_to(ROOT)}")
    when = time.strftime("%Y-%m-%d")
    if measure.record_in_readme(
        ROOT / "docs" / "benchmarks.md", results, when=when, source=str(out.relative_to(ROOT))
    ):
        print("the aims are recorded in docs/benchmarks.md")
    status = 0
    for bench in BENCHES:
        status = run_bench(bench, given_url) or status
    return status


# The benches that run after the club's, each in a process of its own (its own database and
# settings): (switch, script and arguments, what it measures, whether it takes the given
# DATABASE_URL). ``<SWITCH>=0`` skips one.
BENCHES = (
    ("BENCH_TOURNAMENT", ["tournament.py"], "the tournament bench", True),
    ("BENCH_CROWD", ["crowd.py", "all"], "the crowd benches: the night and the hall", None),
    ("BENCH_SHEET", ["sheet.py"], "the score sheet bench", False),
    ("BENCH_KEPT", ["kept.py"], "the kept PDFs bench", False),
    ("BENCH_FEDERATION", ["federation.py"], "the federation bench", True),
)


def run_bench(bench: tuple, database_url: str) -> int:
    """Run one of ``BENCHES`` in a process of its own unless its switch is ``0``; return its
    exit status. Its database: the given ``DATABASE_URL`` when it takes one (on PostgreSQL a
    database of its own named after it), else SQLite files of its own; the crowd benches
    (None) keep the environment as it is (they create their PostgreSQL databases)."""
    switch, script, what, takes_url = bench
    if os.environ.get(switch, "1") == "0":
        print(f"{switch}=0: {what} is skipped.")
        return 0
    env = dict(os.environ)
    if takes_url is not None:
        env.pop("DATABASE_URL", None)
        if takes_url and database_url:
            env["DATABASE_URL"] = database_url
    print(f"\n{what[0].upper()}{what[1:]} (bench/{script[0]}) ...")
    command = [sys.executable, str(ROOT / "bench" / script[0]), *script[1:]]
    return subprocess.run(command, env=env).returncode


if __name__ == "__main__":
    sys.exit(main())
