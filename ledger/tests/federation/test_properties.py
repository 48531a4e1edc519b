"""Properties of series standings and ratings over random seasons and tables (hypothesis):
the listing order of events never matters, ``best_of`` all events is the plain sum, and the
rating changes of a table balance out."""

from __future__ import annotations

import datetime
import math
from fractions import Fraction

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ledger.federation.engine import (
    FIELD,
    LINEAR,
    PLACEMENT,
    POINTS,
    TABLE,
    Event,
    Placing,
    RatingParams,
    Scale,
    SeriesRule,
    Standing,
    event_results,
    rate_table,
    series_standings,
)

FAST = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
PLAYERS = [f"p{i:02d}" for i in range(10)]
RESULTS = st.fractions(min_value=-10, max_value=30, max_denominator=12)

SCALES = st.one_of(
    st.just(Scale(LINEAR)),
    st.builds(
        lambda points, beyond: Scale(TABLE, points=tuple(points), beyond=beyond),
        st.lists(RESULTS, max_size=8),
        RESULTS,
    ),
    st.builds(
        lambda base, gaps: Scale(FIELD, base=Fraction(base), gaps=tuple(map(Fraction, gaps))),
        st.integers(0, 200),
        st.lists(st.integers(0, 90), max_size=9),
    ),
)


@st.composite
def seasons(draw, *, source=None):
    """A season of 0 … 7 events (some on one date, ids not in date order), each ranking a
    random subset of the players, with points, factors and a placement or points rule."""
    source = source or draw(st.sampled_from([POINTS, PLACEMENT]))
    events = []
    ids = draw(st.permutations("abcdefg"))  # listed apart from their date order
    for event_id in ids[: draw(st.integers(0, 7))]:
        players = draw(st.lists(st.sampled_from(PLAYERS), min_size=1, max_size=8, unique=True))
        events.append(
            Event(
                id=event_id,
                date=datetime.date(2026, 10, 1) + datetime.timedelta(days=draw(st.integers(0, 4))),
                ranking=tuple(
                    Placing(rank, p, draw(RESULTS) if source == POINTS else None)
                    for rank, p in enumerate(players, start=1)
                ),
                factor=draw(st.sampled_from([Fraction(1), Fraction(2), Fraction(3, 2)])),
            )
        )
    scale = draw(SCALES) if source == PLACEMENT else None
    return source, scale, events


def the_rule(source, scale, how, n):
    if how == "best_of":
        return SeriesRule(source, scale, best_of=n)
    if how == "strike_worst":
        return SeriesRule(source, scale, strike_worst=n)
    return SeriesRule(source, scale, qualify=n)


@FAST
@given(
    seasons(),
    st.sampled_from(["best_of", "strike_worst", "plain"]),
    st.integers(1, 4),
    st.randoms(use_true_random=False),
)
def test_standings_never_depend_on_the_order_events_are_listed(season, how, n, random):
    """Shuffling the list of events changes no row: totals, counted, struck, positions."""
    source, scale, events = season
    rule = the_rule(source, scale, how, n)
    shuffled = list(events)
    random.shuffle(shuffled)
    assert series_standings("S", rule, shuffled) == series_standings("S", rule, events)


@FAST
@given(seasons())
def test_best_of_every_event_is_the_plain_sum(season):
    """With best_of equal to the number of events, every total is the sum of all results and
    nothing is struck: the same standings as without best_of."""
    source, scale, events = season
    plain = series_standings("S", SeriesRule(source, scale), events)
    best = series_standings("S", SeriesRule(source, scale, best_of=max(1, len(events))), events)
    assert best == plain
    assert all(row.struck == () for row in best)


@FAST
@given(seasons(), st.integers(1, 4))
def test_a_struck_result_is_never_above_a_counted_one(season, n):
    """Under best_of and strike_worst every struck result is at most every counted one, and
    the total is the sum of the counted results."""
    source, scale, events = season
    for rule in (SeriesRule(source, scale, best_of=n), SeriesRule(source, scale, strike_worst=n)):
        results = {e.id: event_results(rule, e) for e in events}
        for row in series_standings("S", rule, events):
            counted = [results[e][row.player] for e in row.counted]
            struck = [results[e][row.player] for e in row.struck]
            assert row.total == sum(counted, Fraction(0))
            assert not counted or not struck or max(struck) <= min(counted)
            assert len(row.counted) + len(row.struck) == row.events


TABLES = st.lists(
    st.tuples(st.integers(-100, 100), st.floats(1000, 2200, allow_nan=False), st.integers(0, 40)),
    min_size=2,
    max_size=6,
)


def seated(table):
    scores = {f"p{i}": Fraction(s) for i, (s, _r, _t) in enumerate(table)}
    standings = {f"p{i}": Standing(r, t) for i, (_s, r, t) in enumerate(table)}
    return scores, standings


@FAST
@given(TABLES, st.integers(0, 40))
def test_a_table_s_changes_weighted_by_k_sum_to_zero(table, new_tables):
    """Σ ΔR_x / K_x = Σ (S_x − E_x) = 0 at every table: the pairwise matches are zero-sum."""
    scores, standings = seated(table)
    params = RatingParams(new_tables=new_tables)
    seats = rate_table(scores, standings, params)
    assert math.isclose(sum(s.delta / s.k for s in seats), 0.0, abs_tol=1e-9)
    assert math.isclose(sum(s.actual for s in seats), len(seats) / 2, abs_tol=1e-12)


@FAST
@given(TABLES)
def test_a_table_s_changes_sum_to_zero_when_every_k_is_equal(table):
    """When every seated player has the same K the rating points only change hands."""
    scores, standings = seated(table)
    seats = rate_table(scores, standings, RatingParams(new_tables=0))
    assert {s.k for s in seats} == {20.0}
    assert math.isclose(sum(s.delta for s in seats), 0.0, abs_tol=1e-9)
    assert all(0.0 <= s.expected <= 1.0 and 0.0 <= s.actual <= 1.0 for s in seats)
