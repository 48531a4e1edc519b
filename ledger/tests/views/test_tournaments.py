"""The director's screens (issue 21 part 3): a tournament from creation to the final ranking
through the pages, the hall's wall and the ranking's exports."""

import json
import random
import re

import pytest
from django.core.cache import cache
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext

from ledger.models import Club, Entry, Round, Tournament, Transfer
from ledger.selectors.round_tables import draw_of
from ledger.services import tournaments as tour
from ledger.tests.factories import make_club, make_member, make_tournament
from ledger.tests.helpers import client_for, first_hand_again, random_hand_at

pytestmark = pytest.mark.django_db

NAMES = ["Ana", "Bor", "Cene", "Dana", "Eva", "Franc"]


@pytest.fixture
def director():
    club = make_club(slug="kranj", name="Tarok Kranj", game="slovenian_tarok")
    admin = make_member(club, "Director", role="admin", login=True)
    for name in NAMES[:2]:
        make_member(club, name)
    return club, client_for(admin.user)


def url(name, **kwargs):
    return reverse(name, kwargs={"club": "kranj", **kwargs})


def page_queries(client, t, r) -> dict[str, int]:
    out = {}
    for name, pk in (
        ("tournament", t.pk),
        ("tournament_standings", t.pk),
        ("tournament_wall", t.pk),
        ("tournament_round", r.pk),
    ):
        with CaptureQueriesContext(connection) as captured:
            assert client.get(url(name, pk=pk)).status_code == 200
        out[name] = len(captured.captured_queries)
    return out


def test_a_tournament_from_creation_to_the_final_ranking(director):
    club, client = director
    response = client.post(
        url("tournaments"),
        {
            "name": "DP Kranj",
            "date": "2026-12-05",
            "game": "slovenian_tarok",
            "tournament_format": "sl_dp",
            "params": '{"rounds": 2}',
            "seed": "S1",
        },
    )
    t = Tournament.objects.get()
    assert response.status_code == 302 and response["Location"] == url("tournament", pk=t.pk)
    listed = client.get(url("tournaments")).content.decode()
    assert f'<tr data-tournament="{t.pk}"' in listed
    assert f'<a href="{url("tournament", pk=t.pk)}">DP Kranj</a>' in listed
    entries = url("tournament_entries", pk=t.pk)
    client.post(entries, {"action": "members", "names": "Ana, Bor"})
    client.post(entries, {"action": "guest", "name": "Cene", "club_name": "Bled"})
    client.post(entries, {"action": "import", "text": "Dana,Bled,1\nEva,Bled,2\nFranc,,3\n"})
    assert Entry.objects.filter(tournament=t).count() == 6
    page = client.get(url("tournament", pk=t.pk)).content.decode()
    assert 'data-entry="Cene"' in page and "club-members" in page

    response = client.post(url("tournament_draw", pk=t.pk))
    r = Round.objects.get(tournament=t, number=1)
    assert response["Location"] == url("tournament_round", pk=r.pk)
    page = client.get(url("tournament_round", pk=r.pk)).content.decode()
    assert page.count('class="draw-table"') == 2 and 'id="swap-form"' in page
    a, b = r.tables[0][1], r.tables[1][1]
    client.post(url("tournament_round_swap", pk=r.pk), {"first": a, "second": b})
    r.refresh_from_db()
    assert r.tables[0][1] == b and r.mode == "manual"
    client.post(url("tournament_round_publish", pk=r.pk))
    client.post(url("tournament_round_start", pk=r.pk))
    r.refresh_from_db()
    assert r.status == "playing"
    page = client.get(url("tournament_round", pk=r.pk)).content.decode()
    assert 'id="round-clock"' in page and page.count('data-hands="0"') == 2
    wall = client.get(url("tournament_wall", pk=t.pk)).content.decode()
    assert 'id="wall-clock"' in wall and wall.index('data-player="Ana"') < wall.index(
        'data-player="Bor"'
    )
    asked = client.post(url("tournament_round_close", pk=r.pk))
    assert asked.status_code == 200 and 'id="close-confirm"' in asked.content.decode()
    r.refresh_from_db()
    assert r.status == "playing"  # one tap closes nothing
    client.post(url("tournament_round_close", pk=r.pk), {"confirm": "1"})
    r.refresh_from_db()
    assert r.status == "closed"
    after_one = page_queries(client, t, r)

    client.post(url("tournament_draw", pk=t.pk))
    r2 = Round.objects.get(tournament=t, number=2)
    for step in ("publish", "start", "close"):
        client.post(url(f"tournament_round_{step}", pk=r2.pk), {"confirm": "1"})
    t.refresh_from_db()
    assert t.status == "provisional"
    assert page_queries(client, t, r) == after_one  # a fixed number, whatever the rounds
    standings = client.get(url("tournament_standings", pk=t.pk)).content.decode()
    assert standings.count("data-player=") == 6
    csv = client.get(url("tournament_standings", pk=t.pk) + "?_export=csv")
    assert csv.status_code == 200 and "Ana" in csv.content.decode()
    pdf = client.get(url("tournament_ranking_pdf", pk=t.pk))
    assert pdf["Content-Type"] == "application/pdf" and pdf.content.startswith(b"%PDF")
    sheet = client.get(url("tournament_round_pdf", pk=r2.pk))
    assert sheet.content.startswith(b"%PDF")
    client.post(url("tournament_finish", pk=t.pk))
    t.refresh_from_db()
    assert t.status == "final"
    client.post(url("tournament_reopen", pk=t.pk), {"reason": ""})
    t.refresh_from_db()
    assert t.status == "final"  # a reason is required
    client.post(url("tournament_reopen", pk=t.pk), {"reason": "a score misread at table 2"})
    t.refresh_from_db()
    assert t.status == "provisional" and t.log[-1]["reason"] == "a score misread at table 2"


def test_a_refused_entry_is_a_message_and_writes_nothing(director):
    club, client = director
    client.post(
        url("tournaments"),
        {
            "name": "X",
            "date": "2026-12-05",
            "game": "slovenian_tarok",
            "tournament_format": "sl_dp",
        },
    )
    t = Tournament.objects.get()
    response = client.post(
        url("tournament_entries", pk=t.pk),
        {"action": "import", "text": "Dana,Bled,1\nEva,Bled,zero\n"},
        follow=True,
    )
    with translation.override(response["Content-Language"]):
        assert gettext("line {line}: ").format(line=2) in response.content.decode()
    assert not Entry.objects.exists()


def test_bad_parameters_are_shown_on_the_form(director):
    club, client = director
    response = client.post(
        url("tournaments"),
        {
            "name": "X",
            "date": "2026-12-05",
            "game": "slovenian_tarok",
            "tournament_format": "sl_dp",
            "params": '{"rounds": "four"}',
        },
    )
    assert response.status_code == 422 and "params.rounds" in response.content.decode()
    assert not Tournament.objects.exists()


def test_the_public_page_shows_the_ranking_and_the_published_draws(director):
    club, client = director
    t = make_tournament(club, NAMES, name="Odprti turnir", players_club="Bled")
    r = tour.round_draw(tournament=t)
    public = reverse("public_tournament", kwargs={"club": "kranj", "pk": t.pk})
    assert client.get(public).status_code == 404  # the club keeps its results private
    club.publish_results = True
    club.save(update_fields=["publish_results"])
    anonymous = client_for(None)
    page = anonymous.get(public).content.decode()
    assert page.count("data-player=") == 6 and "data-round" not in page  # not yet published
    tour.round_publish(round_=r)
    page = anonymous.get(public).content.decode()
    assert page.count('data-table="') == 2 and 'data-round="1"' in page


def test_the_director_corrects_a_hand_of_a_closed_round_on_the_hand_form(director):
    """The hand form of a closed round's table: open to the director, the correction goes
    through tournament_hand_correct; after the period it asks for the override."""
    club, client = director
    t = make_tournament(club, NAMES, name="DP")
    r = tour.round_draw(tournament=t)
    tour.round_publish(round_=r)
    r = tour.round_start(round_=r)
    table = r.round_tables.select_related("table__evening").get(number=1).table
    assert table is not None
    rng = random.Random(4)
    hand = random_hand_at(table, rng)
    tour.round_close(round_=r)
    page = client.get(url("hand", pk=hand.pk)).content.decode()
    assert 'id="correct-hand"' in page
    form = client.get(url("hand_correct", pk=hand.pk))
    assert form.status_code == 200 and 'id="tournament-correction"' in form.content.decode()
    record = first_hand_again(table, random.Random(8))
    response = client.post(
        url("hand_correct", pk=hand.pk),
        {"record": json.dumps(record), "reason": "misread", "base_revision": 1},
        headers={"X-Hand-Submit": "1"},
    )
    assert response.status_code == 200, response.content.decode()[:500]
    hand.refresh_from_db()
    assert hand.revisions.count() == 2
    r.refresh_from_db()
    assert r.log[-1]["action"] == "correct" and r.log[-1]["after_period"] is False
    assert table is not None
    table.refresh_from_db()
    assert table.status == "closed"
    page = client.get(url("tournament_round", pk=r.pk)).content.decode()
    assert 'id="corrections"' in page and "misread" in page
    assert client.get(url("tournament_round_pdf", pk=r.pk)).content.startswith(b"%PDF")


def test_a_stale_tournament_correction_is_refused(director):
    """Two corrections sent from forms showing the same revision: the first applies, the
    second (based on a revision that is no longer the latest) is refused as at an ordinary
    table, and the first is not lost."""
    club, client = director
    t = make_tournament(club, NAMES, name="DP")
    r = tour.round_draw(tournament=t)
    tour.round_publish(round_=r)
    r = tour.round_start(round_=r)
    table = r.round_tables.select_related("table__evening").get(number=1).table
    assert table is not None
    hand = random_hand_at(table, random.Random(4))
    tour.round_close(round_=r)
    sent = []
    for seed, reason in ((8, "first look"), (9, "second look")):
        record = first_hand_again(table, random.Random(seed))
        sent.append(
            client.post(
                url("hand_correct", pk=hand.pk),
                {"record": json.dumps(record), "reason": reason, "base_revision": 1},
                headers={"X-Hand-Submit": "1"},
            )
        )
    assert sent[0].status_code == 200 and sent[1].status_code == 422
    hand.refresh_from_db()
    assert hand.revisions.count() == 2
    last = hand.revisions.order_by("number").last()
    assert last is not None and last.reason == "first look"


def _closed_round(club):
    """A DP of ``NAMES`` whose first round is played (a random hand a table) and closed; the
    tournament and the hands played."""
    t = make_tournament(club, NAMES, name="DP")
    r = tour.round_draw(tournament=t)
    tour.round_publish(round_=r)
    r = tour.round_start(round_=r)
    rng = random.Random(3)
    played = []
    for rt in r.round_tables.select_related("table"):
        assert rt.table is not None
        played.append(random_hand_at(rt.table, rng))
    tour.round_close(round_=r)
    return t, played


def _annul_one(played) -> None:
    """Correct a played hand with transfers into an annulled one."""
    hand = next(h for h in played if Transfer.objects.filter(posting__hand=h).exists())
    annulled = {
        "format": "tarokclub.hand/1",
        "game": "slovenian_tarok",
        "dealer": hand.record["dealer"],
        "seats": hand.record["seats"],
        "annulled": True,
    }
    tour.tournament_hand_correct(hand=hand, record=annulled, reason="thrown in")


def test_the_kept_standings_follow_a_correction_and_a_withdrawal(director):
    """The standings page keeps the engine's lines and its table's rendering by the version of
    what they are computed from: a correction of a closed round or a withdrawal shows at once,
    exactly as a page rendered with nothing kept."""
    club, client = director
    t, played = _closed_round(club)
    page = url("tournament_standings", pk=t.pk)

    def table_of(response) -> str:
        html = response.content.decode()
        return html.split('id="tournament-standings"', 1)[1].split("</table>", 1)[0]

    def fresh() -> str:
        cache.clear()
        return table_of(client.get(page))

    first = table_of(client.get(page))
    with CaptureQueriesContext(connection) as captured:
        assert table_of(client.get(page)) == first  # kept
    # The next reader: the session, the user, the club with the membership (one query; were
    # two), the tournament.
    assert len(captured.captured_queries) == 4
    _annul_one(played)
    corrected = table_of(client.get(page))
    assert corrected != first and corrected == fresh()
    tour.entry_withdraw(entry=Entry.objects.get(tournament=t, name="Ana"))
    withdrawn = table_of(client.get(page))
    assert withdrawn != corrected and withdrawn == fresh()


def test_the_public_ranking_is_kept_as_the_directors_and_follows_a_correction(director):
    """The public ranking (a full hall's spectators) keeps the same ranking and rendering by
    the tournament's version: a second reader is served without ranking again, and a
    correction shows at once, as rendered with nothing kept."""
    club, _client = director
    Club.objects.filter(pk=club.pk).update(publish_results=True)
    t, played = _closed_round(club)
    page = reverse("public_tournament", kwargs={"club": club.slug, "pk": t.pk})
    spectator = Client()

    def table_of() -> str:
        html = spectator.get(page).content.decode()
        return html.split('id="tournament-standings"', 1)[1].split("</table>", 1)[0]

    cache.clear()
    first = table_of()
    with CaptureQueriesContext(connection) as kept:
        assert table_of() == first
    cache.clear()
    with CaptureQueriesContext(connection) as ranked:
        assert table_of() == first
    assert len(kept.captured_queries) < len(ranked.captured_queries)  # no standings read
    _annul_one(played)
    corrected = table_of()
    cache.clear()
    assert corrected != first and corrected == table_of()


def test_the_wall_shows_the_draw_until_the_first_round_closes(director):
    """Before any round has closed the hall's wall shows the published draw (each table's
    number and its players in seat order), not a ranking of all at 0 in lot order; a drafted
    draw is not shown; once round 1 closes the standings replace the draw, every entry of
    them (the wall pages them), and stay while round 2 is drawn and played."""
    club, client = director
    t = make_tournament(club, NAMES, params={"rounds": 2})
    wall = url("tournament_wall", pk=t.pk)
    page = client.get(wall).content.decode()
    assert gettext("No draw published yet.") in page and 'id="wall-ranking"' not in page

    r = tour.round_draw(tournament=t)
    page = client.get(wall).content.decode()
    assert 'data-table="1"' not in page and 'id="wall-ranking"' not in page  # a draft

    tour.round_publish(round_=r)
    names = dict(Entry.objects.filter(tournament=t).values_list("code", "name"))
    for step in ("published", "playing"):
        page = client.get(wall, headers={"HX-Request": "true"}).content.decode()
        assert 'id="wall-draw"' in page and 'id="wall-ranking"' not in page, step
        for number, seats in enumerate(r.tables, 1):
            row = page[page.index(f'<li data-table="{number}">') :]
            row = row[: row.index("</li>")]
            seated = [f'data-player="{names[c]}"' for c in seats]
            assert [row.index(s) for s in seated] == sorted(row.index(s) for s in seated)
        if step == "published":
            r = tour.round_start(round_=r)

    tour.round_close(round_=r)
    page = client.get(wall).content.decode()
    assert 'id="wall-ranking"' in page and 'id="wall-draw"' not in page
    assert page.count("<tr data-player=") == len(NAMES)
    r2 = tour.round_publish(round_=tour.round_draw(tournament=t))
    tour.round_start(round_=r2)
    page = client.get(wall).content.decode()
    assert 'id="wall-ranking"' in page and 'id="wall-draw"' not in page


def test_the_draw_by_table_keeps_seat_order_and_lists_the_byes():
    """``draw_of`` turns where-to-sit's alphabetical rows into the tables in number order,
    each its names in seat order, and the byes apart."""
    rows: list[dict] = [
        {"name": "Ana", "table": 2, "seat": 2},
        {"name": "Bor", "table": None, "seat": None},
        {"name": "Cene", "table": 1, "seat": 3},
        {"name": "Dana", "table": 2, "seat": 1},
        {"name": "Eva", "table": 1, "seat": 1},
        {"name": "Franc", "table": 1, "seat": 2},
    ]
    assert draw_of(rows) == {
        "tables": [
            {"number": 1, "names": ["Eva", "Franc", "Cene"]},
            {"number": 2, "names": ["Dana", "Ana"]},
        ],
        "byes": ["Bor"],
    }


def test_an_entrys_own_form_withdraws_and_removes_it_with_the_pages_token(director):
    """Each entry's row carries its form (token, address, the entry): posted as a browser
    posts it, with the CSRF check on, it removes the entry; once a round is drawn the row
    offers Withdraw too, and a finished tournament's rows offer no form at all."""
    club, _client = director
    t = make_tournament(club, ["Ana", "Bor", "Cene", "Dana"])
    client = Client(enforce_csrf_checks=True)
    client.force_login(club.members.get(name="Director").user)

    def row_form(name: str) -> dict:
        page = client.get(url("tournament", pk=t.pk)).content.decode()
        row = page[page.index(f'<tr data-entry="{name}"') :].split("</tr>")[0]
        fields = dict(re.findall(r'name="(csrfmiddlewaretoken|entry)" value="([^"]*)"', row))
        actions = re.findall(r'name="action" value="(\w+)"', row)
        address = re.findall(r'action="([^"]+)"', row)
        return {**fields, "action_url": address[0], "actions": actions}

    form = row_form("Dana")
    assert form["actions"] == ["remove"] and form["action_url"] == url(
        "tournament_entries", pk=t.pk
    )
    posted = {"csrfmiddlewaretoken": form["csrfmiddlewaretoken"], "entry": form["entry"]}
    assert client.post(form["action_url"], {**posted, "action": "remove"}).status_code == 302
    assert not Entry.objects.filter(tournament=t, name="Dana").exists()

    client.post(
        url("tournament_draw", pk=t.pk), {"csrfmiddlewaretoken": form["csrfmiddlewaretoken"]}
    )
    assert t.rounds.count() == 1
    assert row_form("Cene")["actions"] == ["withdraw", "remove"]
    Tournament.objects.filter(pk=t.pk).update(status=Tournament.Status.FINAL)
    page = client.get(url("tournament", pk=t.pk)).content.decode()
    assert 'data-entry="Cene"' in page and 'name="entry"' not in page
