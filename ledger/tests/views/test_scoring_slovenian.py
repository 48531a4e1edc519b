"""Slovenian Tarok through the tablet's views (Django's test client): the spec's examples as
records posted to the hand form, the preview, a refused hand, a correction that re-settles
the later radli, the table screen's radli marks and the close of the table."""

from __future__ import annotations

import datetime
import json

import pytest
from django.urls import reverse

from ledger import selectors, services
from ledger.models import Hand, Member, Posting
from ledger.tests import factories
from ledger.tests.conftest import load_example
from ledger.tests.helpers import config_of, english, hand_post, login

pytestmark = pytest.mark.django_db

SLUG = "sl"
GAME = "slovenian_tarok"


def url(name, **kwargs):
    return reverse(name, kwargs={"club": SLUG, **kwargs})


def make_table(names=("Anna", "Bo", "Carl", "Dorte"), *, first_dealer=None):
    club = factories.make_club(slug=SLUG, name="Ljubljana", game=GAME)
    members = {}
    for name in names:
        role = Member.Role.SCOREKEEPER if name == "Anna" else Member.Role.MEMBER
        members[name] = factories.make_member(club, name, role, login=name == "Anna")
    evening = services.evening_open(club=club, date=datetime.date(2026, 11, 5))
    first = members[first_dealer] if first_dealer else None
    table = services.table_open(evening=evening, members=list(members.values()), first_dealer=first)
    return table, members


def post_hand(client, table, record, **extra):
    data = hand_post(table, record, **extra)
    return client.post(url("hand_new", pk=table.pk), data, headers={"X-Hand-Submit": "1"})


def record_of(name):
    record = load_example(name)
    record.pop("radli_before", None)
    return record


def nets(table):
    balances = selectors.table_balances(table.pk)
    return {k: v for k, v in balances.items() if k != "pool"}


def test_the_entry_form_comes_from_the_rotation(client):
    table, members = make_table(first_dealer="Dorte")
    login(client, members["Anna"])
    response = client.get(url("hand_new", pk=table.pk))
    assert response.status_code == 200
    html = response.content.decode()
    assert "ledger/games/slovenian/entry.js" in html
    assert 'data-contract="solo_without"' in html
    config = config_of(response)
    assert config["game"] == GAME
    assert config["record"]["dealer"] == "Dorte"
    assert config["rotation"]["Dorte"]["forehand"] == "Anna"
    assert config["rotation"]["Dorte"]["active"] == ["Anna", "Bo", "Carl", "Dorte"]


def test_a_table_of_three_is_not_asked_for_a_partner(client):
    """Nobody calls a king at a table of three: the hint names the contract and the declarer
    only."""
    table, members = make_table(("Anna", "Bo", "Carl"))
    login(client, members["Anna"])
    html = english(client).get(url("hand_new", pk=table.pk)).content.decode()
    assert "Tap the contract and the declarer, then enter the card points." in html
    assert "Tap the contract, the declarer and the partner" not in html


def test_sl1_posted_to_the_hand_form(client):
    """SL1: Anna +40, Bo −20 (Mond), Carl +40; the pool −60."""
    table, members = make_table(first_dealer="Dorte")
    login(client, members["Anna"])
    record = record_of("SL1.hand.json")
    preview = client.post(url("hand_preview", pk=table.pk), {"record": json.dumps(record)})
    html = preview.content.decode()
    assert 'data-net="Anna" data-points="40"' in html
    assert 'data-cup-after="pool" data-points="-60"' in html
    response = post_hand(client, table, record)
    assert response.status_code == 200, response.content.decode()[:500]
    assert nets(table) == {"Anna": 40, "Bo": -20, "Carl": 40, "Dorte": 0}
    assert selectors.pool_balances(table.pk) == {"pool": -60}


def test_the_preview_tells_the_story(client):
    """SL3 from the ledger's radli: D, the game ×4, the trula, H, the radelc doubling."""
    table, members = make_table(first_dealer="Carl")
    login(client, members["Anna"])
    english(client)
    # A klop first: everyone receives a radelc, so Carl's doubles SL3.
    klop = {
        "format": "tarokclub.hand/1",
        "game": GAME,
        "dealer": "Carl",
        "contract": "klop",
        "klop": {
            "Anna": {"card_points": 20, "took_trick": True},
            "Bo": {"card_points": 20, "took_trick": True},
            "Carl": {"card_points": 15, "took_trick": True},
            "Dorte": {"card_points": 15, "took_trick": True},
        },
    }
    assert post_hand(client, table, klop).status_code == 200
    record = record_of("SL3.hand.json")  # dealer Bo: the next dealer after Carl is Dorte
    record["dealer"] = "Dorte"
    preview = client.post(url("hand_preview", pk=table.pk), {"record": json.dumps(record)})
    html = preview.content.decode()
    assert "D = 10" in html
    assert "Game +160" in html
    assert "Kontra ×4" in html
    assert "H = +140" in html
    assert "Radelc: doubled to +280" in html
    assert 'data-net="Carl" data-points="280"' in html


def test_sl3_sl4_with_the_radli_from_the_ledger(client):
    """SL4 (klop) gives everyone a radelc; SL3 then doubles and crosses off Carl's."""
    table, members = make_table(first_dealer="Carl")
    login(client, members["Anna"])
    sl4 = record_of("SL4.hand.json")
    assert post_hand(client, table, sl4).status_code == 200
    assert services.table_state(table) == {"Anna": 1, "Bo": 1, "Carl": 1, "Dorte": 1}
    sl3 = record_of("SL3.hand.json")
    sl3["dealer"] = "Dorte"
    assert post_hand(client, table, sl3).status_code == 200
    assert services.table_state(table) == {"Anna": 1, "Bo": 1, "Carl": 0, "Dorte": 1}
    assert nets(table) == {"Anna": 70 + 280, "Bo": -70, "Carl": 280, "Dorte": 0}
    page = client.get(url("table", pk=table.pk)).content.decode()
    assert "⊕" in page


def test_a_refused_hand_writes_nothing(client):
    """A three whose declarer is not forehand is refused; nothing is written."""
    table, members = make_table(first_dealer="Dorte")
    login(client, members["Anna"])
    record = record_of("SL1.hand.json")
    record["contract"] = "three"
    record["declarer"] = "Bo"  # forehand is Anna
    before = Posting.objects.count()
    response = post_hand(client, table, record)
    assert response.status_code == 422
    assert 'id="err-contract"' in response.content.decode()
    assert Hand.objects.filter(table=table).count() == 0
    assert Posting.objects.count() == before


def test_a_correction_re_settles_the_later_radli(client):
    """Hand 1 a klop (radli to all), hand 2 SL3-like; correcting hand 1 to a plain two
    takes the radli away, so hand 2 is no longer doubled."""
    table, members = make_table(first_dealer="Carl")
    login(client, members["Anna"])
    assert post_hand(client, table, record_of("SL4.hand.json")).status_code == 200
    sl3 = record_of("SL3.hand.json")
    sl3["dealer"] = "Dorte"
    assert post_hand(client, table, sl3).status_code == 200
    first = Hand.objects.get(table=table, number=1)
    page = client.get(url("hand_correct", pk=first.pk))
    assert page.status_code == 200
    corrected = {
        "format": "tarokclub.hand/1",
        "game": GAME,
        "seats": ["Anna", "Bo", "Carl", "Dorte"],
        "dealer": "Carl",
        "contract": "two",
        "declarer": "Dorte",
        "partner": "Bo",
        "card_points": 44,
        "kontra": 0,
    }
    response = client.post(
        url("hand_correct", pk=first.pk),
        {"record": json.dumps(corrected), "reason": "Wrong contract", "base_revision": 1},
        headers={"X-Hand-Submit": "1"},
    )
    assert response.status_code == 200, response.content.decode()[:800]
    # Hand 1: Dorte and Bo +30 each. Hand 2: H 140, not doubled any more.
    assert nets(table) == {"Anna": 140, "Bo": 30, "Carl": 140, "Dorte": 30}
    assert services.table_state(table) == {"Anna": 0, "Bo": 0, "Carl": 0, "Dorte": 0}
    table_page = client.get(url("table", pk=table.pk)).content.decode()
    assert "⊕" not in table_page


def test_sl_evening_through_the_form_and_the_close(client):
    """The spec's evening entered hand by hand; the close gives +10, +80, +60, −150."""
    evening = load_example("SL_EVENING.evening.json")
    expected = load_example("SL_EVENING.expected.json")
    table, members = make_table(first_dealer="Anna")
    login(client, members["Anna"])
    for hand in evening["hands"]:
        hand = {k: v for k, v in hand.items() if k != "radli_before"}
        hand.setdefault("game", GAME)
        response = post_hand(client, table, hand)
        assert response.status_code == 200, response.content.decode()[:800]
    services.evening_close(evening=table.evening, confirm_differences=True)
    final = nets(table)
    assert final == {"Anna": 10, "Bo": 80, "Carl": 60, "Dorte": -150}, (final, expected)
    assert selectors.pool_balances(table.pk) == {"pool": 0}


def test_hands_played_follow_the_slovenian_rotation():
    """At five seats the dealer sits out, so each Slovenian hand counts four members as
    played; at four seats every member plays every hand."""
    import random

    from ledger.games.slovenian.engine.generate import random_hand
    from ledger.selectors import standings_for_season

    club = factories.make_club(slug="slp", game="slovenian_tarok")
    season = factories.make_season(club)
    names = ["Anna", "Bo", "Carl", "Dorte", "Erik"]
    members = [factories.make_member(club, n) for n in names]
    evening = services.evening_open(club=club, date=datetime.date(2026, 11, 5))
    five = services.table_open(evening=evening, members=members)
    rng = random.Random(3)
    for number in range(1, 4):
        dealer = names[(number - 1) % 5]
        state = services.table_state(five)
        hand = random_hand(rng, names, dealer, state)
        services.hand_record(
            table=five, record={k: v for k, v in hand.items() if k != "radli_before"}
        )
    services.evening_close(evening=evening)
    rows = standings_for_season(season=season)
    played = {row.name: row.played for row in rows}
    assert sum(played.values()) == 3 * 4
    assert played["Anna"] == 2  # Anna dealt hand 1 and sat it out
