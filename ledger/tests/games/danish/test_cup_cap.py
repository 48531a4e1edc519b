"""The cup cap (a house rule beyond the spec, off by default) and the cups' outlook against the
ledger's bound: a cup doubles with every bagud, and a hand may start only from cups within
``MAX_POINTS``."""

from __future__ import annotations

import pytest

from ledger.games.danish import GAME
from ledger.games.danish.engine import parse_hand, settle
from ledger.games.danish.engine.outlook import cup_outlook
from ledger.games.errors import RateCardError
from ledger.games.money import MAX_POINTS
from ledger.tests.conftest import load_example


def test_the_cap_is_off_by_default():
    """The default card has no cap: X3's bagud pays the whole P = 125 (the spec's example)."""
    assert GAME.rate_card({}).cup_cap == 0
    result = settle(parse_hand(load_example("X3.hand.json")))
    assert ("Anna", "kongekop", 125) in [(t.source, t.target, t.points) for t in result.transfers]


def test_a_bagud_pays_at_most_the_cap():
    """X3 under a cap of 100: Anna's king bagud calls for P = 125 but pays 100 into the
    kongekop; everything else is the spec's (40 to Carl and Dorte, the count 10). Net Anna
    -180, Bo 0, Carl +45, Dorte +25; cups 225/95 (uncapped: Anna -205, 250/95)."""
    rates = GAME.rate_card({"cup_cap": 100})
    record = parse_hand(load_example("X3.hand.json"), rates)
    result = settle(record, rates)
    assert [(t.source, t.target, t.points) for t in result.transfers] == [
        ("Dorte", "kongekop", 5),
        ("Dorte", "pagatkop", 5),
        ("Carl", "Anna", 5),
        ("Dorte", "Anna", 5),
        ("Anna", "Carl", 40),
        ("Anna", "Dorte", 40),
        ("Anna", "kongekop", 100),
        ("Anna", "Carl", 10),
    ]
    assert result.net == {"Anna": -180, "Bo": 0, "Carl": 45, "Dorte": 25}
    assert result.cups_after == {"kongekop": 225, "pagatkop": 95}


def test_a_cap_caps_each_sequential_bagud():
    """With bagud paid one by one and a cap of 100, two kings bagud from a kongekop of P = 65
    pay 65 and then 100 (not 130): the cup ends at 230."""
    rates = GAME.rate_card({"multi_bagud": "sequential", "cup_cap": 100})
    record = {
        "seats": ["Anna", "Bo", "Carl"],
        "dealer": "Anna",
        "cups_before": {"kongekop": 60, "pagatkop": 60},
        "last_trick": {
            "winner": "Anna",
            "cards": [
                {"player": "Bo", "card": "king"},
                {"player": "Carl", "card": "king"},
                {"player": "Anna", "card": "other"},
            ],
        },
        "count": {"Anna": 26, "Carl": 26},
    }
    result = settle(parse_hand(record, rates), rates)
    into = [t.points for t in result.transfers if t.reason == "bagud_cup"]
    assert into == [65, 100]
    assert result.cups_after["kongekop"] == 230


def test_a_cap_below_a_full_tables_funding_is_refused():
    """A cap is 0 or at least what five members fund a cup with (5 x 20 = 100 by default;
    5 x 30 with a funding of 30): 99 is refused on the field cup_cap, naming the least."""
    with pytest.raises(RateCardError, match=r"cup_cap: a cup's cap is 0 \(none\) or at least") as e:
        GAME.rate_card({"cup_cap": 99})
    assert "5 x 20 = 100 points" in str(e.value)
    assert [p.field for p in e.value.problems] == ["cup_cap"]
    with pytest.raises(RateCardError, match="5 x 30 = 150 points"):
        GAME.rate_card({"cup_cap": 100, "funding_per_cup": 30})
    assert GAME.rate_card({"cup_cap": 100}).cup_cap == 100


@pytest.mark.parametrize(
    ("cups", "expected"),
    [
        ({"kongekop": 60, "pagatkop": 60}, {}),
        # 3,333,330 + 5 = 3,333,335; two kings bagud: x3 = 10,000,005 > the bound
        ({"kongekop": 3_333_330, "pagatkop": 60}, {"kongekop": "near"}),
        ({"kongekop": 3_333_328, "pagatkop": 60}, {}),
        # the pagatkop takes one pagat: x2
        ({"kongekop": 60, "pagatkop": 4_999_996}, {"pagatkop": "near"}),
        ({"kongekop": 60, "pagatkop": 4_999_995}, {}),
        (
            {"kongekop": MAX_POINTS + 1, "pagatkop": MAX_POINTS},
            {"kongekop": "over", "pagatkop": "near"},
        ),
    ],
)
def test_the_outlook_names_a_cup_one_bagud_from_the_bound(cups, expected):
    """A cup is ``near`` when the next hand's fee and the most bagud a last trick brings
    (two kings, or the pagat) could take it above MAX_POINTS, ``over`` when it is above."""
    assert cup_outlook(cups, GAME.rate_card({})) == expected


def test_sequential_bagud_brings_the_bound_nearer_and_a_cap_removes_it():
    """Two kings bagud one by one quadruple the kongekop; a cap of 1,000 keeps it far."""
    cups = {"kongekop": 2_600_000, "pagatkop": 60}
    assert cup_outlook(cups, GAME.rate_card({})) == {}
    assert cup_outlook(cups, GAME.rate_card({"multi_bagud": "sequential"})) == {"kongekop": "near"}
    capped = GAME.rate_card({"multi_bagud": "sequential", "cup_cap": 1000})
    assert cup_outlook({"kongekop": 9_990_000, "pagatkop": 60}, capped) == {}
