"""The rate card: defaults from the spec, loading and refusing."""

import pytest

from ledger.games.danish.engine import RateCard, RateCardError, parse_hand, settle
from ledger.games.danish.engine.settle import round_count
from ledger.tests.conftest import load_example


def test_defaults_are_the_spec():
    """Every default of danish-tarok.md section 10."""
    rates = RateCard()
    assert (rates.funding_per_cup, rates.refund_per_cup, rates.dealer_fee_per_cup) == (20, 20, 5)
    assert (rates.meld_tarok_base, rates.meld_tarok_step) == (10, 5)
    assert (rates.meld_matador_base, rates.meld_matador_step) == (10, 5)
    assert (rates.meld_half, rates.meld_full, rates.meld_overfull) == (5, 10, 15)
    assert (rates.lost_ultimo_card_each, rates.lost_ultimo_card_cup, rates.pagat_home_each) == (
        5,
        5,
        5,
    )
    assert dict(rates.fines_per_cup) == {
        "cups_not_moved": 5,
        "misdeal": 5,
        "meld_before_dealer": 20,
        "meld_error": 40,
        "wrong_card_count": 40,
        "wrong_skat": 40,
        "lead_out_of_turn": 20,
        "revoke": 40,
        "false_scies_call": 20,
    }
    assert (rates.ultimo_pagat_each, rates.ultimo_king_each) == (45, 40)
    assert (rates.last_trick_each, rates.nolo_each) == (20, 25)
    assert (rates.tout_variant, rates.tout_each, rates.tout_each_pagat) == ("moller", 80, 135)
    assert rates.multi_bagud == "each_pays_p"
    assert (rates.count_par, rates.count_round_to, rates.split_unit) == (26, 5, 5)
    assert rates.five_seat_rotation == "two_sitters"


def test_partial_file_keeps_defaults():
    """Keys left out keep their defaults; fines merge by type."""
    rates = RateCard.from_dict(
        {"format": "tarokclub.rates/1", "nolo_each": 30, "fines_per_cup": {"revoke": 50}}
    )
    assert rates.nolo_each == 30
    assert rates.fine("revoke") == 50
    assert rates.fine("misdeal") == 5
    assert rates.last_trick_each == 20


def test_round_trip():
    """as_dict writes every key; from_dict reads it back equal."""
    rates = RateCard.from_dict({"tout_variant": "pagat", "count_round_to": 10})
    assert RateCard.from_dict(rates.as_dict()) == rates


def test_refused():
    """Unknown keys, negative or non-integer amounts and unknown options name their key."""
    with pytest.raises(RateCardError) as caught:
        RateCard.from_dict(
            {
                "nolo_eech": 25,
                "last_trick_each": -1,
                "meld_half": 2.5,
                "tout_variant": "danish",
                "fines_per_cup": {"sneezing": 5, "revoke": -40},
                "format": "tarokclub.rates/2",
            }
        )
    messages = {p.field: p.message for p in caught.value.problems}
    assert messages == {
        "nolo_eech": "unknown key nolo_eech: the rate card has no such setting",
        "last_trick_each": "an amount cannot be negative",
        "meld_half": "an amount must be a whole number of points",
        "tout_variant": "danish is not an option; choose one of moller, pagat, agger",
        "fines_per_cup.sneezing": "unknown fine type sneezing",
        "fines_per_cup.revoke": "an amount cannot be negative",
        "format": "the format must be tarokclub.rates/1",
    }


@pytest.mark.parametrize(
    ("points", "result"),
    [(24, 0), (26, 0), (28, 0), (19, -5), (18, -10), (31, 5), (35, 10), (0, -25), (3, -25)],
)
def test_count_rounding(points, result):
    """The count rounds count - 26 to the nearest 5: 24-28 nothing, 19 pays 5, 18 pays 10."""
    assert round_count(points, RateCard()) == result


def test_count_rounding_halves_go_away_from_zero():
    """With count_round_to 10 a difference of exactly 5 rounds away from zero."""
    rates = RateCard.from_dict({"count_round_to": 10})
    assert round_count(31, rates) == 10
    assert round_count(21, rates) == -10
    assert round_count(30, rates) == 0


def test_tout_pagat_variant():
    """Tout, Pagat variant: 135 from each opponent, cups untouched, no count."""
    rates = RateCard.from_dict({"tout_variant": "pagat"})
    hand = load_example("X6.hand.json")
    del hand["count"]
    result = settle(parse_hand(hand, rates), rates)
    assert result.net == {"Anna": 0, "Bo": -135, "Carl": -145, "Dorte": 270, "Erik": 0}
    assert result.cups_after == {"kongekop": 135, "pagatkop": 105}


def two_kings_bagud():
    hand = load_example("X3.hand.json")
    hand["last_trick"]["cards"][2]["card"] = "king"
    del hand["during_play"]
    return hand


def test_multi_bagud_each_pays_p():
    """Two kings bagud in one trick each pay P (125) into the kongekop by default."""
    result = settle(parse_hand(two_kings_bagud()))
    cup_payments = [(t.source, t.points) for t in result.transfers if t.reason == "bagud_cup"]
    assert cup_payments == [("Anna", 125), ("Dorte", 125)]
    assert result.cups_after["kongekop"] == 375


def test_multi_bagud_sequential():
    """Sequential: each bagud doubles the cup as it stands, in the order played: 125 then 250."""
    rates = RateCard.from_dict({"multi_bagud": "sequential"})
    result = settle(parse_hand(two_kings_bagud(), rates), rates)
    cup_payments = [(t.source, t.points) for t in result.transfers if t.reason == "bagud_cup"]
    assert cup_payments == [("Anna", 125), ("Dorte", 250)]
    assert result.cups_after["kongekop"] == 500


def test_king_ultimo_beside_king_bagud_refills_the_cup():
    """A king ultimo beside a king bagud: the bagud refills what the ultimator took; no refund."""
    hand = load_example("X3.hand.json")
    del hand["during_play"]
    hand["last_trick"]["cards"][1]["card"] = "king"  # Carl wins with a king
    result = settle(parse_hand(hand))
    moves = [(t.source, t.target, t.points, t.reason) for t in result.transfers]
    assert ("kongekop", "Carl", 125, "ultimo_cup") in moves
    assert ("Anna", "kongekop", 125, "bagud_cup") in moves
    assert not [t for t in result.transfers if t.reason == "refund"]
    assert result.cups_after == {"kongekop": 125, "pagatkop": 95}
