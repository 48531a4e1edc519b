"""The federation officer in real Chromium: from the site's home to his federation, a series
of two final tournaments (one of factor 3/2) built on its form, and its ladder, which moves
when the series' rule is changed on its change page; axe-core finds no violation on any
officer page, and at 390 px wide no page scrolls sideways."""

from __future__ import annotations

import datetime

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from ledger.models import Profile, Series
from ledger.tests.e2e.conftest import log_in, screenshot, watch_csp
from ledger.tests.e2e.test_accessibility import RUN_AXE, TAGS, axe_source
from ledger.tests.helpers import (
    FEDERATION_MATRIX,
    federation_kwargs,
    federation_world,
    final_tournament,
)
from ledger.tests.views.test_federation_crawl import NOT_HTML

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def checked(page, problems: list[str]) -> None:
    """Run axe-core on the page and check it does not scroll sideways; note any problem."""
    problems += [f"{page.url}: {v}" for v in page.evaluate(RUN_AXE, TAGS)]
    width = page.evaluate("() => document.documentElement.scrollWidth")
    if width > page.viewport_size["width"]:
        problems.append(f"{page.url}: {width} px wide at {page.viewport_size['width']}")


def tap_sized(page, *selectors: str) -> None:
    """Each of ``selectors``' elements is a tap target of at least 44 px either way."""
    for selector in selectors:
        for box in page.locator(selector).evaluate_all(
            "els => els.map(e => e.getBoundingClientRect().toJSON())"
        ):
            assert box["width"] >= 44 and box["height"] >= 44, (selector, box)


@pytest.mark.parametrize("width", [390, 1280])
def test_an_officer_builds_a_series_and_reads_its_ladder(browser, live_server, width):
    world = federation_world(series=True)
    Profile.objects.update_or_create(user=world["officer"], defaults={"language": "en"})
    members = {m.name: m for m in world["club"].members.all()}
    scores = {"Ana": -40, "Bor": 70, "Cene": 20, "Dan": -50}
    second = final_tournament(world["club"], members, datetime.date(2026, 11, 7), scores, "DP 2")
    first = world["tournament"]
    context = browser.new_context(
        viewport={"width": width, "height": 900}, has_touch=True, base_url=live_server.url
    )
    context.add_init_script(script=axe_source())
    log_in(context, world["officer"], live_server.url)
    context.set_default_timeout(15_000)
    violations: list[str] = []
    page = context.new_page()
    page.viewport_name = f"{width}x900"
    watch_csp(page, violations)
    problems: list[str] = []

    page.goto("/")
    page.get_by_role("link", name="Tarok Zveza").click()
    page.wait_for_url("**/f/tzs/")
    expect(page.locator("h1")).to_contain_text("Tarok Zveza")
    checked(page, problems)
    # Each click's page is waited for by its address: axe run while the click's navigation
    # replaces the document finds no document (a flaky failure in CI).
    page.locator("#federation-nav").get_by_role("link", name="Series").click()
    page.wait_for_url("**/f/tzs/series/")
    checked(page, problems)
    page.locator("#series-new-link").click()
    page.wait_for_url("**/f/tzs/series/new/")
    checked(page, problems)
    page.get_by_label("Name", exact=True).fill("Liga 2027")
    page.get_by_label("Seed").fill("Liga 2027")
    page.get_by_label("First date").fill("2026-09-01")
    page.get_by_label("Last date").fill("2027-06-30")
    page.locator(f"#id_event_{first.pk}").check()
    page.locator(f"#id_factor_{first.pk}").fill("3/2")
    page.locator(f"#id_event_{second.pk}").check()
    page.get_by_role("button", name="Create the series").click()
    expect(page.locator("#series-rule")).to_contain_text("linear")
    series = Series.objects.get(name="Liga 2027")  # read once the page shows it saved
    expect(page.locator("#series-events")).to_contain_text("3/2")
    checked(page, problems)
    page.locator("#ladder-link").click()
    page.wait_for_url(f"**/f/tzs/series/{series.pk}/ladder/")
    expect(page.locator("table.ladder tbody tr")).to_have_count(4)
    # Linear over four: Bor 3 x 3/2 + 4 = 8.50, Ana 4 x 3/2 + 2 = 8.00.
    first_row = page.locator("table.ladder tbody tr").first
    expect(first_row).to_contain_text("Bor")
    expect(first_row).to_contain_text("8.50")
    checked(page, problems)
    screenshot(page, f"federation-ladder-{width}")
    assert page.url.endswith(f"/f/tzs/series/{series.pk}/ladder/")
    # The rule changed to best of 1 on the series' change page: the ladder moves at once, Ana
    # first on her DP 1 alone (4 x 3/2 = 6.00).
    page.goto(reverse("federation_series", kwargs={"federation": "tzs", "pk": series.pk}))
    page.locator("#series-change-link").click()
    expect(page.get_by_label("Name", exact=True)).to_have_value("Liga 2027")
    page.get_by_label("Best of").fill("1")
    screenshot(page, f"federation-series-change-{width}", full_page=True)
    page.get_by_role("button", name="Save the changes").click()
    expect(page.locator("#series-rule")).to_contain_text("best 1 result counts")
    screenshot(page, f"federation-series-changed-{width}", full_page=True)
    tap_sized(page, "#series-change-link", "#series-events tbody a")
    page.locator("#series-events").get_by_role("link", name="Change DP 2").click()
    screenshot(page, f"federation-series-event-{width}", full_page=True)
    tap_sized(page, "#id_factor", "#series-factor-form button", "#series-event-remove button")
    page.go_back()
    page.locator("#ladder-link").click()
    expect(first_row).to_contain_text("Ana")
    expect(first_row).to_contain_text("6.00")
    # Then every other officer page, read as he reads them (the results file's download aside:
    # JSON, not a page).
    for name in sorted(
        n for n, methods in FEDERATION_MATRIX.items() if "GET" in methods and n not in NOT_HTML
    ):
        assert page.goto(reverse(name, kwargs=federation_kwargs(name, world))).status == 200
        checked(page, problems)
    assert problems == [], "\n".join(problems)
    assert violations == []
    context.close()
