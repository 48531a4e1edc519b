"""Every refusal of hand-format.md's Slovenian list, each naming its exact field."""

import copy

import pytest

from ledger.games.errors import EveningError, HandError
from ledger.games.slovenian import GAME
from ledger.games.slovenian.engine import RateCard, parse_hand, settle

from .helpers import load_sl

DELETE = object()


def base(name):
    """The example hand ``name`` (SL3: 4 seats, SL4: klop, SL5: 5 seats, SL6: 3 seats)."""
    return load_sl(f"{name}.hand.json")


def changed(name, **changes):
    data = copy.deepcopy(base(name))
    for key, value in changes.items():
        if value is DELETE:
            data.pop(key, None)
        else:
            data[key] = value
    return data


def bonus(btype="kings", side="declarer", announced=False, result="made", **extra):
    line = {"type": btype, "side": side, "announced": announced, "result": result}
    line.update(extra)
    return line


def klop_points(**entries):
    data = copy.deepcopy(base("SL4")["klop"])
    for name, value in entries.items():
        if value is DELETE:
            data.pop(name)
        else:
            data[name] = value
    return data


SOLO = {"contract": "solo_three", "partner": DELETE}
BEGGAR = {"contract": "beggar", "partner": DELETE, "card_points": DELETE, "won": True}
ON_THREE_SEATS = {"contract": "one", "declarer": "Bo", "won": DELETE, "card_points": 40}

CASES = [
    # (description, example, changes, expected field)
    ("not a JSON object", None, None, ""),
    ("an unknown key", "SL3", {"sitting_out": ["Bo"]}, "sitting_out"),
    ("a format other than hand/1", "SL3", {"format": "tarokclub.hand/2"}, "format"),
    ("a game other than slovenian_tarok", "SL3", {"game": "danish_tarok"}, "game"),
    ("seats not a list", "SL3", {"seats": "Anna, Bo"}, "seats"),
    ("two seats", "SL3", {"seats": ["Anna", "Bo"], "dealer": "Anna"}, "seats"),
    ("six seats", "SL3", {"seats": ["Anna", "Bo", "Carl", "Dorte", "Erik", "Finn"]}, "seats"),
    ("a duplicate seat", "SL3", {"seats": ["Anna", "Bo", "Carl", "Bo"]}, "seats"),
    ("a seat named pool", "SL3", {"seats": ["Anna", "Bo", "Carl", "pool"]}, "seats"),
    ("an empty seat name", "SL3", {"seats": ["Anna", "Bo", "Carl", " "]}, "seats"),
    ("a seat name of 61 characters", "SL3", {"seats": ["Anna", "Bo", "Carl", "x" * 61]}, "seats"),
    ("a seat name not a string", "SL3", {"seats": ["Anna", "Bo", "Carl", 4]}, "seats"),
    ("a dealer not seated", "SL3", {"dealer": "Zed"}, "dealer"),
    ("no dealer", "SL3", {"dealer": DELETE}, "dealer"),
    ("radli for a member not seated", "SL3", {"radli_before": {"Zed": 1}}, "radli_before.Zed"),
    ("negative radli", "SL3", {"radli_before": {"Carl": -1}}, "radli_before.Carl"),
    ("radli not a whole number", "SL3", {"radli_before": {"Carl": 1.5}}, "radli_before.Carl"),
    ("radli as a boolean", "SL3", {"radli_before": {"Carl": True}}, "radli_before.Carl"),
    ("radli not an object", "SL3", {"radli_before": [1]}, "radli_before"),
    ("an unknown contract", "SL3", {"contract": "four"}, "contract"),
    ("no contract", "SL3", {"contract": DELETE}, "contract"),
    ("annulled not a boolean", "SL3", {"annulled": "yes"}, "annulled"),
    ("an annulled hand with a contract", "SL3", {"annulled": True}, "contract"),
    (
        "an annulled hand with card points",
        "SL3",
        {
            "annulled": True,
            "contract": DELETE,
            "declarer": DELETE,
            "partner": DELETE,
            "kontra": DELETE,
            "bonuses": DELETE,
        },
        "card_points",
    ),
    ("no declarer", "SL3", {"declarer": DELETE}, "declarer"),
    ("a declarer not seated", "SL3", {"declarer": "Zed"}, "declarer"),
    (
        "a declarer sitting out (the dealer at 5 seats)",
        "SL5",
        {"declarer": "Erik", "contract": "two"},
        "declarer",
    ),
    ("a declarer given for klop", "SL4", {"declarer": "Anna"}, "declarer"),
    (
        "three by a declarer who is not forehand",
        "SL3",
        {"contract": "three", "declarer": "Anna", "partner": "Carl"},
        "declarer",
    ),
    ("a partner in a solo", "SL3", {"contract": "solo_three"}, "partner"),
    ("a partner in beggar", "SL3", {**BEGGAR, "partner": "Anna"}, "partner"),
    ("a partner in klop", "SL4", {"partner": "Bo"}, "partner"),
    ("a partner at 3 seats", "SL6", {**ON_THREE_SEATS, "partner": "Carl", "kontra": 0}, "partner"),
    ("a partner not seated", "SL3", {"partner": "Zed"}, "partner"),
    ("a partner sitting out", "SL5", {"partner": "Erik"}, "partner"),
    ("the declarer as his own partner", "SL3", {"partner": "Carl"}, "partner"),
    ("no card points", "SL3", {"card_points": DELETE}, "card_points"),
    ("card points above 70", "SL3", {"card_points": 71}, "card_points"),
    ("card points below 0", "SL3", {"card_points": -1}, "card_points"),
    ("card points not a whole number", "SL3", {"card_points": 47.0}, "card_points"),
    ("card points as a boolean", "SL3", {"card_points": True}, "card_points"),
    ("card points for klop", "SL4", {"card_points": 30}, "card_points"),
    ("card points for beggar", "SL3", {**BEGGAR, "bonuses": [], "card_points": 30}, "card_points"),
    ("no won for beggar", "SL6", {"won": DELETE}, "won"),
    ("no won for valat", "SL6", {"contract": "valat", "won": None}, "won"),
    ("won for two", "SL3", {"won": True}, "won"),
    ("won for klop", "SL4", {"won": False}, "won"),
    ("won not a boolean", "SL6", {"won": 0}, "won"),
    ("kontra above 4", "SL3", {"kontra": 5}, "kontra"),
    ("kontra below 0", "SL3", {"kontra": -1}, "kontra"),
    ("kontra not a whole number", "SL3", {"kontra": "2"}, "kontra"),
    ("kontra on klop", "SL4", {"kontra": 1}, "kontra"),
    (
        "kontra above 4 on a bonus",
        "SL3",
        {"bonuses": [bonus("trula", announced=True, result="failed", kontra=5)]},
        "bonuses[0].kontra",
    ),
    ("kontra on a silent bonus", "SL3", {"bonuses": [bonus(kontra=1)]}, "bonuses[0].kontra"),
    ("bonuses in klop", "SL4", {"bonuses": [bonus()]}, "bonuses"),
    (
        "bonuses in solo_without",
        "SL3",
        {"contract": "solo_without", "partner": DELETE, "bonuses": [bonus()]},
        "bonuses",
    ),
    ("bonuses in beggar", "SL3", {**BEGGAR}, "bonuses"),
    ("bonuses not a list", "SL3", {"bonuses": {"type": "kings"}}, "bonuses"),
    ("a bonus not an object", "SL3", {"bonuses": ["kings"]}, "bonuses[0]"),
    ("an unknown bonus type", "SL3", {"bonuses": [bonus("mond")]}, "bonuses[0].type"),
    ("an unknown bonus side", "SL3", {"bonuses": [bonus(side="both")]}, "bonuses[0].side"),
    ("an unknown bonus result", "SL3", {"bonuses": [bonus(result="won")]}, "bonuses[0].result"),
    (
        "announced not a boolean",
        "SL3",
        {"bonuses": [bonus(announced="no")]},
        "bonuses[0].announced",
    ),
    ("an unknown key in a bonus", "SL3", {"bonuses": [bonus(player="Anna")]}, "bonuses[0].player"),
    (
        "a silent trula that failed",
        "SL3",
        {"bonuses": [bonus("trula", result="failed")]},
        "bonuses[0].result",
    ),
    (
        "silent kings that failed",
        "SL3",
        {"bonuses": [bonus("kings", result="failed")]},
        "bonuses[0].result",
    ),
    (
        "king ultimo in a solo",
        "SL3",
        {**SOLO, "bonuses": [bonus("king_ultimo")]},
        "bonuses[0].type",
    ),
    (
        "king ultimo at 3 seats",
        "SL6",
        {**ON_THREE_SEATS, "kontra": 0, "bonuses": [bonus("king_ultimo")]},
        "bonuses[0].type",
    ),
    (
        "king ultimo for the opponents",
        "SL3",
        {"bonuses": [bonus("king_ultimo", side="opponents")]},
        "bonuses[0].side",
    ),
    (
        "a second line of one bonus for one side",
        "SL3",
        {"bonuses": [bonus("kings"), bonus("kings", announced=True)]},
        "bonuses[1].type",
    ),
    (
        "the same bonus made by both sides",
        "SL3",
        {"bonuses": [bonus("kings"), bonus("kings", side="opponents")]},
        "bonuses[1].side",
    ),
    (
        "a valat in solo_without",
        "SL3",
        {
            "contract": "solo_without",
            "partner": DELETE,
            "bonuses": [],
            "valat": {"side": "declarer", "result": "made"},
        },
        "valat",
    ),
    ("a valat in klop", "SL4", {"valat": {"side": "declarer", "result": "made"}}, "valat"),
    ("a valat in beggar", "SL6", {"valat": {"side": "declarer", "result": "made"}}, "valat"),
    (
        "a silent valat that failed",
        "SL3",
        {"valat": {"side": "declarer", "result": "failed"}},
        "valat.result",
    ),
    (
        "kontra on a silent valat",
        "SL3",
        {"valat": {"side": "declarer", "result": "made", "kontra": 1}},
        "valat.kontra",
    ),
    (
        "kontra above 4 on a valat",
        "SL3",
        {"valat": {"side": "declarer", "announced": True, "result": "made", "kontra": 5}},
        "valat.kontra",
    ),
    ("an unknown valat side", "SL3", {"valat": {"side": "all", "result": "made"}}, "valat.side"),
    (
        "an unknown valat result",
        "SL3",
        {"valat": {"side": "declarer", "result": "won"}},
        "valat.result",
    ),
    (
        "an unknown key in a valat",
        "SL3",
        {"valat": {"side": "declarer", "result": "made", "type": "valat"}},
        "valat.type",
    ),
    ("a valat not an object", "SL3", {"valat": True}, "valat"),
    ("a Mond capture of a member sitting out", "SL5", {"mond_captured": "Erik"}, "mond_captured"),
    ("a Mond capture of a member not seated", "SL3", {"mond_captured": "Zed"}, "mond_captured"),
    ("a Mond capture in klop", "SL4", {"mond_captured": "Bo"}, "mond_captured"),
    ("a Mond capture in beggar", "SL6", {"mond_captured": "Anna"}, "mond_captured"),
    (
        "a Mond capture in open beggar",
        "SL6",
        {"contract": "open_beggar", "mond_captured": "Anna"},
        "mond_captured",
    ),
    (
        "a Mond capture in colour valat",
        "SL6",
        {"contract": "colour_valat", "mond_captured": "Anna"},
        "mond_captured",
    ),
    (
        "a Mond capture in valat",
        "SL6",
        {"contract": "valat", "mond_captured": "Anna"},
        "mond_captured",
    ),
    ("no klop points for klop", "SL4", {"klop": DELETE}, "klop"),
    ("klop points for another contract", "SL3", {"klop": base("SL4")["klop"]}, "klop"),
    ("klop points not an object", "SL4", {"klop": [1, 2]}, "klop"),
    ("klop missing an active player", "SL4", {"klop": klop_points(Dorte=DELETE)}, "klop"),
    (
        "klop points of a member not seated",
        "SL4",
        {"klop": klop_points(Zed={"card_points": 0, "took_trick": True})},
        "klop.Zed",
    ),
    (
        "klop points of the dealer sitting out",
        "SL5",
        {
            "contract": "klop",
            "declarer": DELETE,
            "partner": DELETE,
            "card_points": DELETE,
            "kontra": DELETE,
            "bonuses": DELETE,
            "valat": DELETE,
            "klop": {
                n: {"card_points": p, "took_trick": True}
                for n, p in (("Anna", 20), ("Bo", 20), ("Carl", 20), ("Dorte", 10), ("Erik", 0))
            },
        },
        "klop.Erik",
    ),
    (
        "klop card points above 70",
        "SL4",
        {"klop": klop_points(Bo={"card_points": 71, "took_trick": True})},
        "klop.Bo.card_points",
    ),
    (
        "klop card points not a whole number",
        "SL4",
        {"klop": klop_points(Bo={"card_points": "38", "took_trick": True})},
        "klop.Bo.card_points",
    ),
    (
        "klop card points missing",
        "SL4",
        {"klop": klop_points(Bo={"took_trick": True})},
        "klop.Bo.card_points",
    ),
    (
        "klop points not totalling 70",
        "SL4",
        {"klop": klop_points(Bo={"card_points": 37, "took_trick": True})},
        "klop",
    ),
    (
        "klop points for a player who took no trick",
        "SL4",
        {
            "klop": klop_points(
                Anna={"card_points": 5, "took_trick": False},
                Bo={"card_points": 33, "took_trick": True},
            )
        },
        "klop.Anna.card_points",
    ),
    (
        "took_trick not a boolean",
        "SL4",
        {"klop": klop_points(Bo={"card_points": 38, "took_trick": 1})},
        "klop.Bo.took_trick",
    ),
    (
        "an unknown key in a klop result",
        "SL4",
        {"klop": klop_points(Bo={"card_points": 38, "took_trick": True, "mond": False})},
        "klop.Bo.mond",
    ),
    ("a klop result not an object", "SL4", {"klop": klop_points(Bo=38)}, "klop.Bo"),
]


@pytest.mark.parametrize(
    ("description", "example", "changes", "field"), CASES, ids=[c[0] for c in CASES]
)
def test_refusal_names_the_field(description, example, changes, field):
    """The hand is refused with a HandError whose problems name the expected field."""
    data = "not a hand" if example is None else changed(example, **changes)
    with pytest.raises(HandError) as caught:
        parse_hand(data, RateCard())
    fields = [p.field for p in caught.value.problems]
    assert field in fields, (description, fields)
    for problem in caught.value.problems:
        assert problem.message  # every template formats with its params


def test_the_base_hands_are_valid():
    """The example hands the refusal table mutates are themselves valid."""
    for name in ("SL3", "SL4", "SL5", "SL6"):
        parse_hand(base(name), RateCard())


def test_every_problem_is_collected():
    """Problems are collected and raised once: three broken fields give three problems."""
    data = changed("SL3", card_points=99, kontra=7, mond_captured="Zed")
    with pytest.raises(HandError) as caught:
        parse_hand(data, RateCard())
    assert {"card_points", "kontra", "mond_captured"} <= {p.field for p in caught.value.problems}


def test_annulled_hand_with_empty_result_fields_is_accepted():
    """An annulled hand may carry 0, false, {} , [] or null as its result fields."""
    data = {
        "format": "tarokclub.hand/1",
        "game": "slovenian_tarok",
        "seats": ["Anna", "Bo", "Carl", "Dorte"],
        "dealer": "Anna",
        "radli_before": {"Bo": 2},
        "annulled": True,
        "contract": None,
        "card_points": 0,
        "won": False,
        "kontra": 0,
        "bonuses": [],
        "klop": {},
        "valat": None,
    }
    record = parse_hand(data, RateCard())
    result = settle(record, RateCard())
    assert result.transfers == ()
    assert dict(result.net) == {"Anna": 0, "Bo": 0, "Carl": 0, "Dorte": 0}
    assert dict(result.radli_after) == {"Anna": 0, "Bo": 2, "Carl": 0, "Dorte": 0}
    assert result.outcome_data["annulled"] is True and result.outcome_data["won"] is None


def test_null_and_empty_list_count_as_not_given():
    """partner, bonuses, valat and mond_captured left null or [] are not given."""
    data = changed("SL3", bonuses=[], valat=None, mond_captured=None, partner=None)
    record = parse_hand(data, RateCard())
    assert record.partner is None and record.bonuses == () and record.valat is None


def test_partner_absent_or_null_means_alone():
    """A called contract with no partner (own king or in the talon) has a lone declarer."""
    record = parse_hand(changed("SL3", partner=DELETE), RateCard())
    assert record.partner is None
    assert [t.target for t in settle(record, RateCard()).transfers] == ["Carl"]


def test_state_replaces_radli_before():
    """``state`` given to parse_hand replaces the hand's radli_before; otherwise it is used."""
    data = base("SL3")
    assert dict(parse_hand(data, RateCard()).radli_before) == {
        "Anna": 0,
        "Bo": 0,
        "Carl": 1,
        "Dorte": 1,
    }
    record = parse_hand(data, RateCard(), state={"Bo": 3})
    assert dict(record.radli_before) == {"Anna": 0, "Bo": 3, "Carl": 0, "Dorte": 0}
    assert "radli_before" not in record.as_dict()


def test_state_is_validated_like_radli_before():
    """A state naming a member not seated, or negative radli, is refused on radli_before.NAME."""
    with pytest.raises(HandError) as caught:
        parse_hand(base("SL3"), RateCard(), state={"Zed": 1, "Bo": -2})
    assert {p.field for p in caught.value.problems} == {"radli_before.Zed", "radli_before.Bo"}


def test_game_may_be_left_out():
    """A hand without ``game`` given to this engine is read as Slovenian."""
    data = changed("SL1", game=DELETE)
    assert parse_hand(data, RateCard()).as_dict()["game"] == "slovenian_tarok"


def _evening():
    return load_sl("SL_EVENING.evening.json")


@pytest.mark.parametrize(
    ("description", "mutate", "field"),
    [
        (
            "an unknown contract in hand 3",
            lambda e: e["hands"][2].update(contract="x"),
            "hands[2].contract",
        ),
        (
            "a hand carrying seats",
            lambda e: e["hands"][0].update(seats=e["seats"]),
            "hands[0].seats",
        ),
        (
            "a hand carrying radli_before",
            lambda e: e["hands"][1].update(radli_before={}),
            "hands[1].radli_before",
        ),
        (
            "a hand of another game",
            lambda e: e["hands"][1].update(game="danish_tarok"),
            "hands[1].game",
        ),
        ("a hand that is not an object", lambda e: e["hands"].append(3), "hands[5]"),
        ("an evening of another game", lambda e: e.update(game="hungarian_tarokk"), "game"),
        ("an evening with an unknown key", lambda e: e.update(rates={}), "rates"),
        ("an evening with a bad format", lambda e: e.update(format="x"), "format"),
        ("an evening with two seats", lambda e: e.update(seats=["Anna", "Bo"]), "seats"),
        ("an evening without hands", lambda e: e.pop("hands"), "hands"),
        (
            "a klop point in hand 1 over 70",
            lambda e: e["hands"][0]["klop"]["Anna"].update(card_points=17),
            "hands[0].klop",
        ),
    ],
)
def test_evening_refusals(description, mutate, field):
    """An evening is refused with an EveningError naming the field, hands prefixed."""
    data = _evening()
    mutate(data)
    with pytest.raises(EveningError) as caught:
        GAME.settle_evening(data, RateCard())
    assert field in [p.field for p in caught.value.problems], description


def test_evening_hand_may_repeat_the_evening_game():
    """A hand inside the evening that gives ``game`` slovenian_tarok is accepted."""
    data = _evening()
    data["hands"][0]["game"] = "slovenian_tarok"
    assert (
        GAME.settle_evening(data, RateCard())["final"]
        == load_sl("SL_EVENING.expected.json")["final"]
    )
