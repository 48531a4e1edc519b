"""Properties of every Hungarian settlement over random valid hands and rate cards.

The hands come from ``ledger.games.hungarian.engine.generate.random_hand``.
"""

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from ledger.games.hungarian.engine import RateCard, parse_hand, settle
from ledger.games.hungarian.engine.generate import random_hand, random_rates

from .helpers import SEATS5


@st.composite
def hands(draw):
    seed = draw(st.integers(min_value=0, max_value=2**32 - 1))
    rng = random.Random(seed)
    rates = random_rates(rng) if draw(st.booleans()) else RateCard()
    seats = SEATS5[: draw(st.sampled_from([4, 5]))]
    dealer = draw(st.sampled_from(seats))
    return random_hand(rng, seats, dealer, rates), rates


def nets_without_claims(result):
    net = {seat: 0 for seat in result.net}
    for t in result.transfers:
        if t.reason != "tarokk_claim":
            net[t.source] -= t.points
            net[t.target] += t.points
    return net


@settings(max_examples=300, deadline=None)
@given(hands())
def test_zero_sum_and_well_formed_transfers(case):
    """Nets sum to 0 over the members; every transfer is a positive integer between two
    active members, with a known reason; the net is the transfers' balance."""
    data, rates = case
    record = parse_hand(data, rates)
    result = settle(record, rates, {})
    assert list(result.net) == list(record.seats)
    assert sum(result.net.values()) == 0
    balance = {seat: 0 for seat in record.seats}
    reasons = {"game", "dupla", "volat", "tarokk_claim", *rates.figure_announced}
    for t in result.transfers:
        assert type(t.points) is int and t.points > 0
        assert t.source != t.target
        assert {t.source, t.target} <= set(record.active)
        assert t.reason in reasons
        balance[t.source] -= t.points
        balance[t.target] += t.points
    assert balance == dict(result.net)


@settings(max_examples=300, deadline=None)
@given(hands())
def test_sides_share_t(case):
    """Outside tarokk claims: a lone declarer gets +3T and each opponent -T, so his net is
    -3 x each opponent's; with a partner, declarer and partner +T, each opponent -T."""
    data, rates = case
    record = parse_hand(data, rates)
    if record.annulled:
        return
    result = settle(record, rates)
    net = nets_without_claims(result)
    t = result.total
    for opponent in record.opponents:
        assert net[opponent] == -t
    if record.alone:
        assert len(record.opponents) == 3
        for opponent in record.opponents:
            assert net[record.declarer] == -3 * net[opponent]
    else:
        assert net[record.declarer] == net[record.partner] == t


@settings(max_examples=200, deadline=None)
@given(hands())
def test_sitting_out_member_untouched(case):
    """At 5 seats the dealer sits out: net 0, in no transfer, role ``out``."""
    data, rates = case
    record = parse_hand(data, rates)
    result = settle(record, rates)
    for sitter in record.sitting_out:
        assert sitter == record.dealer
        assert result.net[sitter] == 0
        assert all(sitter not in (t.source, t.target) for t in result.transfers)
        assert result.roles[sitter] == "out"
    assert len(record.active) == 4


@settings(max_examples=200, deadline=None)
@given(hands())
def test_items_sum_to_t_and_claims_stay_outside(case):
    """The items' values sum to T; claims move exactly their amounts, never doubled or x3."""
    data, rates = case
    record = parse_hand(data, rates)
    result = settle(record, rates)
    if record.annulled:
        assert result.transfers == ()
        return
    assert sum(i["value"] for i in result.outcome_data["items"]) == result.outcome_data["T"]
    claimed = sum(t.points for t in result.transfers if t.reason == "tarokk_claim")
    expected = 0
    for claim in record.tarokk_claims:
        if claim.when == "announced":
            payers = 3
        elif record.alone:
            payers = 2  # an opponent of a lone declarer: both other opponents
        else:
            payers = 1
        expected += payers * rates.tarokk_claim(claim.count)
    assert claimed == expected
