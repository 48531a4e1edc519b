"""The director's inputs refused cleanly (issue 27 item 7): each input that used to answer 500
is a 4xx naming the field, and nothing is written."""

import pytest
from django.urls import reverse

from ledger.models import Entry, Member, Tournament
from ledger.tests.factories import make_club, make_member, make_tournament
from ledger.tests.helpers import client_for

pytestmark = pytest.mark.django_db

NEW = {
    "name": "DP Kranj",
    "date": "2026-12-05",
    "game": "slovenian_tarok",
    "tournament_format": "sl_dp",
    "params": "",
    "seed": "",
}


@pytest.fixture
def director():
    club = make_club(slug="kranj", name="Tarok Kranj", game="slovenian_tarok", language="en")
    admin = make_member(club, "Director", role="admin", login=True)
    t = make_tournament(club, ["Ana", "Bor", "Cene"])
    return club, t, client_for(admin.user)


def url(name, **kwargs):
    return reverse(name, kwargs={"club": "kranj", **kwargs})


def snapshot():
    return (Tournament.objects.count(), Entry.objects.count(), Member.objects.count())


@pytest.mark.parametrize(
    ("change", "field", "text"),
    [
        ({"params": "[" * 5000 + "]" * 5000}, "params", "nests deeper"),
        ({"name": "x" * 101}, "name", "at most 100"),
        ({"name": "DP \u202eKranj"}, "name", "invisible or control"),
        ({"seed": "s\u200bs"}, "seed", "invisible or control"),
        ({"date": "0001-01-01"}, "date", ""),
        ({"date": "9999-12-31"}, "date", ""),
    ],
    ids=["deep-params", "long-name", "rtl-name", "hidden-seed", "year-1", "year-9999"],
)
def test_a_new_tournament_refused(director, change, field, text):
    _club, _t, client = director
    before = snapshot()
    response = client.post(url("tournaments"), {**NEW, **change})
    assert response.status_code == 422
    errors = response.context["form"].errors
    assert field in errors, errors
    assert text in " ".join(errors[field])
    assert snapshot() == before


@pytest.mark.parametrize(
    ("data", "text"),
    [
        ({"action": "guest", "name": "Zala", "ladder_rank": str(2**31)}, "100000"),
        ({"action": "guest", "name": "Zala", "club_name": "c" * 101}, "100"),
        ({"action": "import", "text": "name,club,rank\nZala,Bled,2147483648"}, "line 2"),
        # A list's id is the player's licence in his federation (issue 30).
        ({"action": "import", "text": "Zala,Bled,3," + "i" * 41}, "at most 40 characters"),
        ({"action": "import", "text": "Zala," + "c" * 101}, "at most 100"),
        (
            {"action": "import", "text": "Zala,Bled\rMaja,Kranj\r\x00"},
            "Null characters are not allowed",
        ),
        ({"action": "import", "text": "Zala\u202e,Bled"}, "invisible or control"),
        ({"action": "withdraw", "entry": "abc"}, "no such entry"),
        ({"action": "withdraw", "entry": "9" * 30}, "no such entry"),
    ],
    ids=[
        "rank-2-31",
        "guest-club-101",
        "list-rank-2-31",
        "list-id-41",
        "list-club-101",
        "list-nul",
        "list-rtl",
        "entry-abc",
        "entry-huge",
    ],
)
def test_an_entry_refused(director, data, text):
    _club, t, client = director
    before = snapshot()
    response = client.post(url("tournament_entries", pk=t.pk), data)
    assert response.status_code == 422
    shown = " ".join(str(m) for m in response.context["messages"])
    assert text in shown, shown
    assert snapshot() == before


def test_a_list_with_lone_carriage_returns_is_read_line_by_line(director):
    """An old spreadsheet's lone carriage returns end lines as any line break does."""
    _club, t, client = director
    response = client.post(
        url("tournament_entries", pk=t.pk), {"action": "import", "text": "Zala,Bled\rMaja,Kranj"}
    )
    assert response.status_code == 302
    assert set(t.entries.values_list("name", flat=True)) >= {"Zala", "Maja"}


@pytest.mark.parametrize("token", ["%00", "abc%00def", "a" * 65, "..%2F..", "%E2%80%AE"])
def test_a_link_token_outside_the_alphabet_is_a_404(director, client, token):
    """An anonymous request to a round table's link with a NUL byte or another character the
    link never holds answers 404, not 500."""
    response = client.get(f"/c/kranj/link/{token}/")
    assert response.status_code == 404
