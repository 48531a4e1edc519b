"""Season reads: standings, statistics, a member's season, the evening sheet and the jetons.

The figures of Evening E come from the spec (danish-tarok.md section 9); a season of several
evenings is checked against the closings' ``EveningResult`` rows and against a plain Python
replay of the live hand postings.
"""

from __future__ import annotations

import datetime
from collections import Counter, defaultdict
from decimal import Decimal

import pytest

from ledger import selectors, services
from ledger.games.danish.engine import rotation, to_money
from ledger.models import EveningResult, Member, Posting, Transfer
from ledger.selectors.verify import verify_ledger
from ledger.tests import factories
from ledger.tests.factories import new_member
from ledger.tests.helpers import NAMES, build_season


@pytest.fixture
def club():
    return factories.make_club()


pytestmark = pytest.mark.django_db


def _evening_points(evening) -> dict[str, int]:
    """Return each member's points of an evening: its last closing, or its table balances."""
    results = EveningResult.objects.filter(evening=evening).select_related("member")
    if results:
        last = max(r.closing for r in results)
        return {r.member.name: r.points for r in results if r.closing == last}
    points: Counter[str] = Counter()
    for table in evening.tables.all():
        for name, balance in selectors.table_balances(table.pk).items():
            if name not in ("kongekop", "pagatkop"):
                points[name] += balance
    return dict(points)


def _python_stats(season) -> dict[str, Counter]:
    """Return the statistics replayed in Python from every live hand posting of the season."""
    stats: dict[str, Counter] = {name: Counter() for name in NAMES}
    postings = Posting.objects.filter(
        kind="hand", reversed_by__isnull=True, table__evening__season=season
    ).select_related("revision")
    for posting in postings:
        assert posting.revision is not None
        record, outcome = posting.revision.record, posting.outcome
        assert outcome is not None
        out = record.get("sitting_out")
        if out is None:
            out = rotation.default_sitting_out(record["seats"], record["dealer"])
        for name in record["seats"]:
            if name not in out:
                stats[name]["played"] += 1
        if outcome["ultimo"]:
            stats[outcome["ultimo"][0]][f"ultimo_{outcome['ultimo'][1]}"] += 1
        for player, _card in outcome["bagud"]:
            stats[player]["bagud"] += 1
        if outcome["nolo"]:
            stats[outcome["nolo"]]["nolo"] += 1
        if outcome["tout"]:
            stats[outcome["tout"]]["tout"] += 1
    for transfer in (
        Transfer.objects.filter(
            reason__startswith="meld_",
            posting__reversed_by__isnull=True,
            table__evening__season=season,
        )
        .exclude(posting__kind="reversal")
        .select_related("target__member")
    ):
        assert transfer.target.member is not None
        stats[transfer.target.member.name]["melds"] += transfer.points
    return stats


def test_standings_of_evening_e(club):
    """A season of Evening E alone: Anna +65 (16.25), Bo -30 (-7.50), Carl -35 (-8.75)."""
    season = factories.make_season(club)
    evening, _, _ = factories.evening_e(club)
    services.evening_close(evening=evening)
    rows = {r.name: r for r in selectors.standings_for_season(season=season)}
    assert {n: (r.rank, r.points, r.money) for n, r in rows.items()} == {
        "Anna": (1, 65, Decimal("16.25")),
        "Bo": (2, -30, Decimal("-7.50")),
        "Carl": (3, -35, Decimal("-8.75")),
    }
    anna, bo, carl = rows["Anna"], rows["Bo"], rows["Carl"]
    assert (anna.evenings, anna.played, anna.ultimo_king, anna.ultimo_pagat) == (1, 3, 1, 0)
    assert (bo.ultimo_king, carl.ultimo_king, bo.bagud, bo.nolo, bo.tout) == (0, 0, 0, 0, 0)
    # Bo: 10 taroks (10 from each) and a full suit (10 from each); Carl: 4 matadors (15 each).
    assert (anna.melds, bo.melds, carl.melds) == (0, 40, 30)
    assert (anna.best, anna.best_date, anna.average) == (65, evening.date, Decimal("65.0"))


def test_standings_equal_the_sum_of_the_evenings(club):
    """A season's standings are exactly the sums of its evenings' settlements (and only its)."""
    season, evenings = build_season(club)
    expected_points: Counter[str] = Counter()
    expected_money: defaultdict[str, Decimal] = defaultdict(Decimal)
    expected_evenings: Counter[str] = Counter()
    for evening in evenings:
        for name, points in _evening_points(evening).items():
            expected_points[name] += points
            expected_money[name] += to_money(points, evening.price_per_point)
            expected_evenings[name] += 1
    for result in EveningResult.objects.filter(evening__season=season):
        assert result.money == to_money(result.points, result.evening.price_per_point)
    rows = selectors.standings_for_season(season=season)
    assert {r.name: r.points for r in rows} == dict(expected_points)
    assert {r.name: r.money for r in rows} == dict(expected_money)
    assert {r.name: r.evenings for r in rows} == dict(expected_evenings)
    assert [r.rank for r in rows] == list(range(1, len(rows) + 1))
    assert [r.points for r in rows] == sorted((r.points for r in rows), reverse=True)
    assert verify_ledger().ok


def test_statistics_equal_a_python_replay_of_the_live_hands(club):
    """Hands played, ultimos, bagud, nolo, tout and melds count only live hand postings."""
    season, _ = build_season(club, hands=30, seed=7)
    oracle = _python_stats(season)
    for key in ("played", "ultimo_pagat", "ultimo_king", "bagud", "nolo", "tout", "melds"):
        assert any(oracle[name][key] for name in NAMES), f"the season has no {key}"
    rows = selectors.standings_for_season(season=season)
    keys = ("played", "ultimo_pagat", "ultimo_king", "bagud", "nolo", "tout", "melds")
    assert {r.name: {k: getattr(r, k) for k in keys} for r in rows} == {
        name: {k: oracle[name][k] for k in keys} for name in NAMES
    }
    assert (
        sum(oracle[name]["played"] for name in NAMES)
        == 3
        * Posting.objects.filter(
            kind="hand", reversed_by__isnull=True, table__evening__season=season
        ).count()
    )


def test_sitting_out_is_not_playing(club):
    """At 4 seats the member opposite the dealer sits out and does not play the hand."""
    season = factories.make_season(club)
    members = [new_member(club=club, name=n) for n in NAMES[:4]]
    evening = services.evening_open(club=club, date=datetime.date(2026, 9, 1))
    table = services.table_open(evening=evening, members=members)
    factories.random_table_hands(table, 8, seed=3)
    rows = {r.name: r.played for r in selectors.standings_for_season(season=season)}
    # Eight hands at four seats: each member deals twice and sits out twice.
    assert rows == {"Anna": 6, "Bo": 6, "Carl": 6, "Dorte": 6}


def test_member_season_and_hands_of_evening_e(club):
    """Anna's season: one evening +65 (16.25) and her three hands -60, +145, -25."""
    season = factories.make_season(club)
    evening, _, _ = factories.evening_e(club)
    services.evening_close(evening=evening)
    anna = Member.objects.get(club=club, name="Anna")
    data = selectors.member_season(season=season, member=anna)
    assert data.standing.points == 65
    assert data.standing.money == Decimal("16.25")
    assert [(e["points"], e["money"], e["cumulative"], e["played"]) for e in data.evenings] == [
        (65, Decimal("16.25"), 65, 3)
    ]
    hands = list(selectors.member_hands(season=season, member=anna))
    assert [(h.hand_number, h.net, h.outcome.get("ultimo")) for h in hands] == [
        (1, -60, None),
        (2, 145, ["Anna", "king"]),
        (3, -25, None),
    ]


def test_member_season_cumulates_over_evenings(club):
    """The member page's running total ends at his standing, evening by evening."""
    season, _ = build_season(club)
    rows = {r.name: r for r in selectors.standings_for_season(season=season)}
    for name in NAMES:
        member = Member.objects.get(club=club, name=name)
        data = selectors.member_season(season=season, member=member)
        assert data.evenings[-1]["cumulative"] == rows[name].points
        assert data.standing.money == rows[name].money
        assert data.standing.played == rows[name].played
        assert sum(e["played"] for e in data.evenings) == rows[name].played
        hands = selectors.member_hands(season=season, member=member)
        assert hands.count() == rows[name].played


def test_evening_sheet_of_evening_e(club):
    """The sheet shows each hand's net and cups, the split 45/45/50 and the settlement."""
    evening, _, _ = factories.evening_e(club)
    services.evening_close(evening=evening)
    sheet = selectors.evening_sheet(evening=evening)
    (table,) = sheet.tables
    assert [(h.number, h.dealer, h.net, h.cups_after) for h in table.hands] == [
        (1, "Anna", {"Anna": -60, "Bo": -20, "Carl": 70}, {"kongekop": 65, "pagatkop": 65}),
        (2, "Bo", {"Anna": 145, "Bo": -75, "Carl": -70}, {"kongekop": 60, "pagatkop": 70}),
        (3, "Carl", {"Anna": -25, "Bo": 60, "Carl": -45}, {"kongekop": 65, "pagatkop": 75}),
    ]
    assert table.before_split == {"Anna": 20, "Bo": -75, "Carl": -85}
    assert table.cups_before_split == {"kongekop": 65, "pagatkop": 75}
    assert table.split == {"Anna": 45, "Bo": 45, "Carl": 50}
    assert [(s.name, s.points, s.money) for s in sheet.settlement] == [
        ("Anna", 65, Decimal("16.25")),
        ("Bo", -30, Decimal("-7.50")),
        ("Carl", -35, Decimal("-8.75")),
    ]
    assert {r.member.name: (r.points, r.money) for r in sheet.results} == {
        "Anna": (65, Decimal("16.25")),
        "Bo": (-30, Decimal("-7.50")),
        "Carl": (-35, Decimal("-8.75")),
    }


def test_evening_sheet_of_an_open_evening_shows_the_balances_so_far(club):
    """Before the split the sheet's settlement is the balances: +20, -75, -85."""
    evening, _, _ = factories.evening_e(club)
    sheet = selectors.evening_sheet(evening=evening)
    assert [(s.name, s.before_split, s.split, s.points) for s in sheet.settlement] == [
        ("Anna", 20, 0, 20),
        ("Bo", -75, 0, -75),
        ("Carl", -85, 0, -85),
    ]
    assert sheet.results == []


def test_evening_jetons_expected_counted_and_difference(club):
    """Expected jetons are the stack plus the balance; a count 5 short shows -5."""
    evening, table, _ = factories.evening_e(club)
    (jetons,) = selectors.evening_jetons(evening=evening)
    assert [(line.name, line.expected, line.counted) for line in jetons.lines] == [
        ("Anna", 520, None),
        ("Bo", 425, None),
        ("Carl", 415, None),
        ("kongekop", 65, None),
        ("pagatkop", 75, None),
    ]
    assert {line.name: line.expected for line in jetons.lines} == services.jeton_expected(table)
    services.jetons_count(table=table, counts={"Anna": 520, "Bo": 421, "Carl": 415})
    services.jetons_count(table=table, counts={"Bo": 420})
    (jetons,) = selectors.evening_jetons(evening=evening)
    assert jetons.differences == {"Bo": -5} == services.jeton_differences(table)
    assert (jetons.total_expected, jetons.total_counted, jetons.total_difference) == (
        1500,
        1355,
        -5,
    )
