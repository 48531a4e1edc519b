"""Kept PDFs and the render process (issue 31), in one run: ``python bench/kept.py``.

On a fresh SQLite database of its own: a season of ``BENCH_KEPT_EVENINGS`` closed evenings
(four tables of four members, forty hands each) and one more left open; a Slovenian
tournament of twelve players with round 1 at play (``BENCH_KEPT_HANDS`` hands a table).

1. In this process (Django's test client, as ``make bench``'s pages): each heavy PDF rendered
   (nothing kept) against its page's time (nothing kept either), and its kept download; and a
   PDF of nothing in the print frame (what every PDF costs before its content).
2. The render process: ``manage.py render_kept`` for the evening's close, timed, with its
   PDFs counted and its peak memory (what it costs to render each seated member's season).
3. gunicorn (one sync worker, DEBUG off) twice: with ``TAROK_KEPT_RENDER=off`` the four heavy
   PDFs (a member's season, the season's standings, the ranking, the round's result) rendered
   in the worker, then with ``process`` after the evening and the round were closed through
   their forms: how long each close's request took, the kept downloads' time and the worker's
   RSS before and after the four downloads.

Prints the figures and the machine's load (``uptime``); nothing is timed in a test.
"""

from __future__ import annotations

import contextlib
import datetime
import os
import random
import re
import secrets
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tarokclub.settings")
os.environ.setdefault("DJANGO_DEBUG", "1")  # a developer's tool, like manage.py
os.environ.setdefault("DJANGO_ALLOWED_HOSTS", "testserver,localhost,127.0.0.1")
os.environ.setdefault("AXES_ENABLED", "0")
SEAL_SECRET = secrets.token_urlsafe(32)
os.environ["LEDGER_SEAL_SECRET"] = SEAL_SECRET  # the server's seals must match this process's

EVENINGS = int(os.environ.get("BENCH_KEPT_EVENINGS", "10"))
HANDS = int(os.environ.get("BENCH_KEPT_HANDS", "12"))
REPEAT = int(os.environ.get("BENCH_KEPT_REPEAT", "3"))
NAMES = "Anna Bo Carl Dorte Erik Frida Gustav Helle Ib Jens Karen Lars Mette Niels Ole Pia".split()
PLAYERS = [f"Igralec {n}" for n in range(1, 13)]
NICE0 = ("--language=da", "--nice=0")
_INPUT = re.compile(r'<input type="hidden" name="(\w+)" value="([^"]*)"')


def uptime() -> str:
    return subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip()


def build():
    """Return the objects the bench reads (see the module)."""
    from ledger import services
    from ledger.models import Member, Round
    from ledger.services import tournaments as tour
    from ledger.tests import factories
    from ledger.tests.helpers import random_hand_at

    club = factories.make_club(slug="bench-kept", name="Bench Tarokklub")
    factories.make_season(club)
    members = [factories.make_member(club, name) for name in NAMES]
    treasurer = factories.make_member(club, "Kasserer", Member.Role.TREASURER, login=True)
    evenings = []
    for day in range(EVENINGS + 1):
        evening = services.evening_open(
            club=club, date=datetime.date(2026, 9, 1) + datetime.timedelta(days=7 * day)
        )
        for i in range(4):
            table = services.table_open(evening=evening, members=members[i * 4 : (i + 1) * 4])
            factories.random_table_hands(table, 40, seed=day * 10 + i)
        evenings.append(evening)
        if day < EVENINGS:
            services.evening_close(evening=evening)
    kranj = factories.make_club(slug="bench-kranj", name="Tarok Kranj", game="slovenian_tarok")
    director = factories.make_member(kranj, "Direktor", Member.Role.ADMIN, login=True)
    tournament = factories.make_tournament(kranj, PLAYERS)
    round_ = tour.round_start(
        round_=tour.round_publish(round_=tour.round_draw(tournament=tournament))
    )
    rng = random.Random(7)
    for rt in round_.round_tables.select_related("table__evening"):
        for _ in range(HANDS):
            random_hand_at(rt.table, rng)
    return {
        "club": club,
        "member": members[0],
        "treasurer": treasurer.user,
        "evening": evenings[-1],
        "closed": evenings[-2],
        "kranj": kranj,
        "director": director.user,
        "tournament": tournament,
        "round": Round.objects.get(pk=round_.pk),
    }


def addresses(w) -> dict[str, tuple[str, str]]:
    """Each heavy PDF and its page: (PDF address, page address)."""
    from django.urls import reverse

    club, kranj = w["club"].slug, w["kranj"].slug
    member = {"club": club, "pk": w["member"].pk}
    evening = {"club": club, "pk": w["closed"].pk}
    t = {"club": kranj, "pk": w["tournament"].pk}
    r = {"club": kranj, "pk": w["round"].pk}
    return {
        "member's season": (
            reverse("member_season_pdf", kwargs=member),
            reverse("member_season", kwargs=member),
        ),
        "season standings": (
            reverse("standings_pdf", kwargs={"club": club}),
            reverse("standings", kwargs={"club": club}),
        ),
        "evening sheet": (
            reverse("evening_sheet_pdf", kwargs=evening),
            reverse("evening_sheet", kwargs=evening),
        ),
        "tournament ranking": (
            reverse("tournament_ranking_pdf", kwargs=t),
            reverse("tournament_standings", kwargs=t),
        ),
        "round result": (
            reverse("tournament_round_result_pdf", kwargs=r),
            reverse("tournament_round", kwargs=r),
        ),
    }


def forget() -> None:
    """Nothing kept: this process's caches and the shared store."""
    from ledger.web.kept import forget_all

    forget_all()


def median_ms(fn, repeat: int, *, before=None) -> int:
    times = []
    for _ in range(repeat):
        if before is not None:
            before()
        started = time.perf_counter()
        fn()
        times.append(time.perf_counter() - started)
    return round(statistics.median(times) * 1000)


def in_process(w) -> None:
    """Each PDF rendered and kept against its page, through Django's test client."""
    from django.test import Client

    print(f"\n1. Rendered and kept PDFs against their pages (median of {REPEAT}, ms)")
    readers = {"bench-kept": Client(), "bench-kranj": Client()}
    readers["bench-kept"].force_login(w["treasurer"])
    readers["bench-kranj"].force_login(w["director"])
    print(f"{'PDF':<20} {'page':>7} {'PDF':>7} {'x page':>7} {'kept':>6}")
    for name, (pdf, page) in addresses(w).items():
        client = readers[pdf.split("/")[2]]

        def get(address, client=client):
            response = client.get(address)
            assert response.status_code == 200, (address, response.status_code)

        page_ms = median_ms(lambda p=page: get(p), REPEAT, before=forget)
        pdf_ms = median_ms(lambda p=pdf: get(p), REPEAT, before=forget)
        get(pdf)
        kept_ms = median_ms(lambda p=pdf: get(p), 5)
        kept = "-" if name == "round result" else str(kept_ms)  # at play: never kept
        print(f"{name:<20} {page_ms:>7} {pdf_ms:>7} {pdf_ms / page_ms:>7.1f} {kept:>6}")
    print(f"{'print frame alone':<20} {'':>7} {frame_pdf_ms(w):>7}")


def frame_pdf_ms(w) -> int:
    """The median time of a PDF of nothing in the print frame (``ledger/pdf/base.html``: the
    margins' club, title, day printed and page count, the title block, the fonts): what
    WeasyPrint takes for any of the PDFs above before their content."""
    from ledger import reports

    reports._render("ledger/pdf/base.html", {}, club=w["club"], title="Bench")  # Pango, once
    return median_ms(
        lambda: reports._render("ledger/pdf/base.html", {}, club=w["club"], title="Bench"), 7
    )


def render_process(w) -> None:
    """The render process of an evening's close, run by hand on a closed evening."""
    forget()
    started = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "manage.py", "render_kept", "evening", str(w["closed"].pk), *NICE0],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    )
    print(f"\n2. The render process of one close: {done.stdout.strip()}")
    print(f"   wall clock with the process's start: {time.perf_counter() - started:.1f} s")


# --- gunicorn ----------------------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, req, fp, code, msg, headers, newurl):
        return None


class Browser:
    def __init__(self, base: str):
        import http.cookiejar

        self.base = base
        self.opener = urllib.request.build_opener(
            urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()), _NoRedirect()
        )

    def get(self, path: str, data: dict | None = None) -> tuple[int, bytes]:
        body = urllib.parse.urlencode(data).encode() if data is not None else None
        request = urllib.request.Request(self.base + path, data=body)  # noqa: S310 - 127.0.0.1
        try:
            with self.opener.open(request, timeout=300) as response:
                return response.status, response.read()
        except urllib.error.HTTPError as error:
            return error.code, error.read()

    def form(self, path: str) -> dict:
        status, page = self.get(path)
        assert status == 200, (path, status)
        return dict(_INPUT.findall(page.decode()))

    def log_in(self, username: str, password: str) -> None:
        fields = self.form("/login/")
        status, _ = self.get("/login/", {**fields, "username": username, "password": password})
        assert status == 302, status


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def children(pid: int) -> list[int]:
    out: list[int] = []
    for task in Path(f"/proc/{pid}/task").iterdir():
        with contextlib.suppress(OSError):
            out += [int(x) for x in (task / "children").read_text().split()]
    return out


@contextlib.contextmanager
def serve(database_url: str, mode: str):
    """gunicorn, one sync worker, DEBUG off; yield (base URL, the worker's pid)."""
    port = free_port()
    env = {
        **os.environ,
        "DJANGO_DEBUG": "0",
        "DJANGO_SECRET_KEY": secrets.token_urlsafe(40),
        "DJANGO_ALLOWED_HOSTS": "127.0.0.1",
        "DATABASE_URL": database_url,
        "TAROK_KEPT_RENDER": mode,
        "LEDGER_SEAL_SECRET": SEAL_SECRET,
    }
    command = [str(Path(sys.executable).parent / "gunicorn"), "tarokclub.wsgi"]
    command += ["--bind", f"127.0.0.1:{port}", "--workers", "1", "--timeout", "300"]
    process = subprocess.Popen(command, cwd=ROOT, env=env, stderr=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 120
        while True:
            with contextlib.suppress(OSError):
                with urllib.request.urlopen(base + "/login/", timeout=5) as response:  # noqa: S310
                    if response.status == 200:
                        break
            assert process.poll() is None and time.monotonic() < deadline, "gunicorn did not start"
            time.sleep(0.3)
        workers = children(process.pid)
        yield base, workers[0]
    finally:
        process.terminate()
        process.wait(timeout=60)


def wait_for_renders(worker: int) -> float:
    """Wait until the worker's render process has exited; return how long it took (s)."""
    started = time.perf_counter()
    while children(worker):
        time.sleep(0.2)
    return time.perf_counter() - started


def four(w) -> list[str]:
    pdfs = addresses(w)
    return [pdfs[name][0] for name in pdfs if name != "evening sheet"]


def served(database_url: str, w) -> None:
    from ledger.tests.factories import PASSWORD

    print("\n3. gunicorn, one sync worker: the worker's RSS around the four heavy PDFs")
    forget()
    with serve(database_url, "off") as (base, worker):
        browsers = [Browser(base), Browser(base)]
        browsers[0].log_in(w["treasurer"].username, PASSWORD)
        browsers[1].log_in(w["director"].username, PASSWORD)
        browsers[0].get(addresses(w)["member's season"][1])
        before = rss_mb(worker)
        times = []
        for address in four(w):
            started = time.perf_counter()
            status, body = browsers[0 if "bench-kept" in address else 1].get(address)
            assert status == 200 and body.startswith(b"%PDF"), (address, status)
            times.append(round((time.perf_counter() - started) * 1000))
        print(
            f"   rendered in the worker (TAROK_KEPT_RENDER=off): {before:.0f} MB -> "
            f"{rss_mb(worker):.0f} MB; downloads {times} ms"
        )
    forget()
    with serve(database_url, "process") as (base, worker):
        treasurer, director = Browser(base), Browser(base)
        treasurer.log_in(w["treasurer"].username, PASSWORD)
        director.log_in(w["director"].username, PASSWORD)
        treasurer.get(addresses(w)["member's season"][1])
        before = rss_mb(worker)
        club, evening = w["club"].slug, w["evening"].pk
        fields = treasurer.form(f"/c/{club}/evening/{evening}/treasury/")
        started = time.perf_counter()
        status, _ = treasurer.get(
            f"/c/{club}/evening/{evening}/treasury/close/", {**fields, "confirm_differences": "on"}
        )
        close_ms = round((time.perf_counter() - started) * 1000)
        assert status == 302, status
        evening_s = wait_for_renders(worker)
        kranj, round_pk = w["kranj"].slug, w["round"].pk
        fields = director.form(f"/c/{kranj}/t/round/{round_pk}/")
        started = time.perf_counter()
        status, _ = director.get(
            f"/c/{kranj}/t/round/{round_pk}/close/", {**fields, "confirm": "1"}
        )
        round_ms = round((time.perf_counter() - started) * 1000)
        assert status == 302, status
        round_s = wait_for_renders(worker)
        print(
            f"   the evening's close answered in {close_ms} ms, its render process took "
            f"{evening_s:.1f} s after it; the round's close {round_ms} ms, then {round_s:.1f} s"
        )
        times = []
        for address in four(w):
            started = time.perf_counter()
            status, body = (treasurer if "bench-kept" in address else director).get(address)
            assert status == 200 and body.startswith(b"%PDF"), (address, status)
            times.append(round((time.perf_counter() - started) * 1000))
        print(
            f"   kept, rendered by the render process (TAROK_KEPT_RENDER=process): "
            f"{before:.0f} MB -> {rss_mb(worker):.0f} MB; downloads {times} ms"
        )


def main() -> int:
    with tempfile.TemporaryDirectory(prefix="bench-kept-") as name:
        database_url = f"sqlite:///{Path(name) / 'kept.sqlite3'}"
        os.environ["DATABASE_URL"] = database_url
        import django

        django.setup()
        from django.core.management import call_command
        from weasyprint import HTML

        call_command("migrate", verbosity=0)
        print(f"uptime before: {uptime()}")
        started = time.perf_counter()
        w = build()
        print(
            f"built {EVENINGS} closed evenings of 4 x 4 x 40 hands and one open, a tournament "
            f"of 12 with {HANDS} hands a table in {time.perf_counter() - started:.0f} s"
        )
        HTML(string="<p>warm</p>").write_pdf()  # Pango and the fonts, once a process
        in_process(w)
        render_process(w)
        served(database_url, w)
        print(f"\nuptime after: {uptime()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
