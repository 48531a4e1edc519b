"""The tournament's wall in Chromium at 1920x1080 (a television) and 1280x720 (a projector),
for fields of 12, 25, 60 and 138 players with names of up to 30 characters: nothing to
scroll, the clock whole, every shown points cell and table number whole inside the screen,
lists too long for the screen paging by themselves (every player on exactly one page; a fade,
none under prefers-reduced-motion); before
round 1 closes the draw by table, not a ranking; no CSP violation."""

from __future__ import annotations

import datetime
import re

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from ledger.models import Member
from ledger.services import tournaments as tour
from ledger.tests import factories
from ledger.tests.e2e.conftest import ARTIFACTS, CUT_AT_THE_EDGE
from ledger.tests.helpers import set_round_start, settle_zero_sum

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

SIZES = [(1920, 1080), (1280, 720)]
FIRST = ["Ana", "Bor", "Cene", "Dana", "Eva", "Franc", "Gašper", "Helena", "Ivo", "Jana", "Klemen"]
LAST = ["Novak", "Horvat", "Kovačič", "Krajnc", "Zupančič", "Potočnik", "Kovač", "Mlakar"]
LAST += ["Kos", "Vidmar", "Golob", "Turk", "Božič"]


def field(size: int) -> list[str]:
    """Return ``size`` distinct names of two words, every third one 30 characters long."""
    names = []
    for i in range(size):
        name = f"{FIRST[i % len(FIRST)]} {LAST[i // len(FIRST)]}"
        if i % 3 == 0:
            name = f"{name}-Vrhovnik-Štefančič Mlajši"[:30].strip()
        names.append(name)
    assert len(set(names)) == size and max(map(len, names)) <= 30
    return names


# The club's language speaks on its wall: Hungarian, Slovenian and Danish fields.
FIELDS = {
    12: ("hungarian_tarokk", "hu_kupa", "hu"),
    25: ("slovenian_tarok", "sl_dp", "sl"),
    60: ("danish_tarok", "dk_dm", "da"),
    138: ("slovenian_tarok", "sl_dp", "sl"),
}

# What of the wall is not whole inside the screen, or cut inside its box.
CUT = """() => {
  const out = [];
  const inside = (el, box) => {
    const r = el.getBoundingClientRect();
    return r.left >= box.left - 0.5 && r.right <= box.right + 0.5
      && r.top >= box.top - 0.5 && r.bottom <= box.bottom + 0.5;
  };
  const screen = {left: 0, top: 0, right: innerWidth, bottom: innerHeight};
  const check = (el, box, what) => {
    if (el.offsetParent === null) return;  // on another page
    if (!inside(el, screen)) out.push(`${what} off the screen: ${el.textContent}`);
    if (box && !inside(el, box.getBoundingClientRect()))
      out.push(`${what} outside its box: ${el.textContent}`);
    if (el.scrollWidth > el.clientWidth + 1) out.push(`${what} clipped: ${el.textContent}`);
  };
  const clock = document.querySelector('#wall-clock');
  if (clock) check(clock, null, 'clock');
  document.querySelectorAll('#wall-ranking td.points, #wall-ranking td.rank')
    .forEach((el) => check(el, document.querySelector('#wall-ranking-list'), 'points'));
  document.querySelectorAll('#wall-seats .where')
    .forEach((el) => check(el, document.querySelector('#wall-seats-list'), 'table'));
  document.querySelectorAll('#wall-draw .table-no')
    .forEach((el) => check(el, document.querySelector('#wall-draw-list'), 'draw'));
  const root = document.scrollingElement;
  if (root.scrollWidth > innerWidth || root.scrollHeight > innerHeight)
    out.push(`scrolls: ${root.scrollWidth}x${root.scrollHeight}`);
  return out;
}"""

SHOWN = """(box) => [...document.querySelectorAll(`#${box} [data-player]`)]
  .filter((el) => el.offsetParent !== null).map((el) => el.dataset.player)"""


def every_page(page, box: str) -> list[str]:
    """Return the players the list ``box`` shows over all its pages, from the one shown on,
    turning them by letting the page's (installed) clock run; nothing is cut on any page."""
    pages = int(page.locator(f"#{box}").get_attribute("data-page-count"))
    first = int(page.locator(f"#{box}").get_attribute("data-page"))
    seen = []
    for turn in range(pages):
        shown = str((first - 1 + turn) % pages + 1)
        expect(page.locator(f"#{box}")).to_have_attribute("data-page", shown)
        if pages > 1:
            expect(page.locator(f'[data-page-of="{box}"]')).to_have_text(f"{shown}/{pages}")
        assert page.evaluate(CUT) == []
        seen += page.evaluate(SHOWN, box)
        page.clock.run_for(10_000)
    return seen


FONT = "(s) => parseFloat(getComputedStyle(document.querySelector(s)).fontSize)"


def look(page, name: str, width: int, height: int) -> None:
    page.set_viewport_size({"width": width, "height": height})
    laid_elsewhere = page.locator(f'[data-pages]:not([data-laid-for="{width}x{height}"])')
    expect(laid_elsewhere).to_have_count(0)  # the pages are laid for this size
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"tournament-wall-{name}-{width}x{height}.png"))
    assert page.evaluate(CUT) == []
    # Readable from a few metres: the countdown large, the seats 16 px at least.
    if page.locator("#wall-clock").count():
        assert page.evaluate(FONT, "#wall-clock") >= 60
    assert page.evaluate(FONT, "#wall-seats li") >= 16


@pytest.mark.parametrize("size", sorted(FIELDS))
def test_the_wall_fits_every_screen(pages, size):
    """Before round 1 closes: the draw by table, every player's seat, the clock; after it the
    standings; at both sizes every player is on exactly one page of each list, nothing is cut
    and nothing scrolls."""
    game, tournament_format, language = FIELDS[size]
    club = factories.make_club(slug="hall", name="Hall", game=game, language=language)
    viewer = factories.make_member(club, "Zaslon", Member.Role.MEMBER, login=True)
    names = field(size)
    t = factories.make_tournament(
        club,
        names,
        name="Državno prvenstvo v taroku 2026",
        game=game,
        tournament_format=tournament_format,
    )
    r = tour.round_draw(tournament=t)
    tour.round_publish(round_=r)
    r = tour.round_start(round_=r)

    page = pages(viewer.user, width=1920, height=1080)
    page.clock.install()
    page.goto(f"/c/{club.slug}/t/{t.pk}/wall/")
    expect(page.locator("html")).to_have_attribute("lang", language)
    expect(page.locator("#wall-clock")).to_be_visible()
    assert page.locator("#wall-ranking").count() == 0  # no ranking of all at 0 in lot order
    expect(page.locator("#wall-draw-list li[data-table]")).to_have_count(
        len(r.tables) + (1 if r.byes else 0)
    )
    for width, height in SIZES:
        look(page, f"{size}-draw-{language}", width, height)
        assert sorted(every_page(page, "wall-seats-list")) == sorted(names)
        assert sorted(every_page(page, "wall-draw-list")) == sorted(names)
    # The signal: the clock's words in the club's language, whole beside the name.
    set_round_start(r.pk, timezone.now() - datetime.timedelta(hours=3))
    page.goto(f"/c/{club.slug}/t/{t.pk}/wall/")
    expect(page.locator("#wall-clock.over")).to_be_visible()
    look(page, f"{size}-signal-{language}", 1280, 720)

    scores = {3: [60, -20, -40], 4: [150, 35, -65, -120], 5: [200, 40, -10, -100, -130]}
    for rt in r.round_tables.select_related("table"):
        settle_zero_sum(rt, dict(zip(rt.seats, scores[len(rt.seats)], strict=True)))
    tour.round_close(round_=r)
    page.goto(f"/c/{club.slug}/t/{t.pk}/wall/")
    assert page.locator("#wall-draw").count() == 0
    expect(page.locator("#wall-ranking tr[data-player]")).to_have_count(size)
    for width, height in SIZES:
        look(page, f"{size}-standings-{language}", width, height)
        assert sorted(every_page(page, "wall-ranking-list")) == sorted(names)
    ranking = page.locator("#wall-ranking-list")
    if ranking.get_attribute("data-page-count") != "1":
        # A page turns with a short fade; under prefers-reduced-motion it switches, unmoving.
        # (No more polls: a fresh list from a poll has no fade to see.)
        page.evaluate(
            "() => document.addEventListener('htmx:beforeRequest', (e) => e.preventDefault())"
        )
        # Count the fades as they start: a poll already in flight may still swap a fresh list
        # in (which lays the page again, unfaded) before the assertion reads the class.
        page.evaluate(
            """() => {
                window.fades = 0;
                new MutationObserver((changes) => changes.forEach((c) => {
                    if (c.target.id === "wall-ranking-list"
                        && c.target.classList.contains("turning")
                        && !(c.oldValue || "").split(" ").includes("turning")) window.fades += 1;
                })).observe(document.body, {
                    attributes: true, attributeOldValue: true, subtree: true,
                    attributeFilter: ["class"],
                });
            }"""
        )
        page.clock.run_for(10_000)
        page.wait_for_function("() => window.fades > 0")
        page.emulate_media(reduced_motion="reduce")
        shown = ranking.get_attribute("data-page")
        page.evaluate("() => { window.fades = 0; }")
        page.clock.run_for(10_000)
        expect(ranking).not_to_have_attribute("data-page", shown)
        assert page.evaluate("() => window.fades") == 0
        expect(ranking).not_to_have_class(re.compile(r"\bturning\b"))


# What of the wall may not be cut on a phone (``CUT_AT_THE_EDGE``): a name, a seat, a table's
# number or points, the heading or the clock.
CUT_ON_A_PHONE = (
    ".wall-head h1, #wall-clock, #wall-seats li, #wall-seats .who, #wall-draw li, "
    + "#wall-ranking td"
)


def test_the_wall_on_a_phone(pages):
    """A player follows the hall's wall on a 390x844 phone: one column that scrolls down,
    never sideways; before round 1 closes every player's seat and the whole draw, after it
    the whole ranking, shown at once (nothing pages away), every name whole."""
    club = factories.make_club(slug="hall", name="Hall", game="slovenian_tarok", language="sl")
    viewer = factories.make_member(club, "Zaslon", Member.Role.MEMBER, login=True)
    names = field(25)
    t = factories.make_tournament(
        club,
        names,
        name="Državno prvenstvo v taroku 2026",
        game="slovenian_tarok",
        tournament_format="sl_dp",
    )
    r = tour.round_start(round_=tour.round_publish(round_=tour.round_draw(tournament=t)))
    page = pages(viewer.user, width=390, height=844)

    def look(name: str, lists: list[str]) -> None:
        page.goto(f"/c/{club.slug}/t/{t.pk}/wall/")
        expect(page.locator('[data-pages]:not([data-laid-for="390x844"])')).to_have_count(0)
        assert page.locator(".off-page").count() == 0
        assert page.evaluate("document.scrollingElement.scrollWidth") <= 390
        assert page.evaluate(CUT_AT_THE_EDGE, CUT_ON_A_PHONE) == []
        for box in lists:
            assert sorted(page.evaluate(SHOWN, box)) == sorted(names), box
        ARTIFACTS.mkdir(exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / f"tournament-wall-{name}-390x844.png"), full_page=True)

    look("draw", ["wall-seats-list", "wall-draw-list"])
    expect(page.locator("#wall-clock")).to_be_visible()
    scores = {3: [60, -20, -40], 4: [150, 35, -65, -120], 5: [200, 40, -10, -100, -130]}
    for rt in r.round_tables.select_related("table"):
        settle_zero_sum(rt, dict(zip(rt.seats, scores[len(rt.seats)], strict=True)))
    tour.round_close(round_=r)
    look("standings", ["wall-ranking-list"])
