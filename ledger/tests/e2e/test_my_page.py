"""Min side on a phone (390x844) in real Chromium: legible chart, tonight, last hands."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from ledger.models import Member
from ledger.tests import factories
from ledger.tests.e2e.conftest import screenshot, watch_csp
from ledger.tests.helpers import build_season

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}


def test_my_page_on_a_phone(browser, live_server):
    club = factories.make_club()
    build_season(club, hands=40)
    anna = Member.objects.get(club=club, name="Anna")
    anna.user = get_user_model().objects.create_user(username="anna", password="pw-anna-123")
    anna.save()
    client = Client()
    client.force_login(anna.user)
    context = browser.new_context(
        viewport=PHONE, has_touch=True, locale="da-DK", base_url=live_server.url
    )
    context.add_cookies(
        [{"name": "sessionid", "value": client.cookies["sessionid"].value, "url": live_server.url}]
    )
    violations = []
    page = context.new_page()
    watch_csp(page, violations)
    page.viewport_name = "390x844"
    page.goto(f"/c/{club.slug}/")
    page.click("#my-page-link")
    page.wait_for_selector("#chart svg")
    assert page.locator("h1").inner_text().startswith("Min side")
    # The chart's smallest label, as rendered: its font size times the viewBox's scale.
    smallest = page.evaluate(
        """() => {
            const svg = document.querySelector('#chart svg');
            const scale = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
            const sizes = [...svg.querySelectorAll('text')].map(
                t => parseFloat(getComputedStyle(t).fontSize) * scale);
            return Math.min(...sizes);
        }"""
    )
    assert smallest >= 11, smallest
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    assert page.locator("#tonight .me-big").count() >= 1
    assert page.locator("#me-hands li").count() == 10
    screenshot(page, "my-page")
    screenshot(page, "my-page-full", full_page=True)
    context.close()
    assert violations == []
