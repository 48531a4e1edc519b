"""The tournament's wall in Chromium at 1920x1080 (a television) and 1280x720 (a projector):
the countdown, where every player sits and the standings on one screen, no CSP violation."""

from __future__ import annotations

import pytest
from django.test import Client
from playwright.sync_api import expect

from ledger.models import Member
from ledger.services import tournaments as tour
from ledger.tests import factories
from ledger.tests.e2e.conftest import ARTIFACTS, watch_csp

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

NAMES = [f"Igralec {chr(65 + i)}" for i in range(24)]


@pytest.mark.parametrize(("width", "height"), [(1920, 1080), (1280, 720)])
def test_the_tournament_wall(browser, live_server, width, height):
    club = factories.make_club(slug="dp", name="Tarok Kranj", game="slovenian_tarok")
    viewer = factories.make_member(club, "Zaslon", Member.Role.MEMBER, login=True)
    t = factories.make_tournament(club, NAMES)
    r = tour.round_draw(tournament=t)
    tour.round_publish(round_=r)
    tour.round_start(round_=r)

    client = Client()
    client.force_login(viewer.user)
    context = browser.new_context(
        viewport={"width": width, "height": height}, locale="sl-SI", base_url=live_server.url
    )
    context.add_cookies(
        [{"name": "sessionid", "value": client.cookies["sessionid"].value, "url": live_server.url}]
    )
    violations = []
    try:
        page = context.new_page()
        watch_csp(page, violations)
        page.goto(f"/c/{club.slug}/t/{t.pk}/wall/")
        expect(page.locator("#wall-clock")).to_be_visible()
        assert page.locator("#wall-seats li[data-player]").count() == 24
        assert page.locator("#wall-ranking tr[data-player]").count() == 15  # the top
        assert page.locator(".topbar").count() == 0
        ARTIFACTS.mkdir(exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / f"tournament-wall-{width}x{height}.png"))
        # Everything on one screen, nothing to scroll: the field's 24 seats and the clock.
        assert page.evaluate("document.documentElement.scrollHeight") <= height
        clock = page.evaluate(
            "parseFloat(getComputedStyle(document.querySelector('#wall-clock')).fontSize)"
        )
        assert clock >= 60  # the countdown in large type
        seat = page.evaluate(
            "parseFloat(getComputedStyle(document.querySelector('#wall-seats li')).fontSize)"
        )
        assert seat >= 18  # readable from a few metres
    finally:
        context.close()
    assert violations == []
