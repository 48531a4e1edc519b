"""Hungarian Tarokk on the tablet in real Chromium: a plain game in four taps and one number,
HU1 and HU5 of hungarian-tarokk.md entered by taps with their exact nets, and the entry screen
at 1280x800, 800x1280 and 390x844.

The club is a Hungarian one (``Club.language`` "hu"): the pages read in Hungarian on a Danish
tablet, and no label overflows its button in Hungarian (issue 20, part 5)."""

from __future__ import annotations

import datetime

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from ledger import selectors, services
from ledger.games.hungarian.engine.ratecard import GAME_CODE
from ledger.models import Hand, Member
from ledger.tests import factories
from ledger.tests.e2e.conftest import (
    HandScreen,
    expect_language,
    expect_queued,
    overflowing,
    reload_keeps_draft,
    screenshot,
    wait_until_kept,
)

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

SLUG = "hu"
VIEWPORTS = {"landscape": (1280, 800), "portrait": (800, 1280), "phone": (390, 844)}


@pytest.fixture(params=sorted(VIEWPORTS), ids=sorted(VIEWPORTS))
def viewport(request):
    """The two ways of a 10-inch tablet, and a phone."""
    width, height = VIEWPORTS[request.param]
    return {"width": width, "height": height, "name": f"{width}x{height}"}


def url(name, **kwargs):
    return reverse(name, kwargs={"club": SLUG, **kwargs})


def make_table(names=("Anna", "Bo", "Carl", "Dorte"), first="Dorte"):
    club = factories.make_club(
        slug=SLUG,
        name="Budapesti Tarokk Kör",
        game=GAME_CODE,
        language="hu",
        currency="HUF",
        time_zone="Europe/Budapest",
    )
    members = {
        n: factories.make_member(
            club, n, Member.Role.SCOREKEEPER if n == "Anna" else Member.Role.MEMBER, login=True
        )
        for n in names
    }
    evening = services.evening_open(club=club, date=datetime.date(2026, 11, 5))
    table = services.table_open(
        evening=evening, members=list(members.values()), first_dealer=members[first]
    )
    return table, members


class HungarianScreen(HandScreen):
    """The Hungarian hand form, counting every tap."""

    def game(self, bid: str, declarer: str, partner: str | None):
        self.tap(f'label[data-bid="{bid}"]')
        self.tap(f'label[data-declarer="{declarer}"]')
        self.tap(f'label[data-partner="{partner or ""}"]')

    def points(self, value: int, *, side: str = "declarer"):
        """Type the card points: the field has the focus after the partner (no tap)."""
        if side != "declarer":
            self.tap(f'label[data-points-side="{side}"]')
            self.tap("input[data-points]")
        expect(self.page.locator("input[data-points]")).to_be_focused()
        self.page.keyboard.type(str(value))

    def figure(self, kind: str, *, side="declarer", announced=True, result="made", kontra=0):
        """ "+ figure", what differs from the declarer's side and made, then "announced" or
        "silent", which adds it."""
        self.tap(f'[data-figure="{kind}"]')
        if side != "declarer":
            self.tap(f'#chooser [data-pick-side="{side}"]')
        if result != "made":
            self.tap(f'#chooser [data-pick-result="{result}"]')
        for _ in range(kontra):
            self.tap('#chooser [data-pick-kontra="1"]')
        self.tap(f'#chooser [data-figure-add][data-pick-announced="{1 if announced else 0}"]')

    def claim(self, name: str, count: int, when: str = "announced"):
        self.tap(f'[data-claim="{name}"][data-count="{count}"]')
        if when != "announced":
            self.tap(f'[data-claim-when="{name}"][data-when="{when}"]')


def open_new_hand(page, table) -> HungarianScreen:
    page.goto(url("hand_new", pk=table.pk))
    expect(page.locator("#hand-form")).to_be_visible()
    expect(page.locator("#hand-form input[name=record]")).not_to_have_value("")
    return HungarianScreen(page)


def expect_net(hand, name, points):
    expect(hand.net(name)).to_have_attribute("data-points", str(points))


def expect_saved(page, table):
    page.wait_for_url(f"**{url('table', pk=table.pk)}")
    expect(page.locator("#table-live")).to_be_visible()


def test_plain_game_is_four_taps_and_one_number(tablet, viewport):
    """Kettő, Anna with Carl, 58 card points: bid, declarer, partner, the number, save."""
    table, members = make_table()
    page = tablet(members["Anna"].user)
    hand = open_new_hand(page, table)
    expect(page.locator('[data-show="dealer"]')).to_have_text("Dorte")
    screenshot(page, "hu-entry-empty", full_page=True)
    hand.game("ketto", "Anna", "Carl")
    hand.points(58)
    for name, points in {"Anna": 2, "Bo": -2, "Carl": 2, "Dorte": -2}.items():
        expect_net(hand, name, points)
    expect(page.locator("[data-story]")).to_contain_text("T = +2")
    screenshot(page, "hu-entry-plain")
    hand.save()
    assert hand.taps == 4
    expect_saved(page, table)
    assert selectors.table_balances(table.pk) == {"Anna": 2, "Bo": -2, "Carl": 2, "Dorte": -2}


def test_hu1_by_taps(tablet, viewport):
    """HU1: Kettő, Anna calls Carl, the opponents take 36 (her side 58), four kings silent."""
    table, members = make_table()
    page = tablet(members["Anna"].user)
    hand = open_new_hand(page, table)
    hand.game("ketto", "Anna", "Carl")
    hand.points(36, side="opponents")
    expect(page.locator("[data-points-other]")).to_contain_text("58")
    hand.figure("four_kings", announced=False)
    expect(page.locator('[data-chips="figures"] .chip')).to_have_count(1)
    expect(page.locator("#save-hand")).to_have_text("1. leosztás mentése")
    net = {"Anna": 3, "Bo": -3, "Carl": 3, "Dorte": -3}
    for name, points in net.items():
        expect_net(hand, name, points)
    expect_language(page, "hu")
    assert overflowing(page) == []
    screenshot(page, "hu-entry-hu1", full_page=True)
    hand.save()
    expect_saved(page, table)
    expect_language(page, "hu")
    assert overflowing(page) == []
    screenshot(page, "hu-table-hu1", full_page=True)
    assert selectors.table_balances(table.pk) == net
    record = Hand.objects.get(table=table).record
    assert record["card_points"] == 58 and record["partner"] == "Carl"
    assert record["figures"] == [
        {"type": "four_kings", "side": "declarer", "announced": False, "result": "made"}
    ]


def test_a_figure_is_two_taps(tablet, viewport):
    """The common figure, the declarer's side made, is two taps: "+ figure", then "announced"
    or "silent" (which adds it). Kettő, Anna with Carl, 58: an announced trull (2) and a silent
    four kings (1) made by her side add 3 to the game's 2: each opponent pays 5."""
    table, members = make_table()
    page = tablet(members["Anna"].user)
    hand = open_new_hand(page, table)
    hand.game("ketto", "Anna", "Carl")
    hand.points(58)
    expect_net(hand, "Anna", 2)
    trull = HungarianScreen(page)
    trull.figure("trull")
    assert trull.taps == 2
    silent = HungarianScreen(page)
    silent.figure("four_kings", announced=False)
    assert silent.taps == 2
    chips = page.locator('[data-chips="figures"] .chip')
    expect(chips).to_have_count(2)
    for name, points in {"Anna": 5, "Bo": -5, "Carl": 5, "Dorte": -5}.items():
        expect_net(hand, name, points)
    # A dupla is never silent; a doubled figure is announced.
    page.locator('[data-figure="dupla"]').click()
    expect(page.locator('#chooser [data-pick-announced="0"]')).to_be_hidden()
    page.locator("#chooser [data-chooser-close]").click()
    page.locator('[data-figure="pagat_ultimo"]').click()
    page.locator('#chooser [data-pick-kontra="1"]').click()
    expect(page.locator('#chooser [data-pick-announced="0"]')).to_be_disabled()
    screenshot(page, "hu-figure-chooser")
    page.locator("#chooser [data-chooser-close]").click()
    expect(chips).to_have_count(2)
    hand.save()
    expect_saved(page, table)
    assert Hand.objects.get(table=table).record["figures"] == [
        {"type": "trull", "side": "declarer", "announced": True, "result": "made", "kontra": 0},
        {"type": "four_kings", "side": "declarer", "announced": False, "result": "made"},
    ]


def test_hu5_by_taps(tablet, viewport):
    """HU5: the 47 tie, Bo's failed silent pagát ultimó, Carl's 8 announced, Bo's 9 at the end."""
    table, members = make_table()
    page = tablet(members["Anna"].user)
    hand = open_new_hand(page, table)
    hand.game("ketto", "Anna", "Bo")
    hand.points(47)
    page.locator('[data-figure="dupla"]').click()
    expect(page.locator('#chooser [data-pick-announced="0"]')).to_be_hidden()  # never silent
    page.locator("#chooser [data-chooser-close]").click()
    hand.figure("pagat_ultimo", announced=False, result="failed")
    hand.claim("Carl", 8)
    hand.claim("Bo", 9, "at_end")
    net = {"Anna": -10, "Bo": -6, "Carl": 10, "Dorte": 6}
    for name, points in net.items():
        expect_net(hand, name, points)
    expect(page.locator("[data-story]")).to_contain_text("T = −7")
    expect_language(page, "hu")
    assert overflowing(page) == []
    screenshot(page, "hu-entry-hu5", full_page=True)
    hand.save()
    expect_saved(page, table)
    expect_language(page, "hu")
    assert overflowing(page) == []
    screenshot(page, "hu-table-hu5", full_page=True)
    assert selectors.table_balances(table.pk) == net


def test_lone_declarer_with_kontra_at_five_seats(tablet, viewport):
    """At 5 seats the dealer sits out; Solo alone with rekontra: HU2's game, ×3 to the declarer."""
    table, members = make_table(("Anna", "Bo", "Carl", "Dorte", "Erik"), first="Erik")
    page = tablet(members["Anna"].user)
    hand = open_new_hand(page, table)
    expect(page.locator('[data-show="sitting-out"]')).to_have_text("Erik")
    expect(page.locator('label[data-declarer="Erik"]')).to_be_hidden()
    hand.game("solo", "Bo", None)
    hand.points(52)
    hand.tap('[data-kontra-step="1"]')
    hand.tap('[data-kontra-step="1"]')
    expect(page.locator('[data-kontra-show="game"]')).to_have_text("rekontra")
    for name, points in {"Anna": -16, "Bo": 48, "Carl": -16, "Dorte": -16, "Erik": 0}.items():
        expect_net(hand, name, points)
    expect(page.locator("[data-story]")).to_contain_text("× 3")
    hand.save()
    expect_saved(page, table)


def test_offline_save_survives_a_reload_and_is_saved_once(tablet, viewport):
    """As the Danish tablet: saved without a network, the hand waits on the tablet and says
    so; a reload without a network shows the entry form with the draft (the service worker
    keeps the screen); back online the same token saves it exactly once."""
    table, members = make_table()
    page = tablet(members["Anna"].user)
    hand = open_new_hand(page, table)
    wait_until_kept(page)
    token = page.locator("#hand-form input[name=token]").input_value()
    hand.game("ketto", "Anna", "Carl")
    page.context.set_offline(True)
    hand.points(58)
    hand.save()
    expect_queued(page)
    screenshot(page, "hu-entry-offline")
    assert Hand.objects.count() == 0

    reload_keeps_draft(page, token)  # still offline
    expect(page.locator('label[data-bid="ketto"] input')).to_be_checked()
    expect(page.locator('label[data-partner="Carl"] input')).to_be_checked()
    expect(page.locator("input[data-points]")).to_have_value("58")
    screenshot(page, "hu-entry-offline-reloaded")

    page.context.set_offline(False)
    expect_saved_within(page, table, 30_000)
    saved = Hand.objects.get()
    assert saved.token == token
    assert saved.record["card_points"] == 58 and saved.record["partner"] == "Carl"
    open_new_hand(page, table)
    page.wait_for_load_state("networkidle")
    assert page.locator("#hand-form input[name=token]").input_value() != token
    assert Hand.objects.count() == 1


def expect_saved_within(page, table, timeout):
    page.wait_for_url(f"**{url('table', pk=table.pk)}", timeout=timeout)
    expect(page.locator("#table-live")).to_be_visible()
