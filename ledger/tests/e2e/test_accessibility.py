"""Accessibility as a habit: axe-core (the WCAG 2.0, 2.1 and 2.2 A and AA rules) over every page
of the authorization matrix that a browser shows, each read by the least role that may, and
the public pages, in each of the four languages; any violation fails, named with its page, its
rule and the elements. Then two things axe cannot see: the sticky save bar never covers the
focused field (WCAG 2.4.11), and the site's motion and high-contrast rules.

axe-core is the one bundled with the Python package ``axe-playwright-python`` (a test
dependency); it is injected into every page before the page's own scripts (a protocol call,
so the site's Content-Security-Policy stays as it is) and run through a function, never an
``eval``.
"""

from __future__ import annotations

import datetime

import pytest
from django.conf import settings
from django.urls import reverse
from playwright.sync_api import expect

from ledger import services
from ledger.tests import factories
from ledger.tests.e2e.conftest import log_in, watch_csp
from ledger.tests.helpers import MATRIX, build_world, kwargs_for

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

LANGUAGES = ("da", "sl", "hu", "en")
TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"]
# Pages the matrix lists whose answer is no page to read: files and the table's JSON.
NOT_PAGES = {"table_state", "my_data"}  # a fragment; a JSON download
PUBLIC = ("public_club", "public_standings", "public_evening")

# Run axe on the page; return each violation as "rule (impact): targets".
RUN_AXE = """(tags) => axe.run(document, {runOnly: {type: 'tag', values: tags},
    resultTypes: ['violations']}).then((results) => results.violations.map((v) =>
    v.id + ' (' + v.impact + '): ' + v.nodes.slice(0, 5).map((n) => n.target.join(' ')).join(', ')
    + (v.nodes.length > 5 ? ' and ' + (v.nodes.length - 5) + ' more' : '')))"""


def axe_source() -> str:
    """Return axe-core's script, as its Python package ships it."""
    from axe_playwright_python.base import AXE_FILE_PATH

    return AXE_FILE_PATH.read_text(encoding="utf-8")


def pages_by_role(world) -> dict[str, list[tuple[str, str]]]:
    """Return, for each role, the (name, path) of every page it is the least role to read."""
    by_role: dict[str, list[tuple[str, str]]] = {}
    for name, (get_role, _post) in sorted(MATRIX.items()):
        if get_role is None or name in NOT_PAGES or name.endswith("_pdf"):
            continue
        path = reverse(name, kwargs=kwargs_for(name, world))
        by_role.setdefault(get_role, []).append((name, path))
    club = world["club"].slug
    by_role["anonymous"] += [
        ("public_club", reverse("public_club", kwargs={"club": club})),
        ("public_standings", reverse("public_standings", kwargs={"club": club})),
        (
            "public_evening",
            reverse("public_evening", kwargs={"club": club, "pk": world["closed"].pk}),
        ),
    ]
    return by_role


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_page_passes_axe_in_every_language(browser, live_server, language):
    """Every page of the authorization matrix (as the least role that may read it) and the
    public pages, in Danish, Slovenian, Hungarian and English (one test each, so the four
    share the test processes), have no axe-core violation of the WCAG 2.0/2.1/2.2 A and AA
    rules."""
    world = build_world()
    services.club_update(club=world["club"], publish_results=True)
    by_role = pages_by_role(world)
    assert sum(len(pages) for pages in by_role.values()) >= 28
    script = axe_source()
    found: list[str] = []
    csp: list[str] = []
    # One context per role (a round table's link stays with the device that opened it first).
    for role, pages in sorted(by_role.items()):
        context = browser.new_context(
            viewport={"width": 1280, "height": 800}, base_url=live_server.url
        )
        context.add_init_script(script=script)
        user = world["users"][role]
        if user is not None:
            log_in(context, user, live_server.url)
        context.set_default_timeout(15_000)
        try:
            page = context.new_page()
            watch_csp(page, csp)
            cookie = {"name": settings.LANGUAGE_COOKIE_NAME, "value": language}
            context.add_cookies([{**cookie, "url": live_server.url}])
            for name, path in pages:
                response = page.goto(path)
                assert response.status == 200, (language, role, name, response.status)
                expect(page.locator("html")).to_have_attribute("lang", language)
                for violation in page.evaluate(RUN_AXE, TAGS):
                    found.append(f"{language} {name} ({role}): {violation}")
        finally:
            context.close()
    assert csp == []
    assert found == [], "\n".join(found)


# The focused element's box and the save bar's, in the viewport.
FOCUSED_AND_BAR = """() => {
  const el = document.activeElement;
  const bar = document.querySelector('.save-bar');
  const box = el.getBoundingClientRect();
  return {
    name: el.tagName.toLowerCase() + (el.id ? '#' + el.id : '') + ' ' +
      (el.getAttribute('data-player') || el.name || el.textContent.trim().slice(0, 30)),
    inBar: bar.contains(el),
    inForm: !!el.closest('#hand-form'),
    top: box.top, bottom: box.bottom, height: box.height,
    barTop: bar.getBoundingClientRect().top,
  };
}"""


def test_the_save_bar_never_covers_the_focused_field_on_a_phone(pages):
    """On a phone (390x844) a keyboard user tabs through the whole Danish hand form: every
    focused field outside the sticky save bar lies wholly above the bar (WCAG 2.4.11, focus
    not obscured), down to the last field before it."""
    club = factories.make_club(slug="tk", name="Hjørring Tarokklub")
    people = [
        factories.make_member(club, name, role, login=True)
        for name, role in (("Anna", "scorekeeper"), ("Bo", "member"), ("Carl", "member"))
    ]
    evening = services.evening_open(club=club, date=datetime.date(2026, 11, 5))
    table = services.table_open(evening=evening, members=people)
    page = pages(people[0].user, width=390, height=844)
    page.goto(reverse("hand_new", kwargs={"club": "tk", "pk": table.pk}))
    expect(page.locator("#hand-form input[name=record]")).not_to_have_value("")
    page.locator("#hand-form").locator("button, input:not([type=hidden]), a").first.focus()
    covered, last = [], None
    for _ in range(300):
        state = page.evaluate(FOCUSED_AND_BAR)
        if state["inBar"] or not state["inForm"]:
            break
        if state["height"] > 0:
            last = state
            if state["bottom"] > state["barTop"] + 0.5:
                covered.append(f"{state['name']}: {state['bottom']:.0f} > {state['barTop']:.0f}")
        page.keyboard.press("Tab")
    assert last is not None, "no field of the form took the focus"
    assert last["bottom"] <= last["barTop"] + 0.5, last
    assert covered == []


def test_reduced_motion_and_forced_colours_are_respected(pages):
    """With reduced motion asked for, nothing moves (no transition or animation); in forced
    colours (Windows high contrast) a button keeps its border and a focused field its
    outline."""
    page = pages(None, width=390, height=844)
    page.emulate_media(reduced_motion="reduce", forced_colors="active")
    page.goto(reverse("login"))
    styles = page.evaluate(
        """() => {
          const field = document.querySelector('input[name=username]');
          field.focus();
          const f = getComputedStyle(field);
          const b = getComputedStyle(document.querySelector('button[type=submit]'));
          return {transition: f.transitionDuration, animation: f.animationName,
                  outline: f.outlineStyle, outlineWidth: f.outlineWidth,
                  border: b.borderTopStyle, borderWidth: b.borderTopWidth};
        }"""
    )
    assert styles["transition"] == "0s" and styles["animation"] == "none"
    assert styles["outline"] == "solid" and styles["outlineWidth"] == "3px"
    assert styles["border"] == "solid" and styles["borderWidth"] == "2px"
