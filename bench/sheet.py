"""The evening sheet PDF against its former layout, in one run: ``python bench/sheet.py``.

The former score sheet (one block of 6.6 pt monospaced text a row, the game's events only,
before the sheet printed every figure in its column, its size and its colour, and every payment)
is taken from git (``OLD``: its templates and ``ledger/reports.py``) into a temporary
directory and rendered beside today's from the same evening, on a fresh SQLite database of its
own: four tables of forty hands (four members each, as ``make bench``'s evening) and one table
of 160 hands (five members). Prints each median of ``REPEAT`` renders, the ratio new / old and
the machine's load (``uptime``), since a busy machine slows both but not always alike.
"""

from __future__ import annotations

import datetime
import importlib.util
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tarokclub.settings")
os.environ.setdefault("DJANGO_DEBUG", "1")  # a developer's tool, like manage.py
os.environ.setdefault("DJANGO_ALLOWED_HOSTS", "testserver,localhost,127.0.0.1")

# The last commit whose evening sheet printed a score sheet as text rows.
OLD = "3a0e922d787a2f9c3a5db5068e51412cc5ef8297"
NAMES = (
    "Anna Bo Carl Dorte Erik Frida Gustav Helle Ib Jens Karen Lars Mette Niels Ole Pia Rasmus "
    "Sofie Tove Ulla Viggo"
).split()
REPEAT = int(os.environ.get("BENCH_SHEET_REPEAT", "5"))


def git_show(path: str) -> str:
    return subprocess.run(
        ["git", "-C", str(ROOT), "show", f"{OLD}:{path}"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout


def old_layout(tmp: Path):
    """Write the former PDF templates under ``tmp/old_pdf/`` and the former ``reports`` module
    beside them, pointing at those templates and at the former score sheet table (its words
    of what happened); return the module."""
    folder = "templates/ledger/pdf"
    names = subprocess.run(
        ["git", "-C", str(ROOT), "ls-tree", "--name-only", f"{OLD}:{folder}"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    (tmp / "old_pdf").mkdir()
    for name in names:
        text = git_show(f"{folder}/{name}").replace("ledger/pdf/", "old_pdf/")
        (tmp / "old_pdf" / name).write_text(text)
    (tmp / "old_sheet_tables.py").write_text(git_show("ledger/tables/sheet.py"))
    load("old_sheet_tables", tmp / "old_sheet_tables.py")
    text = git_show("ledger/reports.py").replace("ledger/pdf/", "old_pdf/")
    (tmp / "old_reports.py").write_text(
        text.replace("from ledger.tables.sheet import", "from old_sheet_tables import")
    )
    return load("old_reports", tmp / "old_reports.py")


def load(name: str, path: Path):
    """Import the module at ``path`` as ``name``."""
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def evening_of(club, *, tables: int, seats: int, hands: int, day: int):
    """Open and close an evening of ``tables`` tables of ``seats`` members, ``hands`` each."""
    from ledger import services
    from ledger.models import Member
    from ledger.tests import factories

    members = [
        Member.objects.get_or_create(club=club, name=NAMES[i])[0] for i in range(tables * seats)
    ]
    evening = services.evening_open(club=club, date=datetime.date(2026, 11, day))
    for i in range(tables):
        table = services.table_open(evening=evening, members=members[i * seats : (i + 1) * seats])
        factories.random_table_hands(table, hands, seed=day + i)
    return services.evening_close(evening=evening)


def medians_ms(*renders) -> list[tuple[int, int]]:
    """Return the median time of each render (wall clock and this process's CPU time, in ms),
    taken in turns (a change in the machine's load falls on all of them alike)."""
    times: list[list[float]] = [[] for _ in renders]
    cpu: list[list[float]] = [[] for _ in renders]
    for _ in range(REPEAT):
        for render, kept, kept_cpu in zip(renders, times, cpu, strict=True):
            started, started_cpu = time.perf_counter(), time.process_time()
            render()
            kept.append(time.perf_counter() - started)
            kept_cpu.append(time.process_time() - started_cpu)
    return [
        (round(statistics.median(wall) * 1000), round(statistics.median(used) * 1000))
        for wall, used in zip(times, cpu, strict=True)
    ]


def main() -> int:
    with tempfile.TemporaryDirectory(prefix="bench-sheet-") as name:
        tmp = Path(name)
        os.environ["DATABASE_URL"] = f"sqlite:///{tmp / 'sheet.sqlite3'}"
        import django
        from django.conf import settings

        django.setup()
        settings.TEMPLATES[0]["DIRS"] = [*settings.TEMPLATES[0]["DIRS"], tmp]
        from django.core.management import call_command
        from django.utils import translation
        from weasyprint import HTML

        from ledger import reports
        from ledger.models import Club

        call_command("migrate", verbosity=0)
        old = old_layout(tmp)
        club = Club.objects.create(slug="bench-sheet", name="Bench Tarokklub")
        shapes = {
            "4 tables x 40 hands, 4 members": evening_of(club, tables=4, seats=4, hands=40, day=12),
            "1 table x 160 hands, 5 members": evening_of(
                club, tables=1, seats=5, hands=160, day=13
            ),
        }
        HTML(string="<p>warm</p>").write_pdf()  # Pango and the fonts, once a process
        uptime = subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip()
        print(f"uptime before: {uptime}")
        with translation.override("da"):
            for shape, evening in shapes.items():
                before, after = medians_ms(
                    lambda e=evening: old.evening_sheet_pdf(evening=e),
                    lambda e=evening: reports.evening_sheet_pdf(evening=e),
                )
                print(
                    f"{shape}: text rows {before[0]} ms (CPU {before[1]} ms), "
                    f"columns {after[0]} ms (CPU {after[1]} ms), ratio {after[0] / before[0]:.2f} "
                    f"(CPU {after[1] / before[1]:.2f}), median of {REPEAT}"
                )
        uptime = subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip()
        print(f"uptime after: {uptime}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
