"""House-rule presets: every game's presets through the contract, and each preset's worked
example, a hand of the spec settled under the preset to its exact amounts."""

from __future__ import annotations

import random

import pytest

from ledger.games.base import preset_card, preset_named
from ledger.games.errors import RateCardError, RulesError
from ledger.games.registry import GAMES
from ledger.tests.conftest import load_example
from ledger.tests.games.test_contract import NAMES, play

PRESETS = [(code, p.name) for code in GAMES for p in GAMES[code].presets]
# The games as the site knows them (the packages' GAME objects): typed by the contract, Game.
DANISH = GAMES["danish_tarok"]
SLOVENIAN = GAMES["slovenian_tarok"]
HUNGARIAN = GAMES["hungarian_tarokk"]


def settled(game, record: dict, rates):
    """Return (the transfers as (from, to, points), net, state after) of ``record``."""
    parsed = game.parse_hand(record, rates)
    state = {
        "danish_tarok": lambda: parsed.cups_before,
        "slovenian_tarok": lambda: parsed.radli_before,
        "hungarian_tarokk": lambda: {},
    }[game.code]()
    result = game.settle(parsed, rates, state)
    moves = [(t.source, t.target, t.points) for t in result.transfers]
    return moves, dict(result.net), dict(result.state_after)


def test_every_game_declares_presets_the_issue_asks_for():
    """Danish, Slovenian and Hungarian Tarok each offer their presets by name, in order."""
    assert [p.name for p in DANISH.presets] == [
        "bagud_one_by_one",
        "pagat_tout",
        "agger_tout",
        "no_dealer_fee",
    ]
    assert [p.name for p in SLOVENIAN.presets] == [
        "difference_unrounded",
        "mond_21",
        "klop_by_ones",
        "radli_after_every_valat",
        "no_radli_after_valat",
    ]
    assert [p.name for p in HUNGARIAN.presets] == ["flat_dupla_volat"]


@pytest.mark.parametrize(("code", "name"), PRESETS)
def test_a_preset_changes_only_keys_of_its_card_and_each_from_the_default(code, name):
    """A preset names its source, changes only keys of its game's card, each to a value
    other than the default, and its card is valid and differs from the defaults only there."""
    game = GAMES[code]
    preset = preset_named(game, name)
    assert preset.source and preset.title and preset.description
    default = game.rate_card({}).as_dict()
    card = preset_card(game, name).as_dict()
    assert set(preset.changes) <= set(default)
    changed = {key for key in default if card[key] != default[key]}
    assert changed == set(preset.changes)
    for key, value in preset.changes.items():
        assert card[key] == value


@pytest.mark.parametrize(("code", "name"), PRESETS)
def test_a_table_plays_under_every_preset_and_stays_zero_sum(code, name):
    """Forty random hands at a full table under each preset: every hand's nets and pool
    changes sum to 0 and no pool that may not go negative does."""
    game = GAMES[code]
    rates = preset_card(game, name)
    seats = NAMES[: game.features.max_seats]
    floors = {p.code for p in game.features.pools if not p.may_go_negative}
    for _schedule, _state, _record, settlement, pools in play(
        game, seats, rates, random.Random(7), 40
    ):
        changes = sum(
            (t.points if t.target in pools else 0) - (t.points if t.source in pools else 0)
            for t in settlement.transfers
        )
        assert sum(settlement.net.values()) + changes == 0
        assert all(pools[code] >= 0 for code in floors)


def test_an_unknown_preset_is_refused_on_the_field_preset_naming_the_presets():
    """A preset name the game has not is a RateCardError on ``preset`` listing the names."""
    with pytest.raises(RateCardError, match="preset: mond_22 is not a preset of Slovenian") as e:
        preset_card(SLOVENIAN, "mond_22")
    assert e.value.problems[0].field == "preset"
    assert "mond_21" in str(e.value) and "klop_by_ones" in str(e.value)


def test_a_game_without_presets_says_so():
    """The test-only game has no presets: any name is refused, and the message says none."""
    with pytest.raises(RateCardError, match="preset: house is not a preset of High card, which"):
        preset_card(GAMES["toy_high_card"], "house")


# --- Danish Tarok --------------------------------------------------------------------------

TWO_KINGS_BAGUD = {
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


def test_bagud_one_by_one_doubles_the_kongekop_per_king():
    """Bagud paid one by one (multi_bagud sequential, danish-tarok.md 6.4): 3 seats, dealer
    Anna, cups 60/60. Bo leads a king, Carl follows with a king, Anna wins with a trump;
    Bo deals next, Anna and Carl count 26 (nothing). Anna pays the fee 5 + 5, so P = 65.
    Each bagud pays 40 to each other player; Bo pays 65 into the kongekop (65 -> 130) and
    Carl the cup as it stands, 130 (-> 260). Net Anna +70, Bo -105, Carl -170; cups 260/65
    (by default Carl would pay P = 65: -105, kongekop 195)."""
    moves, net, cups = settled(DANISH, TWO_KINGS_BAGUD, preset_card(DANISH, "bagud_one_by_one"))
    assert moves == [
        ("Anna", "kongekop", 5),
        ("Anna", "pagatkop", 5),
        ("Bo", "Anna", 40),
        ("Bo", "Carl", 40),
        ("Bo", "kongekop", 65),
        ("Carl", "Anna", 40),
        ("Carl", "Bo", 40),
        ("Carl", "kongekop", 130),
    ]
    assert net == {"Anna": 70, "Bo": -105, "Carl": -170}
    assert cups == {"kongekop": 260, "pagatkop": 65}
    _moves, default_net, default_cups = settled(DANISH, TWO_KINGS_BAGUD, DANISH.rate_card({}))
    assert default_net["Carl"] == -105 and default_cups["kongekop"] == 195


def test_pagat_tout_takes_135_from_each_and_leaves_the_cups():
    """Tout as on pagat.com (tout_variant pagat): X6 without its count. 5 seats, dealer Carl
    (Erik and Anna sit out), cups 130/100, Dorte wins every trick: Carl pays the fee 5 + 5,
    Bo and Carl pay Dorte 135 each; the cups stay, so nobody refunds, and there is no count.
    Net Anna 0, Bo -135, Carl -145, Dorte +270, Erik 0; cups 135/105."""
    record = {k: v for k, v in load_example("X6.hand.json").items() if k != "count"}
    moves, net, cups = settled(DANISH, record, preset_card(DANISH, "pagat_tout"))
    assert moves == [
        ("Carl", "kongekop", 5),
        ("Carl", "pagatkop", 5),
        ("Bo", "Dorte", 135),
        ("Carl", "Dorte", 135),
    ]
    assert net == {"Anna": 0, "Bo": -135, "Carl": -145, "Dorte": 270, "Erik": 0}
    assert cups == {"kongekop": 135, "pagatkop": 105}


def test_agger_tout_takes_85_from_each_and_both_cups_without_the_count():
    """Tout as in Agger's 1970 booklet (tout_variant agger, a house rule beyond the spec): X6
    without its count. Carl pays the fee 5 + 5 (cups 135/105); Bo and Carl pay Dorte 85 each,
    Dorte takes both cups whole (135 + 105); no count; then all five refund 20 into each cup.
    Net Anna -40, Bo -125, Carl -135, Dorte +370, Erik -40; cups 100/100 (Møller's X6 with
    its count: Bo -145, Carl -155, Dorte +410)."""
    record = {k: v for k, v in load_example("X6.hand.json").items() if k != "count"}
    moves, net, cups = settled(DANISH, record, preset_card(DANISH, "agger_tout"))
    assert moves[:6] == [
        ("Carl", "kongekop", 5),
        ("Carl", "pagatkop", 5),
        ("Bo", "Dorte", 85),
        ("Carl", "Dorte", 85),
        ("kongekop", "Dorte", 135),
        ("pagatkop", "Dorte", 105),
    ]
    assert sorted(moves[6:]) == sorted(
        (name, cup, 20)
        for name in ("Anna", "Bo", "Carl", "Dorte", "Erik")
        for cup in ("kongekop", "pagatkop")
    )
    assert net == {"Anna": -40, "Bo": -125, "Carl": -135, "Dorte": 370, "Erik": -40}
    assert cups == {"kongekop": 100, "pagatkop": 100}


def test_agger_tout_refuses_a_count():
    """Under Agger's tout the hand is not counted: a count given with it is refused, naming
    the field, as under the pagat.com tout."""
    with pytest.raises(RulesError) as refused:
        DANISH.parse_hand(load_example("X6.hand.json"), preset_card(DANISH, "agger_tout"))
    assert "count" in {problem.field for problem in refused.value.problems}


def test_no_dealer_fee_leaves_the_cups_to_the_hand():
    """No dealer's fee (dealer_fee_per_cup 0): X6 as in the spec, but Carl pays no 5 + 5, so
    Dorte's tout takes cups of 130/100. Net Anna -40, Bo -145, Carl -145, Dorte +400,
    Erik -40; cups refunded to 100/100."""
    moves, net, cups = settled(
        DANISH, load_example("X6.hand.json"), preset_card(DANISH, "no_dealer_fee")
    )
    assert ("kongekop", "Dorte", 130) in moves and ("pagatkop", "Dorte", 100) in moves
    assert not [
        m for m in moves if m[0] == "Carl" and m[1] in ("kongekop", "pagatkop") and m[2] == 5
    ]
    assert net == {"Anna": -40, "Bo": -145, "Carl": -145, "Dorte": 400, "Erik": -40}
    assert cups == {"kongekop": 100, "pagatkop": 100}


# --- Slovenian Tarok -----------------------------------------------------------------------


def test_difference_unrounded_pays_the_difference_as_it_is():
    """Rounded difference off (difference_round_to 1): SL1, Anna's two with 44 card points
    and the silent kings: D = 44 - 35 = 9, not 10; game 20 + 9 = 29, kings +10, H = 39 to
    Anna and to Carl; Bo's Mond 20. Net Anna +39, Bo -20, Carl +39, Dorte 0."""
    rates = preset_card(SLOVENIAN, "difference_unrounded")
    moves, net, radli = settled(SLOVENIAN, load_example("SL1.hand.json"), rates)
    assert moves == [("pool", "Anna", 39), ("pool", "Carl", 39), ("Bo", "pool", 20)]
    assert net == {"Anna": 39, "Bo": -20, "Carl": 39, "Dorte": 0}


def test_mond_21_costs_21():
    """Mond 21 (mond_penalty 21): SL1 again: H = +40 to Anna and Carl as in the spec, and Bo,
    whose Mond is captured, pays 21 into the pool. Net Anna +40, Bo -21, Carl +40, Dorte 0."""
    moves, net, _radli = settled(
        SLOVENIAN, load_example("SL1.hand.json"), preset_card(SLOVENIAN, "mond_21")
    )
    assert moves == [("pool", "Anna", 40), ("pool", "Carl", 40), ("Bo", "pool", 21)]
    assert net == {"Anna": 40, "Bo": -21, "Carl": 40, "Dorte": 0}


def test_klop_by_ones_pays_the_card_points_unrounded():
    """Klop by ones (klop_round_to 1): the first hand of the spec's evening SL, a klop of
    Anna 16, Bo 14, Carl 23, Dorte 17, everyone with a trick and nobody at 36: each pays his
    card points as they are, 16, 14, 23, 17 (the default rounds them to 15, 15, 25, 15);
    everyone gets a radelc."""
    hand = load_example("SL_EVENING.evening.json")["hands"][0]
    record = {**hand, "seats": ["Anna", "Bo", "Carl", "Dorte"]}
    moves, net, radli = settled(SLOVENIAN, record, preset_card(SLOVENIAN, "klop_by_ones"))
    assert moves == [
        ("Anna", "pool", 16),
        ("Bo", "pool", 14),
        ("Carl", "pool", 23),
        ("Dorte", "pool", 17),
    ]
    assert net == {"Anna": -16, "Bo": -14, "Carl": -23, "Dorte": -17}
    assert radli == {"Anna": 1, "Bo": 1, "Carl": 1, "Dorte": 1}


def test_radli_after_every_valat_counts_a_failed_announced_valat():
    """Radelci after every valat (radli_after_valat made_or_failed, as mytja): SL8, Anna's
    solo one with an announced valat that fails: H = -500 as in the spec, and now every
    active player gets a radelc (the spec's default gives none). Radli after 1, 1, 1, 1."""
    rates = preset_card(SLOVENIAN, "radli_after_every_valat")
    moves, net, radli = settled(SLOVENIAN, load_example("SL8.hand.json"), rates)
    assert moves == [("Anna", "pool", 500)]
    assert net == {"Anna": -500, "Bo": 0, "Carl": 0, "Dorte": 0}
    assert radli == {"Anna": 1, "Bo": 1, "Carl": 1, "Dorte": 1}


def test_no_radli_after_valat_gives_none_for_a_made_valat():
    """No radelci after a valat (radli_after_valat no, as erikbozic): SL5, the silent valat
    of Anna and Carl under kontra pays 500 each as in the spec, but nobody gets a radelc:
    radli after Anna 0, Bo 0, Carl 0, Dorte 0, Erik 1 (his own, untouched)."""
    rates = preset_card(SLOVENIAN, "no_radli_after_valat")
    moves, net, radli = settled(SLOVENIAN, load_example("SL5.hand.json"), rates)
    assert moves == [("pool", "Anna", 500), ("pool", "Carl", 500)]
    assert radli == {"Anna": 0, "Bo": 0, "Carl": 0, "Dorte": 0, "Erik": 1}


def test_no_radli_after_valat_keeps_them_after_a_valat_contract():
    """The option is about valat lines in three to solo one: the contract valat is from
    beggar up and still hands every active player a radelc."""
    record = {
        "seats": ["Anna", "Bo", "Carl", "Dorte"],
        "dealer": "Dorte",
        "contract": "valat",
        "declarer": "Anna",
        "won": True,
    }
    rates = preset_card(SLOVENIAN, "no_radli_after_valat")
    _moves, net, radli = settled(SLOVENIAN, record, rates)
    assert net["Anna"] == 500
    assert radli == {"Anna": 1, "Bo": 1, "Carl": 1, "Dorte": 1}


def test_radli_after_valat_refuses_a_choice_it_has_not():
    """``radli_after_valat`` takes made, made_or_failed or no; anything else names the key."""
    with pytest.raises(RateCardError, match="radli_after_valat"):
        SLOVENIAN.rate_card({"radli_after_valat": "always"})


# --- Hungarian Tarokk ----------------------------------------------------------------------


def test_flat_dupla_volat_pays_the_printed_values():
    """Flat dupla and volát (dupla_volat_times_bid false, the Tarokkakadémia's table): HU8,
    Carl's kettő (G = 2) with an announced dupla and a silent volát: dupla 4 (not 8),
    silent volát 3 (not 6), no game: T = 7 (the spec's default 14). Dorte pays Carl and Bo
    pays Anna, per item: 4, then 3. Net Anna +7, Bo -7, Carl +7, Dorte -7."""
    rates = preset_card(HUNGARIAN, "flat_dupla_volat")
    moves, net, _state = settled(HUNGARIAN, load_example("HU8.hand.json"), rates)
    assert moves == [
        ("Dorte", "Carl", 4),
        ("Bo", "Anna", 4),
        ("Dorte", "Carl", 3),
        ("Bo", "Anna", 3),
    ]
    assert net == {"Anna": 7, "Bo": -7, "Carl": 7, "Dorte": -7}
