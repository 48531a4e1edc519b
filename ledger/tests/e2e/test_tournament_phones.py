"""A 12-player Slovenian DP of two rounds entered from four phones at 390x844, in Chromium,
with the hall's wall open on a projector (issue 21 part 7).

Each table's phone opens its table's own link (no log-in) and lands on the entry screen
with the round, the table, the hands against the target and the clock; the hands are tapped
in by the four phones in turn; a hand past the target is refused on the phone; the wall
shows where everyone sits and, once the director closes the round, the standings the
engine computed; round 2 is drawn by the standings and entered through the new links.
"""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse
from playwright.sync_api import expect

from ledger.models import Hand, Member, RoundTable, Tournament
from ledger.selectors import tournaments as reads
from ledger.selectors.verify import verify_ledger
from ledger.services import tournaments as tour
from ledger.tests import factories
from ledger.tests.e2e.conftest import ARTIFACTS, expect_language, overflowing, watch_csp
from ledger.tournaments import engine

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

SLUG = "dp"
NAMES = ["Ana", "Bor", "Cene", "Dana", "Eva", "Franc", "Gal", "Hana", "Ivo", "Jana", "Kim", "Lara"]
PHONE = {"width": 390, "height": 844}
TARGET = 2  # hands a table of three plays in this short test (a DP plays 21)


def enter_hand(page, contract: str, points: int) -> None:
    """Tap one Slovenian hand on the entry screen: the contract, the forehand as declarer
    (the schedule has him first), the card points, save; wait for the table's screen."""
    page.locator(f'label[data-contract="{contract}"]').click()
    forehand = page.locator('[data-show="forehand"]').inner_text()
    page.locator(f'label[data-declarer="{forehand}"]').click()
    expect(page.locator("input[data-points]")).to_be_focused()
    page.keyboard.type(str(points))
    expect(page.locator("#hand-feedback .net").first).to_be_visible()
    page.locator("#save-hand").click()
    page.wait_for_url("**/table/*/")


def open_links(browser, live_server, round_, phones):
    """Open each round table's link on its phone; return {table number: page}."""
    pages = {}
    for rt in round_.round_tables.order_by("number"):
        page = phones[rt.number - 1]
        page.goto(reverse("table_link", kwargs={"club": SLUG, "token": rt.token}))
        page.wait_for_url("**/hand/new/")
        pages[rt.number] = page
    return pages


def test_a_dp_of_two_rounds_from_four_phones_with_the_wall_open(browser, live_server):
    club = factories.make_club(
        slug=SLUG,
        name="Tarok Kranj",
        game="slovenian_tarok",
        language="sl",
        currency="EUR",
        time_zone="Europe/Ljubljana",
    )
    viewer = factories.make_member(club, "Zaslon", Member.Role.MEMBER, login=True)
    t = factories.make_tournament(
        club, NAMES, params={"rounds": 2, "hands_target": {"3": TARGET}}, seed="phones"
    )

    client = Client()
    assert viewer.user is not None
    client.force_login(viewer.user)
    wall_context = browser.new_context(
        viewport={"width": 1280, "height": 720}, locale="sl-SI", base_url=live_server.url
    )
    wall_context.add_cookies(
        [{"name": "sessionid", "value": client.cookies["sessionid"].value, "url": live_server.url}]
    )
    phone_contexts = [
        browser.new_context(
            viewport=PHONE, has_touch=True, is_mobile=True, locale="sl-SI", base_url=live_server.url
        )
        for _ in range(4)
    ]
    violations: list[str] = []

    def watch(page):
        watch_csp(page, violations)
        page.set_default_timeout(15_000)
        return page

    try:
        wall = watch(wall_context.new_page())
        wall.goto(reverse("tournament_wall", kwargs={"club": SLUG, "pk": t.pk}))
        phones = [watch(c.new_page()) for c in phone_contexts]
        contracts = ["three", "two", "one", "three"]
        for number in (1, 2):
            round_ = tour.round_publish(round_=tour.round_draw(tournament=t))
            round_ = tour.round_start(round_=round_)
            # The wall polls every 5 s: the countdown appears once the round is started.
            expect(wall.locator("#wall-clock")).to_be_visible(timeout=20_000)
            expect(wall.locator("#wall-seats li[data-player]")).to_have_count(12)
            pages = open_links(browser, live_server, round_, phones)
            first = pages[1]
            expect_language(first, "sl")
            strip = first.locator("#round-strip")
            expect(strip).to_contain_text(f"{number}. krog")
            expect(strip).to_contain_text(f"0 od {TARGET} iger")
            clock = first.locator("#round-clock")
            expect(clock).to_have_text(re.compile(r"^1:[0-2]\d:\d\d$"))  # 90 minutes, counting
            shown = clock.inner_text()
            expect(clock).not_to_have_text(shown)  # a second later: the clock runs
            assert overflowing(first) == []
            ARTIFACTS.mkdir(exist_ok=True)
            first.screenshot(path=str(ARTIFACTS / f"dp-phone-entry-round{number}-390x844.png"))
            # The four phones enter their tables' hands in turn, as a hall does.
            for hand in range(TARGET):
                for table, page in pages.items():
                    if hand:
                        page.locator("#new-hand").click()
                        page.wait_for_url("**/hand/new/")
                    enter_hand(page, contracts[table - 1], 30 + 5 * table + 7 * hand + number)
            for page in pages.values():
                expect(page.locator("#round-hands")).to_contain_text(f"{TARGET} od {TARGET}")
                expect(page.locator("#new-hand")).to_have_count(0)  # the table has finished
            # A hand past the target is refused on the phone, and nothing is written.
            extra = pages[1]
            extra.locator("#round-strip").wait_for()
            extra.goto(extra.url + "hand/new/")
            extra.locator('label[data-contract="three"]').click()
            forehand = extra.locator('[data-show="forehand"]').inner_text()
            extra.locator(f'label[data-declarer="{forehand}"]').click()
            extra.keyboard.type("40")
            extra.locator("#save-hand").click()
            expect(extra.locator("#hand-feedback")).to_contain_text(f"število iger ({TARGET})")
            assert Hand.objects.filter(table__round_table__round=round_).count() == 4 * TARGET
            extra.screenshot(path=str(ARTIFACTS / f"dp-phone-refused-round{number}-390x844.png"))

            tour.round_close(round_=round_)  # the director closes the round
            lines = reads.standings_lines(Tournament.objects.get(pk=t.pk))
            top = wall.locator("#wall-ranking tr[data-player]").first
            expect(top).to_have_attribute("data-player", lines[0].name, timeout=20_000)
            expect(top).to_contain_text(lines[0].points.replace(".", ","))  # in Slovenian
            wall.screenshot(path=str(ARTIFACTS / f"dp-wall-round{number}-1280x720.png"))

        for rt in RoundTable.objects.filter(round__tournament=t):
            assert Hand.objects.filter(table=rt.table).count() == TARGET  # once each
        t.refresh_from_db()
        assert t.status == Tournament.Status.PROVISIONAL
        assert verify_ledger().ok
        # Round 2 was drawn by the standings after round 1: its leader heads table 1.
        after_one = engine.standings(
            format_code="sl_dp",
            seed=t.seed,
            entries=tour.engine_entries(t),
            rounds=tour.played_rounds(t)[:1],
        )
        assert t.rounds.get(number=2).tables[0][0] == after_one[0].id
    finally:
        for context in [wall_context, *phone_contexts]:
            context.close()
    assert violations == []
