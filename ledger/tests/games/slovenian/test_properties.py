"""Properties of random valid Slovenian hands and evenings (engine/generate.py)."""

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from ledger.games.slovenian import GAME
from ledger.games.slovenian.engine import RateCard, parse_hand, settle
from ledger.games.slovenian.engine.close import close_table
from ledger.games.slovenian.engine.generate import random_hand
from ledger.tests.games.helpers import schedule_in_turn

NAMES = ("Anna", "Bo", "Carl", "Dorte", "Erik")
RATES = RateCard()

tables = st.tuples(st.integers(min_value=3, max_value=5), st.integers(0, 2**32 - 1))


def _table(n, seed):
    rng = random.Random(seed)
    seats = list(NAMES[:n])
    dealer = rng.choice(seats)
    radli = {s: rng.choice((0, 0, 0, 1, 2)) for s in seats}
    return rng, seats, dealer, radli


@settings(max_examples=300, deadline=None)
@given(tables)
def test_hand_is_zero_sum_with_the_pool(table):
    """Every hand's nets plus the pool's change are 0; transfers touch the pool and a member."""
    rng, seats, dealer, radli = _table(*table)
    record = parse_hand(random_hand(rng, seats, dealer, radli), RATES)
    s = settle(record, RATES)
    pool_change = sum(t.points for t in s.transfers if t.target == "pool") - sum(
        t.points for t in s.transfers if t.source == "pool"
    )
    assert pool_change == -sum(s.net.values()) == s.pool_change
    assert list(s.net) == seats and list(s.radli_after) == seats
    for t in s.transfers:
        assert t.points > 0 and "pool" in (t.source, t.target) and t.source != t.target
        assert t.reason in ("hand", "klop", "mond")
    assert set(s.roles) == set(seats)


@settings(max_examples=300, deadline=None)
@given(tables)
def test_radli_never_negative_and_only_active_change(table):
    """radli_after is never negative, changes by at most one, and only for active players."""
    rng, seats, dealer, radli = _table(*table)
    record = parse_hand(random_hand(rng, seats, dealer, radli), RATES)
    s = settle(record, RATES)
    for seat in seats:
        assert s.radli_after[seat] >= 0
        assert abs(s.radli_after[seat] - radli[seat]) <= 1
        if seat not in record.active:
            assert s.radli_after[seat] == radli[seat]
            assert s.net[seat] == 0


@settings(max_examples=200, deadline=None)
@given(tables)
def test_settle_is_deterministic_and_parse_round_trips(table):
    """Settling twice gives the same result; parse(as_dict) gives the same record."""
    rng, seats, dealer, radli = _table(*table)
    data = random_hand(rng, seats, dealer, radli)
    record = parse_hand(data, RATES)
    again = parse_hand(record.as_dict(), RATES, state=radli)
    assert again == record
    assert again.as_dict() == record.as_dict()
    assert settle(record, RATES).as_dict() == settle(again, RATES, radli).as_dict()
    assert settle(record, RATES).outcome_data == settle(record, RATES).outcome_data


@settings(max_examples=100, deadline=None)
@given(tables, st.integers(min_value=1, max_value=20), st.booleans())
def test_evening_close_leaves_the_pool_at_0(table, n_hands, radli_on):
    """Over an evening the close leaves the pool at 0 and the finals sum to 0."""
    n, seed = table
    rng = random.Random(seed)
    seats = list(NAMES[:n])
    first = rng.choice(seats)
    hands = []
    for k in range(1, n_hands + 1):
        dealer = schedule_in_turn(GAME, seats, first, k, RATES).dealer
        hands.append(random_hand(rng, seats, dealer, None, with_table=False))
    rates = RateCard.from_dict({"radli": radli_on})
    result = GAME.settle_evening(
        {
            "format": "tarokclub.evening/1",
            "game": "slovenian_tarok",
            "seats": seats,
            "hands": hands,
        },
        rates,
    )
    assert sum(result["final"].values()) == 0
    assert result["pool_before_split"] == -sum(result["before_split"].values())
    pool = result["pool_before_split"]
    for move in result["close"]:
        if move["reason"] == "split":
            pool += move["points"] if move["to"] == "pool" else -move["points"]
    assert pool == 0
    if not radli_on:
        assert set(result["radli_at_close"].values()) == {0}
    means = sum(result["before_split"].values()) / n
    for seat in seats:  # each final is the balance less the mean, up to the units over
        assert abs(result["final"][seat] - (result["before_split"][seat] - means)) < (
            rates.split_unit * n
        )


@settings(max_examples=200, deadline=None)
@given(
    st.dictionaries(st.sampled_from(NAMES[:4]), st.integers(-5000, 5000), min_size=4),
    st.dictionaries(st.sampled_from(NAMES[:4]), st.integers(0, 4)),
    st.integers(1, 20),
)
def test_close_pool_at_0_finals_sum_to_0(scores, radli, unit):
    """For any balances and radli the close empties the pool and the finals sum to 0."""
    balances = {**scores, "pool": -sum(scores.values())}
    rates = RateCard.from_dict({"split_unit": unit})
    moves = close_table(balances, radli, rates, list(scores))
    final = dict(balances)
    for m in moves:
        assert m.points > 0
        final[m.source] -= m.points
        final[m.target] += m.points
    assert final["pool"] == 0
    assert sum(v for k, v in final.items() if k != "pool") == 0
