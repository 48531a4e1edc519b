"""The pages against their honest raw-SQL floors alone (issue 31), without the rest of
``make bench``: ``python bench/floors.py`` generates the history (``BENCH_SCALE`` as ``make
bench``; SQLite, or PostgreSQL when ``DATABASE_URL`` is set, on a database of its own), runs
ANALYZE as the bulk load ends, then times the standings, a member's season and the evening
sheet against their floors (``bench/pages.py``, every floor's numbers checked against its
page's) and prints them with the machine's load (``uptime``). ``BENCH_KEEP=1`` measures the
history the last run left (``bench/bench.sqlite3``, or ``<name>_bench``) without generating it
again."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench import run  # noqa: E402  (sets the settings' environment)


def kept_database() -> str:
    """Point ``DATABASE_URL`` at the history the last run left; return its vendor."""
    url = os.environ.get("DATABASE_URL", "")
    if url.startswith("postgres"):
        os.environ["DATABASE_URL"] = f"{url}_bench"
        return "postgresql"
    os.environ["DATABASE_URL"] = f"sqlite:///{ROOT / 'bench' / 'bench.sqlite3'}"
    return "sqlite"


def main() -> int:
    keep = os.environ.get("BENCH_KEEP") == "1"
    vendor = kept_database() if keep else run.prepare_database()
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    from bench import pages
    from bench.generate import generate

    scale = (
        {"clubs": 3, "seasons": 5, "evenings": 40, "tables": 4, "hands": 40}
        if run.SCALE == "full"
        else {"clubs": 3, "seasons": 1, "evenings": 20, "tables": 4, "hands": 40}
    )
    started = time.perf_counter()
    if not keep:
        counts = generate(**scale)
        print(f"{vendor}: {counts} in {time.perf_counter() - started:.0f} s", flush=True)
    load = subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip()
    results = pages.measure(summary=run.summary, timed=run.timed, ms=run.ms)
    after = subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip()
    keys = ("standings", "member", "evening_sheet")
    for key in keys:
        floor = results[f"floor_{key}"]
        print(f"floor_{key}: {json.dumps(floor)}")
        for page in (f"page_{key}", f"page_{key}_cold"):
            r = results[page]
            print(f"  {page}: median {r['median_ms']} ms, x_floor {r['x_floor']}")
    frame = results["page_frame"]
    print(
        f"page_frame (the frame around nothing): median {frame['median_ms']} ms, "
        f"queries {frame['queries']}"
    )
    print(f"uptime before: {load}\nuptime after: {after}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
