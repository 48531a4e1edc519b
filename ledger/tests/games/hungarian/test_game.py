"""The GAME object (base.py's Game protocol), the rotation and the engine's purity."""

from pathlib import Path

import pytest

import ledger.games.hungarian
from ledger.games.base import Features, Schedule
from ledger.games.hungarian import GAME
from ledger.games.hungarian.engine import RateCard, rotation, tournament
from ledger.games.hungarian.engine.stats import STAT_KEYS
from ledger.tests.games.helpers import schedule_in_turn

from .helpers import SEATS4, SEATS5, example_hand

PACKAGE = Path(ledger.games.hungarian.__file__).parent


def test_game_identity_and_features():
    """code, name and features as the brief fixes them."""
    assert GAME.code == "hungarian_tarokk"
    assert GAME.name == "Hungarian Tarokk"
    assert GAME.features == Features(
        min_seats=4,
        max_seats=5,
        active_players=4,
        pools=(),
        uses_jetons=False,
        state_in=None,
        state_out=None,
        stat_keys=STAT_KEYS,
        table_sizes=tournament.TABLE_SIZES,
        tournament_formats=tournament.FORMATS,
    )
    assert GAME.features.pool_codes == ()


def test_game_has_no_state_no_seat_moves_and_nothing_to_close():
    """initial_state is ({}, []), seat_moves [], next_state {}, close []."""
    rates = GAME.rate_card(None)
    assert GAME.initial_state(SEATS4, rates) == ({}, [])
    assert GAME.seat_moves("Erik", rates) == []
    assert GAME.next_state(None, {}, SEATS4) == {}
    assert GAME.next_state({}, {}, SEATS5) == {}
    assert GAME.close({"Anna": 5, "Bo": -5}, {}, rates, ["Anna", "Bo"]) == []


def test_rate_card_of_the_game():
    """GAME.rate_card reads a rates/1 object into a RateCard with as_dict."""
    card = GAME.rate_card({"game": "hungarian_tarokk", "dupla_points": 70})
    assert isinstance(card, RateCard)
    assert card.as_dict()["dupla_points"] == 70


def test_parsed_record_has_seats_and_dealer():
    """The record has seats, dealer and an as_dict naming the game."""
    record = GAME.parse_hand(example_hand("HU6"), None)
    assert record.seats == ("Anna", "Bo", "Carl", "Dorte", "Erik")
    assert record.dealer == "Erik"
    assert record.as_dict()["game"] == "hungarian_tarokk"
    assert record.as_dict()["format"] == "tarokclub.hand/1"


def test_schedule_four_seats():
    """4 seats: the dealer moves one seat per hand, all four play, forehand follows him."""
    schedules = [schedule_in_turn(GAME, SEATS4, "Carl", n, None) for n in range(1, 6)]
    assert [s.dealer for s in schedules] == ["Carl", "Dorte", "Anna", "Bo", "Carl"]
    first = schedules[0]
    assert first == Schedule(
        dealer="Carl",
        sitting_out=(),
        active=("Anna", "Bo", "Carl", "Dorte"),
        forehand="Dorte",
        roles={"Anna": "player", "Bo": "player", "Carl": "dealer", "Dorte": "forehand"},
        seats=tuple(SEATS4),
    )


def test_schedule_five_seats():
    """5 seats: the dealer sits out; forehand is the first active seat after him."""
    s = schedule_in_turn(GAME, SEATS5, "Dorte", 2, None)
    assert s.dealer == "Erik"
    assert s.sitting_out == ("Erik",)
    assert s.active == ("Anna", "Bo", "Carl", "Dorte")
    assert s.forehand == "Anna"
    assert s.roles["Erik"] == "out"
    dealers = [schedule_in_turn(GAME, SEATS5, "Anna", n, None).dealer for n in range(1, 7)]
    assert dealers == ["Anna", "Bo", "Carl", "Dorte", "Erik", "Anna"]


@pytest.mark.parametrize(
    "seats,first,number",
    [(SEATS4, "Anna", 0), (["Anna", "Bo", "Carl"], "Anna", 1)],
)
def test_schedule_refuses_nonsense(seats, first, number):
    """Hand numbers start at 1; tables seat 4 or 5."""
    with pytest.raises(ValueError):
        schedule_in_turn(GAME, seats, first, number, None)


def test_rotation_helpers():
    """next_dealer is the next seat; forehand the first active seat after the dealer."""
    assert rotation.next_dealer(SEATS4, "Dorte") == "Anna"
    assert rotation.forehand(SEATS5, "Dorte") == "Erik"
    assert rotation.forehand(SEATS5, "Erik") == "Anna"
    assert rotation.forehand(SEATS4, "Dorte") == "Anna"


def test_opponents_in_order_from_the_declarer():
    """HU6: from Bo the opponents are Carl, then Anna (Erik sits out)."""
    record = GAME.parse_hand(example_hand("HU6"), None)
    assert record.opponents == ("Carl", "Anna")
    assert record.declarer_side == ("Bo", "Dorte")
