"""Every refusal of hand-format.md's Hungarian list, each naming its exact field.

Each case mutates a valid hand so that exactly one rule breaks, and asserts that the
HandError names exactly that field (the set of fields, so one broken rule may not be
reported on another field).
"""

import pytest

from ledger.games.errors import EveningError, HandError
from ledger.games.hungarian import GAME
from ledger.games.hungarian.engine import parse_hand, settle

from .helpers import SEATS5, hand, load_example


def fig(ftype, side="declarer", announced=True, result="made", **extra):
    line = {"type": ftype, "side": side, "announced": announced, "result": result}
    line.update(extra)
    return line


def five(**fields):
    """A valid 5-seat hand: Erik deals and sits out."""
    return hand(seats=list(SEATS5), dealer="Erik", **fields)


def annulled(**fields):
    data = {
        "format": "tarokclub.hand/1",
        "game": "hungarian_tarokk",
        "seats": ["Anna", "Bo", "Carl", "Dorte"],
        "dealer": "Dorte",
        "annulled": True,
    }
    data.update(fields)
    return data


def without(key, **fields):
    data = hand(**fields)
    del data[key]
    return data


CASES = [
    # the table
    ("3 seats", hand(seats=["Anna", "Bo", "Carl"], dealer="Anna"), "seats"),
    ("6 seats", hand(seats=[*SEATS5, "Fie"]), "seats"),
    ("2 seats", hand(seats=["Anna", "Carl"], dealer="Anna"), "seats"),
    ("duplicate seat", hand(seats=["Anna", "Bo", "Carl", "Anna"]), "seats"),
    ("seats missing", without("seats"), "seats"),
    ("seats not a list", hand(seats="Anna,Bo,Carl,Dorte"), "seats"),
    ("a seat not a string", hand(seats=["Anna", "Bo", 3, "Dorte"]), "seats"),
    ("an empty seat name", hand(seats=["Anna", "Bo", "", "Dorte"]), "seats"),
    ("a blank seat name", hand(seats=["Anna", "Bo", "  ", "Dorte"]), "seats"),
    ("a seat name over 60", hand(seats=["Anna", "Bo", "C" * 61, "Dorte"]), "seats"),
    ("dealer not seated", hand(dealer="Zoe"), "dealer"),
    ("dealer missing", without("dealer"), "dealer"),
    # the file
    ("not the hand format", hand(format="tarokclub.hand/2"), "format"),
    ("another game", hand(game="slovenian_tarok"), "game"),
    ("Danish game", hand(game="danish_tarok"), "game"),
    ("unknown key", hand(colour="red"), "colour"),
    ("sitting_out is no key", hand(sitting_out=["Dorte"]), "sitting_out"),
    ("no cups", hand(cups_before={"kongekop": 0, "pagatkop": 0}), "cups_before"),
    ("no radli", hand(radli_before={}), "radli_before"),
    ("annulled not a boolean", hand(annulled="yes"), "annulled"),
    # the bid
    ("unknown bid", hand(bid="negy"), "bid"),
    ("a Slovenian contract", hand(bid="three"), "bid"),
    ("bid missing", without("bid"), "bid"),
    ("bid null", hand(bid=None), "bid"),
    # annulled hands carrying a result field
    ("annulled with a bid", annulled(bid="harom"), "bid"),
    ("annulled with a declarer", annulled(declarer="Anna"), "declarer"),
    ("annulled with a partner", annulled(partner="Bo"), "partner"),
    ("annulled with card points", annulled(card_points=47), "card_points"),
    ("annulled with kontra", annulled(kontra=1), "kontra"),
    ("annulled with figures", annulled(figures=[fig("trull")]), "figures"),
    (
        "annulled with claims",
        annulled(tarokk_claims=[{"player": "Bo", "count": 8, "when": "announced"}]),
        "tarokk_claims",
    ),
    # declarer and partner
    ("declarer missing", without("declarer"), "declarer"),
    ("declarer not seated", hand(declarer="Zoe"), "declarer"),
    ("declarer not a name", hand(declarer=7), "declarer"),
    ("declarer sitting out", five(declarer="Erik"), "declarer"),
    ("partner not seated", hand(partner="Zoe"), "partner"),
    ("partner sitting out", five(partner="Erik"), "partner"),
    ("partner the declarer himself", hand(partner="Anna"), "partner"),
    # card points and kontra
    ("card points missing", without("card_points"), "card_points"),
    ("card points null", hand(card_points=None), "card_points"),
    ("card points negative", hand(card_points=-1), "card_points"),
    ("card points above 94", hand(card_points=95), "card_points"),
    ("card points a string", hand(card_points="58"), "card_points"),
    ("card points a float", hand(card_points=58.0), "card_points"),
    ("card points a boolean", hand(card_points=True), "card_points"),
    ("kontra 5", hand(kontra=5), "kontra"),
    ("kontra negative", hand(kontra=-1), "kontra"),
    ("kontra a boolean", hand(kontra=True), "kontra"),
    ("figure kontra 5", hand(figures=[fig("trull", kontra=5)]), "figures[0].kontra"),
    ("figure kontra a string", hand(figures=[fig("trull", kontra="1")]), "figures[0].kontra"),
    # figure lines
    ("figures not a list", hand(figures={"type": "trull"}), "figures"),
    ("a figure not an object", hand(figures=["trull"]), "figures[0]"),
    ("unknown figure key", hand(figures=[fig("trull", colour=1)]), "figures[0].colour"),
    ("unknown figure type", hand(figures=[fig("ultimo")]), "figures[0].type"),
    (
        "figure type missing",
        hand(figures=[{"side": "declarer", "result": "made"}]),
        "figures[0].type",
    ),
    ("unknown figure side", hand(figures=[fig("trull", side="partner")]), "figures[0].side"),
    ("unknown figure result", hand(figures=[fig("trull", result="won")]), "figures[0].result"),
    (
        "figure result missing",
        hand(figures=[{"type": "trull", "side": "declarer", "announced": True}]),
        "figures[0].result",
    ),
    ("announced not a boolean", hand(figures=[fig("trull", announced=1)]), "figures[0].announced"),
    (
        "dupla announced not a boolean",
        hand(figures=[fig("dupla", announced="no", result="failed")]),
        "figures[0].announced",
    ),
    (
        "kontra on a silent figure",
        hand(figures=[fig("trull", announced=False, kontra=1)]),
        "figures[0].kontra",
    ),
    (
        "a silent dupla line",
        hand(card_points=80, figures=[fig("dupla", announced=False)]),
        "figures[0].announced",
    ),
    (
        "a silent trull that failed",
        hand(figures=[fig("trull", announced=False, result="failed")]),
        "figures[0].result",
    ),
    (
        "a silent volat that failed",
        hand(figures=[fig("volat", announced=False, result="failed")]),
        "figures[0].result",
    ),
    (
        "a silent xxi catch that failed",
        hand(figures=[fig("xxi_catch", side="opponents", announced=False, result="failed")]),
        "figures[0].result",
    ),
    (
        "a second line of one figure for one side",
        hand(figures=[fig("trull"), fig("trull", announced=False)]),
        "figures[1].type",
    ),
    (
        "the same figure made by both sides",
        hand(figures=[fig("four_kings"), fig("four_kings", side="opponents", announced=False)]),
        "figures[1].result",
    ),
    (
        "announced dupla made below 71",
        hand(card_points=70, figures=[fig("dupla")]),
        "figures[0].result",
    ),
    (
        "announced dupla failed at 71",
        hand(card_points=71, figures=[fig("dupla", result="failed")]),
        "figures[0].result",
    ),
    (
        "the opponents' dupla made below 71",
        hand(card_points=24, figures=[fig("dupla", side="opponents")]),
        "figures[0].result",
    ),
    (
        "the opponents' dupla failed at 71",
        hand(card_points=23, figures=[fig("dupla", side="opponents", result="failed")]),
        "figures[0].result",
    ),
    ("a made volat below 71", hand(card_points=70, figures=[fig("volat")]), "figures[0].result"),
    (
        "a made silent volat of the opponents below 71",
        hand(card_points=30, figures=[fig("volat", side="opponents", announced=False)]),
        "figures[0].result",
    ),
    (
        "a made figure of the other side beside a volat",
        hand(
            card_points=94,
            figures=[fig("volat"), fig("pagat_ultimo", side="opponents", announced=False)],
        ),
        "figures[1].result",
    ),
    # tarokk claims
    ("claims not a list", hand(tarokk_claims={"player": "Bo"}), "tarokk_claims"),
    ("a claim not an object", hand(tarokk_claims=["Bo"]), "tarokk_claims[0]"),
    (
        "a claim by a member not seated",
        hand(tarokk_claims=[{"player": "Zoe", "count": 8, "when": "announced"}]),
        "tarokk_claims[0].player",
    ),
    (
        "a claim by the sitting-out dealer",
        five(tarokk_claims=[{"player": "Erik", "count": 8, "when": "announced"}]),
        "tarokk_claims[0].player",
    ),
    (
        "a second claim by one player",
        hand(
            tarokk_claims=[
                {"player": "Bo", "count": 8, "when": "announced"},
                {"player": "Bo", "count": 9, "when": "at_end"},
            ]
        ),
        "tarokk_claims[1].player",
    ),
    (
        "a count of 10",
        hand(tarokk_claims=[{"player": "Bo", "count": 10, "when": "announced"}]),
        "tarokk_claims[0].count",
    ),
    (
        "a count of 7",
        hand(tarokk_claims=[{"player": "Bo", "count": 7, "when": "announced"}]),
        "tarokk_claims[0].count",
    ),
    (
        "a count as a string",
        hand(tarokk_claims=[{"player": "Bo", "count": "8", "when": "announced"}]),
        "tarokk_claims[0].count",
    ),
    (
        "an unknown when",
        hand(tarokk_claims=[{"player": "Bo", "count": 8, "when": "later"}]),
        "tarokk_claims[0].when",
    ),
    (
        "a claim at the end by a lone declarer",
        hand(partner=None, tarokk_claims=[{"player": "Anna", "count": 9, "when": "at_end"}]),
        "tarokk_claims[0].when",
    ),
    (
        "an unknown claim key",
        hand(tarokk_claims=[{"player": "Bo", "count": 8, "when": "announced", "x": 1}]),
        "tarokk_claims[0].x",
    ),
]


@pytest.mark.parametrize("description,data,field", CASES, ids=[c[0] for c in CASES])
def test_refusal(description, data, field):
    """The hand is refused, naming exactly the broken rule's field, with a message."""
    with pytest.raises(HandError) as caught:
        parse_hand(data)
    assert {p.field for p in caught.value.problems} == {field}
    assert all(p.message and p.template for p in caught.value.problems)


def test_not_an_object():
    """A hand that is not a JSON object is refused on the empty field."""
    with pytest.raises(HandError) as caught:
        parse_hand(["Anna"])
    assert [p.field for p in caught.value.problems] == [""]


def test_a_state_is_refused():
    """The game carries no state: a non-empty state is refused; None and {} are fine."""
    parse_hand(hand(), state=None)
    parse_hand(hand(), state={})
    with pytest.raises(HandError) as caught:
        parse_hand(hand(), state={"cups": 1})
    assert [p.field for p in caught.value.problems] == ["state"]


def test_every_problem_at_once():
    """Problems are collected, then raised once."""
    data = hand(bid="x", partner="Zoe", card_points=100, kontra=9, figures=[fig("ultimo")])
    with pytest.raises(HandError) as caught:
        parse_hand(data)
    assert [p.field for p in caught.value.problems] == [
        "bid",
        "partner",
        "card_points",
        "kontra",
        "figures[0].type",
    ]


ACCEPTED = [
    (
        "game and format may be omitted",
        {k: v for k, v in hand().items() if k not in ("game", "format")},
    ),
    ("partner absent: alone", without("partner")),
    ("partner null: alone", hand(partner=None)),
    ("kontra null is none", hand(kontra=None)),
    ("figures null", hand(figures=None)),
    ("claims empty", hand(tarokk_claims=[])),
    (
        "announced omitted is silent",
        hand(figures=[{"type": "trull", "side": "declarer", "result": "made"}]),
    ),
    ("kontra 0 on a silent figure", hand(figures=[fig("trull", announced=False, kontra=0)])),
    (
        "a silent failed pagat ultimo",
        hand(figures=[fig("pagat_ultimo", announced=False, result="failed")]),
    ),
    (
        "a failed figure of the other side beside a volat",
        hand(
            card_points=94,
            figures=[fig("volat"), fig("centrum", side="opponents", result="failed")],
        ),
    ),
    (
        "one side fails what the other makes",
        hand(
            figures=[fig("trull", result="failed"), fig("trull", side="opponents", announced=False)]
        ),
    ),
    ("kontra 4 everywhere", hand(kontra=4, figures=[fig("king_uhu", kontra=4)])),
    ("card points 0 and 94 bounds", hand(card_points=0)),
    ("a seat name of 60", hand(seats=["Anna", "B" * 60, "Carl", "Dorte"])),
    (
        "annulled with empty result fields",
        annulled(
            bid=None,
            partner=None,
            card_points=0,
            kontra=0,
            figures=[],
            tarokk_claims=[],
            declarer=None,
        ),
    ),
    ("annulled false is a played hand", hand(annulled=False)),
    (
        "an opponent of a lone declarer claims at the end",
        hand(partner=None, tarokk_claims=[{"player": "Bo", "count": 8, "when": "at_end"}]),
    ),
    ("5 seats, the dealer out", five()),
]


@pytest.mark.parametrize("description,data", ACCEPTED, ids=[c[0] for c in ACCEPTED])
def test_accepted(description, data):
    """Edge cases the format allows are accepted and settle to zero."""
    result = settle(parse_hand(data))
    assert sum(result.net.values()) == 0


def test_annulled_hand_settles_to_nothing():
    """A thrown-in hand moves nothing; its record keeps only the table and annulled."""
    record = parse_hand(annulled(card_points=0))
    result = settle(record)
    assert result.transfers == ()
    assert result.net == {"Anna": 0, "Bo": 0, "Carl": 0, "Dorte": 0}
    assert record.as_dict() == annulled()
    assert result.roles == {"Anna": "player", "Bo": "player", "Carl": "player", "Dorte": "player"}


# --- evenings ---------------------------------------------------------------------------


def evening(**fields):
    data = load_example("HU_EVENING.evening.json")
    data.update(fields)
    return data


def evening_fields(data):
    with pytest.raises(EveningError) as caught:
        GAME.settle_evening(data)
    return [p.field for p in caught.value.problems]


def test_evening_hand_carrying_seats():
    """A hand in an evening may not carry the evening's seats (field hands[i].seats)."""
    data = evening()
    data["hands"][1]["seats"] = data["seats"]
    assert evening_fields(data) == ["hands[1].seats"]


def test_evening_hand_of_another_game():
    """A hand whose game differs from the evening's is refused on hands[i].game."""
    data = evening()
    data["hands"][0]["game"] = "slovenian_tarok"
    assert evening_fields(data) == ["hands[0].game"]


def test_evening_hand_may_name_the_evenings_game():
    """A hand may repeat the evening's game."""
    data = evening()
    data["hands"][0]["game"] = "hungarian_tarokk"
    assert GAME.settle_evening(data)["final"] == load_example("HU_EVENING.expected.json")["final"]


def test_evening_hand_refusals_are_prefixed_and_collected():
    """Every bad hand's problems are reported, prefixed hands[i]."""
    data = evening()
    data["hands"][2]["bid"] = "negy"
    data["hands"][4]["figures"][0]["side"] = "both"
    data["hands"][3] = "annulled"
    assert evening_fields(data) == ["hands[2].bid", "hands[3]", "hands[4].figures[0].side"]


@pytest.mark.parametrize(
    "fields,field",
    [
        ({"game": "danish_tarok"}, "game"),
        ({"game": None}, "game"),
        ({"format": "tarokclub.evening/2"}, "format"),
        ({"seats": ["Anna", "Bo", "Carl"]}, "seats"),
        ({"seats": ["Anna", "Bo", "Carl", "Carl"]}, "seats"),
        ({"hands": {}}, "hands"),
        ({"cups": 1}, "cups"),
    ],
)
def test_evening_refusals(fields, field):
    """The evening itself is refused on the named field."""
    assert evening_fields(evening(**fields)) == [field]


def test_evening_without_game_is_danish():
    """An evening without ``game`` is Danish and refused here (field game)."""
    data = evening()
    del data["game"]
    assert evening_fields(data) == ["game"]


def test_evening_not_an_object():
    """An evening that is not a JSON object is refused on the empty field."""
    assert evening_fields([]) == [""]
