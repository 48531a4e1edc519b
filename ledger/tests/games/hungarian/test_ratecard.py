"""The Hungarian rate card (hungarian-tarokk.md section 15): defaults, options, refusals."""

import json
from typing import Any

import pytest

from ledger.games.errors import HandError, RateCardError
from ledger.games.hungarian import GAME
from ledger.games.hungarian.engine import RateCard, parse_hand, settle
from ledger.games.hungarian.engine.ratecard import MAX_AMOUNT

from .helpers import example_hand, hand, load_example


def net(name_or_data, rates=None):
    data = example_hand(name_or_data) if isinstance(name_or_data, str) else name_or_data
    return settle(parse_hand(data, rates), rates).net


def card(**keys):
    return RateCard.from_dict({"format": "tarokclub.rates/1", "game": "hungarian_tarokk", **keys})


def test_defaults_are_section_15():
    """Every key of section 15 with its default."""
    assert RateCard().as_dict() == {
        "bid_values": {"harom": 1, "ketto": 2, "egy": 3, "solo": 4},
        "game_win_points": 48,
        "figure_announced": {
            "dupla": 4,
            "volat": 6,
            "trull": 2,
            "four_kings": 2,
            "pagat_ultimo": 10,
            "xxi_catch": 42,
            "centrum": 10,
            "kismadar": 10,
            "nagymadar": 10,
            "king_ultimo": 15,
            "pagat_uhu": 20,
            "king_uhu": 20,
        },
        "figure_silent": {
            "dupla": 2,
            "volat": 3,
            "trull": 1,
            "four_kings": 1,
            "pagat_ultimo": 5,
            "xxi_catch": 21,
        },
        "dupla_volat_times_bid": True,
        "dupla_points": 71,
        "tarokk_claim_8": 1,
        "tarokk_claim_9": 2,
    }


def test_empty_card_and_game_rate_card_are_the_defaults():
    """{} , None and a bare rates/1 object with the game give the default card."""
    assert RateCard.from_dict({}) == RateCard()
    assert GAME.rate_card(None) == RateCard()
    assert GAME.rate_card({}) == RateCard()
    assert card() == RateCard()


def test_round_trip():
    """from_dict(as_dict()) round-trips a changed card; as_dict has no format or game."""
    changed = card(bid_values={"solo": 7}, dupla_volat_times_bid=False, tarokk_claim_9=4)
    data = changed.as_dict()
    assert "format" not in data and "game" not in data
    assert json.loads(json.dumps(data)) == data
    assert RateCard.from_dict(data) == changed
    assert RateCard.from_dict(RateCard().as_dict()) == RateCard()


def test_object_keys_set_only_some_entries():
    """bid_values, figure_announced and figure_silent may set some entries; others keep theirs."""
    c = card(bid_values={"ketto": 5}, figure_announced={"centrum": 12}, figure_silent={"trull": 3})
    assert dict(c.bid_values) == {"harom": 1, "ketto": 5, "egy": 3, "solo": 4}
    assert c.figure_announced["centrum"] == 12 and c.figure_announced["kismadar"] == 10
    assert c.figure_silent["trull"] == 3 and c.figure_silent["four_kings"] == 1


# --- the options and amounts applied ---------------------------------------------------


def test_dupla_volat_times_bid_default_and_false():
    """True (default): HU3's failed dupla is 4 x G x 2 = 24; false: flat 4 x 2 = 8."""
    assert net("HU3")["Carl"] == -23
    flat = card(dupla_volat_times_bid=False)
    assert net("HU3", flat) == {"Anna": 7, "Bo": 7, "Carl": -7, "Dorte": -7}


def test_dupla_volat_times_bid_false_on_volat():
    """False: HU7's announced volát is 6 x 4 = 24 (not 48), HU8's dupla 4 + silent volát 3."""
    flat = card(dupla_volat_times_bid=False)
    assert net("HU7", flat)["Dorte"] == 24 - 10
    assert net("HU8", flat)["Carl"] == 4 + 3


def test_dupla_volat_times_bid_false_on_silent_dupla():
    """False: the evening's second hand pays a flat silent dupla 2 + four kings 1."""
    data = load_example("HU_EVENING.evening.json")
    result = GAME.settle_evening(data, card(dupla_volat_times_bid=False))
    assert result["hands"][1]["net"]["Carl"] == 3


def test_dupla_volat_times_bid_agrees_for_harom():
    """For Három (G = 1) both readings agree: HU4 and HU6 are unchanged."""
    flat = card(dupla_volat_times_bid=False)
    for name in ("HU4", "HU6"):
        assert net(name, flat) == net(name)


def test_changed_bid_values():
    """bid_values: ketto 5 makes HU1's game 5 (T = 6); a solo of 10 in HU2 makes T = 49."""
    assert net("HU1", card(bid_values={"ketto": 5})) == {
        "Anna": 6,
        "Bo": -6,
        "Carl": 6,
        "Dorte": -6,
    }
    assert net("HU2", card(bid_values={"solo": 10}))["Bo"] == 3 * (40 + 10 - 1)


def test_changed_bid_value_scales_dupla_and_volat():
    """G scales dupla and volát: HU8 with ketto 3 pays 4 x 3 + 3 x 3 = 21."""
    assert net("HU8", card(bid_values={"ketto": 3}))["Carl"] == 21


def test_changed_figure_announced():
    """figure_announced: pagát ultimó 30 in HU2 gives T = 16 + 30 - 1 = 45, x3 for Bo."""
    assert net("HU2", card(figure_announced={"pagat_ultimo": 30}))["Bo"] == 135


def test_changed_figure_silent():
    """figure_silent: four kings 3 in HU1 gives T = 2 + 3."""
    assert net("HU1", card(figure_silent={"four_kings": 3}))["Anna"] == 5


def test_kismadar_placeholder_and_changed():
    """Kismadár: default 10 (the placeholder of section 5); a card may set it, e.g. 12."""
    data = hand(
        figures=[
            {"type": "kismadar", "side": "declarer", "announced": True, "result": "made"},
        ]
    )
    assert net(data)["Anna"] == 2 + 10
    assert net(data, card(figure_announced={"kismadar": 12}))["Anna"] == 2 + 12
    failed = hand(
        figures=[
            {"type": "kismadar", "side": "opponents", "announced": True, "result": "failed"},
        ]
    )
    assert net(failed, card(figure_announced={"kismadar": 12}))["Anna"] == 2 + 12


def test_game_win_points():
    """game_win_points 47 lets HU5's declarer win at 47: T = +2 - 5 = -3."""
    result = settle(parse_hand(example_hand("HU5")), card(game_win_points=47))
    assert result.outcome_data["game_won_by"] == "declarer"
    assert result.total == -3


def test_dupla_points():
    """dupla_points 58 turns HU1's 58 into a silent dupla 2 x 2 instead of the game: T = 5."""
    result = settle(parse_hand(example_hand("HU1")), card(dupla_points=58))
    assert result.total == 5
    assert [t.reason for t in result.transfers][:2] == ["dupla", "dupla"]


def test_dupla_points_changes_validation():
    """HU3's failed dupla at 64 is refused under dupla_points 64 (it would be made)."""
    with pytest.raises(HandError) as caught:
        parse_hand(example_hand("HU3"), card(dupla_points=64))
    assert [p.field for p in caught.value.problems] == ["figures[0].result"]


def test_tarokk_claim_amounts():
    """tarokk_claim_8 3 and _9 5: HU5's Carl gets 3 from each, Bo 5 from Anna."""
    result = settle(parse_hand(example_hand("HU5")), card(tarokk_claim_8=3, tarokk_claim_9=5))
    assert result.net == {"Anna": -7 - 3 - 5, "Bo": -7 - 3 + 5, "Carl": 7 + 9, "Dorte": 7 - 3}


# --- refusals ---------------------------------------------------------------------------

REFUSALS = [
    ("unknown key", {"meld_tarok_base": 10}, "meld_tarok_base"),
    ("a Danish option", {"tout_variant": "moller"}, "tout_variant"),
    ("unknown bid entry", {"bid_values": {"negy": 5}}, "bid_values.negy"),
    ("unknown figure entry", {"figure_announced": {"ultimo": 5}}, "figure_announced.ultimo"),
    ("a silent illustrated figure", {"figure_silent": {"centrum": 5}}, "figure_silent.centrum"),
    ("a table that is no object", {"bid_values": 3}, "bid_values"),
    ("negative amount", {"game_win_points": -1}, "game_win_points"),
    ("negative entry", {"figure_silent": {"trull": -1}}, "figure_silent.trull"),
    ("non-integer amount", {"dupla_points": 70.5}, "dupla_points"),
    ("integer-valued float", {"tarokk_claim_8": 1.0}, "tarokk_claim_8"),
    ("string amount", {"tarokk_claim_9": "2"}, "tarokk_claim_9"),
    ("bool amount", {"tarokk_claim_9": True}, "tarokk_claim_9"),
    ("bool entry", {"bid_values": {"solo": False}}, "bid_values.solo"),
    ("amount above the bound", {"game_win_points": MAX_AMOUNT + 1}, "game_win_points"),
    (
        "entry above the bound",
        {"figure_announced": {"dupla": MAX_AMOUNT + 1}},
        "figure_announced.dupla",
    ),
    ("option not boolean", {"dupla_volat_times_bid": "yes"}, "dupla_volat_times_bid"),
    ("option 1", {"dupla_volat_times_bid": 1}, "dupla_volat_times_bid"),
    ("another game", {"game": "slovenian_tarok"}, "game"),
    ("Danish game", {"game": "danish_tarok"}, "game"),
    ("wrong format", {"format": "tarokclub.rates/2"}, "format"),
]


@pytest.mark.parametrize("description,data,field", REFUSALS, ids=[r[0] for r in REFUSALS])
def test_refusal(description, data, field):
    """Each bad card is refused with exactly its field named."""
    with pytest.raises(RateCardError) as caught:
        RateCard.from_dict(data)
    assert [p.field for p in caught.value.problems] == [field]
    assert all(p.message for p in caught.value.problems)


def test_not_an_object():
    """A card that is not a JSON object is refused on the empty field."""
    with pytest.raises(RateCardError) as caught:
        RateCard.from_dict([1, 2])
    assert [p.field for p in caught.value.problems] == [""]


def test_every_problem_at_once():
    """All problems of one card are reported together."""
    with pytest.raises(RateCardError) as caught:
        RateCard.from_dict({"x": 1, "dupla_points": -2, "bid_values": {"solo": "4", "q": 1}})
    assert sorted(p.field for p in caught.value.problems) == [
        "bid_values.q",
        "bid_values.solo",
        "dupla_points",
        "x",
    ]


def test_the_bound_itself_is_accepted():
    """10,000,000 is the largest amount accepted; 0 is allowed."""
    c = card(game_win_points=MAX_AMOUNT, tarokk_claim_8=0)
    assert c.game_win_points == MAX_AMOUNT and c.tarokk_claim_8 == 0


def test_a_card_of_another_game_is_refused_by_the_hand():
    """A Danish rate card applied to a Hungarian hand or evening is refused on ``game``."""
    from ledger.games.danish.engine import RateCard as DanishCard

    # Another game's card, of the wrong type on purpose: the hand must refuse it.
    danish_card: Any = DanishCard()
    with pytest.raises(RateCardError) as caught:
        parse_hand(example_hand("HU1"), danish_card)
    assert [p.field for p in caught.value.problems] == ["game"]
    with pytest.raises(RateCardError) as caught:
        GAME.settle_evening(load_example("HU_EVENING.evening.json"), {"game": "danish_tarok"})
    assert [p.field for p in caught.value.problems] == ["game"]
