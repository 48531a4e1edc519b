"""Slovenian Tarok on the tablet in real Chromium: SL1 and SL3 entered by taps, with the
exact nets and radli afterwards, and the entry screen at 1280x800, 800x1280 and 390x844.

The club is a Slovenian one (``Club.language`` "sl"): the pages read in Slovenian on a Danish
tablet, and no label overflows its button in Slovenian (issue 20, part 5)."""

from __future__ import annotations

import datetime

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from ledger import selectors, services
from ledger.models import Hand, Member
from ledger.tests import factories
from ledger.tests.conftest import load_example
from ledger.tests.e2e.conftest import (
    expect_language,
    expect_queued,
    overflowing,
    reload_keeps_draft,
    screenshot,
    wait_until_kept,
)

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

SLUG = "sl"
VIEWPORTS = {"landscape": (1280, 800), "portrait": (800, 1280), "phone": (390, 844)}


@pytest.fixture(params=sorted(VIEWPORTS), ids=sorted(VIEWPORTS))
def viewport(request):
    width, height = VIEWPORTS[request.param]
    return {"width": width, "height": height, "name": f"{width}x{height}"}


def url(name, **kwargs):
    return reverse(name, kwargs={"club": SLUG, **kwargs})


def make_table(first_dealer):
    club = factories.make_club(
        slug=SLUG,
        name="Ljubljana Tarok Klub",
        game="slovenian_tarok",
        language="sl",
        currency="EUR",
        time_zone="Europe/Ljubljana",
    )
    members = {}
    for name in ("Anna", "Bo", "Carl", "Dorte"):
        role = Member.Role.SCOREKEEPER if name == "Anna" else Member.Role.MEMBER
        members[name] = factories.make_member(club, name, role, login=name == "Anna")
    evening = services.evening_open(club=club, date=datetime.date(2026, 11, 5))
    table = services.table_open(
        evening=evening, members=list(members.values()), first_dealer=members[first_dealer]
    )
    return table, members


class SlovenianScreen:
    """Drive the Slovenian hand form as a scorekeeper does, counting every tap."""

    def __init__(self, page):
        self.page = page
        self.taps = 0

    def tap(self, selector):
        self.taps += 1
        self.page.locator(selector).click()

    def contract(self, code):
        self.tap(f'label[data-contract="{code}"]')

    def declarer(self, name):
        self.tap(f'label[data-declarer="{name}"]')

    def partner(self, name):
        self.tap(f'label[data-partner="{name or "-"}"]')

    def points(self, value):
        """The one number: typed where the focus already is (no tap)."""
        expect(self.page.locator("input[data-points]")).to_be_focused()
        self.page.keyboard.type(str(value))

    def net(self, name):
        return self.page.locator(f'#hand-feedback .net[data-net="{name}"]')

    def save(self):
        self.tap("#save-hand")


def open_new_hand(page, table):
    page.goto(url("hand_new", pk=table.pk))
    expect(page.locator("#hand-form")).to_be_visible()
    expect(page.locator("#hand-form input[name=record]")).not_to_have_value("")
    return SlovenianScreen(page)


def expect_points(locator, value):
    expect(locator).to_have_attribute("data-points", str(value))


def expect_saved(page, table):
    page.wait_for_url(f"**{url('table', pk=table.pk)}")
    expect(page.locator("#table-live")).to_be_visible()


def test_sl1_by_taps(tablet, viewport):
    """SL1: two, Anna with Carl, 44 card points, the kings silent, Bo's Mond captured.

    The plain part (contract, declarer, partner, the number, save) is 4 taps and one number.
    """
    table, members = make_table("Dorte")
    page = tablet(members["Anna"].user)
    hand = open_new_hand(page, table)
    expect(page.locator('[data-show="dealer"]')).to_have_text("Dorte")
    expect(page.locator('[data-show="forehand"]')).to_have_text("Anna")
    screenshot(page, "sl-entry-empty")
    hand.contract("two")
    hand.declarer("Anna")
    hand.partner("Carl")
    hand.points(44)
    expect_points(hand.net("Anna"), 40 - 10)  # the game alone: 20 + 10
    plain_taps = hand.taps + 1  # and save
    assert plain_taps <= 4
    extra = SlovenianScreen(page)
    extra.tap('label[data-bonus-side="kings:declarer"]')
    extra.tap('label[data-mond="Bo"]')
    expect_points(hand.net("Anna"), 40)
    expect_points(hand.net("Bo"), -20)
    expect_points(hand.net("Carl"), 40)
    expect_points(page.locator('#hand-feedback [data-cup-after="pool"]'), -60)
    expect(page.locator("#hand-feedback [data-story]")).to_contain_text("H = +40")
    expect_language(page, "sl")
    expect(page.locator("#save-hand")).to_have_text("Shrani igro 1")
    assert overflowing(page) == []
    screenshot(page, "sl-entry-sl1", full_page=True)
    hand.save()
    expect_saved(page, table)
    expect_language(page, "sl")
    assert overflowing(page) == []
    for name, value in {"Anna": 40, "Bo": -20, "Carl": 40, "Dorte": 0}.items():
        expect_points(page.locator(f'.seat-tile[data-member="{name}"]'), value)
    expect_points(page.locator('#table-live [data-cup="pool"]'), -60)
    assert services.table_state(table) == {"Anna": 0, "Bo": 0, "Carl": 0, "Dorte": 0}
    screenshot(page, "sl-table", full_page=True)


def test_sl3_by_taps_with_radli_from_the_ledger(tablet, viewport):
    """SL3 after a klop (SL4) that gave everyone a radelc: one, Carl with Anna, re, 47,
    Carl's announced trula fails; his radelc doubles H = 140 to 280 and is crossed off."""
    table, members = make_table("Carl")
    sl4 = load_example("SL4.hand.json")
    sl4.pop("radli_before")
    services.hand_record(table=table, record=sl4)
    page = tablet(members["Anna"].user)
    hand = open_new_hand(page, table)
    expect(page.locator('[data-show="dealer"]')).to_have_text("Dorte")
    hand.contract("one")
    hand.declarer("Carl")
    hand.partner("Anna")
    hand.points(47)
    hand.tap('[data-kontra-step="1"]')
    hand.tap('[data-kontra-step="1"]')
    expect(page.locator('[data-show="kontra"]')).to_have_text("Re")
    hand.tap('label[data-bonus-side="trula:declarer"]')
    hand.tap('label[data-bonus-announced="trula"]')
    hand.tap('label[data-bonus-result="trula:failed"]')
    expect_points(hand.net("Carl"), 280)
    expect_points(hand.net("Anna"), 280)
    expect(page.locator("#hand-feedback [data-story]")).to_contain_text("280")
    expect_language(page, "sl")
    assert overflowing(page) == []
    screenshot(page, "sl-entry-sl3", full_page=True)
    hand.save()
    expect_saved(page, table)
    assert overflowing(page) == []
    # The pool after each hand, with a true minus (U+2212) as every figure.
    expect(page.locator("#hands tbody tr").last.locator("td.cup-col")).to_have_text("\u2212560")
    screenshot(page, "sl-table-sl3", full_page=True)
    expect(page.locator('.seat-tile[data-member="Dorte"]')).to_contain_text("⊕")
    assert selectors.table_balances(table.pk) == {
        "Anna": 70 + 280,
        "Bo": -70,
        "Carl": 280,
        "Dorte": 0,
        "pool": -(70 + 280 - 70 + 280),
    }
    assert services.table_state(table) == {"Anna": 1, "Bo": 1, "Carl": 0, "Dorte": 1}
    assert Hand.objects.filter(table=table).count() == 2


def test_offline_save_survives_a_reload_and_is_saved_once(tablet, viewport):
    """As the Danish tablet: saved without a network, the hand waits on the tablet and says
    so; a reload without a network shows the entry form with the draft (the service worker
    keeps the screen); back online the same token saves it exactly once."""
    table, members = make_table("Dorte")
    page = tablet(members["Anna"].user)
    hand = open_new_hand(page, table)
    wait_until_kept(page)
    token = page.locator("#hand-form input[name=token]").input_value()
    hand.contract("two")
    hand.declarer("Anna")
    hand.partner("Carl")
    page.context.set_offline(True)
    hand.points(44)
    hand.save()
    expect_queued(page)
    screenshot(page, "sl-entry-offline")
    assert Hand.objects.count() == 0

    reload_keeps_draft(page, token)  # still offline
    expect(page.locator('label[data-contract="two"] input')).to_be_checked()
    expect(page.locator('label[data-partner="Carl"] input')).to_be_checked()
    expect(page.locator("input[data-points]")).to_have_value("44")
    screenshot(page, "sl-entry-offline-reloaded")

    page.context.set_offline(False)
    page.wait_for_url(f"**{url('table', pk=table.pk)}", timeout=30_000)
    expect(page.locator("#table-live")).to_be_visible()
    saved = Hand.objects.get()
    assert saved.token == token
    assert saved.record["card_points"] == 44 and saved.record["partner"] == "Carl"
    open_new_hand(page, table)
    page.wait_for_load_state("networkidle")
    assert page.locator("#hand-form input[name=token]").input_value() != token
    assert Hand.objects.count() == 1


def test_klop_asks_three_players_and_derives_the_fourth_from_70(tablet, viewport):
    """SL4 (without the radelc before it): a klop asks the card points of every player but
    the last and derives his from 70. Anna takes no trick (0), Bo 38, Carl 20: Dorte's 12 is
    shown, not typed; Anna gets 70 from the pool and Bo, past the limit, pays 70 into it."""
    table, members = make_table("Carl")
    page = tablet(members["Anna"].user)
    hand = open_new_hand(page, table)
    hand.contract("klop")
    expect(page.locator('input[data-klop="Anna"]')).to_be_focused()
    expect(page.locator('input[data-klop="Dorte"]')).to_be_hidden()
    derived = page.locator('[data-klop-derived="Dorte"]')
    expect(derived).to_be_visible()
    expect(derived).to_have_text("")
    hand.tap('label[data-no-trick="Anna"]')
    hand.tap('input[data-klop="Bo"]')
    page.keyboard.type("38")
    hand.tap('input[data-klop="Carl"]')
    page.keyboard.type("20")
    expect(derived).to_have_text("12")
    expect_points(hand.net("Anna"), 70)
    expect_points(hand.net("Bo"), -70)
    expect_points(hand.net("Dorte"), 0)
    screenshot(page, "sl-entry-klop", full_page=True)
    hand.save()
    assert hand.taps == 5  # klop, no trick, two fields, save: three numbers, none for Dorte
    expect_saved(page, table)
    record = Hand.objects.get(table=table).record
    assert record["klop"] == {
        "Anna": {"card_points": 0, "took_trick": False},
        "Bo": {"card_points": 38, "took_trick": True},
        "Carl": {"card_points": 20, "took_trick": True},
        "Dorte": {"card_points": 12, "took_trick": True},
    }
    assert services.table_state(table) == {"Anna": 1, "Bo": 1, "Carl": 1, "Dorte": 1}
