"""The GAME object: features, state, schedule (rotation) and purity of the package."""

import pytest

from ledger.games.base import Features, Pool
from ledger.games.slovenian import GAME
from ledger.games.slovenian.engine import RateCard, rotation, tournament
from ledger.games.slovenian.engine.stats import STAT_KEYS
from ledger.tests.games.helpers import schedule_in_turn

FOUR = ("Anna", "Bo", "Carl", "Dorte")
FIVE = (*FOUR, "Erik")


def test_features():
    """Slovenian Tarok: 3 to 5 seats, 4 active, one pool that may go negative, radli state."""
    assert GAME.code == "slovenian_tarok" and GAME.name == "Slovenian Tarok"
    assert GAME.features == Features(
        min_seats=3,
        max_seats=5,
        active_players=4,
        pools=(Pool("pool", may_go_negative=True),),
        uses_jetons=False,
        state_in="radli_before",
        state_out="radli_after",
        stat_keys=STAT_KEYS,
        table_sizes=tournament.TABLE_SIZES,
        tournament_formats=tournament.FORMATS,
    )


def test_state_and_funding():
    """No funding, no radli at the start, nothing paid by a late arrival."""
    assert GAME.initial_state(FOUR, RateCard()) == ({}, [])
    assert GAME.seat_moves("Erik", RateCard()) == []


def test_next_state_restricted_to_the_seats():
    """next_state keeps every given seat's radli (0 for a new seat) and drops those gone."""
    previous = {"Anna": 2, "Bo": 0, "Carl": 1}
    assert GAME.next_state(previous, {"pool": -40}, ["Anna", "Bo", "Erik"]) == {
        "Anna": 2,
        "Bo": 0,
        "Erik": 0,
    }
    assert GAME.next_state(None, {}, FOUR) == dict.fromkeys(FOUR, 0)


@pytest.mark.parametrize(
    ("seats", "hand_number", "dealer", "out", "forehand"),
    [
        (FOUR, 1, "Dorte", (), "Anna"),
        (FOUR, 2, "Anna", (), "Bo"),
        (FOUR, 5, "Dorte", (), "Anna"),
        (FIVE, 1, "Dorte", ("Dorte",), "Erik"),
        (FIVE, 2, "Erik", ("Erik",), "Anna"),
        (FIVE, 6, "Dorte", ("Dorte",), "Erik"),
        (FOUR[:3], 1, "Dorte", None, None),
    ],
)
def test_schedule(seats, hand_number, dealer, out, forehand):
    """The deal moves one seat per hand; at 5 seats the dealer sits out; forehand is next."""
    if out is None:  # Dorte is not seated at the 3-seat table: the first seat deals
        assert schedule_in_turn(GAME, seats, "Dorte", hand_number, RateCard()).dealer == "Anna"
        return
    s = schedule_in_turn(GAME, seats, "Dorte", hand_number, RateCard())
    assert s.dealer == dealer and s.sitting_out == out and s.forehand == forehand
    assert s.active == tuple(x for x in seats if x not in out)
    assert s.roles[forehand] == "forehand"


def test_three_seats_all_play():
    """At 3 seats the three play; forehand is the seat after the dealer."""
    s = schedule_in_turn(GAME, ("Anna", "Bo", "Carl"), "Carl", 1, RateCard())
    assert s.active == ("Anna", "Bo", "Carl") and s.forehand == "Anna"
    assert s.roles == {"Anna": "forehand", "Bo": "player", "Carl": "dealer"}
    assert rotation.next_dealer(("Anna", "Bo", "Carl"), "Carl") == "Anna"


def test_hand_numbers_start_at_1():
    """Hand 0 is no hand."""
    with pytest.raises(ValueError):
        schedule_in_turn(GAME, FOUR, "Anna", 0, RateCard())
