"""A running tournament's evening is the tournament's (issue 27 item 1): the club's pages show
the club's evening and the day's tournaments apart, and every club role's screen and post on the
tournament's evening is refused, naming the tournament, writing nothing."""

import pytest
from django.urls import reverse

from ledger import services
from ledger.models import Evening, Posting, Table
from ledger.selectors.verify import verify_ledger
from ledger.services import tournaments as tour
from ledger.tests.factories import make_club, make_member, make_tournament
from ledger.tests.helpers import client_for

pytestmark = pytest.mark.django_db

NAMES = ["Ana", "Bor", "Cene", "Dana", "Eva", "Franc"]


@pytest.fixture
def playing():
    """A Slovenian club with its treasurer; a 6-player DP's round 1 being played, and the club's
    own evening of the same date open beside it."""
    club = make_club(slug="kranj", name="Tarok Kranj", game="slovenian_tarok")
    treasurer = make_member(club, "Tina", role="treasurer", login=True)
    t = make_tournament(club, NAMES, name="DP Kranj")
    r = tour.round_draw(tournament=t)
    tour.round_publish(round_=r)
    r = tour.round_start(round_=r)
    t.refresh_from_db()
    club_evening = services.evening_open(club=club, date=t.date)
    return club, t, r, club_evening, client_for(treasurer.user)


def url(name, **kwargs):
    return reverse(name, kwargs={"club": "kranj", **kwargs})


def test_the_club_page_shows_the_club_evening_and_the_tournament_apart(playing):
    club, t, _r, club_evening, client = playing
    page = client.get(url("club")).content.decode()
    assert url("evening", pk=club_evening.pk) in page
    assert url("evening", pk=t.evening_id) not in page
    assert url("tournament_standings", pk=t.pk) in page and "DP Kranj" in page


def test_the_director_is_led_to_the_tournament_page(playing):
    club, t, _r, _club_evening, _client = playing
    director = make_member(club, "Dora", role="admin", login=True)
    response = client_for(director.user).get(url("evening", pk=t.evening_id))
    assert response.status_code == 302 and response["Location"] == t.get_absolute_url()


@pytest.mark.parametrize("name", ["evening", "evening_wall", "evening_treasury", "table_new"])
def test_a_club_screen_of_the_tournament_evening_leads_to_the_tournament(playing, name):
    _club, t, _r, _club_evening, client = playing
    response = client.get(url(name, pk=t.evening_id), follow=True)
    assert response.redirect_chain[0][0] == url("tournament_standings", pk=t.pk)
    assert response.status_code == 200 and "DP Kranj" in response.content.decode()


def test_the_treasurer_cannot_close_the_tournament_evening(playing):
    """The post a treasurer's screen would send is refused; the round's tables stay open."""
    _club, t, r, _club_evening, client = playing
    response = client.post(url("treasury_close", pk=t.evening_id), {"confirm_differences": "on"})
    assert response.status_code in (302, 422)
    assert Evening.objects.get(pk=t.evening_id).status == Evening.Status.OPEN
    assert Table.objects.filter(round_table__round=r, status="open").count() == 2
    assert not Posting.objects.filter(kind=Posting.Kind.SPLIT).exists()


def test_a_scorekeeper_cannot_open_a_table_in_the_tournament_evening(playing):
    club, t, _r, _club_evening, client = playing
    members = [make_member(club, n) for n in ("Gal", "Hana", "Ivo")]
    before = Table.objects.count()
    client.post(
        url("table_new", pk=t.evening_id),
        {"members": [m.pk for m in members], "first_dealer": members[0].pk},
    )
    assert Table.objects.count() == before


def test_starting_the_club_evening_goes_to_the_club_evening(playing):
    """ "Start an evening" on the tournament's date finds the club's own open evening."""
    _club, t, _r, club_evening, client = playing
    response = client.post(url("evening_start"), {"date": t.date.isoformat()})
    assert response.status_code == 302
    assert response["Location"] == url("evening", pk=club_evening.pk)


def test_an_abandoned_published_tournament_is_cancelled_and_leaves_the_public_page():
    """The director cancels a tournament whose round 1 is published but never started: the
    draw is withdrawn (its links lead nowhere), the tournament is no longer running nor on the
    public page; a reason is required, a round being played must be closed first."""
    club = make_club(slug="kranj", name="Tarok Kranj", game="slovenian_tarok", language="en")
    club.publish_results = True
    club.save()
    director = client_for(make_member(club, "Dora", role="admin", login=True).user)
    t = make_tournament(club, NAMES, name="DP Kranj")
    r = tour.round_publish(round_=tour.round_draw(tournament=t))
    first = r.round_tables.first()
    assert first is not None
    token = first.token
    public = reverse("public_club", kwargs={"club": "kranj"})
    assert "DP Kranj" in director.get(public).content.decode()
    refused = director.post(url("tournament_cancel", pk=t.pk), {"reason": " "})
    assert refused.status_code == 422 and "needs a reason" in refused.content.decode()
    response = director.post(url("tournament_cancel", pk=t.pk), {"reason": "the hall is shut"})
    assert response.status_code == 302
    t.refresh_from_db()
    r.refresh_from_db()
    assert t.status == "cancelled" and r.status == "drafted"
    assert t.log[-1]["action"] == "cancel" and t.log[-1]["reason"] == "the hall is shut"
    assert "DP Kranj" not in director.get(public).content.decode()
    public_page = reverse("public_tournament", kwargs={"club": "kranj", "pk": t.pk})
    assert director.get(public_page).status_code == 404
    assert director.get(url("table_link", token=token)).status_code == 404
    assert verify_ledger().ok


def test_a_tournament_with_a_round_being_played_is_not_cancelled(playing):
    _club, t, r, _club_evening, _client = playing
    from ledger.services.errors import LedgerError

    with pytest.raises(LedgerError, match="close it first"):
        tour.tournament_cancel(tournament=t, reason="rain")
    t.refresh_from_db()
    assert t.status == "running"
