"""Properties of random valid Slovenian hands and evenings (engine/generate.py)."""

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from ledger.games.slovenian.engine import RateCard, parse_hand, settle
from ledger.games.slovenian.engine.close import close_table
from ledger.games.slovenian.engine.generate import random_hand

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
