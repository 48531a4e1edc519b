"""The standings on a phone (390x844) and on a desktop (1280x800) in real Chromium: rank, name,
points and money first and in view, the other columns behind "Vis alle kolonner" (CSS only)."""

from __future__ import annotations

import pytest

from ledger.models import Club
from ledger.tests import factories
from ledger.tests.e2e.conftest import log_in, screenshot, watch_csp
from ledger.tests.helpers import build_season

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 800}
FIRST = ("#", "Medlem", "Point", "Beløb")


@pytest.fixture
def season_club():
    club = factories.make_club()
    build_season(club, hands=12)
    return club


def open_page(browser, live_server, viewport, user=None):
    """Return (context, page, CSP violations) at ``viewport``, logged in as ``user`` if any."""
    context = browser.new_context(
        viewport=viewport, has_touch=True, locale="da-DK", base_url=live_server.url
    )
    if user is not None:
        log_in(context, user, live_server.url)
    context.set_default_timeout(15_000)
    violations: list[str] = []
    page = context.new_page()
    watch_csp(page, violations)
    page.viewport_name = f"{viewport['width']}x{viewport['height']}"
    return context, page, violations


def headers(page) -> list[dict]:
    """Return each standings header cell: its text, whether shown, and where it is."""
    return page.evaluate(
        """() => [...document.querySelectorAll('#standings thead th')].map(th => {
            const box = th.getBoundingClientRect();
            return {text: th.innerText.trim(), more: th.classList.contains('more'),
                    shown: box.width > 0 && getComputedStyle(th).display !== 'none',
                    left: box.left, right: box.right};
        })"""
    )


def scroll_box(page) -> dict:
    return page.evaluate(
        """() => { const box = document.querySelector('.standings-box .table-scroll');
                   return {scroll: box.scrollWidth, client: box.clientWidth,
                           page: document.documentElement.scrollWidth}; }"""
    )


def test_standings_on_a_phone_show_the_four_first_and_the_rest_on_demand(
    browser, live_server, season_club
):
    tove = factories.make_member(season_club, "Tove", role="treasurer", login=True)
    context, page, violations = open_page(browser, live_server, PHONE, tove.user)
    page.goto(f"/c/{season_club.slug}/standings/")
    page.wait_for_selector("#standings")
    cells = headers(page)
    assert tuple(c["text"] for c in cells[:4]) == FIRST
    for cell in cells[:4]:
        assert cell["shown"] and 0 <= cell["left"] and cell["right"] <= PHONE["width"], cell
    assert all(c["more"] and not c["shown"] for c in cells[4:]), cells
    box = scroll_box(page)
    assert box["scroll"] <= box["client"] and box["page"] <= PHONE["width"], box
    assert page.locator(".open-evening-note").is_visible()
    screenshot(page, "standings-phone")
    screenshot(page, "standings-phone-full", full_page=True)
    page.screenshot(path="/tmp/standings-390x844.png")

    page.locator("label[for=all-columns]").click()
    assert page.locator("#all-columns").is_checked()
    cells = headers(page)
    assert all(c["shown"] for c in cells), cells
    assert page.locator("#standings thead th.more[title]").first.get_attribute("title")
    screenshot(page, "standings-phone-all-columns")
    page.screenshot(path="/tmp/standings-390x844-all.png")
    # Unticked again, the extra columns go away again: no script holds any state.
    page.locator("label[for=all-columns]").click()
    assert not any(c["shown"] for c in headers(page)[4:])
    context.close()
    assert violations == []


def test_standings_on_a_desktop_show_every_column(browser, live_server, season_club):
    tove = factories.make_member(season_club, "Tove", role="treasurer", login=True)
    context, page, violations = open_page(browser, live_server, DESKTOP, tove.user)
    page.goto(f"/c/{season_club.slug}/standings/")
    page.wait_for_selector("#standings")
    cells = headers(page)
    assert tuple(c["text"] for c in cells[:4]) == FIRST
    assert len(cells) > 8 and all(c["shown"] for c in cells), cells
    assert not page.locator("label[for=all-columns]").is_visible()
    screenshot(page, "standings-desktop")
    page.screenshot(path="/tmp/standings-1280x800.png")
    context.close()
    assert violations == []


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_public_standings_without_log_in(browser, live_server, season_club, viewport):
    """The public page works for an anonymous reader: the top bar, the table, no money."""
    Club.objects.filter(pk=season_club.pk).update(publish_results=True)
    context, page, violations = open_page(browser, live_server, viewport)
    page.goto(f"/p/{season_club.slug}/")
    page.wait_for_selector("#standings")
    assert page.locator(".topbar .brand").inner_text() == season_club.name
    assert page.locator(".topbar a[href='/login/']").inner_text() == "Log ind"
    texts = [c["text"] for c in headers(page)]
    assert texts[:3] == ["#", "Medlem", "Point"] and "Beløb" not in texts
    assert page.locator("[data-money]").count() == 0
    page.locator("#evenings a").first.click()
    page.wait_for_selector("#results")
    assert page.locator(".public-table-box").count() >= 1
    name = f"{viewport['width']}x{viewport['height']}"
    page.screenshot(path=f"/tmp/public-evening-{name}.png", full_page=True)
    page.go_back()
    page.wait_for_selector("#standings")
    page.screenshot(path=f"/tmp/public-standings-{name}.png")
    context.close()
    assert violations == []
