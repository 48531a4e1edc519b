"""The treasurer's and the members' screens in real Chromium, with screenshots to look at.

Screenshots go to ``test-artifacts/treasury/`` (git-ignored). The browser fixtures are this
module's own, so the module runs alone: Debian's Chromium (``/usr/bin/chromium`` or
``$CHROMIUM``); without it the tests are skipped with a message, except in CI, where they fail.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.test import Client

from ledger.models import Evening, EveningResult, Member
from ledger.tests import factories
from ledger.tests.helpers import build_season

# Playwright's sync API runs an event loop in this thread; Django must still allow the ORM.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

ARTIFACTS = Path(settings.BASE_DIR) / "test-artifacts" / "treasury"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
]
LANDSCAPE = {"width": 1280, "height": 800}
PORTRAIT = {"width": 800, "height": 1280}


def _chromium() -> str | None:
    for candidate in (os.environ.get("CHROMIUM"), "/usr/bin/chromium", shutil.which("chromium")):
        if candidate and Path(candidate).exists():
            return candidate
    return None


@pytest.fixture(scope="module")
def treasury_browser():
    """One Chromium for the module."""
    path = _chromium()
    if path is None:
        if os.environ.get("CI"):
            pytest.fail("Chromium is required in CI (Debian package chromium)")
        pytest.skip("no Chromium found (install Debian's chromium, or set $CHROMIUM)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=path, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


@pytest.fixture
def open_page(treasury_browser, live_server):
    """Return ``open(user, viewport) -> page``: a logged-in page in English on a tablet."""
    contexts = []

    def open_(user, viewport=LANDSCAPE):
        client = Client()
        client.force_login(user)
        context = treasury_browser.new_context(
            viewport=viewport, has_touch=True, base_url=live_server.url
        )
        context.add_cookies(
            [
                {"name": name, "value": value, "url": live_server.url}
                for name, value in (
                    ("sessionid", client.cookies["sessionid"].value),
                    (settings.LANGUAGE_COOKIE_NAME, "en"),
                )
            ]
        )
        context.set_default_timeout(15_000)
        contexts.append(context)
        page = context.new_page()
        page.viewport_label = f"{viewport['width']}x{viewport['height']}"
        return page

    yield open_
    for context in contexts:
        context.close()


def shot(page, name: str) -> Path:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    path = ARTIFACTS / f"{name}-{page.viewport_label}.png"
    page.screenshot(path=str(path), full_page=True)
    return path


@pytest.fixture
def season_club():
    club = factories.make_club(name="Hjørring Tarokklub")
    season, evenings = build_season(club)
    treasurer = factories.make_member(club, "Tove", Member.Role.TREASURER, login=True)
    member = factories.make_member(club, "Mia", login=True)
    return club, season, evenings, treasurer.user, member.user


def _min_height(locator) -> float:
    return min(box["height"] for box in (el.bounding_box() for el in locator.all()) if box)


@pytest.mark.parametrize("viewport", [LANDSCAPE, PORTRAIT], ids=["landscape", "portrait"])
def test_standings_and_member_page(open_page, season_club, viewport):
    """A member reads the standings, sorts them, and opens a member's page with the chart."""
    club, season, _, _, member = season_club
    page = open_page(member, viewport)
    page.goto(f"/c/{club.slug}/standings/")
    rows = page.locator("table#standings tbody tr")
    assert rows.count() == 5
    names = rows.locator("td:nth-child(2)").all_inner_texts()
    assert names[0] in ("Anna", "Bo", "Carl", "Dorte", "Erik")
    assert _min_height(page.locator("table#standings td:nth-child(2) a")) >= 44
    assert _min_height(page.locator("#downloads a")) >= 44
    shot(page, "standings")

    page.locator("table#standings th a", has_text="Hands").click()
    page.wait_for_url("**sort=played**")
    played = [int(v) for v in rows.locator("td:nth-child(6)").all_inner_texts()]
    assert played == sorted(played)

    page.locator("table#standings td a", has_text="Dorte").click()
    page.wait_for_url("**/season/**")
    assert page.locator("h1").inner_text().startswith("Dorte")
    assert page.locator("#chart svg polyline").count() == 1
    assert page.locator("table#member-evenings tbody tr").count() == 3  # not at Evening E
    assert page.locator("table#member-hands tbody tr").count() > 0
    shot(page, "member")
    # A long figure (a season's money of six figures, written into its tile here) widens its
    # tile instead of running into the next one.
    money = page.locator('#summary .tile[data-stat="money"] .tile-value')
    money.evaluate("el => { el.textContent = '\u2212221.456,25 DKK'; }")
    spilled = page.evaluate(
        """() => [...document.querySelectorAll('#summary .tile')]
          .filter((tile) => tile.scrollWidth > tile.clientWidth).map((tile) => tile.dataset.stat)"""
    )
    assert spilled == []


def test_treasurer_counts_confirms_and_closes(open_page, season_club):
    """The treasurer counts an open evening 5 short, is asked to confirm, and closes it."""
    club, _, evenings, treasurer, _ = season_club
    evening = evenings[3]
    page = open_page(treasurer)
    page.goto(f"/c/{club.slug}/evening/{evening.pk}/treasury/")
    section = page.locator("section.jeton-table").first
    for row in section.locator("table.jetons tbody tr").all():
        expected = int(row.locator("td").nth(1).inner_text())
        name = row.get_attribute("data-account")
        row.locator("input").fill(str(expected - 5 if name == "Anna" else expected))
    section.get_by_role("button", name="Save count").click()
    page.wait_for_load_state()
    assert page.locator('.differences strong[data-member="Anna"]').inner_text() == "Anna \u22125"
    assert page.locator('tr[data-account="Anna"]').get_attribute("data-difference") == "-5"

    page.locator("#close-form button").click()
    page.wait_for_load_state()
    assert "confirm the differences to close" in page.locator("#close-error").inner_text()
    assert Evening.objects.get(pk=evening.pk).is_open
    # The refusal answers in place: at #close, the refusal in view, the confirm box focused.
    assert page.url.endswith("#close")
    page.wait_for_function("() => document.activeElement.name === 'confirm_differences'")
    top = page.evaluate("document.getElementById('close-refusal').getBoundingClientRect().top")
    assert 0 <= top < page.viewport_size["height"]
    shot(page, "treasury-differences")

    page.locator('#close-form input[name="confirm_differences"]').check()
    page.locator("#close-form button").click()
    page.wait_for_load_state()
    assert page.locator("#status").get_attribute("data-status") == "closed"
    results = {r.member.name: r for r in EveningResult.objects.filter(evening=evening)}
    for name, result in results.items():
        cell = page.locator(f'#results tr[data-member="{name}"] [data-money]')
        assert cell.get_attribute("data-money") == str(result.money)
    assert page.locator("#reopen-form textarea").count() == 1
    shot(page, "treasury-closed")


def test_evening_sheet_screen(open_page, season_club):
    """The evening sheet shows every hand with its transfers and the settlement."""
    club, _, evenings, _, member = season_club
    page = open_page(member)
    page.goto(f"/c/{club.slug}/evening/{evenings[0].pk}/sheet/")
    assert page.locator("table.sheet tr[data-kind=hand]").count() == 3
    assert page.locator("table.sheet tr.transfers").count() == 5
    anna = page.locator('#settlement tr[data-member="Anna"]')
    assert anna.locator("[data-money]").get_attribute("data-money") == "16.25"
    assert page.locator("#to-treasury").count() == 0
    shot(page, "evening-sheet")


PHONE = {"width": 390, "height": 844}


@pytest.mark.parametrize("viewport", [PHONE, LANDSCAPE], ids=["phone", "desktop"])
def test_score_sheet_on_a_phone_and_a_desktop(open_page, season_club, viewport):
    """The sheet fits the screen's width (a table scrolls inside its own box), the reader's
    result comes before the tables and his column first; on a phone only his table is open;
    a tap on a hand's number shows its transfers."""
    club, _, evenings, _, _ = season_club
    anna = Member.objects.get(club=club, name="Anna")
    anna.user = get_user_model().objects.create_user(username="anna", password="pw-anna-123")
    anna.save()
    page = open_page(anna.user, viewport)
    page.goto(f"/c/{club.slug}/evening/{evenings[1].pk}/sheet/")  # Anna at table 1 of 2
    assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
    mine = page.locator("#my-result")
    assert mine.get_attribute("data-member") == "Anna"
    first_table = page.locator("details.sheet-table").first
    assert mine.bounding_box()["y"] < first_table.bounding_box()["y"]
    heads = page.locator("#table-1 table.sheet thead th.member")
    assert heads.first.get_attribute("data-member") == "Anna"
    assert page.locator("#table-2 thead th.member").first.get_attribute("data-member") == "Erik"
    folded = page.evaluate("[...document.querySelectorAll('details.sheet-table')].map(d => d.open)")
    assert folded == ([True, False] if viewport is PHONE else [True, True])
    box = page.locator("#table-1 .table-scroll").bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= viewport["width"]

    transfers = page.locator('#table-1 tr.transfers[data-transfers-of="2"]')
    assert not transfers.is_visible()
    page.locator('#table-1 tr[data-hand="2"] details.tx summary').click()
    assert transfers.is_visible()
    assert "→" in transfers.inner_text()
    name = "score-sheet-phone" if viewport is PHONE else "score-sheet"
    shot(page, name)
    page.screenshot(path=str(ARTIFACTS / f"{name}-top-{page.viewport_label}.png"))
