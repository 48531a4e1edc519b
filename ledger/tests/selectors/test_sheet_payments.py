"""After closing: who pays whom in money, and a closing log in the reader's language."""

import re

import pytest
from django.urls import reverse
from django.utils import translation

from ledger import reports, services
from ledger.models import JetonCount, Member
from ledger.tests import factories
from ledger.tests.helpers import pdf_text

pytestmark = pytest.mark.django_db


@pytest.fixture
def closed_evening_e():
    club = factories.make_club(name="Hjørring Tarokklub")
    evening, table, _hands = factories.evening_e(club)
    treasurer = factories.make_member(club, "Tove", Member.Role.TREASURER, login=True)
    expected = services.jeton_expected(table)
    services.jetons_count(table=table, counts={**expected, "Bo": expected["Bo"] - 5})
    services.evening_close(evening=evening, confirm_differences=True, by=treasurer.user)
    return evening, treasurer


def test_sheet_shows_the_fewest_payments_and_the_cash_box(client, closed_evening_e):
    """Evening E closed (16.25, −7.50, −8.75 DKK): Bo and Carl each pay Anna, in Danish,
    with the alternative of settling with the club's cash box."""
    evening, treasurer = closed_evening_e
    client.login(username=treasurer.user.username, password=factories.PASSWORD)
    page = client.get(reverse("evening_sheet", kwargs={"club": "test", "pk": evening.pk}))
    html = page.content.decode()
    assert "Bo betaler Anna 7,50 DKK" in html
    assert "Carl betaler Anna 8,75 DKK" in html
    assert "Anna får 16,25 DKK" in html
    assert "Bo betaler 7,50 DKK ind" in html


def test_closing_log_names_the_member_and_the_differences_in_danish(client, closed_evening_e):
    """The log names the treasurer by his member name (not his username) and the confirmed
    jeton difference with a real minus sign, in Danish; the PDF carries the payments too."""
    evening, treasurer = closed_evening_e
    assert JetonCount.objects.count() == 5
    client.login(username=treasurer.user.username, password=factories.PASSWORD)
    page = client.get(reverse("evening_sheet", kwargs={"club": "test", "pk": evening.pk}))
    log = page.content.decode().split('id="log"')[1]
    assert "Tove" in log and treasurer.user.username not in log
    assert "jetonforskelle godkendt: bord 1: Bo \u22125" in log
    _name, _type, content = reports.evening_sheet_pdf(evening=evening)
    _reader, text = pdf_text(content)
    assert "Bo betaler Anna 7,50 DKK" in text
    assert "bord 1: Bo -5" in text


def test_a_count_made_before_a_change_is_stale(client):
    """A count made before a correction is marked stale on the treasurer's screen, and the
    evening closes only after a recount or an explicit confirmation."""
    club = factories.make_club()
    evening, table, hands = factories.evening_e(club)
    treasurer = factories.make_member(club, "Tove", Member.Role.TREASURER, login=True)
    services.jetons_count(table=table, counts=services.jeton_expected(table))
    assert services.jeton_counts_stale(table) is False
    # A correction re-posts the hand (here to the same figures): the count predates it.
    services.hand_correct(hand=hands[2], record=hands[2].record, reason="checked again")
    assert services.jeton_counts_stale(table) is True
    assert treasurer.user is not None
    client.login(username=treasurer.user.username, password=factories.PASSWORD)
    page = client.get(reverse("evening_treasury", kwargs={"club": "test", "pk": evening.pk}))
    assert "data-stale-count" in page.content.decode()
    assert 'data-stale="1"' in page.content.decode()
    with (
        translation.override("en"),
        pytest.raises(
            services.JetonDifferenceError, match="table 1 were counted before its latest change"
        ),
    ):
        services.evening_close(evening=evening)
    services.jetons_count(table=table, counts=services.jeton_expected(table))
    assert services.jeton_counts_stale(table) is False
    services.evening_close(evening=evening)


@pytest.mark.parametrize(
    ("language", "currency", "pays", "column"),
    [
        ("sl", "EUR", "Bo plača članu Anna 7,50 €", "\u22127,50"),
        ("hu", "HUF", "Bo fizet 8 Ft összeget (kapja: Anna)", "\u22128"),
        ("da", "DKK", "Bo betaler Anna 7,50 DKK", "\u22127,50"),
    ],
)
def test_the_sheets_money_is_the_clubs_currency_in_the_clubs_language(
    client, closed_evening_e, language, currency, pays, column
):
    """A Slovenian club's sheet reads euros the Slovenian way, a Hungarian club's forints
    without decimals (7,50 → 8 Ft); negative amounts with a true minus, red (``neg``)."""
    evening, treasurer = closed_evening_e
    club = evening.club
    club.language, club.currency = language, currency
    club.save()
    client.login(username=treasurer.user.username, password=factories.PASSWORD)
    page = client.get(reverse("evening_sheet", kwargs={"club": "test", "pk": evening.pk}))
    html = page.content.decode()
    assert f'<html lang="{language}"' in html
    assert pays in html
    assert f'data-money="-7.50">{column}</span>' in html
    assert re.search(r'class="[^"]*\bneg\b[^"]*"[^>]*>\s*<span data-money="-7.50">', html)


def test_the_sheets_pdf_is_in_its_readers_language(client, closed_evening_e):
    """The club reads Slovenian; its treasurer chose Hungarian for himself: the PDF he
    downloads is Hungarian, the one a member without a choice downloads Slovenian."""
    from ledger.models import Profile

    evening, treasurer = closed_evening_e
    club = evening.club
    club.language, club.currency = "sl", "EUR"
    club.save()
    Profile.objects.create(user=treasurer.user, language="hu")
    url = reverse("evening_sheet_pdf", kwargs={"club": "test", "pk": evening.pk})
    client.login(username=treasurer.user.username, password=factories.PASSWORD)
    _reader, hungarian = pdf_text(client.get(url).content)
    assert "Bo fizet 7,50 € összeget (kapja: Anna)" in hungarian
    member = factories.make_member(club, "Mira", login=True)
    client.logout()
    assert member.user is not None
    client.login(username=member.user.username, password=factories.PASSWORD)
    _reader, slovenian = pdf_text(client.get(url).content)
    assert "Bo plača članu Anna 7,50 €" in slovenian
