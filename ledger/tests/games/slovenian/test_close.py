"""The close of a table (section 12): radli penalties, then the pool split."""

from ledger.games.base import Move
from ledger.games.slovenian import GAME
from ledger.games.slovenian.engine import RateCard
from ledger.games.slovenian.engine.close import close_table, split_shares


def finals(balances, moves):
    final = dict(balances)
    for m in moves:
        final[m.source] -= m.points
        final[m.target] += m.points
    return final


def test_section_12_pool_below_0():
    """Anna +160, Bo +35, Carl −20, Dorte 0: each pays 8 units, Anna the 3 over."""
    balances = {"Anna": 160, "Bo": 35, "Carl": -20, "Dorte": 0, "pool": -175}
    moves = GAME.close(balances, {}, RateCard(), ["Anna", "Bo", "Carl", "Dorte"])
    assert moves == [
        Move("Anna", "pool", 55, "split"),
        Move("Bo", "pool", 40, "split"),
        Move("Carl", "pool", 40, "split"),
        Move("Dorte", "pool", 40, "split"),
    ]
    assert finals(balances, moves) == {"Anna": 105, "Bo": -5, "Carl": -60, "Dorte": -40, "pool": 0}


def test_pool_of_minus_178_is_35_units_and_3_over():
    """A pool of −178 in units of 5: 35 units; the highest pays the units over and the 3."""
    shares = split_shares({"A": 100, "B": 50, "C": 28}, -178, 5)
    assert shares == {"A": -(55 + 3 + 5 * 2), "B": -55, "C": -55}
    assert sum(shares.values()) == -178


def test_pool_above_0_rest_to_the_lowest():
    """A pool above 0: equal units to each; the units over and the rest to the lowest."""
    assert split_shares({"A": -10, "B": -50, "C": -2}, 62, 5) == {"A": 20, "B": 22, "C": 20}


def test_ties_go_first_in_seat_order():
    """Ties for lowest (pool above 0) or highest (below 0) go to the first in seat order."""
    assert split_shares({"A": 0, "B": -5, "C": -5}, 12, 5) == {"A": 0, "B": 12, "C": 0}
    assert split_shares({"A": 0, "B": 5, "C": 5}, -12, 5) == {"A": 0, "B": -12, "C": 0}


def test_penalties_then_split():
    """Open radli are charged first; the split uses the balances after the penalties."""
    balances = {"Anna": 20, "Bo": -20, "Carl": 0, "pool": 0}
    moves = close_table(balances, {"Bo": 1, "Carl": 0}, RateCard(), ["Anna", "Bo", "Carl"])
    assert moves[0] == Move("Bo", "pool", 100, "radelc")
    # pool 100 = 20 units: 6 each, 2 over to Bo (lowest at −120).
    assert moves[1:] == [
        Move("pool", "Anna", 30, "split"),
        Move("pool", "Bo", 40, "split"),
        Move("pool", "Carl", 30, "split"),
    ]
    assert finals(balances, moves) == {"Anna": 50, "Bo": -80, "Carl": 30, "pool": 0}


def test_nothing_to_close():
    """A pool at 0 with no radli: no moves."""
    assert GAME.close({"A": 5, "B": -5, "pool": 0}, {}, RateCard(), ["A", "B"]) == []


def test_pool_key_may_be_left_out_and_seat_without_balance():
    """Without a pool key the pool is minus the members' sum; a seat missing has balance 0."""
    moves = close_table({"A": 10, "B": -5}, None, RateCard(), ["A", "B", "C"])
    assert finals({"A": 10, "B": -5, "C": 0, "pool": -5}, moves)["pool"] == 0
