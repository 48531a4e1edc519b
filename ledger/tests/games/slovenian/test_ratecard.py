"""The Slovenian rate card (section 15): defaults, options and refusals."""

import copy

import pytest

from ledger.games.errors import RateCardError
from ledger.games.slovenian import GAME
from ledger.games.slovenian.engine import RateCard, parse_hand, settle
from ledger.games.slovenian.engine.close import close_table
from ledger.games.slovenian.engine.settle import round_to

from .helpers import load_sl


def run(name, rates, **changes):
    data = copy.deepcopy(load_sl(f"{name}.hand.json"))
    data.update(changes)
    return settle(parse_hand(data, rates), rates)


def test_defaults_are_section_15():
    """Every key of section 15 with its default, and the option of section 9 on radli after
    a valat line (the peers differ; the default is the contract's: after a made valat)."""
    assert RateCard().as_dict() == {
        "contract_values": {
            "three": 10,
            "two": 20,
            "one": 30,
            "solo_three": 40,
            "solo_two": 50,
            "solo_one": 60,
            "beggar": 70,
            "solo_without": 80,
            "open_beggar": 90,
            "colour_valat": 125,
            "valat": 500,
        },
        "card_points_par": 35,
        "difference_round_to": 5,
        "bonus_silent": {"trula": 10, "kings": 10, "pagat_ultimo": 25, "king_ultimo": 10},
        "bonus_announced": {"trula": 20, "kings": 20, "pagat_ultimo": 50, "king_ultimo": 20},
        "valat_silent": 250,
        "valat_announced": 500,
        "mond_penalty": 20,
        "radli": True,
        "radli_after_valat": "made",
        "radelc_penalty": 100,
        "klop_value": 70,
        "klop_limit": 36,
        "klop_round_to": 5,
        "split_unit": 5,
    }


def test_from_dict_round_trips_and_keeps_other_entries():
    """An object key may set one entry; as_dict (no format/game) round-trips through from_dict."""
    card = RateCard.from_dict(
        {
            "format": "tarokclub.rates/1",
            "game": "slovenian_tarok",
            "mond_penalty": 21,
            "contract_values": {"valat": 250},
        }
    )
    assert card.contract_values["valat"] == 250 and card.contract_values["two"] == 20
    assert card.mond_penalty == 21
    assert "format" not in card.as_dict() and "game" not in card.as_dict()
    assert RateCard.from_dict(card.as_dict()) == card
    assert GAME.rate_card(None) == RateCard() == GAME.rate_card({})


REFUSALS = [
    ({"game": "danish_tarok"}, "game"),
    ({"format": "tarokclub.rates/2"}, "format"),
    ({"funding_per_cup": 20}, "funding_per_cup"),
    ({"contract_values": {"four": 5}}, "contract_values.four"),
    ({"contract_values": {"klop": 5}}, "contract_values.klop"),
    ({"contract_values": 10}, "contract_values"),
    ({"bonus_silent": {"mond": 5}}, "bonus_silent.mond"),
    ({"bonus_announced": {"trula": -1}}, "bonus_announced.trula"),
    ({"mond_penalty": -1}, "mond_penalty"),
    ({"mond_penalty": 2.5}, "mond_penalty"),
    ({"mond_penalty": "20"}, "mond_penalty"),
    ({"mond_penalty": True}, "mond_penalty"),
    ({"radelc_penalty": 10_000_001}, "radelc_penalty"),
    ({"contract_values": {"valat": 10_000_001}}, "contract_values.valat"),
    ({"difference_round_to": 0}, "difference_round_to"),
    ({"klop_round_to": 0}, "klop_round_to"),
    ({"split_unit": 0}, "split_unit"),
    ({"radli": 1}, "radli"),
    ({"radli": "false"}, "radli"),
    ({"card_points_par": 71}, "card_points_par"),
]


@pytest.mark.parametrize(("data", "field"), REFUSALS, ids=[r[1] + str(r[0]) for r in REFUSALS])
def test_rate_card_refusals(data, field):
    """Unknown keys or entries, bad amounts, units below 1 and non-boolean options are refused."""
    with pytest.raises(RateCardError) as caught:
        RateCard.from_dict(data)
    assert [p.field for p in caught.value.problems] == [field]


def test_rate_card_not_an_object():
    """A rate card that is not an object is refused."""
    with pytest.raises(RateCardError):
        RateCard.from_dict([1])


def test_the_upper_bound_is_allowed():
    """10,000,000 is the largest amount a card accepts."""
    assert RateCard.from_dict({"valat_announced": 10_000_000}).valat_announced == 10_000_000


def test_radli_false_no_doubling_no_change():
    """radli false: SL3's radelc does not double H, radli_after repeats radli_before."""
    rates = RateCard.from_dict({"radli": False})
    s = run("SL3", rates)
    assert dict(s.net) == {"Anna": 140, "Bo": 0, "Carl": 140, "Dorte": 0}
    assert dict(s.radli_after) == {"Anna": 0, "Bo": 0, "Carl": 1, "Dorte": 1}
    klop = run("SL4", rates)
    assert dict(klop.radli_after) == {"Anna": 1, "Bo": 0, "Carl": 0, "Dorte": 0}


def test_radli_false_no_penalty_at_close():
    """radli false: open radli cost nothing at the close."""
    rates = RateCard.from_dict({"radli": False})
    moves = close_table({"Anna": 0, "Bo": 0, "Carl": 0, "pool": 0}, {"Anna": 3}, rates)
    assert moves == []


def test_radli_false_evening():
    """radli false: the evening SL without doubling, new radli or penalties."""
    result = GAME.settle_evening(
        load_sl("SL_EVENING.evening.json"), RateCard.from_dict({"radli": False})
    )
    assert result["radli_at_close"] == {"Anna": 0, "Bo": 0, "Carl": 0, "Dorte": 0}
    assert all(m["reason"] == "split" for m in result["close"])
    # scores: klop −15 −15 −25 −15; Carl two +35 ×2 seats; Dorte −30, Bo Mond −20;
    # Bo +80; Anna and Bo −30 each.
    assert result["before_split"] == {"Anna": -10, "Bo": 15, "Carl": 10, "Dorte": -45}
    assert sum(result["final"].values()) == 0


def test_mond_penalty_21():
    """mond_penalty 21: SL1's Bo pays 21."""
    s = run("SL1", RateCard.from_dict({"mond_penalty": 21}))
    assert dict(s.net) == {"Anna": 40, "Bo": -21, "Carl": 40, "Dorte": 0}


def test_klop_round_to_1_is_unrounded():
    """klop_round_to 1: evening hand 1 pays the card points as they are."""
    hand = load_sl("SL_EVENING.evening.json")["hands"][0]
    data = {"seats": ["Anna", "Bo", "Carl", "Dorte"], **hand}
    rates = RateCard.from_dict({"klop_round_to": 1})
    s = settle(parse_hand(data, rates), rates)
    assert dict(s.net) == {"Anna": -16, "Bo": -14, "Carl": -23, "Dorte": -17}


def test_klop_even_unit_halves_round_down():
    """klop_round_to 10: 15 → 10 (half down), 16 → 20, 14 → 10, 25 → 20."""
    data = {
        "seats": ["Anna", "Bo", "Carl", "Dorte"],
        "dealer": "Anna",
        "contract": "klop",
        "klop": {
            "Anna": {"card_points": 15, "took_trick": True},
            "Bo": {"card_points": 16, "took_trick": True},
            "Carl": {"card_points": 14, "took_trick": True},
            "Dorte": {"card_points": 25, "took_trick": True},
        },
    }
    rates = RateCard.from_dict({"klop_round_to": 10})
    s = settle(parse_hand(data, rates), rates)
    assert dict(s.net) == {"Anna": -10, "Bo": -20, "Carl": -10, "Dorte": -20}


def test_changed_contract_values():
    """contract_values two 25: SL1's game is +(25 + 10) and H 45."""
    s = run("SL1", RateCard.from_dict({"contract_values": {"two": 25}}))
    assert dict(s.net) == {"Anna": 45, "Bo": -20, "Carl": 45, "Dorte": 0}
    beggar = run("SL6", RateCard.from_dict({"contract_values": {"beggar": 60}}))
    assert beggar.net["Bo"] == -240


def test_difference_even_unit_halves_round_down():
    """difference_round_to 10: SL1's D = 9 → 10, but 40 points (D 5, a half) → 0."""
    rates = RateCard.from_dict({"difference_round_to": 10})
    assert run("SL1", rates).net["Anna"] == 40
    assert run("SL1", rates, card_points=40).net["Anna"] == 30  # 20 + 0, kings 10
    assert run("SL1", rates, card_points=41).net["Anna"] == 40  # D 6 → 10


def test_card_points_par():
    """card_points_par 40: 41 wins with D 1 → 0; 40 loses."""
    rates = RateCard.from_dict({"card_points_par": 40})
    assert run("SL1", rates, card_points=41).outcome_data["won"] is True
    assert run("SL1", rates, card_points=40).outcome_data["won"] is False
    assert run("SL1", rates, card_points=40).net["Anna"] == -20 + 10


@pytest.mark.parametrize(
    ("value", "unit", "expected"),
    [
        (9, 5, 10),
        (12, 5, 10),
        (17, 5, 15),
        (2, 5, 0),
        (3, 5, 5),
        (1, 2, 0),
        (3, 2, 2),
        (5, 10, 0),
        (6, 10, 10),
        (15, 10, 10),
        (7, 1, 7),
        (0, 5, 0),
    ],
)
def test_round_to(value, unit, expected):
    """Nearest multiple of the unit; halves (only with an even unit) round down."""
    assert round_to(value, unit) == expected


def test_other_amounts_apply():
    """valat_silent, bonus values, klop_value/limit and radelc_penalty are read from the card."""
    rates = RateCard.from_dict(
        {"valat_silent": 100, "klop_value": 50, "klop_limit": 38, "bonus_silent": {"kings": 5}}
    )
    assert run("SL5", rates).net["Anna"] == 200
    assert dict(run("SL4", rates).net) == {"Anna": 50, "Bo": -50, "Carl": 0, "Dorte": 0}
    assert run("SL1", rates).net["Anna"] == 35
    moves = close_table(
        {"Anna": 0, "Bo": 0, "pool": 0}, {"Bo": 2}, RateCard.from_dict({"radelc_penalty": 30})
    )
    assert moves[0].as_dict() == {"from": "Bo", "to": "pool", "points": 60, "reason": "radelc"}
