"""The end-of-evening split and the money conversion."""

from decimal import Decimal

import pytest

from ledger.games.danish import GAME
from ledger.games.danish.engine import EveningError, split_cups, to_money
from ledger.tests.conftest import load_example


def test_split_evening_e():
    """140 in the cups is 28 units: 9 each, the one over to Carl (worst)."""
    shares = split_cups({"Anna": 20, "Bo": -75, "Carl": -85}, 140)
    assert shares == {"Anna": 45, "Bo": 45, "Carl": 50}


def test_split_ties_go_first_in_seat_order():
    """Tied worst balances: the remainder goes to the first of them in seat order."""
    assert split_cups({"A": -10, "B": -10, "C": 20}, 25) == {"A": 15, "B": 5, "C": 5}


def test_split_sub_unit_points_go_to_the_worst():
    """Points that are not a whole unit also go to the worst."""
    assert split_cups({"A": 0, "B": -1, "C": 1, "D": 0}, 43) == {"A": 10, "B": 13, "C": 10, "D": 10}


def test_money_rounds_once_half_up():
    """Money is exact decimal, rounded once to 0.01, half up."""
    assert to_money(65, Decimal("0.25")) == Decimal("16.25")
    assert to_money(-35, Decimal("0.25")) == Decimal("-8.75")
    assert to_money(1, Decimal("0.125")) == Decimal("0.13")
    assert to_money(-1, Decimal("0.125")) == Decimal("-0.13")


def test_evening_refuses_with_hand_index():
    """A refused hand in an evening names its place: hands[1].last_trick.winner."""
    evening = load_example("EVENING_E.evening.json")
    evening["hands"][1]["last_trick"]["winner"] = "Zoe"
    with pytest.raises(EveningError) as caught:
        GAME.settle_evening(evening)
    assert [(p.field, p.message) for p in caught.value.problems] == [
        ("hands[1].last_trick.winner", "Zoe is not seated at this table")
    ]


def test_evening_refuses_table_keys_in_hands():
    """A hand in an evening takes seats and cups from the evening."""
    evening = load_example("EVENING_E.evening.json")
    evening["hands"][0]["cups_before"] = {"kongekop": 0, "pagatkop": 0}
    with pytest.raises(EveningError, match=r"hands\[0\].cups_before"):
        GAME.settle_evening(evening)
