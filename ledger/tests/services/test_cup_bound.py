"""A Danish table whose cup grows to the ledger's bound: its screen warns one hand before, a
hand from cups above the bound is refused with nothing written, and the table can still be
closed and its evening settled."""

from __future__ import annotations

import datetime

import pytest
from django.urls import reverse

from ledger import selectors, services
from ledger.games.errors import HandError
from ledger.models import EveningResult, Hand, Member, Posting
from ledger.selectors.verify import verify_ledger
from ledger.tests import factories
from ledger.tests.helpers import english, login

pytestmark = pytest.mark.django_db

SEATS = ["Anna", "Bo", "Carl"]


def pagat_bagud(number: int) -> dict:
    """Hand ``number`` (1-based) at 3 seats in turn: the forehand leads his pagat into the
    last trick and the dealer wins it with a trump; the counters make par (26, nothing)."""
    dealer = SEATS[(number - 1) % 3]
    forehand = SEATS[number % 3]
    third = SEATS[(number + 1) % 3]
    next_dealer = forehand
    return {
        "seats": SEATS,
        "dealer": dealer,
        "last_trick": {
            "winner": dealer,
            "cards": [
                {"player": forehand, "card": "pagat"},
                {"player": third, "card": "other"},
                {"player": dealer, "card": "other"},
            ],
        },
        "count": {name: 26 for name in SEATS if name != next_dealer},
    }


@pytest.fixture
def world():
    club = factories.make_club(slug="test")
    anna = factories.make_member(club, "Anna", Member.Role.SCOREKEEPER, login=True)
    members = [anna, factories.make_member(club, "Bo"), factories.make_member(club, "Carl")]
    evening = services.evening_open(club=club, date=datetime.date(2026, 11, 12))
    table = services.table_open(evening=evening, members=members)
    return {"club": club, "anna": anna, "evening": evening, "table": table}


def record_hands(table, first: int, last: int) -> None:
    for number in range(first, last + 1):
        services.hand_record(table=table, record=pagat_bagud(number))


def test_the_pagatkop_doubles_to_the_bound_the_screen_warns_and_the_table_closes(world, client):
    """Each hand the dealer pays 5 into the pagatkop and the pagat bagud pays P into it, so
    from 60 it runs 130, 270, 550, ...: c(n) = 2 (c(n-1) + 5). After 16 hands it holds
    4,587,510 (the next bagud takes it to 9,175,030: no warning); after 17, 9,175,030 (the
    next bagud could take it to 18,350,070, past 10,000,000: "near", on the table's screen
    and on the new hand's form); after 18, 18,350,070
    ("over"): hand 19 is refused on cups_before.pagatkop and nothing is written. The table is
    then closed (the cups split: 18,350,070 + 150 = 18,350,220 = 3,670,044 units of 5, 1,223,348
    each), the evening closed with each member's result, and the ledger verifies."""
    table = world["table"]
    record_hands(table, 1, 16)
    assert selectors.pool_balances(table.pk) == {"kongekop": 140, "pagatkop": 4_587_510}
    assert selectors.table_overview(table)["warnings"] == []

    services.hand_record(table=table, record=pagat_bagud(17))
    assert selectors.pool_balances(table.pk)["pagatkop"] == 9_175_030
    [(level, text)] = selectors.table_overview(table)["warnings"]
    assert level == "near"
    page = login(english(client), world["anna"]).get(
        reverse("table", kwargs={"club": "test", "pk": table.pk})
    )
    assert page.status_code == 200
    body = page.content.decode()
    assert 'data-bound="near"' in body
    assert "The pagatkop holds 9,175,030 points: one more bagud could take it past 10,000,000" in (
        body
    )
    form = client.get(reverse("hand_new", kwargs={"club": "test", "pk": table.pk}))
    assert form.status_code == 200
    assert 'data-bound="near"' in form.content.decode()

    services.hand_record(table=table, record=pagat_bagud(18))
    assert selectors.pool_balances(table.pk) == {"kongekop": 150, "pagatkop": 18_350_070}
    [(level, text)] = selectors.table_overview(table)["warnings"]
    assert level == "over"
    assert selectors.table_state_data(table)["warnings"] == [{"level": "over", "text": text}]
    assert text.startswith("The pagatkop holds 18,350,070 points, more than the 10,000,000")

    postings = Posting.objects.count()
    with pytest.raises(HandError, match=r"cups_before\.pagatkop: a hand starts from cups of at"):
        services.hand_record(table=table, record=pagat_bagud(19))
    assert Hand.objects.filter(table=table).count() == 18
    assert Posting.objects.count() == postings
    body = client.get(reverse("table", kwargs={"club": "test", "pk": table.pk})).content.decode()
    assert 'data-bound="over"' in body and "Close the table to split the cups." in body

    services.table_close(table=table)
    assert selectors.pool_balances(table.pk) == {"kongekop": 0, "pagatkop": 0}
    split = Posting.objects.get(table=table, kind=Posting.Kind.SPLIT)
    received = {name: 0 for name in SEATS}
    for t in split.transfers.select_related("target"):
        received[t.target.code] += t.points
    assert received == {name: 6_116_740 for name in SEATS}
    balances = selectors.table_balances(table.pk)
    assert sum(balances.values()) == 0
    services.evening_close(evening=world["evening"])
    results = {
        r.member.name: r.points
        for r in EveningResult.objects.filter(evening=world["evening"]).select_related("member")
    }
    assert results == {name: balances[name] for name in SEATS}
    assert sum(results.values()) == 0
    assert verify_ledger().ok
