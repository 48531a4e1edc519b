"""A table's state as JSON (``c/<club>/table/<pk>/state.json``): seats, pools, balances and
the next hand's schedule, for the club's members only."""

from __future__ import annotations

import datetime

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from ledger import services
from ledger.models import Member
from ledger.tests import factories
from ledger.tests.factories import evening_e, random_table_hands
from ledger.tests.helpers import login

pytestmark = pytest.mark.django_db

SLUG = "test"


def state_url(table, slug=SLUG):
    return reverse("table_state", kwargs={"club": slug, "pk": table.pk})


@pytest.fixture
def club():
    return factories.make_club(slug=SLUG)


@pytest.fixture
def member(club, client):
    return login(client, factories.make_member(club, "Gorm", Member.Role.MEMBER, login=True))


def test_state_of_evening_e(client, club, member):
    """After Evening E: every seat with its member id and balance, the cups by their labels,
    and hand 4 dealt by Anna, Bo forehand and the non-counter."""
    _evening, table, _hands = evening_e(club)
    response = client.get(state_url(table))
    assert response.status_code == 200
    assert response["Content-Type"] == "application/json"
    data = response.json()
    ids = {m.name: m.pk for m in Member.objects.filter(club=club)}
    assert data["seats"] == [
        {"name": n, "seat": n, "member_id": ids[n], "active": True, "left": False, "balance": b}
        for n, b in (("Anna", 20), ("Bo", -75), ("Carl", -85))
    ]
    assert data["balances"] == {"Anna": 20, "Bo": -75, "Carl": -85}
    assert data["pools"] == [
        {"code": "kongekop", "label": "kongekop", "points": 65},
        {"code": "pagatkop", "label": "pagatkop", "points": 75},
    ]
    assert data["recorded"] == 3
    assert data["next"] == {
        "number": 4,
        "dealer": "Anna",
        "sitting_out": [],
        "forehand": "Bo",
        "active": ["Anna", "Bo", "Carl"],
        "roles": {"Anna": "dealer", "Bo": "non_counter", "Carl": "player"},
        "non_counter": "Bo",
    }


def test_state_after_a_member_left(client, club, member):
    """A member who left stays listed, inactive, with his balance; the next hand skips him."""
    names = ["Anna", "Bo", "Carl", "Dorte"]
    members = [factories.make_member(club, n) for n in names]
    evening = services.evening_open(club=club, date=datetime.date(2026, 11, 5))
    table = services.table_open(evening=evening, members=members)
    random_table_hands(table, 1)
    services.table_leave(table=table, member=members[1])
    data = client.get(state_url(table)).json()
    bo = next(s for s in data["seats"] if s["name"] == "Bo")
    assert (bo["active"], bo["left"]) == (False, True)
    assert data["next"]["dealer"] == "Carl"  # Anna dealt; the seat after her, Bo, left
    assert data["balances"]["Bo"] == bo["balance"]


def test_slovenian_pool_and_hungarian_none(client, member):
    """A Slovenian table shows its pool by its label; a Hungarian table has no pool."""
    for game, pools in (("slovenian_tarok", ["pool"]), ("hungarian_tarokk", [])):
        club = factories.make_club(slug=game.replace("_", "-"), game=game)
        login(client, factories.make_member(club, "Gorm", login=True))
        members = [factories.make_member(club, n) for n in ("Anna", "Bo", "Carl", "Dorte")]
        evening = services.evening_open(club=club, date=datetime.date(2026, 11, 5))
        table = services.table_open(evening=evening, members=members)
        data = client.get(state_url(table, club.slug)).json()
        assert [p["code"] for p in data["pools"]] == pools, game
        assert all(p["label"] and p["label"] != p["code"] for p in data["pools"]), data["pools"]
        assert data["next"]["number"] == 1
        assert data["next"]["dealer"] == "Anna"
        assert data["next"]["forehand"] == "Bo"


def test_another_clubs_table_and_a_missing_table_are_404(client, club, member):
    """The state of another club's table, or of no table, is not found."""
    other = factories.make_club(slug="other", name="Other")
    _evening, foreign, _hands = evening_e(other)
    assert client.get(state_url(foreign)).status_code == 404
    missing = reverse("table_state", kwargs={"club": SLUG, "pk": foreign.pk + 1000})
    assert client.get(missing).status_code == 404


def test_state_costs_a_fixed_number_of_queries(client, club, member):
    """The state costs the same queries with 3 hands as with 33 (the request's own included)."""
    _evening, table, _hands = evening_e(club)
    with CaptureQueriesContext(connection) as small:
        assert client.get(state_url(table)).status_code == 200
    random_table_hands(table, 30, seed=3)
    with CaptureQueriesContext(connection) as large:
        assert client.get(state_url(table)).status_code == 200
    assert len(small.captured_queries) == len(large.captured_queries) == QUERIES


# Was 13: the club and the membership are read in one query (ledger.web.permissions), and
# the accounts with their balances (services.ledger.TableLedger).
QUERIES = 11
