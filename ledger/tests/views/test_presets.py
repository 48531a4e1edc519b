"""House-rule presets on the screens: a new club starts from one, the set-up screen fills the
card from one and both it and the admin show what the card changes from the game's default;
bad input (a preset that does not exist, one of another game, a cap below the cup's funding)
is refused on its field and nothing is written."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from ledger.games.registry import GAMES
from ledger.models import Club, Member
from ledger.tests.factories import make_club, make_member, make_season
from ledger.tests.helpers import english, form_data

pytestmark = pytest.mark.django_db


@pytest.fixture
def su_client():
    user = get_user_model().objects.create_superuser("chef", password="x-very-secret-9")
    client = english(Client())
    client.force_login(user)
    return client


def club_admin(game: str = "danish_tarok", rate_card=None):
    club = make_club(slug="alpha", name="Alpha", game=game, rate_card=rate_card or {})
    make_season(club)
    admin = make_member(club, "Formand", Member.Role.ADMIN, login=True)
    client = english(Client())
    assert admin.user is not None
    client.force_login(admin.user)
    return club, client


def rates_url() -> str:
    return reverse("setup_rates", kwargs={"club": "alpha"})


def new_club_post(game: str, preset: str) -> dict:
    return {
        "name": "Ljubljanski tarok",
        "slug": "ljubljana",
        "game": game,
        "preset": preset,
        "price_per_point": "0.10",
        "currency": "EUR",
        "starting_jetons": "0",
        "season_name": "2026/2027",
        "season_starts_on": "2026-08-01",
        "season_ends_on": "2027-07-31",
    }


# --- a new club ----------------------------------------------------------------------------


def test_a_new_club_starts_from_a_preset_of_its_game(su_client):
    """The create-club screen offers each game's presets under the game's name; a Slovenian
    club created with "Mond 21" stores the complete default card with mond_penalty 21."""
    page = su_client.get(reverse("club_new")).content.decode()
    assert 'value="slovenian_tarok:mond_21"' in page and "Klop by ones" in page
    assert 'value="danish_tarok:bagud_one_by_one"' in page
    response = su_client.post(
        reverse("club_new"), new_club_post("slovenian_tarok", "slovenian_tarok:mond_21")
    )
    assert response.status_code == 302
    club = Club.objects.get(slug="ljubljana")
    expected = GAMES["slovenian_tarok"].rate_card({"mond_penalty": 21}).as_dict()
    assert club.rate_card == expected


def test_a_preset_of_another_game_is_refused_and_no_club_is_made(su_client):
    """A Danish club cannot start from a Slovenian preset: the refusal names the preset and
    both games on the field preset; no club is created."""
    response = su_client.post(
        reverse("club_new"), new_club_post("danish_tarok", "slovenian_tarok:mond_21")
    )
    assert response.status_code == 422
    assert response.context["form"].errors["preset"] == [
        "Mond 21 is a preset of Slovenian Tarok, not of Danish Tarok"
    ]
    assert not Club.objects.filter(slug="ljubljana").exists()


def test_a_preset_that_does_not_exist_is_refused_and_no_club_is_made(su_client):
    """A preset name no game has (Agger 1970's tout, which the spec's card cannot express) is
    refused on the field preset; no club is created."""
    response = su_client.post(
        reverse("club_new"), new_club_post("danish_tarok", "danish_tarok:agger_1970")
    )
    assert response.status_code == 422
    [message] = response.context["form"].errors["preset"]
    assert "danish_tarok:agger_1970 is not one of the available choices" in message
    assert not Club.objects.filter(slug="ljubljana").exists()


# --- the set-up screen ---------------------------------------------------------------------


def test_a_preset_fills_the_card_and_shows_what_it_changes_saving_nothing():
    """Choosing "Bagud paid one by one" fills the form with the game's defaults and
    multi_bagud sequential, says where the preset comes from and lists the one change
    (default → preset); the club's stored card is untouched until the form is saved."""
    club, client = club_admin()
    page = client.get(rates_url(), {"preset": "bagud_one_by_one"})
    assert page.status_code == 200
    form = page.context["form"]
    assert form.initial["multi_bagud"] == "sequential"
    assert form.initial["funding_per_cup"] == 20
    assert [c["name"] for c in page.context["changes"]] == ["multi_bagud"]
    body = page.content.decode()
    assert "Filled from the preset “Bagud paid one by one”" in body
    assert "danish-tarok.md section 6.4" in body
    assert "several bagud into one cup: <del>each pays the cup as it stood</del>" in body
    club.refresh_from_db()
    assert club.rate_card == {}
    data = {name: form.initial[name] for name in form.fields}
    assert client.post(rates_url(), data).status_code == 302
    club.refresh_from_db()
    assert (
        club.rate_card == GAMES["danish_tarok"].rate_card({"multi_bagud": "sequential"}).as_dict()
    )
    again = client.get(rates_url())
    assert [c["name"] for c in again.context["changes"]] == ["multi_bagud"]


def test_the_card_of_the_game_default_changes_nothing():
    """A club on the defaults reads that its card changes nothing."""
    _club, client = club_admin("hungarian_tarokk")
    page = client.get(rates_url())
    assert page.context["changes"] == []
    assert "Nothing: this card is the game's default." in page.content.decode()


def test_an_unknown_preset_on_the_set_up_screen_is_refused():
    """A preset the game has not is refused on the field preset (422); the form keeps the
    stored card and nothing is written."""
    club, client = club_admin("slovenian_tarok", rate_card={"mond_penalty": 21})
    page = client.get(rates_url(), {"preset": "mond_22"})
    assert page.status_code == 422
    [message] = page.context["fill"].errors["preset"]
    assert "mond_22 is not one of the available choices" in message
    assert page.context["form"].initial["mond_penalty"] == 21
    club.refresh_from_db()
    assert club.rate_card == {"mond_penalty": 21}


def test_a_cup_cap_below_the_cups_funding_is_refused_on_its_field():
    """The cup cap is 0 or at least 5 x funding_per_cup: 80 with a funding of 20 is refused
    on cup_cap, naming the least (100); nothing is written. 100 is stored."""
    club, client = club_admin()
    form = client.get(rates_url()).context["form"]
    data = {name: form.initial[name] for name in form.fields}
    refused = client.post(rates_url(), {**data, "cup_cap": "80"})
    assert refused.status_code == 422
    assert refused.context["form"].errors["cup_cap"] == [
        "a cup's cap is 0 (none) or at least what a full table funds a cup with: "
        "5 x 20 = 100 points"
    ]
    club.refresh_from_db()
    assert club.rate_card == {}
    assert client.post(rates_url(), {**data, "cup_cap": "100"}).status_code == 302
    club.refresh_from_db()
    assert club.rate_card["cup_cap"] == 100


# --- the admin -----------------------------------------------------------------------------


def admin_post(club, **changes) -> dict:
    data = form_data(club, **changes)
    for prefix in ("seasons", "members"):
        data.update({f"{prefix}-TOTAL_FORMS": "0", f"{prefix}-INITIAL_FORMS": "0"})
    return data


def test_the_admin_fills_the_card_from_a_preset_and_shows_the_changes(su_client):
    """In the admin, a preset replaces the house-rule fields with its card (the fields'
    own changes are not stored beside it); the page then lists what the card changes."""
    club = make_club(slug="hjoerring", name="Hjørring Tarokklub")
    page = su_client.get(reverse("admin:ledger_club_change", args=[club.pk]))
    assert 'value="pagat_tout"' in page.content.decode()
    data = admin_post(club, rate_card_preset="pagat_tout", nolo_each=30)
    response = su_client.post(reverse("admin:ledger_club_change", args=[club.pk]), data)
    assert response.status_code == 302
    club.refresh_from_db()
    assert club.rate_card == GAMES["danish_tarok"].rate_card({"tout_variant": "pagat"}).as_dict()
    page = su_client.get(reverse("admin:ledger_club_change", args=[club.pk])).content.decode()
    assert (
        "Options: tout: Møller: from each, both cups, count on top → pagat.com: from each, "
        "cups untouched, no count"
    ) in page


def test_the_admin_refuses_a_preset_that_does_not_exist(su_client):
    """An unknown preset in the admin is refused on its field; nothing is stored."""
    club = make_club(slug="hjoerring", name="Hjørring Tarokklub")
    data = admin_post(club, rate_card_preset="agger_1970")
    response = su_client.post(reverse("admin:ledger_club_change", args=[club.pk]), data)
    assert response.status_code == 200
    assert "rate_card_preset" in response.context["adminform"].form.errors
    club.refresh_from_db()
    assert club.rate_card == {}
