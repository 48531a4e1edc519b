"""The reader's text size: kept on his profile and his session, a class on every page."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from ledger.models import Profile
from ledger.tests.factories import PASSWORD, make_club, make_member, make_season

pytestmark = pytest.mark.django_db


@pytest.fixture
def anna():
    club = make_club(slug="big", name="Big Club", language="en")
    make_season(club)
    return make_member(club, "Anna", login=True)


def test_the_switch_keeps_the_size_on_the_profile_and_every_page_wears_it(anna):
    client = Client()
    client.force_login(anna.user)
    my_page = reverse("my_page", kwargs={"club": "big"})
    assert 'class="text-normal"' in client.get(my_page).content.decode()
    response = client.post(reverse("set_text_size"), {"text_size": "larger", "next": my_page})
    assert response.status_code == 302 and response["Location"] == my_page
    assert Profile.objects.get(user=anna.user).text_size == "larger"
    page = client.get(my_page).content.decode()
    assert 'class="text-larger"' in page and 'aria-current="true">A++' in page
    # Another device: the size follows him at log-in.
    other = Client()
    assert other.login(username=anna.user.username, password=PASSWORD)
    assert 'class="text-larger"' in other.get(my_page).content.decode()


def test_a_visitor_keeps_it_in_a_cookie(anna):
    client = Client()
    client.post(reverse("set_text_size"), {"text_size": "large", "next": "/login/"})
    assert 'class="text-large"' in client.get("/login/").content.decode()


def test_an_unknown_size_or_foreign_next_changes_nothing(anna):
    client = Client()
    client.force_login(anna.user)
    response = client.post(
        reverse("set_text_size"), {"text_size": "huge", "next": "https://evil.example/"}
    )
    assert response.status_code == 302 and response["Location"] == "/"
    assert not Profile.objects.filter(user=anna.user, text_size="huge").exists()
    assert client.get(reverse("set_text_size")).status_code == 405
