"""Small holes of issue 22.7: names that hide characters, evening dates out of range."""

from __future__ import annotations

import datetime

import pytest
from django.utils import timezone

from ledger import services
from ledger.models import Club, Evening
from ledger.services.errors import LedgerError
from ledger.tests import factories
from ledger.tests.conftest import load_example

pytestmark = pytest.mark.django_db

INVISIBLE = ["Anna\u202e", "\u200bAnna", "An\u200dna", "Bo\u2066x\u2069", "Carl\x07", "Dor\u2028te"]


@pytest.mark.parametrize("name", INVISIBLE)
def test_a_name_with_an_invisible_character_is_refused(name):
    """Member, club and season names with a bidirectional override, a zero-width character,
    a control character or a line separator are refused, naming the character."""
    club = factories.make_club(slug="visible")
    with pytest.raises(LedgerError, match=r"U\+[0-9A-F]{4}"):
        services.members_add(club=club, names=[name])
    with pytest.raises(LedgerError, match="name"):
        services.club_update(club=club, name=name)
    with pytest.raises(LedgerError, match="name"):
        services.season_save(
            club=club,
            name=name,
            starts_on=datetime.date(2026, 8, 1),
            ends_on=datetime.date(2027, 7, 31),
        )
    assert not club.members.exists() and not club.seasons.exists()
    assert Club.objects.get(pk=club.pk).name != name


@pytest.mark.parametrize("name", ["Anna\u202e", "Bo\u200b"])
def test_a_hand_naming_a_seat_with_an_invisible_character_is_refused(name):
    """The engines' name check refuses a hidden character in a hand record's names too."""
    from ledger.games.errors import HandError
    from ledger.games.registry import get_game

    game = get_game("danish_tarok")
    hand = dict(load_example("X1.hand.json"))
    hand["seats"] = [name, *hand["seats"][1:]]
    with pytest.raises(HandError, match=r"U\+"):
        game.parse_hand(hand, game.rate_card({}))


@pytest.mark.parametrize(
    "date",
    [datetime.date(1, 1, 1), datetime.date(1989, 12, 31), datetime.date(9999, 12, 31)],
)
def test_an_evening_date_out_of_range_is_refused(date):
    """An evening is dated from 1 January 1990 to a year ahead; a typo is refused naming
    ``date``, and nothing is written."""
    club = factories.make_club()
    with pytest.raises(LedgerError) as refused:
        services.evening_open(club=club, date=date)
    assert refused.value.field == "date"
    assert not Evening.objects.exists()


def test_an_evening_a_year_ahead_or_from_1990_opens():
    club = factories.make_club()
    services.evening_open(club=club, date=datetime.date(1990, 1, 1))
    ahead = timezone.localdate() + datetime.timedelta(days=services.tables.EVENING_DAYS_AHEAD)
    services.evening_open(club=club, date=ahead)
    with pytest.raises(LedgerError):
        services.evening_open(club=club, date=ahead + datetime.timedelta(days=1))
    assert Evening.objects.count() == 2


def test_the_start_form_names_the_date_out_of_range(client):
    """On the club page, a date decades ahead is a refusal in the form, not a 500."""
    from django.urls import reverse

    from ledger.models import Member
    from ledger.tests.helpers import login

    club = factories.make_club()
    factories.make_season(club)
    keeper = factories.make_member(club, "Anna", Member.Role.SCOREKEEPER, login=True)
    login(client, keeper)
    url = reverse("evening_start", kwargs={"club": club.slug})
    response = client.post(url, {"date": "24.11.2062"})
    assert response.status_code in (400, 422, 200)
    assert "1990" in response.content.decode()
    assert not Evening.objects.exists()
