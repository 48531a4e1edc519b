"""The director's screens of a tournament of several days (issue 27): its days on the form,
the rounds grouped by day, a round's day chosen when drawn and moved before it starts, and
the refusals shown naming the field."""

import datetime

import pytest
from django.urls import reverse

from ledger.models import Round, Tournament
from ledger.services import tournaments as tour
from ledger.tests.factories import make_club, make_member
from ledger.tests.helpers import client_for, english, pdf_text, score_table

pytestmark = pytest.mark.django_db

FIRST = datetime.date(2026, 11, 7)
SECOND = datetime.date(2026, 11, 8)
NAMES = ["Ana", "Bor", "Cene", "Dana", "Eva", "Franc"]


@pytest.fixture
def director():
    club = make_club(slug="kranj", name="Tarok Kranj", game="slovenian_tarok")
    admin = make_member(club, "Director", role="admin", login=True)
    client = client_for(admin.user)
    english(client)
    return club, client


def url(name, **kwargs):
    return reverse(name, kwargs={"club": "kranj", **kwargs})


def created(client) -> Tournament:
    response = client.post(
        url("tournaments"),
        {
            "name": "Finals",
            "date": FIRST.isoformat(),
            "last_date": SECOND.isoformat(),
            "game": "slovenian_tarok",
            "tournament_format": "sl_dp",
            "params": '{"rounds": 3}',
            "seed": "F",
        },
    )
    t = Tournament.objects.get()
    assert response.status_code == 302
    lines = "\n".join(f"{n},Kranj,{i + 1}" for i, n in enumerate(NAMES))
    tour.entries_import(tournament=t, text="name,club,rank\n" + lines)
    return t


def play(round_: Round) -> Round:
    round_ = tour.round_start(round_=tour.round_publish(round_=round_))
    for rt in round_.round_tables.select_related("table", "round__tournament"):
        score_table(rt, dict(zip(rt.seats, (20, -5, -15), strict=True)))
    return tour.round_close(round_=round_)


def test_a_two_day_tournament_on_the_directors_pages(director):
    club, client = director
    t = created(client)
    assert (t.date, t.last_date) == (FIRST, SECOND)
    page = client.get(url("tournaments")).content.decode()
    assert "Nov. 7, 2026 – Nov. 8, 2026" in page or "November 7, 2026 – November 8, 2026" in page
    page = client.get(url("tournament", pk=t.pk)).content.decode()
    # The draw offers the tournament's days, the first chosen (the tournament is past).
    assert 'name="day"' in page and f'value="{FIRST.isoformat()}" selected' in page
    assert 'id="days-form"' in page
    response = client.post(url("tournament_draw", pk=t.pk), {"day": FIRST.isoformat()})
    r1 = Round.objects.get(tournament=t, number=1)
    assert response.status_code == 302 and r1.day == FIRST
    play(r1)
    client.post(url("tournament_draw", pk=t.pk), {"day": SECOND.isoformat()})
    r2 = Round.objects.get(tournament=t, number=2)
    assert r2.day == SECOND
    page = client.get(url("tournament_round", pk=r2.pk)).content.decode()
    assert 'id="round-day"' in page and 'id="day-form"' in page
    play(r2)
    page = client.get(url("tournament", pk=t.pk)).content.decode()
    assert page.count('class="round-day"') == 2
    assert page.index(f'data-day="{FIRST.isoformat()}"') < page.index('data-round="1"')
    assert page.index('data-round="1"') < page.index(f'data-day="{SECOND.isoformat()}"')
    assert page.index(f'data-day="{SECOND.isoformat()}"') < page.index('data-round="2"')
    r1 = Round.objects.get(pk=r1.pk)
    r2 = Round.objects.get(pk=r2.pk)
    assert url("evening", pk=r1.evening_id) in page and url("evening", pk=r2.evening_id) in page
    # The round's sheet names its day, the round page its table sheet at its own evening.
    _, text = pdf_text(client.get(url("tournament_round_pdf", pk=r2.pk)).content)
    assert "Nov. 8, 2026" in text
    page = client.get(url("tournament_round", pk=r2.pk)).content.decode()
    first = r2.round_tables.first()
    assert first is not None
    table = first.table_id
    assert (
        reverse("table_sheet_pdf", kwargs={"club": "kranj", "pk": r2.evening_id, "table": table})
        in page
    )
    # The public page groups the published draws by day.
    club.publish_results = True
    club.save(update_fields=["publish_results"])
    public = client_for(None).get(
        reverse("public_tournament", kwargs={"club": "kranj", "pk": t.pk})
    )
    page = public.content.decode()
    assert page.count('class="round-day"') == 2
    assert page.index(f'data-day="{SECOND.isoformat()}"') < page.index('data-round="2"')


def test_the_days_refused_on_the_pages_name_the_field(director):
    club, client = director
    t = created(client)
    response = client.post(
        url("tournament_days", pk=t.pk),
        {"date": SECOND.isoformat(), "last_date": FIRST.isoformat()},
        follow=True,
    )
    assert "the last day cannot come before the first" in response.content.decode()
    response = client.post(
        url("tournament_days", pk=t.pk), {"date": FIRST.isoformat(), "last_date": "x"}, follow=True
    )
    assert "Last day: Enter a valid date." in response.content.decode()
    t.refresh_from_db()
    assert (t.date, t.last_date) == (FIRST, SECOND)
    response = client.post(url("tournament_draw", pk=t.pk), {"day": "2026-11-30"}, follow=True)
    assert "Day: Select a valid choice." in response.content.decode()
    assert not t.rounds.exists()
    r1 = play(tour.round_draw(tournament=t, day=SECOND))
    response = client.post(
        url("tournament_round_day", pk=r1.pk), {"day": FIRST.isoformat()}, follow=True
    )
    assert "the day of a round already started never changes" in response.content.decode()
    r2 = tour.round_draw(tournament=t)
    response = client.post(
        url("tournament_round_day", pk=r2.pk), {"day": FIRST.isoformat()}, follow=True
    )
    assert "a later round cannot come on an earlier day" in response.content.decode()
    assert Round.objects.get(pk=r2.pk).day == SECOND
    # The days move while every round fits them.
    response = client.post(
        url("tournament_days", pk=t.pk),
        {"date": FIRST.isoformat(), "last_date": (SECOND + datetime.timedelta(days=1)).isoformat()},
    )
    t.refresh_from_db()
    assert t.last_date == SECOND + datetime.timedelta(days=1)
    client.post(
        url("tournament_round_day", pk=r2.pk),
        {"day": (SECOND + datetime.timedelta(days=1)).isoformat()},
    )
    assert Round.objects.get(pk=r2.pk).day == SECOND + datetime.timedelta(days=1)


def test_a_one_day_tournament_shows_no_days(director):
    club, client = director
    response = client.post(
        url("tournaments"),
        {
            "name": "Cup",
            "date": FIRST.isoformat(),
            "game": "slovenian_tarok",
            "tournament_format": "sl_dp",
        },
    )
    assert response.status_code == 302
    t = Tournament.objects.get()
    assert t.last_date == FIRST
    page = client.get(url("tournament", pk=t.pk)).content.decode()
    assert 'class="round-day"' not in page and 'name="day"' not in page
