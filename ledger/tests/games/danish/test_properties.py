"""Properties of every settlement over random valid hands and random house rules."""

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from ledger.games.danish.engine import RateCard, parse_hand, settle
from ledger.games.danish.engine.generate import random_hand, random_rates

NAMES = ["Anna", "Bo", "Carl", "Dorte", "Erik"]


@st.composite
def hands(draw):
    seed = draw(st.integers(min_value=0, max_value=2**32 - 1))
    rng = random.Random(seed)
    rates = random_rates(rng) if draw(st.booleans()) else RateCard()
    seats = NAMES[: draw(st.sampled_from([3, 4, 5]))]
    dealer = draw(st.sampled_from(seats))
    cups = {
        "kongekop": draw(st.integers(min_value=0, max_value=2000)),
        "pagatkop": draw(st.integers(min_value=0, max_value=2000)),
    }
    data = random_hand(rng, seats, dealer, rates, cups_before=cups)
    return data, rates


@settings(max_examples=400, deadline=None)
@given(hands())
def test_settlement_properties(case):
    """Zero-sum, no negative cup, integer positive transfers, sitters only refund, deterministic."""
    data, rates = case
    record = parse_hand(data, rates)
    result = settle(record, rates)
    assert record.cups_before is not None

    before = sum(record.cups_before.values())
    assert sum(result.net.values()) + sum(result.cups_after.values()) == before
    assert set(result.net) == set(record.seats)

    balance = dict(record.cups_before)
    for t in result.transfers:
        assert isinstance(t.points, int) and not isinstance(t.points, bool)
        assert t.points > 0
        assert t.source != t.target
        for cup in ("kongekop", "pagatkop"):
            if t.source == cup:
                balance[cup] -= t.points
            if t.target == cup:
                balance[cup] += t.points
            assert balance[cup] >= 0, "a cup went negative mid-hand"
    assert result.cups_after == balance

    for sitter in record.sitting_out:
        assert {t.reason for t in result.transfers if sitter in (t.source, t.target)} <= {"refund"}
        assert all(t.source == sitter for t in result.transfers if sitter in (t.source, t.target))

    assert settle(parse_hand(data, rates), rates) == result
