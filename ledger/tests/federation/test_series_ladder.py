"""Series and the ladder (issue: federation, part 3): a series created with the engine's rule,
its bad input refused by field with nothing written, its ladder from its events' final
rankings, and a tournament's ladder ranks as of the day before, overridable with a reason."""

import datetime
from fractions import Fraction

import pytest

from ledger.models import FederationLog, Series
from ledger.selectors.verify import verify_ledger
from ledger.services import federation as fed
from ledger.services import tournaments as tour
from ledger.services.errors import LedgerError
from ledger.tests.factories import make_club, make_member
from ledger.tests.helpers import final_tournament

pytestmark = pytest.mark.django_db

RULE = {"source": "placement", "scale": {"kind": "linear"}}


def world():
    kranj = make_club(slug="kranj", name="Tarok Kranj", game="slovenian_tarok")
    tzs = fed.federation_create(
        name="Tarok zveza Slovenije", slug="tzs", game="slovenian_tarok", language="sl"
    )
    fed.club_join(federation=tzs, club=kranj)
    members = {n: make_member(kranj, n) for n in ("Ana", "Bor", "Cene", "Dan")}
    return kranj, tzs, members


played = final_tournament  # one home: ledger/tests/helpers.py


def first_dp(club, members):
    """Kranj's DP 1 of 3 October, made final: Ana, Bor, Cene, Dan in that order."""
    return played(
        club,
        members,
        datetime.date(2026, 10, 3),
        {"Ana": 90, "Bor": 30, "Cene": -20, "Dan": -100},
        "DP 1",
    )


def second_dp(club, members):
    """Kranj's DP 2 of 7 November, made final: Bor, Cene, Ana, Dan in that order."""
    return played(
        club,
        members,
        datetime.date(2026, 11, 7),
        {"Ana": 10, "Bor": 80, "Cene": 20, "Dan": -110},
        "DP 2",
    )


def create(tzs, **changes):
    fields = {
        "federation": tzs,
        "name": "Pokal 2026",
        "seed": "Pokal 2026",
        "starts_on": datetime.date(2026, 9, 1),
        "ends_on": datetime.date(2027, 6, 30),
        "rule": RULE,
        "events": [],
    }
    return fed.series_create(**{**fields, **changes})


def test_best_of_with_strike_worst_is_refused_by_the_engine():
    """A rule with both best_of and strike_worst is refused under rule.strike_worst; no series."""
    _club, tzs, _m = world()
    with pytest.raises(LedgerError) as caught:
        create(tzs, rule={**RULE, "best_of": 3, "strike_worst": 1})
    assert caught.value.field == "rule.strike_worst"
    assert str(caught.value.message) == (
        "rule.strike_worst: a rule sets best_of or strike_worst, never both"
    )
    assert not Series.objects.exists()


@pytest.mark.parametrize("factor", [0, "-3/2", "1/0", 1.5, "x"])
def test_a_factor_not_a_positive_rational_is_refused(factor):
    """An event's factor is a positive exact rational: 0, negative, a zero denominator, a
    float or text are refused naming the event's factor; nothing is written."""
    club, tzs, members = world()
    t = tour.tournament_create(
        club=club,
        name="DP",
        date=datetime.date(2026, 10, 3),
        game="slovenian_tarok",
        tournament_format="sl_dp",
    )
    with pytest.raises(LedgerError) as caught:
        create(tzs, events=[(t, 1), (t, factor)])
    assert caught.value.field == "events[1].factor"
    assert not Series.objects.exists()


def test_an_event_of_another_game_is_refused():
    """A tournament of another game than the series' is refused naming the event."""
    club, tzs, _m = world()
    t = tour.tournament_create(
        club=club,
        name="DM",
        date=datetime.date(2026, 10, 3),
        game="danish_tarok",
        tournament_format="dk_dm",
    )
    with pytest.raises(LedgerError) as caught:
        create(tzs, events=[(t, 1)])
    assert (caught.value.field, str(caught.value.message)) == (
        "events[0]",
        "DM is a tournament of another game than the series'",
    )
    assert not Series.objects.exists() and not FederationLog.objects.filter(action="series")


def test_the_ladder_sums_the_final_rankings_and_seeds_the_next_tournament():
    """Linear places (last gets 1) with the second event worth 3/2: Ana 4 + 3/2·2 = 7,
    Bor 3 + 3/2·4 = 9, Cene 2 + 3/2·3 = 13/2, Dan 1 + 3/2·1 = 5/2; the next tournament's
    entries take their ranks from it as of the day before, and a rank overridden by hand is
    logged with its reason."""
    club, tzs, members = world()
    first = first_dp(club, members)
    second = second_dp(club, members)
    series = create(tzs, events=[(first, 1), (second, "3/2")])
    rows = fed.series_ladder(series)
    player = {str(m.player_id): n for n, m in ((n, m) for n, m in _refreshed(members).items())}
    got = [(r.position, player[r.player], r.total, r.wins, r.best, r.events) for r in rows]
    assert got == [
        (1, "Bor", Fraction(9), 1, Fraction(6), 2),
        (2, "Ana", Fraction(7), 1, Fraction(4), 2),
        (3, "Cene", Fraction(13, 2), 0, Fraction(9, 2), 2),
        (4, "Dan", Fraction(5, 2), 0, Fraction(3, 2), 2),
    ]
    # The day of the second event: only the first counts.
    assert [player[r.player] for r in fed.series_ladder(series, datetime.date(2026, 11, 7))] == [
        "Ana",
        "Bor",
        "Cene",
        "Dan",
    ]
    third = tour.tournament_create(
        club=club,
        name="DP 3",
        date=datetime.date(2026, 11, 7),
        game="slovenian_tarok",
        tournament_format="sl_dp",
    )
    fed.tournament_ladder_set(tournament=third, series=series)
    tour.entries_add(tournament=third, members=list(members.values()))
    fed.ladder_ranks_apply(tournament=third)
    ranks = dict(third.entries.values_list("name", "ladder_rank"))
    assert ranks == {"Ana": 1, "Bor": 2, "Cene": 3, "Dan": 4}
    dan = third.entries.get(name="Dan")
    with pytest.raises(LedgerError) as caught:
        fed.ladder_rank_override(entry=dan, rank=2, reason=" ")
    assert caught.value.field == "reason"
    fed.ladder_rank_override(entry=dan, rank=2, reason="champion of the region")
    third.refresh_from_db()
    assert third.entries.get(name="Dan").ladder_rank == 2
    assert {k: third.log[-1][k] for k in ("action", "before", "after", "reason")} == {
        "action": "ladder_rank",
        "before": 4,
        "after": 2,
        "reason": "champion of the region",
    }
    assert verify_ledger().problems == []


def _refreshed(members):
    for m in members.values():
        m.refresh_from_db()
    return members


@pytest.mark.parametrize(
    "name",
    ["01_dp_ladder_best_of", "02_league_field", "03_cup_strike_worst", "04_cup_linear_factor"],
)
def test_the_spec_examples_rules_are_stored_as_given(name):
    """Each worked example's rule is a series' rule: stored as given, read back by the engine
    as the example file reads it."""
    import json
    from pathlib import Path

    from ledger.federation.engine.example import read_series
    from ledger.services.federation.series import rule_of

    path = Path(__file__).parents[1] / "examples" / "federation" / f"{name}.json"
    data = json.loads(path.read_text())
    _club, tzs, _m = world()
    series = create(tzs, rule=data["rule"], seed=data["seed"])
    series.refresh_from_db()
    assert series.rule == data["rule"]
    assert rule_of(series) == read_series(data)[1]
