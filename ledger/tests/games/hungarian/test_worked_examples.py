"""The worked examples HU1-HU8 and the HU evening of hungarian-tarokk.md section 14."""

import json

import pytest

from ledger.games.hungarian import GAME
from ledger.games.hungarian.engine import parse_hand, settle

from .helpers import example_hand, load_example, netted_pairs, triples

HANDS = [f"HU{n}" for n in range(1, 9)]

# The spec's transfers of T (section 14), netted per pair, in the order it lists them.
SPEC_TRANSFERS = {
    "HU1": [("Bo", "Anna", 3), ("Dorte", "Carl", 3)],
    "HU2": [("Anna", "Bo", 25), ("Carl", "Bo", 25), ("Dorte", "Bo", 25)],
    "HU3": [("Carl", "Anna", 23), ("Dorte", "Bo", 23)],
    "HU4": [("Bo", "Dorte", 5), ("Carl", "Anna", 5)],
    "HU5": [("Anna", "Carl", 7), ("Bo", "Dorte", 7)],
    "HU6": [("Bo", "Carl", 25), ("Dorte", "Anna", 25)],
    "HU7": [("Anna", "Dorte", 38), ("Carl", "Bo", 38)],
    "HU8": [("Dorte", "Carl", 14), ("Bo", "Anna", 14)],
}
SPEC_T = {"HU1": 3, "HU2": 25, "HU3": -23, "HU4": 5, "HU5": -7, "HU6": -25, "HU7": 38, "HU8": 14}


def settled(name):
    return settle(parse_hand(example_hand(name)))


@pytest.mark.parametrize("name", HANDS)
def test_example_net(name):
    """Each worked example settles to the expected file's exact net per seat."""
    expected = load_example(f"{name}.expected.json")
    result = settled(name)
    assert result.net == expected["net"]
    assert list(result.net) == example_hand(name)["seats"]


@pytest.mark.parametrize("name", HANDS)
def test_example_transfers_of_t(name):
    """Netted per pair, the transfers of T are the spec's, in the order it lists them."""
    assert netted_pairs(settled(name), claims=False) == SPEC_TRANSFERS[name]


@pytest.mark.parametrize("name", HANDS)
def test_example_total(name):
    """T, the sum of the items for the declarer's side, is the spec's."""
    result = settled(name)
    assert result.total == SPEC_T[name]
    assert result.outcome_data["T"] == SPEC_T[name]


@pytest.mark.parametrize("name", HANDS)
def test_example_through_the_game_object(name):
    """GAME.parse_hand and GAME.settle give the same settlement as the engine's functions."""
    record = GAME.parse_hand(example_hand(name), GAME.rate_card(None))
    assert GAME.settle(record, GAME.rate_card({}), {}) == settled(name)


def test_hu1_transfers_per_item():
    """HU1: one set per item (game, then four_kings); first opponent from Anna pays Anna."""
    result = settled("HU1")
    assert [t.as_dict() for t in result.transfers] == [
        {"from": "Bo", "to": "Anna", "points": 2, "reason": "game"},
        {"from": "Dorte", "to": "Carl", "points": 2, "reason": "game"},
        {"from": "Bo", "to": "Anna", "points": 1, "reason": "four_kings"},
        {"from": "Dorte", "to": "Carl", "points": 1, "reason": "four_kings"},
    ]


def test_hu2_lone_declarer_items():
    """HU2: kontra'd game 16, announced pagát ultimó 10, the opponents' four kings -1, x3."""
    result = settled("HU2")
    assert result.outcome_data["items"] == [
        {"item": "game", "side": "declarer", "value": 16},
        {"item": "four_kings", "side": "opponents", "silent": True, "result": "made", "value": -1},
        {
            "item": "pagat_ultimo",
            "side": "declarer",
            "silent": False,
            "result": "made",
            "kontra": 0,
            "value": 10,
        },
    ]
    assert result.outcome_data["alone"] is True
    assert result.outcome_data["partner"] is None
    assert result.roles == {
        "Anna": "opponent",
        "Bo": "alone",
        "Carl": "opponent",
        "Dorte": "opponent",
    }


def test_hu3_failed_dupla_without_game():
    """HU3: the failed dupla with kontra pays 24; no game item (dupla announced, no kontra)."""
    items = settled("HU3").outcome_data["items"]
    assert [i["item"] for i in items] == ["dupla", "trull"]
    assert items[0]["value"] == -24
    assert items[0]["kontra"] == 1


def test_hu4_silent_four_kings_not_paid_beside_volat():
    """HU4: the silent four kings is listed beside the volát with value 0, paid False."""
    result = settled("HU4")
    kings = [i for i in result.outcome_data["items"] if i["item"] == "four_kings"]
    assert kings == [
        {
            "item": "four_kings",
            "side": "declarer",
            "silent": True,
            "result": "made",
            "paid": False,
            "value": 0,
        }
    ]
    assert "four_kings" not in {t.reason for t in result.transfers}
    assert "game" not in {t.reason for t in result.transfers}


def test_hu5_tarokk_claims():
    """HU5: Carl's announced claim is paid by the other three, Bo's at the end by Anna only."""
    result = settled("HU5")
    assert triples(result, claims=True) == [
        ("Anna", "Carl", 1),
        ("Bo", "Carl", 1),
        ("Dorte", "Carl", 1),
        ("Anna", "Bo", 2),
    ]
    assert result.outcome_data["game_won_by"] == "opponents"


def test_hu6_sitting_out_dealer():
    """HU6: Erik deals and sits out: untouched, role out, in no transfer."""
    result = settled("HU6")
    assert result.net["Erik"] == 0
    assert result.roles["Erik"] == "out"
    assert all("Erik" not in (t.source, t.target) for t in result.transfers)
    reasons = [t.reason for t in result.transfers]
    assert reasons == ["game", "game", "dupla", "dupla", "xxi_catch", "xxi_catch"]


def test_hu7_items():
    """HU7: volát 48 with rekontra, centrum -10; no game, no silent dupla, trull and kings 0."""
    items = settled("HU7").outcome_data["items"]
    assert [(i["item"], i["value"]) for i in items] == [
        ("volat", 48),
        ("trull", 0),
        ("four_kings", 0),
        ("centrum", -10),
    ]


def test_hu8_dupla_and_silent_volat():
    """HU8: announced dupla 8 and the silent volát 6 on top; no game."""
    items = settled("HU8").outcome_data["items"]
    assert [(i["item"], i["value"]) for i in items] == [("dupla", 8), ("volat", 6)]


def test_settlement_as_dict_is_the_hungarian_object():
    """as_dict is exactly format, game, transfers and net; JSON-ready."""
    data = settled("HU1").as_dict()
    assert list(data) == ["format", "game", "transfers", "net"]
    assert data["format"] == "tarokclub.settlement/1"
    assert data["game"] == "hungarian_tarokk"
    assert json.loads(json.dumps(data)) == data
    assert settled("HU1").state_after == {}


def test_outcome_data_is_json_ready():
    """outcome_data names bid, G, declarer, partner, alone, points, winner, kontra, items, T."""
    for name in HANDS:
        data = settled(name).outcome_data
        assert json.loads(json.dumps(data)) == data
    data = settled("HU6").outcome_data
    assert {k: data[k] for k in ("bid", "G", "declarer", "partner", "alone", "card_points")} == {
        "bid": "harom",
        "G": 1,
        "declarer": "Bo",
        "partner": "Dorte",
        "alone": False,
        "card_points": 21,
    }
    assert (data["game_won_by"], data["kontra"], data["kontra_factor"]) == ("opponents", 1, 2)


def test_evening():
    """The HU evening: each hand's net, before_split and final exactly as expected."""
    expected = load_example("HU_EVENING.expected.json")
    result = GAME.settle_evening(load_example("HU_EVENING.evening.json"))
    assert [h["net"] for h in result["hands"]] == [h["net"] for h in expected["hands"]]
    assert result["before_split"] == expected["before_split"]
    assert result["final"] == expected["final"]
    assert list(result) == ["format", "game", "hands", "before_split", "final"]
    assert result["format"] == "tarokclub.evening-result/1"
    assert result["game"] == "hungarian_tarokk"
    assert result["hands"][3]["transfers"] == []
    assert GAME.settle_evening(load_example("HU_EVENING.evening.json"), None) == result
