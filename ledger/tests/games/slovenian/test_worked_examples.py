"""The worked examples of slovenian-tarok.md section 14, exactly."""

import pytest

from ledger.games.slovenian import GAME
from ledger.games.slovenian.engine import RateCard, parse_hand, settle

from .helpers import load_sl

EXAMPLES = [f"SL{i}" for i in range(1, 9)]

#: The transfers that section 14 lists for each example, as (from, to, points, reason).
SPEC_TRANSFERS = {
    "SL1": [("pool", "Anna", 40, "hand"), ("pool", "Carl", 40, "hand"), ("Bo", "pool", 20, "mond")],
    "SL2": [("pool", "Bo", 35, "hand")],
    "SL3": [("pool", "Carl", 280, "hand"), ("pool", "Anna", 280, "hand")],
    "SL4": [("pool", "Anna", 70, "klop"), ("Bo", "pool", 70, "klop")],
    "SL5": [("pool", "Anna", 500, "hand"), ("pool", "Carl", 500, "hand")],
    "SL6": [("Bo", "pool", 280, "hand")],
    "SL7": [("Bo", "pool", 80, "hand"), ("Dorte", "pool", 80, "hand")],
    "SL8": [("Anna", "pool", 500, "hand")],
}


def _settle(name):
    return settle(parse_hand(load_sl(f"{name}.hand.json"), RateCard()), RateCard())


@pytest.mark.parametrize("name", EXAMPLES)
def test_example_net_and_radli(name):
    """Each example's net per seat and radli after are those of its expected file."""
    expected = load_sl(f"{name}.expected.json")
    result = _settle(name).as_dict()
    assert result["net"] == expected["net"]
    assert result["radli_after"] == expected["radli_after"]
    if "transfers" in expected:
        assert result["transfers"] == expected["transfers"]


@pytest.mark.parametrize("name", EXAMPLES)
def test_example_transfers_as_the_spec_lists_them(name):
    """The transfers are those section 14 lists, in its order, with reasons hand/klop/mond."""
    transfers = [(t.source, t.target, t.points, t.reason) for t in _settle(name).transfers]
    assert transfers == SPEC_TRANSFERS[name]


@pytest.mark.parametrize("name", EXAMPLES)
def test_example_through_the_game_object(name):
    """GAME.parse_hand / GAME.settle with the hand's radli as state give the same result."""
    data = load_sl(f"{name}.hand.json")
    state = data.get("radli_before", {})
    rates = GAME.rate_card({})
    record = GAME.parse_hand(data, rates, state=state)
    result = GAME.settle(record, rates, state)
    assert result.as_dict() == _settle(name).as_dict()
    assert result.state_after == load_sl(f"{name}.expected.json")["radli_after"]


def test_settlement_object_shape():
    """as_dict is exactly the hand-format.md Slovenian settlement object (SL3)."""
    assert _settle("SL3").as_dict() == {
        "format": "tarokclub.settlement/1",
        "game": "slovenian_tarok",
        "transfers": [
            {"from": "pool", "to": "Carl", "points": 280, "reason": "hand"},
            {"from": "pool", "to": "Anna", "points": 280, "reason": "hand"},
        ],
        "net": {"Anna": 280, "Bo": 0, "Carl": 280, "Dorte": 0},
        "radli_after": {"Anna": 0, "Bo": 0, "Carl": 0, "Dorte": 1},
    }


def test_sl1_outcome_items():
    """SL1's outcome: H 40 made of the game 30 and the declarer's silent kings 10; Bo's Mond."""
    s = _settle("SL1")
    out = s.outcome_data
    assert out["contract"] == "two" and out["declarer"] == "Anna" and out["partner"] == "Carl"
    assert out["won"] is True and out["H"] == 40 and out["kontra"] == 1
    assert [(i["item"], i.get("side"), i["value"]) for i in out["items"]] == [
        ("game", None, 30),
        ("kings", "declarer", 10),
    ]
    assert out["mond"] == "Bo"
    assert s.roles == {"Anna": "declarer", "Bo": "opponent", "Carl": "partner", "Dorte": "opponent"}


def test_sl2_items_lost_game_won_hand():
    """SL2: game −55, pagat ultimo +100 (kontra), opponents' kings −10: H +35.

    ``won`` follows section 7 (the game decides, bonuses do not): 31 card points lose, so
    ``won`` is False although H > 0 (the example's title calls the hand "won" for H > 0).
    """
    out = _settle("SL2").outcome_data
    assert [i["value"] for i in out["items"]] == [-55, 100, -10]
    assert out["H"] == 35 and out["won"] is False


def test_sl3_radelc_doubled_and_crossed():
    """SL3: H 140 doubled to 280 by Carl's radelc, which is crossed off (his side won)."""
    out = _settle("SL3").outcome_data
    assert out["H"] == 140 and out["paid"] == 280 and out["kontra"] == 4
    assert out["radelc_doubled"] is True and out["radelc_crossed"] is True
    assert out["radli_given"] is False


def test_sl4_klop_outcome_and_roles():
    """SL4: klop results per player, every active player has the role klop, no declarer."""
    s = _settle("SL4")
    assert s.outcome_data["klop"]["Anna"] == {"card_points": 0, "took_trick": False, "score": 70}
    assert s.outcome_data["klop"]["Bo"]["score"] == -70
    assert s.outcome_data["won"] is None and s.outcome_data["radli_given"] is True
    assert set(s.roles.values()) == {"klop"}


def test_sl5_valat_replaces_game_and_trula_dealer_out():
    """SL5: the silent valat (×2, the game's kontra) is the only item; Erik deals and is out."""
    s = _settle("SL5")
    assert s.outcome_data["items"] == [
        {"item": "valat", "side": "declarer", "announced": False, "result": "made", "value": 500}
    ]
    assert s.roles["Erik"] == "out"


def test_sl8_failed_valat_replaces_the_mond():
    """SL8: the failed announced valat scores −500 and Dorte's Mond capture scores nothing."""
    out = _settle("SL8").outcome_data
    assert out["H"] == -500 and out["won"] is False
    assert out["mond"] is None and out["mond_captured"] == "Dorte"


def test_evening_sl_exact():
    """The evening SL: each hand's net and radli, radli at close, balances, pool and final."""
    expected = load_sl("SL_EVENING.expected.json")
    result = GAME.settle_evening(load_sl("SL_EVENING.evening.json"), RateCard())
    assert result["format"] == "tarokclub.evening-result/1"
    assert result["game"] == "slovenian_tarok"
    assert [{"net": h["net"], "radli_after": h["radli_after"]} for h in result["hands"]] == (
        expected["hands"]
    )
    for key in ("radli_at_close", "before_split", "pool_before_split", "final"):
        assert result[key] == expected[key], key
    if "close" in expected:
        assert result["close"] == expected["close"]


def test_evening_sl_close_as_the_spec_lists_it():
    """The close of the evening SL: the radli penalties, then 115 each and 125 to Dorte."""
    result = GAME.settle_evening(load_sl("SL_EVENING.evening.json"), None)
    assert [(m["from"], m["to"], m["points"], m["reason"]) for m in result["close"]] == [
        ("Anna", "pool", 100, "radelc"),
        ("Bo", "pool", 100, "radelc"),
        ("Carl", "pool", 100, "radelc"),
        ("Dorte", "pool", 200, "radelc"),
        ("pool", "Anna", 115, "split"),
        ("pool", "Bo", 115, "split"),
        ("pool", "Carl", 115, "split"),
        ("pool", "Dorte", 125, "split"),
    ]
    assert set(result) == {
        "format",
        "game",
        "hands",
        "radli_at_close",
        "before_split",
        "pool_before_split",
        "close",
        "final",
    }
    assert all(h["game"] == "slovenian_tarok" for h in result["hands"])
