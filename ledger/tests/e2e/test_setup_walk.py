"""Club set-up in real Chromium: from a fresh superuser to the first hand's entry screen of a
new Danish club, and an invited member's first log-in on a phone (390x844)."""

from __future__ import annotations

import datetime
import re

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import expect

from ledger import services
from ledger.models import Club, Member, Table
from ledger.tests.e2e.conftest import screenshot
from ledger.views.setup import invitation_path

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

SIX = ["Anna", "Bo", "Carl", "Dorte", "Ejnar", "Frida"]


class Inputs:
    """Count every form input the user types into or selects."""

    def __init__(self, page):
        self.page, self.count, self.urls = page, 0, []

    def _note(self):
        self.count += 1
        self.urls.append(self.page.url)

    def fill(self, selector, value):
        self._note()
        self.page.locator(selector).fill(value)

    def select(self, selector, label):
        self._note()
        self.page.locator(selector).select_option(label=label)


def test_from_a_fresh_superuser_to_the_first_hand(pages):
    user = get_user_model().objects.create_superuser("chef", password="x-very-secret-9")
    page = pages(user)
    inputs = Inputs(page)

    page.goto("/")
    expect(page.locator("#club-new-form")).to_be_visible()
    expect(page.locator("h1")).to_have_text("Opret en klub")
    inputs.fill("#id_name", "Hjørring Tarokklub")
    inputs.fill("#id_slug", "hjoerring")
    expect(page.locator('input[name=game][value="danish_tarok"]')).to_be_checked()
    expect(page.locator("#id_season_starts_on")).to_have_value(re.compile(r"-08-01$"))
    expect(page.locator("#id_season_ends_on")).to_have_value(re.compile(r"-07-31$"))
    screenshot(page, "setup-club-new", full_page=True)
    page.locator("#create-club").click()

    expect(page.locator("#member-paste-form")).to_be_visible()
    inputs.fill("#id_paste-names", "\n".join(SIX))
    page.locator("#paste-add").click()
    for name in SIX:
        expect(page.locator(f'#members-table tr[data-member="{name}"]')).to_be_visible()
    screenshot(page, "setup-members", full_page=True)

    page.locator(".topbar .brand").click()
    expect(page.locator("#club-admin-links")).to_be_visible()
    page.locator("#start-evening button[type=submit]").click()
    page.locator("#open-table").click()
    for seat, name in enumerate(SIX[:3], start=1):
        inputs.select(f"#id_seat_{seat}", name)
    page.locator("#table-new-form button[type=submit]").click()
    expect(page.locator("#table-qr svg")).to_be_visible()
    screenshot(page, "setup-table-qr", full_page=True)
    page.locator("#new-hand").click()
    expect(page.locator("#hand-form")).to_be_visible()
    expect(page.locator("#hand-form input[name=record]")).not_to_have_value("")
    screenshot(page, "setup-first-hand")

    club = Club.objects.get(slug="hjoerring")
    assert club.game == "danish_tarok"
    assert set(club.members.values_list("name", flat=True)) >= set(SIX)
    assert Table.objects.filter(evening__club=club).count() == 1
    assert inputs.count <= 12, inputs.count
    assert not any("/admin/" in u for u in inputs.urls)
    print(f"inputs typed or selected: {inputs.count}")


def test_an_invited_members_first_log_in_on_a_phone(pages):
    club, _, _ = services.club_create(
        name="Hjørring Tarokklub",
        slug="hjoerring",
        game="danish_tarok",
        season_name="2026/2027",
        season_starts_on=datetime.date(2026, 8, 1),
        season_ends_on=datetime.date(2027, 7, 31),
    )
    (dorte,) = services.members_add(club=club, names=["Dorte Ærø"])
    invitation, token = services.invitation_create(member=dorte)
    page = pages(None, width=390, height=844)
    page.goto(invitation_path(invitation))
    expect(page.locator("#invitation-form")).to_be_visible()
    expect(page.locator("#id_username")).to_have_value("dorte-aeroe")
    page.locator("#id_password1").fill("rød-grød-med-fløde-7")
    page.locator("#id_password2").fill("rød-grød-med-fløde-7")
    screenshot(page, "setup-invitation-phone", full_page=True)
    page.locator("#invitation-submit").click()
    page.wait_for_url("**/c/hjoerring/me/")  # he lands on "Min side"
    expect(page.locator("h1")).to_contain_text("Min side")
    expect(page.locator(".topbar")).to_contain_text("dorte-aeroe")
    screenshot(page, "setup-invitation-landed", full_page=True)
    dorte.refresh_from_db()
    assert (
        dorte.user is not None
        and dorte.user.username == "dorte-aeroe"
        and dorte.role == Member.Role.MEMBER
    )
    # The link is spent: opening it again is refused in Danish.
    page.goto(invitation_path(invitation))
    expect(page.locator("#invitation-refused")).to_contain_text("allerede brugt")


def test_the_people_log_on_a_phone(pages):
    """The club admin reads who changed what among the club's people, newest first, on a phone
    (390x844): no sideways scroll of the page, every link 44 px high."""
    chef = get_user_model().objects.create_superuser("chef", password="x-very-secret-9")
    club, _, _ = services.club_create(
        name="Hjørring Tarokklub",
        slug="hjoerring",
        game="danish_tarok",
        season_name="2026/2027",
        season_starts_on=datetime.date(2026, 8, 1),
        season_ends_on=datetime.date(2027, 7, 31),
        admin_user=chef,
        admin_name="Køkkenchef Ærø-Østergaard",
    )
    dorte, bo = services.members_add(club=club, names=["Dorte Ærø", "Bo"], by=chef)
    services.member_update(member=bo, role=Member.Role.TREASURER, by=chef)
    _invitation, token = services.invitation_create(member=dorte, by=chef)
    services.invitation_accept(token=token, password="rød-grød-7", username="dorte-aeroe")
    services.invitation_create(member=bo, by=chef)
    services.member_update(member=bo, active=False, by=chef)
    page = pages(chef, width=390, height=844)
    page.goto(f"/c/{club.slug}/setup/log/")
    expect(page.locator("h1")).to_have_text("Personlog")
    rows = page.locator("#people-log tbody tr")
    expect(rows).to_have_count(9)
    expect(rows.first).to_contain_text("aktiv ændret")
    expect(rows.last).to_contain_text("medlem tilføjet")
    screenshot(page, "setup-people-log", full_page=True)
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    small = page.evaluate(
        """() => [...document.querySelectorAll('main a, main button')]
        .filter((e) => e.offsetParent !== null && e.getBoundingClientRect().height < 44)
        .map((e) => e.textContent.trim())"""
    )
    assert small == [], small
