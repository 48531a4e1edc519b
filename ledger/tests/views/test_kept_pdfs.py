"""Kept PDFs of closed evenings and one heavy render at a time per user (``ledger.web.kept``).

The renders are counted by ``reports.RENDERED`` (incremented where WeasyPrint lays a PDF
out): a repeat download of a closed evening's PDF renders nothing, a reopen changes it, and
the lock a user holds while a PDF is rendered turns his second request into a 429.
"""

from __future__ import annotations

import pytest
from django.urls import reverse

from ledger import reports, services
from ledger.models import Member
from ledger.tests import factories
from ledger.tests.helpers import pdf_text
from ledger.web import kept

pytestmark = pytest.mark.django_db


@pytest.fixture
def club():
    club = factories.make_club()
    factories.make_season(club)
    return club


@pytest.fixture
def evening(club):
    evening, _, _ = factories.evening_e(club)
    return services.evening_close(evening=evening)


def member_client(client, club, name="Mia", role=Member.Role.MEMBER):
    factories.make_member(club, name, role, login=True)
    client.login(username=f"test-{name.lower()}", password=factories.PASSWORD)
    return client


def sheet_url(evening, **query):
    url = reverse("evening_sheet_pdf", kwargs={"club": evening.club.slug, "pk": evening.pk})
    return url + ("?" + "&".join(f"{k}={v}" for k, v in query.items()) if query else "")


def renders() -> int:
    return reports.RENDERED["pdfs"]


def test_a_closed_evenings_sheet_is_rendered_once_then_served_from_the_store(client, club, evening):
    client = member_client(client, club)
    before = renders()
    first = client.get(sheet_url(evening))
    assert first.status_code == 200 and renders() == before + 1
    second = client.get(sheet_url(evening))
    assert second.status_code == 200
    assert renders() == before + 1, "the repeat download rendered again"
    assert second.content == first.content
    assert second["Content-Disposition"] == first["Content-Disposition"]


def test_with_and_without_transfers_are_kept_apart(client, club, evening):
    client = member_client(client, club)
    plain = client.get(sheet_url(evening)).content
    before = renders()
    with_transfers = client.get(sheet_url(evening, transfers=1))
    assert renders() == before + 1
    assert with_transfers["Content-Disposition"].endswith('-transfers.pdf"')
    assert with_transfers.content != plain
    client.get(sheet_url(evening, transfers=1))
    client.get(sheet_url(evening))
    assert renders() == before + 1


def test_a_reopen_changes_the_pdf_and_a_new_close_keeps_the_new_one(client, club, evening):
    client = member_client(client, club)
    closed = client.get(sheet_url(evening))
    services.evening_reopen(evening=evening, reason="a hand was missing")
    before = renders()
    reopened = client.get(sheet_url(evening))
    assert renders() == before + 1
    assert reopened.content != closed.content
    # An open evening is rendered every time.
    client.get(sheet_url(evening))
    assert renders() == before + 2
    services.evening_close(evening=evening)
    again = client.get(sheet_url(evening))
    client.get(sheet_url(evening))
    assert renders() == before + 3
    assert "16,25" in pdf_text(again.content)[1]


def test_permissions_still_apply_to_a_kept_pdf(client, club, evening):
    member_client(client, club).get(sheet_url(evening))
    other = factories.make_club(slug="other", name="Other")
    factories.make_member(other, "Ole", login=True)
    client.logout()
    client.login(username="other-ole", password=factories.PASSWORD)
    assert client.get(sheet_url(evening)).status_code == 404
    client.logout()
    assert client.get(sheet_url(evening)).status_code == 302  # to the log-in page


def test_table_sheets_and_the_standings_are_kept_too(client, club, evening):
    client = member_client(client, club)
    table = evening.tables.get()
    table_url = reverse(
        "table_sheet_pdf", kwargs={"club": club.slug, "pk": evening.pk, "table": table.pk}
    )
    standings_url = reverse("standings_pdf", kwargs={"club": club.slug})
    before = renders()
    for url in (table_url, standings_url, table_url, standings_url):
        assert client.get(url).status_code == 200
    assert renders() == before + 2


def test_a_hand_saved_in_the_season_renders_the_standings_afresh(client, club, evening):
    client = member_client(client, club)
    standings_url = reverse("standings_pdf", kwargs={"club": club.slug})
    client.get(standings_url)
    open_evening, table, _ = factories.evening_e(club, date=evening.date.replace(day=12))
    before = renders()
    client.get(standings_url)
    factories.random_table_hands(table, 1)
    client.get(standings_url)
    assert renders() == before + 2


def test_a_renamed_member_is_not_served_the_old_name(client, club, evening):
    client = member_client(client, club)
    client.get(sheet_url(evening))
    Member.objects.filter(club=club, name="Anna").update(name="Annabel")
    before = renders()
    client.get(sheet_url(evening))
    assert renders() == before + 1


def test_a_second_render_while_the_users_first_is_under_way_is_429(client, club, evening):
    client = member_client(client, club)
    user = Member.objects.get(club=club, name="Mia").user
    services.evening_reopen(evening=evening, reason="one more hand")
    before = renders()
    with kept.one_at_a_time(user):
        for url in (sheet_url(evening), sheet_url(evening, transfers=1)):
            response = client.get(url)
            assert response.status_code == 429
            assert response["Retry-After"] == str(kept.RETRY_AFTER)
            assert "prøv igen om et øjeblik" in response.content.decode()  # Danish by default
    assert renders() == before
    # Another member is not held up by Mia's render, and Mia's next request goes through.
    other = member_client(client.__class__(), club, name="Nis")
    with kept.one_at_a_time(user):
        assert other.get(sheet_url(evening)).status_code == 200
    assert client.get(sheet_url(evening)).status_code == 200
    assert renders() == before + 2


def test_the_lock_is_released_when_a_render_fails(club):
    user = factories.make_member(club, "Mia", login=True).user
    with pytest.raises(ZeroDivisionError), kept.one_at_a_time(user):
        raise ZeroDivisionError
    with kept.one_at_a_time(user):
        with pytest.raises(kept.Busy), kept.one_at_a_time(user):
            pass
