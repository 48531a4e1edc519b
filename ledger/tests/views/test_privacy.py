"""A member's own data (JSON and PDF, from his page) and the erasure screens."""

from __future__ import annotations

import datetime
import json
import subprocess

import pytest
from django.test import Client
from django.urls import reverse

from ledger import services
from ledger.models import ClubLog, Hand, Member, Table
from ledger.selectors.verify import verify_ledger
from ledger.services.privacy import member_erase
from ledger.tests.factories import evening_e, make_club, make_member, make_season
from ledger.tests.helpers import pdf_text, save_first_page

pytestmark = pytest.mark.django_db


@pytest.fixture
def world():
    club = make_club(slug="mine", name="Mine Club", language="en")
    make_season(club)
    anna = make_member(club, "Anna", login=True)
    assert anna.user is not None
    anna.user.email = "anna@example.org"
    anna.user.save()
    bo, carl = make_member(club, "Bo", login=True), make_member(club, "Carl")
    evening, _table, _hands = evening_e(club, members=[anna, bo, carl])
    services.evening_close(evening=evening)
    admin = make_member(club, "Chef", role=Member.Role.ADMIN, login=True)
    return {"club": club, "anna": anna, "bo": bo, "admin": admin}


def client_of(member):
    client = Client()
    client.force_login(member.user)
    return client


def url(name, club, **kwargs):
    return reverse(name, kwargs={"club": club.slug, **kwargs})


def test_json_download_holds_his_data_and_no_one_elses(world):
    club, anna = world["club"], world["anna"]
    response = client_of(anna).get(url("my_data", club))
    assert response.status_code == 200
    assert response["Content-Disposition"].startswith("attachment")
    data = json.loads(response.content)
    assert data["user"]["email"] == "anna@example.org"
    assert [m["name"] for m in data["memberships"]] == ["Anna"]
    assert len(data["tables"]) == 1 and data["tables"][0]["name_at_the_table"] == "Anna"
    assert data["hands"] and all(h["club"] == "Mine Club" for h in data["hands"])
    assert len(data["results"]) == 1
    assert data["results"][0]["points"] == data["tables"][0]["points"]
    # Bo's log-in and e-mail are not in Anna's download.
    assert "mine-bo" not in response.content.decode()


def test_pdf_reads_back(world, tmp_path):
    club, anna = world["club"], world["anna"]
    response = client_of(anna).get(url("my_data_pdf", club))
    assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
    pdf = tmp_path / "my-data.pdf"
    pdf.write_bytes(response.content)
    text = subprocess.run(
        ["pdftotext", "-layout", str(pdf), "-"], check=True, capture_output=True, text=True
    ).stdout
    for expected in ("My data", "anna@example.org", "mine-anna", "Memberships", "Mine Club"):
        assert expected in text, expected
    assert "mine-bo" not in text
    save_first_page(response.content, "my-data")  # looked at as a PNG


def test_my_page_offers_the_download_and_the_erasure_only_where_allowed(world):
    club, anna = world["club"], world["anna"]
    page = client_of(anna).get(url("my_page", club)).content.decode()
    assert 'id="my-data-json"' in page and 'id="my-data-pdf"' in page
    assert 'id="my-erase"' not in page
    services.club_update(club=club, members_may_erase=True)
    assert 'id="my-erase"' in client_of(anna).get(url("my_page", club)).content.decode()


def test_a_member_erases_himself_where_allowed(world):
    club, anna = world["club"], world["anna"]
    client = client_of(anna)
    response = client.post(url("my_erase", club), {"confirm": "erase"})
    assert response.status_code == 302
    assert Member.objects.get(pk=anna.pk).erased_at is None  # the club does not allow it
    services.club_update(club=club, members_may_erase=True)
    assert client.post(url("my_erase", club), {}).status_code == 302  # not confirmed
    assert not ClubLog.objects.filter(action="erased").exists()
    response = client.post(url("my_erase", club), {"confirm": "erase"})
    assert response.status_code == 302 and response["Location"] == reverse("home")
    assert Member.objects.get(pk=anna.pk).name == f"former member {anna.pk}"
    # Logged out, and the log-in no longer works.
    assert client.get(url("my_page", club)).status_code == 302
    assert verify_ledger().ok


def test_admin_erases_from_the_members_list(world):
    club, bo, admin = world["club"], world["bo"], world["admin"]
    client = client_of(admin)
    page = client.get(url("setup_members", club)).content.decode()
    assert f'data-erase="{bo.name}"' in page
    response = client.post(url("setup_member_erase", club, pk=bo.pk), {"confirm": "erase"})
    assert response.status_code == 302
    page = client.get(response["Location"]).content.decode()
    assert f"former member {bo.pk}" in page and "mine-bo" not in page
    assert verify_ledger().ok


def test_admin_erasure_of_a_seated_member_is_refused_with_its_reason(world):
    club, anna, admin = world["club"], world["anna"], world["admin"]
    evening = services.evening_open(club=club, date=datetime.date(2026, 11, 20))
    carl = Member.objects.get(name="Carl")
    services.table_open(evening=evening, members=[anna, world["bo"], carl])
    client = client_of(admin)
    response = client.post(
        url("setup_member_erase", club, pk=anna.pk), {"confirm": "erase"}, follow=True
    )
    assert "is open" in response.content.decode()
    assert Member.objects.get(pk=anna.pk).name == "Anna"
    assert not ClubLog.objects.filter(action="erased").exists()


def test_member_season_hands_show_the_label(world):
    club, anna, admin = world["club"], world["anna"], world["admin"]
    member_erase(member=anna, by=admin.user)
    page = client_of(admin).get(url("member_season", club, pk=anna.pk)).content.decode()
    assert f"former member {anna.pk}" in page
    assert "Anna" not in page


def test_no_screen_or_sheet_names_an_erased_member(world):
    """The table, its hands, the evening, its sheet and the PDFs show his label: the hands'
    words name seats as seated, and an erased member's seat is shown by his label."""
    club, anna, admin = world["club"], world["anna"], world["admin"]
    member_erase(member=anna, by=admin.user)
    table = Table.objects.get(evening__club=club)
    evening = table.evening
    client = client_of(admin)
    pages = [
        ("table", {"pk": table.pk}),
        ("evening", {"pk": evening.pk}),
        ("evening_sheet", {"pk": evening.pk}),
        ("evening_treasury", {"pk": evening.pk}),
        ("evening_sheet_pdf", {"pk": evening.pk}),
        ("table_sheet_pdf", {"pk": evening.pk, "table": table.pk}),
        ("standings_pdf", {}),
    ] + [
        ("hand", {"pk": pk}) for pk in Hand.objects.filter(table=table).values_list("pk", flat=True)
    ]
    label = f"former member {anna.pk}"
    seen = ""
    for name, kwargs in pages:
        response = client.get(url(name, club, **kwargs))
        assert response.status_code == 200, name
        text = response.content.decode(errors="replace")
        if response["Content-Type"].startswith("application/pdf"):
            text = pdf_text(response.content)[1]
        assert "Anna" not in text, name
        seen += text
    assert label in seen


def test_the_people_log_shows_an_erased_member_by_his_label(world):
    """The people log keeps its sealed entries (his name as it was among them), but its page
    shows an erased member by his label, a name change's before and after as "–"."""
    club, anna, admin = world["club"], world["anna"], world["admin"]
    services.member_update(member=anna, name="Anna Berg", by=admin.user)
    member_erase(member=Member.objects.get(pk=anna.pk), by=admin.user)
    page = client_of(admin).get(url("setup_people_log", club)).content.decode()
    assert f"former member {anna.pk}" in page
    assert "Anna" not in page
    assert verify_ledger().ok
