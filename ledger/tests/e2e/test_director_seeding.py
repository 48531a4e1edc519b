"""The director seeds a new DP from the federation's ladder, in real Chromium (issue 30,
part 3): on the tournament's page he chooses the series, every entry shows his ladder rank
with its source (the guest, not on the ladder, none), and he overrides one with a reason;
axe-core finds no violation and at 390 px the page does not scroll sideways."""

from __future__ import annotations

import datetime

import pytest
from playwright.sync_api import expect

from ledger.models import Member, Profile, Tournament
from ledger.services import tournaments as tour
from ledger.tests.e2e.conftest import log_in, watch_csp
from ledger.tests.e2e.test_accessibility import RUN_AXE, TAGS, axe_source
from ledger.tests.factories import make_member
from ledger.tests.helpers import federation_world

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize("width", [390, 1280])
def test_a_director_seeds_a_new_dp_from_the_ladder(browser, live_server, width):
    world = federation_world(series=True)  # DP 1 ranked Ana, Bor, Cene, Dan
    club = world["club"]
    director = make_member(club, "Direktor", Member.Role.ADMIN, login=True).user
    Profile.objects.update_or_create(user=director, defaults={"language": "en"})
    members = {m.name: m for m in club.members.all()}
    new = tour.tournament_create(
        club=club,
        name="DP 2",
        date=datetime.date(2026, 11, 7),
        game="slovenian_tarok",
        tournament_format="sl_dp",
    )
    tour.entries_add(tournament=new, members=[members[n] for n in ("Dan", "Cene", "Bor", "Ana")])
    tour.entry_add_guest(tournament=new, name="Gost", club_name="Bled")

    context = browser.new_context(
        viewport={"width": width, "height": 900}, has_touch=True, base_url=live_server.url
    )
    context.add_init_script(script=axe_source())
    log_in(context, director, live_server.url)
    context.set_default_timeout(15_000)
    violations: list[str] = []
    page = context.new_page()
    watch_csp(page, violations)

    page.goto(f"/c/{club.slug}/t/{new.pk}/")
    page.locator("#ladder-series-choice").select_option(label="Pokal")
    page.locator("#ladder-seed-form button[type=submit]").click()
    row = page.locator("tr[data-entry='Ana']")
    expect(row).to_contain_text("1")
    expect(row.locator(".rank-source")).to_contain_text("ladder")
    expect(page.locator("tr[data-entry='Dan']")).to_contain_text("4")
    expect(page.locator("tr[data-entry='Gost'] .rank-source")).to_have_count(1)

    # Dan missed the ladder's event through illness: the director puts him second.
    page.locator("#override-entry").select_option(label="Dan")
    page.locator("#override-rank").fill("2")
    page.locator("#override-reason").fill("ill at DP 1")
    page.locator("#ladder-rank-form button[type=submit]").click()
    expect(page.locator("tr[data-entry='Dan'] .rank-source")).to_contain_text("override")
    new = Tournament.objects.get(pk=new.pk)
    assert dict(new.entries.values_list("name", "ladder_rank")) == {
        "Ana": 1,
        "Bor": 2,
        "Cene": 3,
        "Dan": 2,
        "Gost": None,
    }
    assert new.log[-1]["action"] == "ladder_rank" and new.log[-1]["reason"] == "ill at DP 1"

    problems = [f"{page.url}: {v}" for v in page.evaluate(RUN_AXE, TAGS)]
    wide = page.evaluate("() => document.documentElement.scrollWidth")
    assert wide <= width, f"{wide} px wide at {width}"
    assert problems == [], "\n".join(problems)
    assert violations == []
    context.close()
