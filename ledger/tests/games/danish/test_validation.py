"""Every class of refused input of hand-format.md, with its field and message."""

import copy

import pytest

from ledger.games.danish.engine import HandError, RateCard, parse_hand, settle
from ledger.tests.conftest import load_example


def x7(**changes):
    hand = copy.deepcopy(load_example("X7.hand.json"))
    hand.update(changes)
    return hand


def refused(hand, rates=None):
    with pytest.raises(HandError) as caught:
        parse_hand(hand, rates)
    return [(p.field, p.message) for p in caught.value.problems]


def test_valid_example_is_accepted():
    """X7 as given is a valid hand (the base of the cases below)."""
    assert parse_hand(x7()).active == ("Bo", "Carl", "Dorte")


@pytest.mark.parametrize(
    ("changes", "expected"),
    [
        ({"seats": ["Anna", "Bo"]}, ("seats", "a table seats 3 to 5 members, not 2")),
        (
            {"seats": ["A", "B", "C", "D", "E", "F"]},
            ("seats", "a table seats 3 to 5 members, not 6"),
        ),
        ({"seats": ["Anna", "Bo", "Anna", "Dorte"]}, ("seats", "Anna is seated twice")),
        ({"dealer": "Erik"}, ("dealer", "Erik is not seated at this table")),
        ({"sitting_out": ["Carl"]}, ("sitting_out", "the dealer Carl cannot sit out")),
        (
            {"sitting_out": []},
            ("sitting_out", "exactly 3 must play: with 4 seated, 1 must sit out"),
        ),
        ({"sitting_out": ["Zoe"]}, ("sitting_out", "Zoe is not seated at this table")),
    ],
)
def test_seats_and_roles(changes, expected):
    """Seats, dealer and sitting-out list are checked first."""
    assert expected in refused(x7(**changes))


@pytest.mark.parametrize(
    ("changes", "field"),
    [
        ({"melds": [{"player": "Anna", "type": "full", "suit": "hearts"}]}, "melds[0].player"),
        ({"during_play": [{"type": "lost_king", "player": "Anna"}]}, "during_play[0].player"),
        ({"fines": [{"type": "misdeal", "player": "Anna"}]}, "fines[0].player"),
        ({"count": {"Anna": 30, "Bo": 22}}, "count.Anna"),
    ],
)
def test_member_sitting_out_takes_no_part(changes, field):
    """A meld, event, fine or count by a member who sits out is refused."""
    assert (field, "Anna sits out this hand and takes no part in it") in refused(x7(**changes))


def test_sitter_in_nolo_tout_and_last_trick():
    """A nolo, tout or last-trick card by a member who sits out is refused."""
    assert ("nolo", "Anna sits out this hand and takes no part in it") in refused(
        x7(nolo=["Anna"], count=None)
    )
    assert ("tout", "Anna sits out this hand and takes no part in it") in refused(x7(tout="Anna"))
    hand = x7()
    hand["last_trick"]["cards"][0]["player"] = "Anna"
    assert ("last_trick.cards[0].player", "Anna sits out this hand and takes no part in it") in (
        refused(hand)
    )


def test_name_not_seated():
    """A name that is not seated is refused wherever it appears."""
    assert ("melds[0].player", "Zoe is not seated at this table") in refused(
        x7(melds=[{"player": "Zoe", "type": "tarok", "count": 10}])
    )


@pytest.mark.parametrize(
    ("meld", "field", "message"),
    [
        ({"type": "tarok", "count": 9}, "melds[0].count", "a tarok meld counts 10 to 22, not 9"),
        ({"type": "tarok", "count": 23}, "melds[0].count", "a tarok meld counts 10 to 22, not 23"),
        ({"type": "matador", "count": 2}, "melds[0].count", "a matador meld counts 3 to 22, not 2"),
        (
            {"type": "full", "suit": "cups"},
            "melds[0].suit",
            "unknown suit cups; a suit is one of hearts, diamonds, spades, clubs, kings",
        ),
        (
            {"type": "straight"},
            "melds[0].type",
            "unknown meld straight; a meld is one of tarok, matador, half, full, overfull",
        ),
        (
            {"type": "half", "suit": "hearts", "missing": "ten"},
            "melds[0].missing",
            "the missing card of a half is a court card: king, queen, cavalier, knight",
        ),
        (
            {"type": "half", "suit": "kings", "missing": "queen"},
            "melds[0].missing",
            "a half of kings names the missing king by its suit: hearts, diamonds, spades, clubs",
        ),
    ],
)
def test_meld_ranges(meld, field, message):
    """Melds outside their range, unknown suits and types, and bad missing cards are refused."""
    assert (field, message) in refused(x7(melds=[{"player": "Bo", **meld}]))


def test_same_meld_twice():
    """A player cannot declare the same meld twice."""
    meld = {"player": "Bo", "type": "tarok", "count": 10}
    assert ("melds[1]", "Bo has declared this meld already") in refused(x7(melds=[meld, meld]))


@pytest.mark.parametrize(
    ("events", "field", "message"),
    [
        (
            [{"type": "lost_pagat", "player": "Bo"}, {"type": "lost_pagat", "player": "Carl"}],
            "during_play[1].type",
            "the pagat cannot be lost twice",
        ),
        (
            [{"type": "lost_pagat", "player": "Bo"}, {"type": "pagat_home", "player": "Bo"}],
            "during_play[1].type",
            "the pagat cannot win a trick after it was lost",
        ),
        (
            [{"type": "lost_pagat", "player": "Carl"}],
            "last_trick.cards",
            "the pagat was played during the hand and cannot be played to the last trick",
        ),
    ],
)
def test_impossible_pagat_events(events, field, message):
    """The pagat lost twice, won home after it was lost, or played again is refused."""
    assert (field, message) in refused(x7(during_play=events))


def test_five_kings():
    """There are only four kings."""
    events = [{"type": "lost_king", "player": p} for p in ("Bo", "Carl", "Dorte", "Bo")]
    hand = x7(during_play=events)
    hand["last_trick"]["cards"][2]["card"] = "king"
    assert ("during_play", "there are only four kings, not 5") in refused(hand)


def test_last_trick_shape():
    """A last trick needs exactly the three active players, one pagat at most."""
    hand = x7()
    hand["last_trick"]["cards"] = hand["last_trick"]["cards"][:2]
    assert (
        "last_trick.cards",
        "the last trick has exactly one card from each active player: Bo, Carl, Dorte",
    ) in refused(hand)
    hand = x7()
    hand["last_trick"]["cards"][0]["card"] = "pagat"
    assert ("last_trick.cards", "there is only one pagat, not two") in refused(hand)


def test_king_cannot_beat_pagat():
    """A king that wins a trick holding the pagat (a trump) is refused."""
    hand = x7()
    hand["last_trick"]["cards"][1]["card"] = "other"
    hand["last_trick"]["cards"][0]["card"] = "pagat"
    hand["last_trick"]["cards"][2]["card"] = "king"
    hand["last_trick"]["winner"] = "Carl"
    assert (
        "last_trick.winner",
        "a king cannot win a trick to which the pagat (a trump) was played",
    ) in refused(hand)


def test_tout_and_nolo_rules():
    """Tout must win the last trick; no nolo beside tout; nolo cannot win or go pagat home."""
    assert ("tout", "Dorte won every trick (tout) and must win the last trick") in refused(
        x7(tout="Dorte")
    )
    assert ("nolo", "nobody can be nolo beside a tout") in refused(x7(tout="Bo", nolo=["Carl"]))
    assert ("nolo", "only one player can win no trick (nolo), not 2") in refused(
        x7(nolo=["Carl", "Dorte"], count=None)
    )
    assert ("last_trick.winner", "Bo won no trick (nolo) and cannot win the last trick") in refused(
        x7(nolo=["Bo"], count=None)
    )
    hand = x7(nolo=["Carl"], count=None, during_play=[{"type": "pagat_home", "player": "Carl"}])
    hand["last_trick"]["cards"][1]["card"] = "other"
    assert (
        "during_play[0].player",
        "Carl won no trick (nolo) and cannot win the pagat home",
    ) in refused(hand)


@pytest.mark.parametrize(
    ("changes", "field", "message"),
    [
        ({"count": None}, "count", "the count of the two counting players is required"),
        (
            {"count": {"Carl": 79, "Bo": 0}},
            "count.Carl",
            "card points are a whole number from 0 to 78, not 79",
        ),
        (
            {"count": {"Carl": -1, "Bo": 0}},
            "count.Carl",
            "card points are a whole number from 0 to 78, not -1",
        ),
        (
            {"count": {"Carl": 22.5, "Bo": 0}},
            "count.Carl",
            "card points are a whole number from 0 to 78, not 22.5",
        ),
        (
            {"count": {"Carl": 22}},
            "count",
            "Bo counts this hand and the count is missing (Dorte does not count)",
        ),
        (
            {"count": {"Carl": 22, "Dorte": 30}},
            "count",
            "Bo counts this hand and the count is missing (Dorte does not count)",
        ),
        (
            {"count": {"Carl": 50, "Bo": 30}},
            "count",
            "two counts cannot total more than 78, not 80",
        ),
        (
            {"count": {"Carl": 22, "Bo": 30, "Dorte": 20}},
            "count",
            "three counts must total 78, not 72",
        ),
        (
            {"annulled": True},
            "count",
            "this hand is not counted (annulled, nolo, or a tout without the count)",
        ),
    ],
)
def test_count(changes, field, message):
    """The count: missing, out of range, lacking a counter, bad totals, or not counted."""
    assert (field, message) in refused(x7(**changes))


def test_count_refused_after_nolo():
    """A nolo hand is not counted, so a count is refused."""
    hand = x7(nolo=["Carl"])
    assert (
        "count",
        "this hand is not counted (annulled, nolo, or a tout without the count)",
    ) in refused(hand)


def test_unknown_keys_everywhere():
    """A typo must not silently change a settlement: unknown keys are refused at every depth."""
    hand = x7(fine=[{"type": "revoke", "player": "Bo"}])
    hand["last_trick"]["cards"][0]["suit"] = "hearts"
    hand["during_play"][0]["when"] = 3
    problems = refused(hand)
    assert ("fine", "unknown key fine: a hand has no such field") in problems
    assert ("last_trick.cards[0].suit", "unknown key suit") in problems
    assert ("during_play[0].when", "unknown key when") in problems


def test_types_and_negatives():
    """Non-integer and negative numbers are refused: booleans are not numbers."""
    problems = refused(x7(cups_before={"kongekop": -5, "pagatkop": True}))
    assert (
        "cups_before.kongekop",
        "a cup holds a whole, non-negative number of points",
    ) in problems
    assert (
        "cups_before.pagatkop",
        "a cup holds a whole, non-negative number of points",
    ) in problems
    assert ("melds[0].count", "a tarok meld counts 10 to 22, not True") in refused(
        x7(melds=[{"player": "Bo", "type": "tarok", "count": True}])
    )


def test_all_problems_at_once():
    """Every problem is reported, not just the first."""
    hand = x7(
        melds=[{"player": "Bo", "type": "tarok", "count": 9}],
        fines=[{"type": "swearing", "player": "Carl"}],
        count={"Carl": 22},
    )
    fields = [field for field, _ in refused(hand)]
    assert fields == ["melds[0].count", "fines[0].type", "count"]


def test_hermansen_needs_sitting_out():
    """Under the Hermansen rotation a 5-seat hand must name who sits out."""
    rates = RateCard.from_dict({"five_seat_rotation": "hermansen"})
    hand = load_example("X6.hand.json")
    assert (
        "sitting_out",
        "with the Hermansen rotation the hand must name who sits out",
    ) in refused(hand, rates)
    hand["sitting_out"] = ["Anna", "Erik"]
    assert parse_hand(hand, rates).active == ("Bo", "Carl", "Dorte")


def test_format_key():
    """A hand naming another format is refused."""
    assert ("format", "the format must be tarokclub.hand/1") in refused(x7(format="other/1"))


def test_round_trip_through_as_dict():
    """A record written back to the hand format parses to the same record."""
    for name in ("X1", "X3", "X4", "X5", "X6", "X7"):
        record = parse_hand(load_example(f"{name}.hand.json"))
        assert parse_hand(record.as_dict()) == record


def test_null_cups_before_is_the_cups_as_funded():
    """``"cups_before": null`` is the same as leaving it out: the cups as funded."""
    data = load_example("X1.hand.json")
    data.pop("cups_before", None)
    absent = settle(parse_hand(data)).as_dict()
    assert settle(parse_hand({**data, "cups_before": None})).as_dict() == absent
