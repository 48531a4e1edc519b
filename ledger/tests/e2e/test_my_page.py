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
    violations: list[str] = []
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


def test_my_tournaments_rounds_fit_a_phone_in_every_language(browser, live_server):
    """A member's running tournament on his Min side at 390 px: the rounds table (five
    columns, scores of five figures, a place and points) keeps to the page's width in each of
    the site's languages; nothing scrolls sideways."""
    import datetime

    from ledger.models import Profile
    from ledger.services import tournaments as tour
    from ledger.tests.helpers import settle_zero_sum

    club = factories.make_club(slug="dm", name="Dansk Tarok", game="danish_tarok")
    names = ["Anna", "Bo", "Carl", "Dorte", "Erik", "Frida", "Gorm", "Hanne"]
    for name in names:
        factories.make_member(club, name)
    anna = Member.objects.get(club=club, name="Anna")
    anna.user = get_user_model().objects.create_user(username="anna", password="pw-anna-123")
    anna.save()
    t = tour.tournament_create(
        club=club,
        name="DM",
        date=datetime.date(2026, 11, 7),
        last_date=datetime.date(2026, 11, 8),
        game="danish_tarok",
        tournament_format="dk_dm",
        params={"rounds": 4},
    )
    tour.entries_add(tournament=t, members=list(Member.objects.filter(club=club, name__in=names)))
    scores = (12345, -2345, -4000, -6000)
    for number in (1, 2, 3):
        day = t.date if number < 3 else t.last_date
        r = tour.round_start(
            round_=tour.round_publish(round_=tour.round_draw(tournament=t, day=day))
        )
        for rt in r.round_tables.select_related("table", "round__tournament"):
            settle_zero_sum(rt, dict(zip(rt.seats, scores, strict=True)))
        tour.round_close(round_=r)
    tour.round_publish(round_=tour.round_draw(tournament=t))
    for code in ("da", "sl", "hu", "en"):
        Profile.objects.update_or_create(user=anna.user, defaults={"language": code})
        client = Client()
        client.force_login(anna.user)
        context = browser.new_context(viewport=PHONE, has_touch=True, base_url=live_server.url)
        context.add_cookies(
            [
                {
                    "name": "sessionid",
                    "value": client.cookies["sessionid"].value,
                    "url": live_server.url,
                }
            ]
        )
        violations: list[str] = []
        page = context.new_page()
        watch_csp(page, violations)
        page.viewport_name = "390x844"
        page.goto(f"/c/{club.slug}/me/")
        rounds = page.locator(f"#tournament-{t.pk} .me-rounds")
        assert rounds.locator("tbody tr").count() == 3
        widths = page.evaluate(
            """() => {
                const table = document.querySelector('.me-rounds');
                return [table.getBoundingClientRect().width, table.scrollWidth,
                        table.parentElement.clientWidth,
                        document.documentElement.scrollWidth];
            }"""
        )
        table, scrolled, room, document = widths
        assert table <= room and scrolled <= room, (code, widths)
        assert document <= PHONE["width"], (code, widths)
        # No figure or header breaks over two lines or spills out of its cell.
        spilled = page.evaluate(
            """() => [...document.querySelectorAll('.me-rounds td, .me-rounds th')].filter(td => {
                const range = document.createRange();
                range.selectNodeContents(td);
                const tops = new Set([...range.getClientRects()].map(r => Math.round(r.bottom)));
                return td.scrollWidth > td.clientWidth || tops.size > 1;
            }).map(td => td.textContent)"""
        )
        assert spilled == [], (code, spilled)
        page.locator(f"#tournament-{t.pk}").scroll_into_view_if_needed()
        screenshot(page, f"my-page-tournament-{code}")
        context.close()
        assert violations == []
