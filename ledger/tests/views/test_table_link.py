"""A round table's own link (issue 21 part 4): one phone or tablet at the table, logged in or
not, scores that table for the round and nothing else of the club or the event."""

import datetime
import random

import pytest
from django.test import Client
from django.urls import reverse

from ledger.models import Hand, HandRevision, Member, Round, RoundTable
from ledger.selectors.verify import verify_ledger
from ledger.services import tournaments as tour
from ledger.tests.factories import make_club, make_member, make_tournament
from ledger.tests.helpers import client_for, found, hand_post, next_random_record, set_round_start

pytestmark = pytest.mark.django_db

SLUG = "kranj"


def six_players(club, **params):
    """Return a Slovenian DP of six guests (two tables of three), round 1 published."""
    t = make_tournament(
        club, "ABCDEF", params=params or {"rounds": 2}, seed="link", players_club="Bled"
    )
    return tour.round_publish(round_=tour.round_draw(tournament=t))


@pytest.fixture
def club():
    return make_club(slug=SLUG, name="Tarok Kranj", game="slovenian_tarok", language="en")


@pytest.fixture
def playing(club):
    round_ = tour.round_start(round_=six_players(club))
    return {rt.number: rt for rt in round_.round_tables.select_related("table__evening")}


def link(rt) -> str:
    return reverse("table_link", kwargs={"club": SLUG, "token": rt.token})


def save(client, table, rng, **extra):
    """POST the table's next hand from ``client`` as the entry screen does."""
    url = reverse("hand_new", kwargs={"club": SLUG, "pk": table.pk})
    return client.post(url, hand_post(table, next_random_record(table, rng), **extra))


def test_the_link_opens_the_entry_screen_with_the_round_and_scores_that_table(playing):
    """A phone nobody logged in on opens table 1's link: it lands on the entry screen, which
    shows the round, the table, the hands against the target and the clock, and saves hands
    there, signed by the table's link (round 1, table 1), not by nobody; the hand's page says
    so in words, and the link's log-in can never log in."""
    phone = Client()
    response = phone.get(link(playing[1]))
    entry = reverse("hand_new", kwargs={"club": SLUG, "pk": playing[1].table_id})
    assert response.status_code == 302 and response["Location"] == entry
    page = phone.get(entry).content.decode()
    assert 'id="round-strip"' in page and "DP Kranj" in page and "0 of 21 hands" in page
    left = int(found(r'data-clock-left="(\d+)"', page).group(1))
    assert 5300 < left <= 5400  # the round's 90 minutes, counted from its start
    assert 'id="begun-check"' in page and "hidden" in page.split('id="begun-check"')[1][:40]
    assert "nav-standings" not in page  # nothing else of the club to go to
    response = save(phone, playing[1].table, random.Random(1))
    assert response.status_code == 302
    hand = Hand.objects.get(table=playing[1].table)
    author = HandRevision.objects.get(hand=hand).by
    tournament = playing[1].round.tournament_id
    assert author is not None
    assert author.username == f"tarokclub-link-{tournament}-1-1" and hand.created_by == author
    assert not author.is_active and not author.has_usable_password()
    hand_page = phone.get(reverse("hand", kwargs={"club": SLUG, "pk": hand.pk}))
    assert "the link of round 1, table 1" in hand_page.content.decode()
    table_page = phone.get(response["Location"]).content.decode()
    assert "1 of 21 hands" in table_page and 'id="seating-admin"' not in table_page


def test_the_link_reaches_nothing_else(playing, club):
    """The device holding table 1's link gets 404 for table 2 and its hands, and the log-in
    page for every other page of the club: its evenings, standings, seating, the event."""
    phone = Client()
    phone.get(link(playing[1]))
    other = playing[2].table
    rng = random.Random(2)
    director = client_for(make_member(club, "Direktor", role=Member.Role.ADMIN, login=True).user)
    assert save(director, other, rng).status_code == 302
    other_hand = Hand.objects.get(table=other)
    for name, pk in (("table", other.pk), ("hand_new", other.pk), ("hand", other_hand.pk)):
        assert phone.get(reverse(name, kwargs={"club": SLUG, "pk": pk})).status_code == 404
    assert save(phone, other, rng).status_code == 404
    t = playing[1].round.tournament
    closed = [
        reverse("club", kwargs={"club": SLUG}),
        reverse("evening", kwargs={"club": SLUG, "pk": t.evening_id}),
        reverse("standings", kwargs={"club": SLUG}),
        reverse("tournament_standings", kwargs={"club": SLUG, "pk": t.pk}),
        reverse("tournament_round", kwargs={"club": SLUG, "pk": playing[1].round_id}),
    ]
    for url in closed:
        response = phone.get(url)
        assert response.status_code == 302 and "/login/" in response["Location"], url
    seat = reverse("table_seat", kwargs={"club": SLUG, "pk": playing[1].table_id})
    assert "/login/" in phone.post(seat, {"member": 1})["Location"]


def test_one_device_holds_the_link_until_the_director_hands_it_over(playing, club):
    """A second phone is told the link is held (409) and cannot save; after the director
    hands the link over the second phone holds it and the first is sent to log in."""
    first, second = Client(), Client()
    first.get(link(playing[1]))
    response = second.get(link(playing[1]))
    assert response.status_code == 409 and 'data-state="held"' in response.content.decode()
    rng = random.Random(3)
    assert "/login/" in save(second, playing[1].table, rng)["Location"]
    assert not Hand.objects.filter(table=playing[1].table).exists()
    director = client_for(make_member(club, "Direktor", role=Member.Role.ADMIN, login=True).user)
    release = reverse("tournament_round_release", kwargs={"club": SLUG, "pk": playing[1].round_id})
    assert director.post(release, {"table": 1}).status_code == 302
    assert RoundTable.objects.get(pk=playing[1].pk).device == ""
    assert second.get(link(playing[1])).status_code == 302
    assert save(second, playing[1].table, rng).status_code == 302
    assert "/login/" in save(first, playing[1].table, rng)["Location"]
    assert Hand.objects.filter(table=playing[1].table).count() == 1
    assert Round.objects.get(pk=playing[1].round_id).log[-1]["action"] == "release"
    page = director.get(
        reverse("tournament_round", kwargs={"club": SLUG, "pk": playing[1].round_id})
    ).content.decode()
    log = page.split('id="log"', 1)[1].split("</ul>", 1)[0]
    assert "published" in log and "link handed over (table 1) · " in log  # words, not codes
    assert "release" not in log


def test_a_scorekeeper_of_the_club_opening_the_link_leaves_it_to_the_table(playing, club):
    """The director (or any scorekeeper) who opens a table's link goes to the table without
    taking the link from the table's phone."""
    director = client_for(make_member(club, "Direktor", role=Member.Role.ADMIN, login=True).user)
    assert director.get(link(playing[1])).status_code == 302
    assert RoundTable.objects.get(pk=playing[1].pk).device == ""
    assert Client().get(link(playing[1])).status_code == 302


def test_before_the_start_the_link_waits_and_after_the_close_it_is_over(club):
    """A published round's link shows the table's seats and waits for the clock (its page
    reloads itself); a closed round's link is over and its device scores nothing more."""
    round_ = six_players(club)
    rt = round_.round_tables.get(number=1)
    phone = Client()
    page = phone.get(link(rt)).content.decode()
    assert 'data-state="waiting"' in page and 'hx-trigger="every 10s"' in page
    assert "The clock has not started" in page and "A" in page
    round_ = tour.round_start(round_=round_)
    response = phone.get(link(rt), HTTP_HX_REQUEST="true")
    rt.refresh_from_db()
    entry = reverse("hand_new", kwargs={"club": SLUG, "pk": rt.table_id})
    assert response.headers["HX-Redirect"] == entry
    tour.round_close(round_=round_)
    assert 'data-state="over"' in phone.get(link(rt)).content.decode()
    assert "/login/" in phone.get(entry)["Location"]


def test_after_the_close_the_phone_shows_the_tables_result_and_where_its_players_sit_next(club):
    """Once its round closes, a table's phone shows each of its players' result of the round
    and looks again by itself; as soon as the next round is published it names, for each of
    the table's players, his table and seat there (as Bridgemate tells a table where to move),
    and stops looking."""
    round_ = tour.round_start(round_=six_players(club))
    rt = round_.round_tables.get(number=1)
    phone = Client()
    phone.get(link(rt))
    tour.round_close(round_=round_)
    page = phone.get(link(rt)).content.decode()
    assert 'id="link-results"' in page and 'id="link-next-wait"' in page
    assert 'hx-trigger="every 10s"' in page
    names = dict(round_.tournament.entries.values_list("code", "name"))
    for code in rt.seats:
        assert f'data-player="{names[code]}"' in page
    following = tour.round_publish(round_=tour.round_draw(tournament=round_.tournament))
    page = phone.get(link(rt)).content.decode()
    assert 'id="link-next"' in page and 'hx-trigger="every 10s"' not in page
    for number, seats in enumerate(following.tables, 1):
        for seat, code in enumerate(seats, 1):
            if code in rt.seats:
                assert f"{names[code]}: table {number}, seat {seat}" in page


def test_the_table_reports_a_missing_player_to_the_director(playing, club):
    """The phone ticks who is not there; the director's round page names him; a device that
    does not hold the link reports nothing."""
    phone = Client()
    phone.get(link(playing[2]))
    missing = reverse("table_link_missing", kwargs={"club": SLUG, "token": playing[2].token})
    absent = playing[2].seats[1]
    assert Client().post(missing, {"missing": [absent]}).status_code == 302
    assert RoundTable.objects.get(pk=playing[2].pk).missing == []
    assert phone.post(missing, {"missing": [absent]}).status_code == 302
    assert RoundTable.objects.get(pk=playing[2].pk).missing == [absent]
    assert phone.post(missing, {"missing": ["nobody"]}).status_code == 302  # refused, said
    assert RoundTable.objects.get(pk=playing[2].pk).missing == [absent]
    director = client_for(make_member(club, "Direktor", role=Member.Role.ADMIN, login=True).user)
    page = director.get(
        reverse("tournament_round", kwargs={"club": SLUG, "pk": playing[2].round_id})
    ).content.decode()
    name = playing[2].round.tournament.entries.get(code=absent).name
    assert 'id="late-players"' in page and f"{name} (table 2)" in page


def test_after_the_signal_one_hand_is_marked_begun_and_a_second_is_refused(playing):
    """Section 10 on the table's phone: after the signal the entry screen shows the mark;
    one hand marked begun before the signal is taken and noted, a second is refused naming
    the rule, and a plain hand typed in the grace is still taken."""
    phone = Client()
    phone.get(link(playing[1]))
    table = playing[1].table
    rng = random.Random(4)
    early = save(phone, table, rng, begun_before_signal="1")
    assert early.status_code == 422 and b"the signal has not been given yet" in early.content
    set_round_start(
        playing[1].round_id, playing[1].round.started_at - datetime.timedelta(minutes=92)
    )
    page = phone.get(reverse("hand_new", kwargs={"club": SLUG, "pk": table.pk})).content
    assert b'id="begun-check" data-after-signal>' in page and b"Time is up" in page
    assert save(phone, table, rng).status_code == 302  # typed in the grace
    assert save(phone, table, rng, begun_before_signal="1").status_code == 302
    assert RoundTable.objects.get(pk=playing[1].pk).signal_hand == 2
    again = save(phone, table, rng, begun_before_signal="1")
    assert again.status_code == 422
    assert b"only one hand may be marked begun before the signal" in again.content
    assert Hand.objects.filter(table=table).count() == 2
    assert verify_ledger().ok


def test_the_cards_carry_each_tables_link_as_a_qr_code(playing, club):
    """The round's table cards (PDF) name each table, its players in seat order and its own
    link; the link read back from the PDF is the table's."""
    from io import BytesIO

    from pypdf import PdfReader

    director = client_for(make_member(club, "Direktor", role=Member.Role.ADMIN, login=True).user)
    url = reverse("tournament_round_cards_pdf", kwargs={"club": SLUG, "pk": playing[1].round_id})
    response = director.get(url)
    assert response["Content-Type"] == "application/pdf"
    text = "".join(p.extract_text() for p in PdfReader(BytesIO(response.content)).pages)
    text = text.replace("\n", "")
    for rt in playing.values():
        assert f"Table {rt.number}" in text and rt.token in text


def test_the_director_seats_a_substitute_from_the_round_page(playing, club):
    """The round page's form seats a guest for a drawn player (the table's seat changes hands
    at once); a form naming neither a member nor a guest is refused, naming the rule."""
    director = client_for(make_member(club, "Direktor", role=Member.Role.ADMIN, login=True).user)
    url = reverse("tournament_round_substitute", kwargs={"club": SLUG, "pk": playing[2].round_id})
    absent = playing[2].seats[0]
    response = director.post(url, {"absent": absent}, follow=True)
    assert "choose a member or type a guest" in response.content.decode()
    assert RoundTable.objects.get(pk=playing[2].pk).substitutes == {}
    response = director.post(url, {"absent": absent, "guest_name": "Rezerva"}, follow=True)
    assert "The substitute is seated." in response.content.decode()
    assert RoundTable.objects.get(pk=playing[2].pk).substitutes[absent]["name"] == "Rezerva"
    seated = [s.name for s in playing[2].table.seats.filter(left=False).order_by("position")]
    assert seated[0] == "Rezerva" and len(seated) == 3
    page = response.content.decode()
    assert "Rezerva plays for" in page
