"""The director seeds a tournament from a ladder (issue 30, part 3): the series chosen on the
tournament's page gives every entry his position as of the day before, each rank shown with
its source; one rank overridden with a logged reason; bad choices refused, nothing written."""

from __future__ import annotations

import datetime

import pytest
from django.urls import reverse

from ledger.models import Member
from ledger.services import tournaments as tour
from ledger.tests.factories import make_member
from ledger.tests.helpers import client_for, federation_world

pytestmark = pytest.mark.django_db


@pytest.fixture
def seeded():
    """federation_world with its series (DP 1: Ana, Bor, Cene, Dan in that order), a director
    of club alpha, and a new DP of alpha after DP 1 with Dan, Ana and a guest entered."""
    world = federation_world(series=True)
    club = world["club"]
    director = make_member(club, "Direktor", Member.Role.ADMIN, login=True).user
    new = tour.tournament_create(
        club=club,
        name="DP 2",
        date=datetime.date(2026, 11, 7),
        game="slovenian_tarok",
        tournament_format="sl_dp",
    )
    members = {m.name: m for m in club.members.all()}
    tour.entries_add(tournament=new, members=[members["Dan"], members["Ana"]])
    tour.entry_add_guest(tournament=new, name="Gost", club_name="Bled")
    return world, director, new


def ranks(tournament):
    return dict(tournament.entries.values_list("name", "ladder_rank"))


def test_the_series_gives_each_entry_his_ladder_position_shown_with_its_source(seeded):
    world, director, new = seeded
    client = client_for(director)
    url = reverse("tournament_ladder", kwargs={"club": "alpha", "pk": new.pk})
    answer = client.post(url, {"series": world["series"].pk})
    assert answer.status_code == 302
    new.refresh_from_db()
    assert new.ladder_id == world["series"].pk
    assert ranks(new) == {"Ana": 1, "Dan": 4, "Gost": None}
    page = client.get(reverse("tournament", kwargs={"club": "alpha", "pk": new.pk}))
    html = page.content.decode()
    assert 'id="ladder-seed-form"' in html and 'class="muted rank-source"' in html
    assert [a["action"] for a in new.log][-2:] == ["ladder_series", "ladder"]


def test_a_rank_is_overridden_with_a_reason_and_logged(seeded):
    world, director, new = seeded
    client = client_for(director)
    client.post(
        reverse("tournament_ladder", kwargs={"club": "alpha", "pk": new.pk}),
        {"series": world["series"].pk},
    )
    dan = new.entries.get(name="Dan")
    url = reverse("tournament_ladder_rank", kwargs={"club": "alpha", "pk": new.pk})
    client.post(url, {"entry": dan.code, "ladder_rank": "2", "reason": ""})
    assert ranks(new)["Dan"] == 4  # no reason: refused, nothing written
    client.post(url, {"entry": dan.code, "ladder_rank": "2", "reason": "ill at DP 1"})
    assert ranks(new)["Dan"] == 2
    new.refresh_from_db()
    act = new.log[-1]
    assert (act["action"], act["before"], act["after"], act["reason"]) == (
        "ladder_rank",
        4,
        2,
        "ill at DP 1",
    )
    html = client.get(reverse("tournament", kwargs={"club": "alpha", "pk": new.pk})).content
    assert b"rank-source" in html


@pytest.mark.parametrize(
    "data",
    [
        {"series": "999999"},
        {"series": "x" * 5000},
        {"series": "=SUM(1)"},
    ],
)
def test_a_series_not_shown_is_refused_and_nothing_written(seeded, data):
    _world, director, new = seeded
    answer = client_for(director).post(
        reverse("tournament_ladder", kwargs={"club": "alpha", "pk": new.pk}), data
    )
    assert answer.status_code == 302
    new.refresh_from_db()
    assert new.ladder_id is None and ranks(new) == {"Ana": None, "Dan": None, "Gost": None}


@pytest.mark.parametrize(
    "data",
    [
        {"entry": "nobody", "ladder_rank": "1", "reason": "r"},
        {"entry": "", "ladder_rank": "1", "reason": "r"},
        {"ladder_rank": "10" * 40, "reason": "r"},
        {"ladder_rank": "-3", "reason": "r"},
        {"ladder_rank": "1\x00", "reason": "r"},
    ],
)
def test_a_bad_override_is_refused_and_nothing_written(seeded, data):
    _world, director, new = seeded
    data = {"entry": new.entries.get(name="Ana").code, **data}
    answer = client_for(director).post(
        reverse("tournament_ladder_rank", kwargs={"club": "alpha", "pk": new.pk}), data
    )
    assert answer.status_code == 302
    assert ranks(new) == {"Ana": None, "Dan": None, "Gost": None}
