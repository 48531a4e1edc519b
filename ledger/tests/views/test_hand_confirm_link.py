"""Opponent confirmation through a round table's own link (issue 27): the phone's saver says
who he is, the phone then shows the hand to confirm, and a second player confirms it there;
the director's round page counts the hands waiting."""

import random
import re

import pytest
from django.test import Client
from django.urls import reverse

from ledger.models import HandConfirmation, Member, Seat, Tournament
from ledger.services import tournaments as tour
from ledger.tests.factories import make_club, make_member, make_tournament
from ledger.tests.helpers import client_for, found, hand_post, next_random_record

pytestmark = pytest.mark.django_db

SLUG = "kranj"


@pytest.fixture
def club():
    return make_club(slug=SLUG, name="Tarok Kranj", game="slovenian_tarok", language="en")


@pytest.fixture
def table1(club):
    t = make_tournament(
        club,
        "ABCDEF",
        params={"rounds": 2, "confirm_hands": True},
        seed="link",
        players_club="Bled",
    )
    round_ = tour.round_start(round_=tour.round_publish(round_=tour.round_draw(tournament=t)))
    return round_.round_tables.select_related("table__evening", "round").get(number=1)


def url(name, table, **kwargs):
    return reverse(name, kwargs={"club": SLUG, "pk": table.pk, **kwargs})


def unconfirmed_on_round_page(director, rt) -> str:
    page = director.get(
        reverse("tournament_round", kwargs={"club": SLUG, "pk": rt.round_id})
    ).content.decode()
    return found(r'id="unconfirmed" data-unconfirmed="(\d+)"', page).group(1)


def test_the_phone_saves_a_hand_to_confirm_and_a_second_player_confirms_it(club, table1):
    table = table1.table
    names = [s.name for s in Seat.objects.of_table(table.pk)]
    director = client_for(make_member(club, "Direktor", role=Member.Role.ADMIN, login=True).user)
    phone = Client()
    phone.get(reverse("table_link", kwargs={"club": SLUG, "token": table1.token}))
    entry = phone.get(url("hand_new", table)).content.decode()
    assert 'id="saver-choice"' in entry and all(f'value="{n}"' in entry for n in names)
    rng = random.Random(1)
    record = next_random_record(table, rng)

    # Nobody said who saves it: refused on the form, nothing written.
    refused = phone.post(url("hand_new", table), hand_post(table, record))
    assert refused.status_code == 422
    assert "say who you are" in refused.content.decode() and not table.hands.exists()

    saved = phone.post(url("hand_new", table), hand_post(table, record, saved_by=names[0]))
    assert saved.status_code == 302 and saved["Location"] == url("hand_confirm", table)
    assert phone.get(url("hand_new", table))["Location"] == url("hand_confirm", table)
    assert unconfirmed_on_round_page(director, table1) == "1"
    page = phone.get(url("hand_confirm", table)).content.decode()
    assert 'data-state="to-confirm"' in page and f"Saved by {names[0]}." in page
    assert 'id="confirm-preview"' in page and "Who pays whom" in page
    assert re.search(rf'value="{names[0]}" disabled', page)
    hand = table.hands.get()

    # The saver himself: refused with the rule, nothing written.
    own = phone.post(
        url("hand_confirm", table), {"hand": hand.pk, "revision": 1, "confirmed_by": names[0]}
    )
    assert own.status_code == 422
    assert f"{names[0]} saved this hand: another player at the table confirms it" in (
        own.content.decode()
    )
    assert HandConfirmation.objects.get(hand=hand).confirmed_at is None

    done = phone.post(
        url("hand_confirm", table), {"hand": hand.pk, "revision": 1, "confirmed_by": names[1]}
    )
    assert done.status_code == 302
    assert done["Location"] == reverse("table_link", kwargs={"club": SLUG, "token": table1.token})
    assert HandConfirmation.objects.get(hand=hand).confirmed_by == names[1]
    assert tour.hands_played(table.pk) == 1
    assert unconfirmed_on_round_page(director, table1) == "0"
    # Nothing left to confirm: the screen says so; the next hand's entry opens again.
    nothing = phone.get(url("hand_confirm", table)).content.decode()
    assert 'data-state="none"' in nothing
    assert phone.get(url("hand_new", table)).status_code == 200
    again = phone.post(
        url("hand_confirm", table), {"hand": hand.pk, "revision": 1, "confirmed_by": names[2]}
    )
    assert again.status_code == 422 and "already confirmed" in again.content.decode()


def test_the_tablet_script_is_sent_to_the_confirmation(club, table1):
    table = table1.table
    names = [s.name for s in Seat.objects.of_table(table.pk)]
    phone = Client()
    phone.get(reverse("table_link", kwargs={"club": SLUG, "token": table1.token}))
    data = hand_post(table, next_random_record(table, random.Random(2)), saved_by=names[2])
    response = phone.post(url("hand_new", table), data, headers={"X-Hand-Submit": "1"})
    assert response.json() == {"saved": True, "url": url("hand_confirm", table), "number": 1}


def test_the_director_saves_without_a_confirmation(club, table1):
    """A scorekeeper of the club (the director) scores without the link: his hand counts."""
    table = table1.table
    director = client_for(make_member(club, "Direktor", role=Member.Role.ADMIN, login=True).user)
    assert 'id="saver-choice"' not in director.get(url("hand_new", table)).content.decode()
    record = next_random_record(table, random.Random(3))
    assert director.post(url("hand_new", table), hand_post(table, record)).status_code == 302
    assert tour.hands_played(table.pk) == 1 and not HandConfirmation.objects.exists()


def test_the_new_tournament_form_sets_the_parameter(club):
    director = client_for(make_member(club, "Direktor", role=Member.Role.ADMIN, login=True).user)
    form = director.get(reverse("tournaments", kwargs={"club": SLUG})).content.decode()
    assert 'name="confirm_hands"' in form and "Opponent confirmation" in form
    response = director.post(
        reverse("tournaments", kwargs={"club": SLUG}),
        {
            "name": "Cup",
            "date": "2026-12-05",
            "game": "slovenian_tarok",
            "tournament_format": "sl_dp",
            "params": '{"rounds": 3}',
            "confirm_hands": "on",
        },
    )
    assert response.status_code == 302
    t = Tournament.objects.get(name="Cup")
    assert t.params == {"rounds": 3, "confirm_hands": True}
    page = director.get(response["Location"]).content.decode()
    assert 'id="confirm-hands"' in page


# The confirmation screen of a hand waiting, from the phone holding the link: the session, the
# club with the membership, the link's grant, the table, the hand waiting with its
# confirmation, the round strip (the round table with its round and tournament, the hands
# counted, the players' names), the hand's live posting, its pools before it, its latest
# revision.
CONFIRM_PAGE_QUERIES = 11
# The confirmation: the session, the club, the grant, the table, the hand, the round table's
# link, the link's author (two: its round table, its user), then the service: its round table,
# a savepoint, the round, the hand and its confirmation locked, the latest revision, the
# confirmation and the round's log written, the tournament's seal (five reads, one insert),
# the club's chain read, the savepoint released.
CONFIRM_POST_QUERIES = 24


def test_the_confirmation_costs_a_pinned_number_of_queries(club, table1, django_assert_num_queries):
    from django.db import connection

    table = table1.table
    names = [s.name for s in Seat.objects.of_table(table.pk)]
    phone = Client()
    phone.get(reverse("table_link", kwargs={"club": SLUG, "token": table1.token}))
    record = next_random_record(table, random.Random(4))
    phone.post(url("hand_new", table), hand_post(table, record, saved_by=names[0]))
    hand = table.hands.get()
    with django_assert_num_queries(CONFIRM_PAGE_QUERIES):
        assert phone.get(url("hand_confirm", table)).status_code == 200
    data = {"hand": hand.pk, "revision": 1, "confirmed_by": names[1]}
    # On PostgreSQL ``writing()`` sets its lock and statement timeouts first (one query).
    with django_assert_num_queries(CONFIRM_POST_QUERIES + (connection.vendor == "postgresql")):
        assert phone.post(url("hand_confirm", table), data).status_code == 302
