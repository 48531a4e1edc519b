"""The worked examples of danish-tarok.md section 9, to the last jeton."""

import json

import pytest

from ledger.games.danish import GAME
from ledger.games.danish.engine import parse_hand, settle
from ledger.tests.conftest import EXAMPLES, load_example
from ledger.tests.helpers import run_command

HANDS = ["X1", "X3", "X4", "X5", "X6", "X7"]


def transfers(settlement):
    return [(t.source, t.target, t.points) for t in settlement.transfers]


@pytest.mark.parametrize("name", HANDS)
def test_example_net_and_cups(name):
    """Each worked example settles to the spec's exact net per seat and cups after."""
    record = parse_hand(load_example(f"{name}.hand.json"))
    expected = load_example(f"{name}.expected.json")
    result = settle(record)
    assert result.net == expected["net"]
    assert result.cups_after == expected["cups_after"]


def test_x1_transfers():
    """X1 lists the transfers of the spec in its order."""
    result = settle(parse_hand(load_example("X1.hand.json")))
    assert transfers(result) == [
        ("Anna", "kongekop", 5),
        ("Anna", "pagatkop", 5),
        ("Anna", "Bo", 10),
        ("Carl", "Bo", 10),
        ("Anna", "Carl", 15),
        ("Bo", "Carl", 15),
        ("Anna", "Carl", 20),
        ("Bo", "Carl", 20),
        ("Anna", "Bo", 5),
        ("Bo", "Carl", 10),
    ]


def test_x3_bagud_pays_p_into_the_kongekop():
    """X3: Anna's king bagud pays 40 to each other player and P = 125 into the kongekop."""
    result = settle(parse_hand(load_example("X3.hand.json")))
    assert ("Anna", "kongekop", 125) in transfers(result)
    assert transfers(result).count(("Anna", "Carl", 40)) == 1
    assert ("Anna", "Dorte", 40) in transfers(result)
    assert ("Anna", "Carl", 10) in transfers(result)
    assert result.outcome.bagud == (("Anna", "king"),)


def test_x4_nolo_annuls_ultimo():
    """X4: the nolo annuls Bo's king in the last trick; no last trick and no count."""
    result = settle(parse_hand(load_example("X4.hand.json")))
    assert result.outcome.ultimo is None
    assert result.outcome.nolo == "Anna"
    assert [t.reason for t in result.transfers if t.reason in ("count", "last_trick")] == []
    assert ("Bo", "Anna", 25) in transfers(result)


def test_x5_barred_player_gets_neither_ultimo_nor_last_trick():
    """X5: Carl revoked, so his king in the last trick wins him nothing."""
    result = settle(parse_hand(load_example("X5.hand.json")))
    assert result.outcome.ultimo is None
    assert result.outcome.last_trick is None
    assert ("Carl", "kongekop", 40) in transfers(result)
    assert ("Anna", "pagatkop", 20) in transfers(result)


def test_x6_tout_takes_both_cups_and_everyone_refunds():
    """X6: Dorte's tout takes 135 and 105; all five seated members refund 20 into each cup."""
    result = settle(parse_hand(load_example("X6.hand.json")))
    moves = transfers(result)
    assert ("kongekop", "Dorte", 135) in moves
    assert ("pagatkop", "Dorte", 105) in moves
    refunds = [t for t in result.transfers if t.reason == "refund"]
    assert len(refunds) == 10
    assert {t.source for t in refunds} == {"Anna", "Bo", "Carl", "Dorte", "Erik"}


def test_x7_pagat_ultimo_and_the_sitter_refunds():
    """X7: Bo takes the pagatkop of 75; Anna, sitting out, still refunds 20."""
    result = settle(parse_hand(load_example("X7.hand.json")))
    moves = transfers(result)
    assert ("pagatkop", "Bo", 75) in moves
    assert ("Anna", "pagatkop", 20) in moves
    assert [t for t in result.transfers if t.source == "Anna"] == [
        t for t in result.transfers if t.reason == "refund" and t.source == "Anna"
    ]
    assert result.outcome.ultimo == ("Bo", "pagat")


def test_evening_e():
    """Evening E: the three hands, the balances before the split and the split of 140."""
    result = GAME.settle_evening(load_example("EVENING_E.evening.json"))
    expected = load_example("EVENING_E.expected.json")
    assert [h["net"] for h in result["hands"]] == [h["net"] for h in expected["hands"]]
    assert [h["cups_after"] for h in result["hands"]] == [
        h["cups_after"] for h in expected["hands"]
    ]
    assert result["before_split"] == {"Anna": 20, "Bo": -75, "Carl": -85}
    assert result["cups_before_split"] == {"kongekop": 65, "pagatkop": 75}
    assert result["final"] == {"Anna": 65, "Bo": -30, "Carl": -35}
    assert result["format"] == "tarokclub.evening-result/1"


@pytest.mark.parametrize("name", HANDS)
def test_settle_hand_command(name):
    """``settle_hand FILE`` prints the settlement format with the exact figures."""
    code, out = run_command("settle_hand", str(EXAMPLES / f"{name}.hand.json"))
    assert code == 0, out
    printed = json.loads(out)
    expected = load_example(f"{name}.expected.json")
    assert printed["format"] == "tarokclub.settlement/1"
    assert printed["net"] == expected["net"]
    assert printed["cups_after"] == expected["cups_after"]
    assert all(set(t) == {"from", "to", "points", "reason"} for t in printed["transfers"])


def test_settle_hand_reads_standard_input():
    """``settle_hand -`` reads the hand from standard input."""
    code, out = run_command("settle_hand", "-", stdin=(EXAMPLES / "X1.hand.json").read_text())
    assert code == 0, out
    assert json.loads(out)["net"] == {"Anna": -60, "Bo": -20, "Carl": 70}


def test_settle_evening_command():
    """``settle_evening FILE`` prints the evening result with the exact final balances."""
    code, out = run_command("settle_evening", str(EXAMPLES / "EVENING_E.evening.json"))
    assert code == 0, out
    printed = json.loads(out)
    expected = load_example("EVENING_E.expected.json")
    for key in ("before_split", "cups_before_split", "final"):
        assert printed[key] == expected[key]


def test_settle_hand_with_rates(tmp_path):
    """``--rates`` applies a rate card: a last trick of 30 changes X1 by 10 from each opponent."""
    rates = tmp_path / "rates.json"
    rates.write_text(json.dumps({"format": "tarokclub.rates/1", "last_trick_each": 30}))
    code, out = run_command("settle_hand", str(EXAMPLES / "X1.hand.json"), "--rates", str(rates))
    assert code == 0, out
    assert json.loads(out)["net"] == {"Anna": -70, "Bo": -30, "Carl": 90}


def test_refused_hand_prints_only_the_errors():
    """A refused hand exits 2 and prints nothing but ``{"errors": [...]}`` on stdout."""
    hand = load_example("X4.hand.json")
    hand["last_trick"]["winner"] = "Anna"
    code, out = run_command("settle_hand", "-", stdin=json.dumps(hand))
    assert code == 2
    assert json.loads(out) == {
        "errors": [
            {
                "field": "last_trick.winner",
                "message": "Anna won no trick (nolo) and cannot win the last trick",
            }
        ]
    }


def test_refused_rates_and_unreadable_file(tmp_path):
    """A bad rate card or a file that is not JSON is refused with the field named."""
    rates = tmp_path / "rates.json"
    rates.write_text(json.dumps({"last_trik_each": 30, "nolo_each": -5}))
    code, out = run_command("settle_hand", str(EXAMPLES / "X1.hand.json"), "--rates", str(rates))
    assert code == 2
    fields = [e["field"] for e in json.loads(out)["errors"]]
    assert fields == ["last_trik_each", "nolo_each"]
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    code, out = run_command("settle_evening", str(bad))
    assert code == 2
    assert json.loads(out)["errors"][0]["field"] == "file"
