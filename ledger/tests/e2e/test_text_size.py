"""The reader's largest text size on a phone (issue 32, item 5): at 390 px wide with "larger"
on his profile, the key screens (the tablet's hand entry, the table, the evening, the
standings, the member's own page, the members' set-up with its erase forms) have no
horizontal overflow and every tap target stays at least 44 px; the switch in the top bar sets
the size on the profile and the page wears it at once."""

from __future__ import annotations

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from ledger.models import Profile
from ledger.tests.e2e.conftest import log_in, screenshot, watch_csp
from ledger.tests.e2e.test_touch_targets import MIN, OPEN, SMALL_TARGETS, club_data  # noqa: F401

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

# The page is no wider than the screen (nothing to scroll sideways).
PAGE_OVERFLOW = """() => {
  const root = document.documentElement;
  if (root.scrollWidth <= root.clientWidth) return [];
  // An element inside a box that scrolls sideways (a wide table's) does not widen the page.
  const scrolls = (el) => {
    for (let node = el.parentElement; node && node !== root; node = node.parentElement) {
      if (['auto', 'scroll', 'hidden'].includes(getComputedStyle(node).overflowX)) return true;
    }
    return false;
  };
  return [...document.querySelectorAll('body *')]
    .filter((el) => el.getBoundingClientRect().right > root.clientWidth + 1 && !scrolls(el))
    .slice(0, 8)
    .map((el) => el.tagName.toLowerCase() + (el.id ? '#' + el.id : '')
      + (typeof el.className === 'string' && el.className ? '.' + el.className : '') + ' '
      + Math.round(el.getBoundingClientRect().right) + ' > ' + root.clientWidth);
}"""


def key_screens(data) -> list[tuple[str, str]]:
    c = data["club"].slug

    def u(name, **kwargs):
        return reverse(name, kwargs={"club": c, **kwargs})

    return [
        ("entry-danish", u("hand_new", pk=data["table"].pk)),
        ("table", u("table", pk=data["table"].pk)),
        ("evening", u("evening", pk=data["open"].pk)),
        ("standings", u("standings")),
        ("my-page", u("my_page")),
        ("setup-members", u("setup_members")),
    ]


def test_the_largest_text_fits_a_phone(browser, live_server, club_data):  # noqa: F811
    user = club_data["user"]
    Profile.objects.update_or_create(user=user, defaults={"text_size": "larger"})
    context = browser.new_context(
        viewport={"width": 390, "height": 844},
        has_touch=True,
        locale="da-DK",
        base_url=live_server.url,
    )
    log_in(context, user, live_server.url)  # the log-in copies his size into the session
    context.set_default_timeout(15_000)
    violations: list[str] = []
    failures: dict[str, list[str]] = {}
    try:
        page = context.new_page()
        page.viewport_name = "390x844"
        watch_csp(page, violations)
        for name, path in key_screens(club_data):
            response = page.goto(path)
            assert response.status == 200, (name, path, response.status)
            page.wait_for_load_state("networkidle")
            expect(page.locator("html")).to_have_class("text-larger")
            page.evaluate("document.querySelectorAll('details').forEach(d => { d.open = true; })")
            for selector in OPEN.get(name, ()):
                page.locator(selector).first.click()
            problems = [f"overflow: {o}" for o in page.evaluate(PAGE_OVERFLOW)]
            result = page.evaluate(SMALL_TARGETS, MIN)
            assert result["seen"] > 3, f"{name}: nothing measured"
            problems += [f"small: {t}" for t in result["small"]]
            screenshot(page, f"text-larger-{name}", full_page=True)
            if problems:
                failures[name] = problems
        assert violations == []
    finally:
        context.close()
    assert failures == {}, "\n".join(
        f"{name}: {problem}" for name, problems in failures.items() for problem in problems
    )


def test_the_switch_sets_the_size(browser, live_server, club_data):  # noqa: F811
    user = club_data["user"]
    context = browser.new_context(
        viewport={"width": 390, "height": 844}, locale="da-DK", base_url=live_server.url
    )
    log_in(context, user, live_server.url)
    context.set_default_timeout(15_000)
    try:
        page = context.new_page()
        page.goto(reverse("my_page", kwargs={"club": club_data["club"].slug}))
        expect(page.locator("html")).to_have_class("text-normal")
        page.locator('#text-size-form button[value="larger"]').click()
        expect(page.locator("html")).to_have_class("text-larger")
        assert Profile.objects.get(user=user).text_size == "larger"
        size = page.evaluate("getComputedStyle(document.documentElement).fontSize")
        assert size == "22px"
    finally:
        context.close()
