"""Count the taps of a plain hand and time the server per recorded hand, in a real browser.

    .venv/bin/python bench/taps.py [--hands 30]

Migrates a temporary SQLite database, seeds a club (a scorekeeper, a table of three), starts
``manage.py runserver`` on a free port of 127.0.0.1, logs in through the log-in form in
Chromium (Playwright) and enters ``--hands`` plain hands through the hand screen, as a
scorekeeper would: the winner of the last trick, two counts, save. It prints a small table:
the taps per plain hand, and the medians of the server's time to answer the save and the
preview (time to first byte of the POST, from the browser's timing) and of the whole round
from the save tap to the table screen. Then ``--sl-hands`` plain Slovenian partner games at a
table of four (contract, declarer, partner, the card points typed, save) and as many plain
Hungarian games (bid, declarer, partner, the card points, save): their taps too.
Everything runs on this machine and is removed after.
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PASSWORD = "bench-taps-pw-1"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def seed(env: dict):
    """Migrate the temporary database and create the club, its scorekeeper and a table."""
    os.environ.update(env)
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()
    import datetime

    from django.contrib.auth import get_user_model
    from django.core.management import call_command
    from django.db import connections

    from ledger import services
    from ledger.models import Club, Member
    from ledger.services import people

    call_command("migrate", verbosity=0, interactive=False)
    club = Club.objects.create(name="Bench Tarokklub", slug="bench")
    user = get_user_model().objects.create_user(username="anna", password=PASSWORD)
    members = [
        Member.objects.create(club=club, name="Anna", role=Member.Role.SCOREKEEPER, user=user),
        Member.objects.create(club=club, name="Bo"),
        Member.objects.create(club=club, name="Carl"),
    ]
    evening = services.evening_open(club=club, date=datetime.date.today())
    table = services.table_open(evening=evening, members=members)
    # A Slovenian club beside it: the same scorekeeper at a table of four.
    sl_club = Club.objects.create(name="Bench Tarok Klub", slug="bench-sl", game="slovenian_tarok")
    sl_members = [
        Member.objects.create(club=sl_club, name="Anna", role=Member.Role.SCOREKEEPER, user=user),
        *(Member.objects.create(club=sl_club, name=n) for n in ("Bo", "Carl", "Dorte")),
    ]
    people.seal_clubs([club.pk, sl_club.pk])  # sealed as a trusted set-up
    sl_evening = services.evening_open(club=sl_club, date=datetime.date.today())
    sl_table = services.table_open(evening=sl_evening, members=sl_members)
    # And a Hungarian club (the same scorekeeper) with a table of four.
    hu = Club.objects.create(name="Bench Tarokk Kör", slug="bench-hu", game="hungarian_tarokk")
    hu_members = [
        Member.objects.create(club=hu, name="Anna", role=Member.Role.SCOREKEEPER, user=user)
    ]
    hu_members += [Member.objects.create(club=hu, name=n) for n in ("Bo", "Carl", "Dorte")]
    hu_evening = services.evening_open(club=hu, date=datetime.date.today())
    hu_table = services.table_open(evening=hu_evening, members=hu_members)
    connections.close_all()
    return club.slug, table.pk, (sl_club.slug, sl_table.pk), (hu.slug, hu_table.pk)


def wait_for(url: str, seconds: float = 30) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(url, timeout=2):  # noqa: S310 (the bench's own server)
                return
        except OSError:
            time.sleep(0.2)
    raise SystemExit(f"the server did not answer at {url}")


def server_ms(response) -> float:
    """Return the server's time to first byte of ``response``, from the browser's timing."""
    timing = response.request.timing
    return timing["responseStart"] - timing["requestStart"]


def play(page, base: str, slug: str, table_id: int, hands: int, rng: random.Random) -> dict:
    from playwright.sync_api import expect

    taps, save_ms, preview_ms, round_ms, table_ms = [], [], [], [], []
    new_hand = f"{base}/c/{slug}/table/{table_id}/hand/new/"
    table_url = f"{base}/c/{slug}/table/{table_id}/"
    for _ in range(hands):
        page.goto(new_hand)
        expect(page.locator("#hand-form input[name=record]")).not_to_have_value("")
        count = 0
        counters = page.locator("input[data-count]:visible")
        names = [counters.nth(i).get_attribute("data-count") for i in range(counters.count())]
        winners = page.locator("label[data-winner]:visible")
        winners.nth(rng.randrange(winners.count())).click()
        count += 1
        first = rng.randint(5, 45)
        for name, points in zip(names, (first, rng.randint(5, 78 - first - 5)), strict=True):
            field = page.locator(f'input[data-count="{name}"]')
            field.click()
            count += 1
            with page.expect_response(lambda r: r.url.endswith("/hand/preview/")) as seen:
                field.fill(str(points))
            preview_ms.append(server_ms(seen.value))
        started = time.perf_counter()
        with page.expect_response(lambda r: r.url == table_url) as shown:
            with page.expect_response(
                lambda r: r.url == new_hand and r.request.method == "POST"
            ) as saved:
                page.locator("#save-hand").click()
                count += 1
            assert saved.value.status == 200, saved.value.status
        page.wait_for_url(table_url)
        page.locator("#table-live").wait_for()
        round_ms.append((time.perf_counter() - started) * 1000)
        save_ms.append(server_ms(saved.value))
        table_ms.append(server_ms(shown.value))
        taps.append(count)
    return {
        "taps": taps,
        "save": save_ms,
        "preview": preview_ms,
        "table": table_ms,
        "round": round_ms,
    }


def play_slovenian(page, base: str, slug: str, table_id: int, hands: int, rng) -> dict:
    """Plain Slovenian partner games: contract, declarer, partner, the card points, save."""
    from playwright.sync_api import expect

    taps, save_ms = [], []
    new_hand = f"{base}/c/{slug}/table/{table_id}/hand/new/"
    table_url = f"{base}/c/{slug}/table/{table_id}/"
    for _ in range(hands):
        page.goto(new_hand)
        expect(page.locator("#hand-form input[name=record]")).not_to_have_value("")
        count = 0
        page.locator(f'label[data-contract="{rng.choice(("two", "one"))}"]').click()
        count += 1
        declarers = page.locator("label[data-declarer]:visible")
        declarers.nth(rng.randrange(declarers.count())).click()
        count += 1
        partners = page.locator("label[data-partner]:visible")
        partners.nth(rng.randrange(partners.count() - 1)).click()  # not "alone"
        count += 1
        expect(page.locator("input[data-points]")).to_be_focused()
        with page.expect_response(lambda r: r.url.endswith("/hand/preview/")):
            page.keyboard.type(str(rng.randint(20, 60)))  # the one number, no tap
        with page.expect_response(
            lambda r: r.url == new_hand and r.request.method == "POST"
        ) as saved:
            page.locator("#save-hand").click()
            count += 1
        assert saved.value.status == 200, saved.value.status
        page.wait_for_url(table_url)
        save_ms.append(server_ms(saved.value))
        taps.append(count)
    return {"taps": taps, "save": save_ms}


def play_hungarian(page, base: str, slug: str, table_id: int, hands: int, rng) -> list[int]:
    """Enter plain Hungarian games: the bid, the declarer, the partner, the card points
    (typed into the field that has the focus), save. Return the taps of each."""
    from playwright.sync_api import expect

    taps = []
    new_hand = f"{base}/c/{slug}/table/{table_id}/hand/new/"
    table_url = f"{base}/c/{slug}/table/{table_id}/"
    for _ in range(hands):
        page.goto(new_hand)
        expect(page.locator("#hand-form input[name=record]")).not_to_have_value("")
        count = 0
        bids = page.locator("label[data-bid]")
        bids.nth(rng.randrange(bids.count())).click()
        count += 1
        declarers = page.locator("label[data-declarer]:visible")
        declarers.nth(rng.randrange(declarers.count())).click()
        count += 1
        partners = page.locator("label[data-partner]:visible")
        partners.nth(rng.randrange(partners.count())).click()
        count += 1
        expect(page.locator("input[data-points]")).to_be_focused()
        with page.expect_response(lambda r: r.url.endswith("/hand/preview/")):
            page.keyboard.type(str(rng.randint(0, 94)))  # the one number, no tap
        with page.expect_response(lambda r: r.url == table_url):
            page.locator("#save-hand").click()
            count += 1
        page.wait_for_url(table_url)
        taps.append(count)
    return taps


def report(
    results: dict, hands: int, recorded: int, sl: dict | None = None, hu: list | None = None
) -> None:
    def row(label, values, unit="ms"):
        ordered = sorted(values)
        median = statistics.median(ordered)
        p90 = ordered[max(0, round(0.9 * len(ordered)) - 1)]
        print(f"| {label:<40} | {median:>8.1f} | {p90:>8.1f} | {len(values):>4} | {unit:<4} |")

    print(f"\nPlain hands entered through the hand screen: {hands} (recorded: {recorded})\n")
    print(f"| {'what':<40} | {'median':>8} | {'p90':>8} | {'n':>4} | unit |")
    print(f"|{'-' * 42}|{'-' * 10}|{'-' * 10}|{'-' * 6}|------|")
    row("taps per plain hand (plus two numbers)", results["taps"], "taps")
    row("server: save a hand (POST, to 1st byte)", results["save"])
    row("server: preview (POST, to 1st byte)", results["preview"])
    row("server: table screen (GET, to 1st byte)", results["table"])
    row("save tap -> table screen shown", results["round"])
    if sl:
        row("SL: taps per partner game (+ a number)", sl["taps"], "taps")
        row("SL: save a hand (POST, to 1st byte)", sl["save"])
    if hu:
        row("HU: taps per plain game (+ a number)", hu, "taps")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=30)
    parser.add_argument("--seed", type=int, default=4)
    parser.add_argument(
        "--sl-hands", type=int, default=10, help="Slovenian and Hungarian plain games each"
    )
    args = parser.parse_args()

    chromium = os.environ.get("CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
    if not Path(chromium).exists():
        raise SystemExit("Chromium is needed (Debian package chromium, or set $CHROMIUM)")
    workdir = Path(tempfile.mkdtemp(prefix="tarok-taps-"))
    env = {
        "DJANGO_SETTINGS_MODULE": "tarokclub.settings",
        "DATABASE_URL": f"sqlite:///{workdir / 'taps.sqlite3'}",
        "DJANGO_DEBUG": "1",
        "AXES_ENABLED": "0",
    }
    server = None
    try:
        slug, table_id, (sl_slug, sl_table_id), (hu_slug, hu_table_id) = seed(env)
        port = free_port()
        base = f"http://127.0.0.1:{port}"
        server = subprocess.Popen(
            [sys.executable, "manage.py", "runserver", f"127.0.0.1:{port}", "--noreload"],
            cwd=ROOT,
            env={**os.environ, **env},
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        wait_for(f"{base}/login/")
        from playwright.sync_api import sync_playwright

        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=chromium, args=CHROMIUM_ARGS)
            page = browser.new_page(viewport={"width": 1280, "height": 800}, has_touch=True)
            page.set_default_timeout(20_000)
            page.goto(f"{base}/login/")
            page.fill("#id_username", "anna")
            page.fill("#id_password", PASSWORD)
            page.locator("form button[type=submit]").click()
            page.wait_for_url(lambda u: "/login/" not in u)  # a club, or the list of two
            results = play(page, base, slug, table_id, args.hands, random.Random(args.seed))
            sl = play_slovenian(
                page, base, sl_slug, sl_table_id, args.sl_hands, random.Random(args.seed)
            )
            hu = play_hungarian(
                page, base, hu_slug, hu_table_id, args.sl_hands, random.Random(args.seed)
            )
            browser.close()
        from ledger.models import Hand

        report(results, args.hands, Hand.objects.filter(table_id=table_id).count(), sl, hu)
    finally:
        if server is not None:
            server.terminate()
            server.wait(timeout=10)
        shutil.rmtree(workdir, ignore_errors=True)


if __name__ == "__main__":
    main()
