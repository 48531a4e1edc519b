"""Opponent confirmation in Chromium at 390x844 (issue 27): a table's phone saves a hand of a
tournament with ``confirm_hands``, sees it "to confirm", a second player confirms it on the
same phone, and the director's round page shows the hands waiting go from one to none.
"""

from __future__ import annotations

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from ledger.models import HandConfirmation, Member, Seat
from ledger.selectors.verify import verify_ledger
from ledger.services import tournaments as tour
from ledger.tests import factories
from ledger.tests.e2e.conftest import ARTIFACTS, log_in, overflowing, watch_csp
from ledger.tests.e2e.test_accessibility import RUN_AXE, TAGS, axe_source
from ledger.tests.e2e.test_touch_targets import MIN, SMALL_TARGETS

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

SLUG = "dp"
PHONE = {"width": 390, "height": 844}


def test_a_hand_saved_on_the_phone_is_confirmed_by_a_second_player(browser, live_server):
    club = factories.make_club(
        slug=SLUG, name="Tarok Kranj", game="slovenian_tarok", language="en", currency="EUR"
    )
    director = factories.make_member(club, "Direktor", Member.Role.ADMIN, login=True)
    t = factories.make_tournament(
        club,
        ["Ana", "Bor", "Cene", "Dana", "Eva", "Franc"],
        params={"rounds": 2, "confirm_hands": True},
        seed="confirm",
    )
    round_ = tour.round_start(round_=tour.round_publish(round_=tour.round_draw(tournament=t)))
    rt = round_.round_tables.get(number=1)
    assert rt.table_id is not None
    names = [s.name for s in Seat.objects.of_table(rt.table_id)]
    phone_context = browser.new_context(
        viewport=PHONE, has_touch=True, is_mobile=True, locale="en-GB", base_url=live_server.url
    )
    phone_context.add_init_script(script=axe_source())  # axe-core, run on the confirmation
    desk_context = browser.new_context(
        viewport={"width": 1280, "height": 800}, locale="en-GB", base_url=live_server.url
    )
    log_in(desk_context, director.user, live_server.url)
    violations: list[str] = []
    try:
        phone = phone_context.new_page()
        desk = desk_context.new_page()
        for page in (phone, desk):
            watch_csp(page, violations)
            page.set_default_timeout(15_000)
        round_url = reverse("tournament_round", kwargs={"club": SLUG, "pk": round_.pk})
        desk.goto(round_url)
        expect(desk.locator("#unconfirmed")).to_have_attribute("data-unconfirmed", "0")

        phone.goto(reverse("table_link", kwargs={"club": SLUG, "token": rt.token}))
        phone.wait_for_url("**/hand/new/")
        saver = phone.locator("#saver-choice")
        expect(saver.locator("label")).to_have_count(len(names))
        assert phone.evaluate(SMALL_TARGETS, MIN)["small"] == []
        saver.locator(f'label:has(input[value="{names[0]}"])').click()
        assert overflowing(phone) == []
        ARTIFACTS.mkdir(exist_ok=True)
        phone.screenshot(path=str(ARTIFACTS / "confirm-entry-saver-390x844.png"))
        phone.locator('label[data-contract="three"]').click()
        forehand = phone.locator('[data-show="forehand"]').inner_text()
        phone.locator(f'label[data-declarer="{forehand}"]').click()
        phone.keyboard.type("41")
        expect(phone.locator("#hand-feedback .net").first).to_be_visible()
        phone.locator("#save-hand").click()

        # The phone shows the hand to confirm: its result and the players, the saver not
        # choosable.
        phone.wait_for_url("**/hand/confirm/")
        expect(phone.locator("#confirm-state")).to_have_attribute("data-state", "to-confirm")
        expect(phone.locator("#confirm-state")).to_contain_text(f"Saved by {names[0]}.")
        expect(phone.locator("#confirm-preview .net")).to_have_count(len(names))
        expect(phone.locator(f'input[name="confirmed_by"][value="{names[0]}"]')).to_be_disabled()
        assert overflowing(phone) == []
        assert phone.evaluate(SMALL_TARGETS, MIN)["small"] == []
        phone.screenshot(path=str(ARTIFACTS / "confirm-hand-390x844.png"), full_page=True)
        assert phone.evaluate(RUN_AXE, TAGS) == []

        desk.reload()
        expect(desk.locator("#unconfirmed")).to_have_attribute("data-unconfirmed", "1")
        table1 = desk.locator('section[data-table="1"]')
        expect(table1.locator(".to-confirm")).to_contain_text(f"hand 1, saved by {names[0]}")
        expect(table1.locator("[data-hands]")).to_have_attribute("data-hands", "0")
        desk.screenshot(path=str(ARTIFACTS / "confirm-round-page-1280.png"), full_page=True)

        # The phone cannot enter another hand before: its entry screen sends it back here.
        phone.goto(reverse("hand_new", kwargs={"club": SLUG, "pk": rt.table_id}))
        phone.wait_for_url("**/hand/confirm/")

        # A second player picks his name and confirms: the phone goes on to the next hand.
        phone.locator(f'.confirm-players label:has(input[value="{names[1]}"])').click()
        phone.locator("#confirm-hand").click()
        phone.wait_for_url("**/hand/new/")
        expect(phone.locator(".messages")).to_contain_text("Hand 1 is confirmed.")
        confirmation = HandConfirmation.objects.get(hand__table_id=rt.table_id)
        assert confirmation.saved_by == names[0] and confirmation.confirmed_by == names[1]

        desk.reload()
        expect(desk.locator("#unconfirmed")).to_have_attribute("data-unconfirmed", "0")
        expect(desk.locator('section[data-table="1"] [data-hands]')).to_have_attribute(
            "data-hands", "1"
        )
        expect(desk.locator("#log")).to_contain_text(
            f"hand 1 saved by {names[0]}, confirmed by {names[1]}"
        )
        assert violations == []
        assert verify_ledger().ok
    finally:
        phone_context.close()
        desk_context.close()
