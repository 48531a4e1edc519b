"""The game's own words fit their buttons (issue 20, part 2): every Slovenian contract
("Barvni valat", "Odprti berač") and every Hungarian bid and "+ figure" button ("+ Négy
király", "+ Dupla játék") keeps its label inside its box at 1280x800 and 390x844 in real
Chromium, and reads in the game's language on a Danish tablet."""

from __future__ import annotations

import datetime

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from ledger import services
from ledger.models import Member
from ledger.tests import factories
from ledger.tests.e2e.conftest import screenshot

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

VIEWPORTS = {"landscape": (1280, 800), "phone": (390, 844)}
# The labels of a game's buttons whose text is wider than the box that holds it.
OVERFLOWING = """(selector) => [...document.querySelectorAll(selector)]
  .filter((el) => el.offsetParent !== null)
  .filter((el) => el.scrollWidth > el.clientWidth + 1 || el.scrollHeight > el.clientHeight + 1)
  .map((el) => el.textContent.trim())"""
GAMES = {
    "slovenian_tarok": ("label.sl-contract span", ["Barvni valat", "Odprti berač", "Solo brez"]),
    "hungarian_tarokk": (
        "label.hu-bid span, .hu-figure-buttons .button.add",
        ["Három", "Kettő", "+ Négy király", "+ Dupla játék", "+ Tulétroá"],
    ),
}


@pytest.fixture(params=sorted(VIEWPORTS), ids=sorted(VIEWPORTS))
def viewport(request):
    width, height = VIEWPORTS[request.param]
    return {"width": width, "height": height, "name": f"{width}x{height}"}


@pytest.mark.parametrize("game", sorted(GAMES))
def test_the_games_words_fit_their_buttons(tablet, viewport, game):
    club = factories.make_club(slug=game[:2], name="Klub", game=game)
    members = [
        factories.make_member(
            club, n, Member.Role.SCOREKEEPER if n == "Anna" else Member.Role.MEMBER, login=True
        )
        for n in ("Anna", "Bo", "Carl", "Dorte")
    ]
    evening = services.evening_open(club=club, date=datetime.date(2026, 11, 5))
    table = services.table_open(evening=evening, members=members, first_dealer=members[3])
    page = tablet(members[0].user)
    page.goto(reverse("hand_new", kwargs={"club": club.slug, "pk": table.pk}))
    expect(page.locator("#hand-form")).to_be_visible()
    selector, words = GAMES[game]
    texts = [t.strip() for t in page.locator(selector).all_inner_texts()]
    for word in words:
        assert any(t.startswith(word) for t in texts), (word, texts)
    assert page.evaluate(OVERFLOWING, selector) == []
    screenshot(page, f"game-words-{game}")


# The settlement's box, its scroll box and the page, against the viewport's width.
SETTLEMENT_FITS = """() => {
  const table = document.querySelector('table#settlement');
  const box = table.closest('.table-scroll');
  return {
    right: table.getBoundingClientRect().right,
    scroll: box ? box.scrollWidth - box.clientWidth : 0,
    page: document.documentElement.scrollWidth,
    columns: [...table.querySelectorAll('thead th')].map((th) => th.textContent.trim()),
  };
}"""


def test_the_slovenian_close_fits_a_phone(browser, live_server):
    """The Slovenian settlement's six columns (the radelc penalty and the share of the pool
    among them) fit a 390 px phone on the sheet and the treasurer's screen."""
    from django.test import Client

    from ledger.tests.conftest import load_example
    from ledger.tests.e2e.conftest import log_in

    club = factories.make_club(slug="sl", name="Ljubljana Tarok Klub", game="slovenian_tarok")
    members = [
        factories.make_member(
            club, n, Member.Role.TREASURER if n == "Anna" else Member.Role.MEMBER, login=n == "Anna"
        )
        for n in ("Anna", "Bo", "Carl", "Dorte")
    ]
    evening = services.evening_open(club=club, date=datetime.date(2026, 11, 5))
    table = services.table_open(evening=evening, members=members, first_dealer=members[0])
    for hand in load_example("SL_EVENING.evening.json")["hands"]:
        hand = {k: v for k, v in hand.items() if k != "radli_before"}
        services.hand_record(table=table, record={"game": "slovenian_tarok", **hand})
    services.evening_close(evening=evening, confirm_differences=True)
    context = browser.new_context(
        viewport={"width": 390, "height": 844}, has_touch=True, locale="da-DK"
    )
    client = Client()
    assert members[0].user is not None
    client.force_login(members[0].user)
    log_in(context, members[0].user, live_server.url, client=client)
    try:
        page = context.new_page()
        page.viewport_name = "390x844"
        for view in ("evening_sheet", "evening_treasury"):
            page.goto(live_server.url + reverse(view, kwargs={"club": "sl", "pk": evening.pk}))
            fit = page.evaluate(SETTLEMENT_FITS)
            assert "Radelc-bøde" in fit["columns"] and "Andel af puljen" in fit["columns"], fit
            assert fit["right"] <= 390.5 and fit["scroll"] <= 0 and fit["page"] <= 390, (view, fit)
            page.locator("table#settlement").scroll_into_view_if_needed()
            screenshot(page, f"slovenian-close-{view}")
    finally:
        context.close()
