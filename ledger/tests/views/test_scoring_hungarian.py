"""Hungarian Tarokk through the tablet's views (Django's test client): the entry form, the
preview's story, the worked examples posted as records, refusals, a correction, the close,
the sheet and the standings."""

from __future__ import annotations

import datetime
import json
import re
from decimal import Decimal

import pytest
from django.conf import settings
from django.urls import reverse

from ledger import selectors, services
from ledger.games.hungarian.engine.ratecard import GAME_CODE
from ledger.models import Evening, EveningResult, Hand, Member, Posting, Transfer
from ledger.selectors.verify import verify_ledger
from ledger.services.errors import LedgerError
from ledger.tests import factories
from ledger.tests.conftest import load_example
from ledger.tests.helpers import found, hand_post

pytestmark = pytest.mark.django_db

SLUG = "hu"
NAMES = ("Anna", "Bo", "Carl", "Dorte", "Erik")


def url(name, **kwargs):
    return reverse(name, kwargs={"club": SLUG, **kwargs})


@pytest.fixture
def club():
    return factories.make_club(
        slug=SLUG, name="Budapesti Tarokk Kör", game=GAME_CODE, price_per_point=Decimal("0.50")
    )


@pytest.fixture
def members(club):
    roles = {"Anna": Member.Role.SCOREKEEPER, "Bo": Member.Role.TREASURER}
    return {
        n: factories.make_member(club, n, roles.get(n, Member.Role.MEMBER), login=True)
        for n in NAMES
    }


@pytest.fixture
def evening(club):
    return services.evening_open(club=club, date=datetime.date(2026, 11, 5))


def open_table(evening, members, names=NAMES[:4], first="Dorte"):
    return services.table_open(
        evening=evening, members=[members[n] for n in names], first_dealer=members[first]
    )


def scorekeeper(client, members):
    client.force_login(members["Anna"].user)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    return client


def post(client, table, record, **headers):
    data = hand_post(table, record)
    return client.post(url("hand_new", pk=table.pk), data, headers=headers)


def example(name: str) -> tuple[dict, dict]:
    hand = load_example(f"{name}.hand.json")
    expected = load_example(f"{name}.expected.json")
    return hand, expected["net"]


def test_three_seats_are_refused_with_a_danish_message(client, members, evening):
    """A Hungarian table of 3 is refused on the table screen, in Danish, and nothing opens."""
    client.force_login(members["Anna"].user)
    data = {
        "seat_1": members["Anna"].pk,
        "seat_2": members["Bo"].pk,
        "seat_3": members["Carl"].pk,
        "first_dealer": 1,
    }
    response = client.post(reverse("table_new", kwargs={"club": SLUG, "pk": evening.pk}), data)
    assert response.status_code == 422
    assert (
        "et bord i dette spil har plads til 4 til 5 medlemmer, ikke 3" in response.content.decode()
    )
    assert not evening.tables.exists()
    with pytest.raises(LedgerError):
        open_table(evening, members, NAMES[:3], first="Anna")


def test_entry_screen_is_the_hungarian_form(client, members, evening):
    """The new-hand page is the Hungarian form: bids, the alone choice, figures, no cups."""
    table = open_table(evening, members)
    response = scorekeeper(client, members).get(url("hand_new", pk=table.pk))
    html = response.content.decode()
    assert response.status_code == 200
    assert "ledger/games/hungarian/entry.js" in html
    for bid in ("Három", "Kettő", "Egy", "Solo"):
        assert bid in html
    assert 'data-partner=""' in html  # called himself: alone
    for figure in ("dupla", "volat", "pagat_uhu", "king_uhu", "xxi_catch"):
        assert f'data-figure="{figure}"' in html
    assert "data-cup=" not in html
    assert "<script>" not in html  # config goes through json_script only
    config = json.loads(
        found(r'<script id="hand-config" type="application/json">(.*?)</script>', html, re.S).group(
            1
        )
    )
    assert config["game"] == GAME_CODE
    assert config["record"]["dealer"] == "Dorte"  # the rotation's first dealer
    assert config["sitting_out"]["Dorte"] == []
    assert "Tap the bid, the declarer and the partner" in html


@pytest.mark.parametrize("name", ["HU1", "HU2", "HU3", "HU4", "HU5", "HU7", "HU8"])
def test_worked_examples_posted_to_the_hand_form(client, members, evening, name):
    """Each 4-seat example posted as the form's record gives the spec's nets exactly."""
    hand, net = example(name)
    table = open_table(evening, members, first=hand["dealer"])
    client = scorekeeper(client, members)
    preview = client.post(url("hand_preview", pk=table.pk), {"record": json.dumps(hand)})
    html = preview.content.decode()
    assert 'data-preview="ok"' in html, html
    for member, points in net.items():
        assert re.search(rf'class="net[^"]*" data-net="{member}" data-points="{points}"', html)
    response = post(client, table, hand, **{"X-Hand-Submit": "1"})
    assert response.status_code == 200, response.content.decode()[:2000]
    assert response.json()["saved"] is True
    assert selectors.table_balances(table.pk) == net
    assert verify_ledger().ok


def test_hu6_at_five_seats_the_dealer_sits_out(client, members, evening):
    hand, net = example("HU6")
    table = open_table(evening, members, NAMES, first="Erik")
    client = scorekeeper(client, members)
    response = post(client, table, hand, **{"X-Hand-Submit": "1"})
    assert response.status_code == 200
    assert selectors.table_balances(table.pk) == net
    page = client.get(reverse("hand", kwargs={"club": SLUG, "pk": Hand.objects.get().pk}))
    text = page.content.decode()
    assert "Sitting out" in text and "Erik" in text
    assert "XXI-fogás" in text


def test_preview_tells_the_items_t_and_the_lone_declarer(client, members, evening):
    """HU2: the game ×4 (rekontra), pagát ultimó, the opponents' four kings, T, ×3 alone."""
    hand, _net = example("HU2")
    table = open_table(evening, members, first=hand["dealer"])
    response = scorekeeper(client, members).post(
        url("hand_preview", pk=table.pk), {"record": json.dumps(hand)}
    )
    story = found(r"<ul class=\"story\" data-story>(.*?)</ul>", response.content.decode(), re.S)
    text = story.group(1)
    assert "Solo (G = 4): Bo alone against the other three." in text
    assert "Kontra on the game: rekontra, ×4." in text
    assert "The game (declarer&#x27;s side, ×4): +16" in text
    assert "Pagát ultimó (declarer&#x27;s side, announced, made): +10" in text
    assert "Négy király (opponents, silent, made): −1" in text
    assert "T = +25" in text
    assert "+25 × 3 = +75" in text


def test_silent_dupla_from_the_points_is_in_the_story(client, members, evening):
    hand, _net = example("HU6")
    table = open_table(evening, members, NAMES, first="Erik")
    response = scorekeeper(client, members).post(
        url("hand_preview", pk=table.pk), {"record": json.dumps(hand)}
    )
    shown = "Dupla játék (opponents, silent, from the card points, made): −2"
    assert shown in response.content.decode()


def test_a_refused_hand_writes_nothing(client, members, evening):
    """A partner who is the declarer and points above 94: refused beside the fields, no rows."""
    table = open_table(evening, members)
    record = {
        "format": "tarokclub.hand/1",
        "game": GAME_CODE,
        "dealer": "Dorte",
        "bid": "egy",
        "declarer": "Anna",
        "partner": "Anna",
        "card_points": 95,
    }
    before = (Hand.objects.count(), Posting.objects.count(), Transfer.objects.count())
    response = post(scorekeeper(client, members), table, record, **{"X-Hand-Submit": "1"})
    assert response.status_code == 422
    html = response.content.decode()
    assert re.search(r'id="err-game"[^>]*>.*cannot be his own partner', html, re.S)
    assert re.search(r'id="err-points"[^>]*>.*card points', html, re.S)
    assert (Hand.objects.count(), Posting.objects.count(), Transfer.objects.count()) == before


def test_an_evening_corrected_closed_and_reported(client, members, evening):
    """Hands, a correction, the close (no jetons asked), the sheet, its PDF, standings."""
    table = open_table(evening, members)
    client = scorekeeper(client, members)
    hu1, _ = example("HU1")
    hu5, net5 = example("HU5")
    post(client, table, hu1, **{"X-Hand-Submit": "1"})
    wrong = dict(hu5, dealer="Anna", card_points=60)  # the next dealer deals hand 2
    assert post(client, table, wrong, **{"X-Hand-Submit": "1"}).status_code == 200
    hand = Hand.objects.get(number=2)
    page = client.get(reverse("hand_correct", kwargs={"club": SLUG, "pk": hand.pk}))
    assert page.status_code == 200 and "hungarian/entry.js" in page.content.decode()
    data = {
        "record": json.dumps(dict(hu5, dealer="Anna")),
        "reason": "Wrong card points",
        "base_revision": 1,
    }
    response = client.post(
        reverse("hand_correct", kwargs={"club": SLUG, "pk": hand.pk}),
        data,
        headers={"X-Hand-Submit": "1"},
    )
    assert response.status_code == 200, response.content.decode()[:1500]
    balances = selectors.table_balances(table.pk)
    assert balances == {"Anna": 3 - 10, "Bo": -3 - 6, "Carl": 3 + 10, "Dorte": -3 + 6}
    assert net5 == {"Anna": -10, "Bo": -6, "Carl": 10, "Dorte": 6}

    client.force_login(members["Bo"].user)  # the treasurer
    treasury = client.get(reverse("evening_treasury", kwargs={"club": SLUG, "pk": evening.pk}))
    assert treasury.status_code == 200
    screen = treasury.content.decode()
    assert "count-form" not in screen and "jetons" not in screen.lower()
    assert "nothing to split" in screen
    response = client.post(reverse("treasury_close", kwargs={"club": SLUG, "pk": evening.pk}))
    assert response.status_code in (302, 303)
    evening.refresh_from_db()
    assert evening.status == Evening.Status.CLOSED
    results = {r.member.name: (r.points, r.money) for r in EveningResult.objects.all()}
    assert results["Carl"] == (13, Decimal("6.50"))
    assert sum(points for points, _m in results.values()) == 0
    assert verify_ledger().ok
    for name, kwargs in (
        ("evening_sheet", {"pk": evening.pk}),
        ("standings", {}),
        ("member_season", {"pk": members["Carl"].pk}),
    ):
        page = client.get(reverse(name, kwargs={"club": SLUG, **kwargs}))
        assert page.status_code == 200, name
    sheet = client.get(reverse("evening_sheet_pdf", kwargs={"club": SLUG, "pk": evening.pk}))
    assert sheet.status_code == 200 and sheet["Content-Type"] == "application/pdf"
