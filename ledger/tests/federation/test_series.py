"""The rules of federation.md section 2 one by one: the three scales, factors, best_of and
strike_worst with their tie rules, the order of the standings, qualification, the ladder."""

from __future__ import annotations

import datetime
from fractions import Fraction as F

import pytest

from ledger.federation.engine import (
    FIELD,
    LINEAR,
    PLACEMENT,
    POINTS,
    TABLE,
    Event,
    FederationError,
    Placing,
    Scale,
    SeriesRule,
    event_results,
    ladder_ranks,
    series_standings,
)
from ledger.tournaments.engine import lot

MTL = Scale(FIELD, base=F(100), gaps=tuple(F(g) for g in (21, 32, 43, 49, 55, 61, 67, 73, 79)))
MASTERS = Scale(TABLE, points=(F(8), F(8), F(7), F(6), F(5), F(9, 2), F(4)))


def day(n: int) -> datetime.date:
    return datetime.date(2026, 10, 1) + datetime.timedelta(days=n)


def event(event_id: str, n: int, *players: str, points=None, factor=F(1)) -> Event:
    """An event on day ``n`` ranking ``players`` in order (with ``points`` if given)."""
    return Event(
        event_id,
        day(n),
        tuple(
            Placing(r, p, None if points is None else F(points[r - 1]))
            for r, p in enumerate(players, start=1)
        ),
        factor,
    )


def rows(rule, events, seed="S", as_of=None):
    return {r.player: r for r in series_standings(seed, rule, events, as_of)}


def test_field_scale_of_the_moravian_league():
    """60 entrants: 160, 139, 128, 117, 111, 105, 99, 93, 87, 81, then one point apart but
    never above N − r + 1 (11th: min(80, 50) = 50), the last 1 (spec section 2, [MTL])."""
    points = MTL.points_by_rank(60)
    assert points[:10] == tuple(F(p) for p in (160, 139, 128, 117, 111, 105, 99, 93, 87, 81))
    assert points[10:13] == (F(50), F(49), F(48))
    assert points[-1] == F(1)
    assert all(p >= 1 for p in points)


def test_field_scale_of_a_small_field():
    """3 entrants: only the winner and the first gaps apply: 103, 82, 71."""
    assert MTL.points_by_rank(3) == (F(103), F(82), F(71))


def test_field_scale_never_goes_below_one():
    """After the fixed gaps a rank gets at least 1, even when the rank before had 1 or less."""
    scale = Scale(FIELD, base=F(0), gaps=(F(20),))
    assert scale.points_by_rank(4) == (F(4), F(-16), F(1), F(1))


def test_table_scale_with_beyond():
    """The Masters' 8 / 8 / 7 / 6 / 5 / 4½ / 4, then ``beyond`` (0 by default, else given)."""
    assert MASTERS.points_by_rank(9) == tuple(F(p) for p in (8, 8, 7, 6, 5, F(9, 2), 4, 0, 0))
    beyond = Scale(TABLE, points=(F(3),), beyond=F(1, 2))
    assert beyond.points_by_rank(3) == (F(3), F(1, 2), F(1, 2))


def test_linear_scale():
    """N − r + 1: the last gets 1."""
    assert Scale(LINEAR).points_by_rank(4) == (F(4), F(3), F(2), F(1))


def test_a_factor_multiplies_every_result_of_its_event():
    """A championship at 3/2 multiplies placement points and tournament points alike."""
    rule = SeriesRule(PLACEMENT, Scale(LINEAR))
    assert event_results(rule, event("e", 0, "a", "b", factor=F(3, 2))) == {
        "a": F(3),
        "b": F(3, 2),
    }
    rule = SeriesRule(POINTS)
    assert event_results(rule, event("e", 0, "a", "b", points=["7/2", "-1"], factor=F(2))) == {
        "a": F(7),
        "b": F(-2),
    }


def test_best_of_takes_the_highest_and_of_equal_results_the_earlier():
    """best_of 2 over 6, 6, 6: the two earlier events count, the latest is struck, whatever
    the order the events are listed in."""
    rule = SeriesRule(POINTS, best_of=2)
    events = [event(f"e{n}", n, "a", points=["6"]) for n in (3, 1, 2)]
    a = rows(rule, events)["a"]
    assert (a.total, a.counted, a.struck) == (F(12), ("e1", "e2"), ("e3",))


def test_strike_worst_strikes_missed_events_first_then_the_later():
    """strike_worst 1: a missed event (0) is struck before an attended 0; of two attended
    zeros the later is struck; a struck missed event is never listed."""
    rule = SeriesRule(POINTS, strike_worst=1)
    events = [
        event("e1", 1, "a", "b", points=["0", "5"]),
        event("e2", 2, "b", points=["4"]),
        event("e3", 3, "a", "b", points=["0", "0"]),
    ]
    got = rows(rule, events)
    assert (got["a"].counted, got["a"].struck, got["a"].total) == (("e1", "e3"), (), F(0))
    assert (got["b"].counted, got["b"].struck, got["b"].total) == (("e1", "e2"), ("e3",), F(9))


def test_strike_worst_beyond_the_season_strikes_everything():
    """Striking more events than the series has leaves a total of 0."""
    rule = SeriesRule(POINTS, strike_worst=5)
    a = rows(rule, [event("e1", 1, "a", points=["3"])])["a"]
    assert (a.total, a.counted, a.struck, a.events, a.best) == (F(0), (), ("e1",), 1, F(3))


def test_order_total_then_wins_then_best_then_lot():
    """w, x and z have 8 each: w and x won an event each (best 6 each), so the lot of the
    seed orders them, and z (no win) follows; y has 2."""
    rule = SeriesRule(POINTS)
    events = [
        event("e1", 1, "w", "z", "x", "y", points=["6", "5", "2", "1"]),
        event("e2", 2, "x", "z", "w", "y", points=["6", "3", "2", "1"]),
    ]
    got = series_standings("S", rule, events)
    by = {r.player: (r.total, r.wins, r.best) for r in got}
    assert by == {
        "w": (F(8), 1, F(6)),
        "x": (F(8), 1, F(6)),
        "z": (F(8), 0, F(5)),
        "y": (F(2), 0, F(1)),
    }
    first_two = sorted(["w", "x"], key=lambda p: lot("S", p))
    assert [r.player for r in got] == [*first_two, "z", "y"]
    assert [r.position for r in got] == [1, 2, 3, 4]
    other = next(
        seed
        for seed in ("T", "U", "V", "W")
        if sorted("wx", key=lambda p: lot(seed, p)) != first_two
    )
    assert [r.player for r in series_standings(other, rule, events)][:2] == first_two[::-1]


def test_best_breaks_a_tie_of_totals_and_wins():
    """Two players on 8 without a win: the one with a single 6 is ahead of 4 + 4."""
    rule = SeriesRule(POINTS)
    events = [
        event("e1", 1, "w", "a", "b", points=["9", "4", "6"]),
        event("e2", 2, "w", "a", "b", points=["9", "4", "2"]),
    ]
    assert [r.player for r in series_standings("S", rule, events)] == ["w", "b", "a"]


def test_qualify_marks_the_first_positions():
    """qualify 2 marks positions 1 and 2; without qualify the rows carry no mark."""
    events = [event("e1", 1, "a", "b", "c")]
    marked = series_standings("S", SeriesRule(PLACEMENT, Scale(LINEAR), qualify=2), events)
    assert [(r.player, r.qualified) for r in marked] == [("a", True), ("b", True), ("c", False)]
    plain = series_standings("S", SeriesRule(PLACEMENT, Scale(LINEAR)), events)
    assert "qualified" not in plain[0].as_dict()


def test_the_ladder_at_a_tournament_counts_the_events_before_its_date():
    """A tournament on day 2 is seeded by the events of days 0 and 1; a player of day 2 only
    has no ladder rank."""
    rule = SeriesRule(PLACEMENT, Scale(LINEAR))
    events = [
        event("e1", 0, "a", "b"),
        event("e2", 1, "b", "c"),
        event("e3", 2, "d", "a"),
    ]
    assert ladder_ranks("S", rule, events, day(2)) == {"b": 1, "a": 2, "c": 3}


def test_a_rule_never_sets_best_of_and_strike_worst():
    """The engine's own rule refuses both at once, naming rule.strike_worst, and a placement
    rule without a scale."""
    with pytest.raises(FederationError, match="never both") as both:
        SeriesRule(POINTS, best_of=2, strike_worst=1)
    assert [p.field for p in both.value.problems] == ["rule.strike_worst"]
    with pytest.raises(FederationError, match=r"rule\.scale: a rule by placement needs a scale"):
        SeriesRule(PLACEMENT)
