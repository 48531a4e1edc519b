"""A tournament of several days (issue 27): an evening per day, each round on its day, the
rounds' days never going back, and the ranking across them all."""

import datetime
from fractions import Fraction

import pytest
from django.utils import timezone

from ledger import services
from ledger.models import Evening, Round, Tournament
from ledger.selectors import tournaments as reads
from ledger.selectors.verify import verify_ledger
from ledger.services import seals
from ledger.services import tournaments as tour
from ledger.services.errors import LedgerError, TournamentEveningError
from ledger.tests.factories import make_club
from ledger.tests.helpers import score_table

pytestmark = pytest.mark.django_db

FIRST = datetime.date(2026, 11, 7)
SECOND = datetime.date(2026, 11, 8)
NAMES = ["Ana", "Bor", "Cene", "Dana", "Eva", "Franc", "Gal", "Hana", "Iva"]


def two_days(club=None, *, rounds=4, last_date=SECOND) -> Tournament:
    club = club or make_club(slug="sl", name="Tarok Kranj", game="slovenian_tarok")
    t = tour.tournament_create(
        club=club,
        name="Finals",
        date=FIRST,
        last_date=last_date,
        game="slovenian_tarok",
        tournament_format="sl_dp",
        params={"rounds": rounds},
        seed="FINALS",
    )
    lines = "\n".join(f"{n},Kranj,{i + 1}" for i, n in enumerate(NAMES))
    tour.entries_import(tournament=t, text="name,club,rank\n" + lines)
    return t


def play(round_: Round, offset: int = 0) -> Round:
    """Publish, start, score (every table its own scores) and close a drawn round."""
    round_ = tour.round_start(round_=tour.round_publish(round_=round_))
    for rt in round_.round_tables.select_related("table", "round__tournament"):
        scores = (30 + offset, -10, 5 - offset)
        score_table(rt, dict(zip(rt.seats, scores, strict=True)))
    return tour.round_close(round_=round_)


def test_a_two_day_tournament_played_through_the_services():
    """Day 1 plays rounds 1 and 2 at one evening, day 2 rounds 3 and 4 at another; the
    ranking runs across all four; the ledger verifies."""
    t = two_days()
    assert (t.date, t.last_date, t.several_days) == (FIRST, SECOND, True)
    r1 = play(tour.round_draw(tournament=t))
    r2 = play(tour.round_draw(tournament=t), offset=1)
    r3 = play(tour.round_draw(tournament=t, day=SECOND), offset=2)
    r4 = tour.round_draw(tournament=t)
    assert r4.day == SECOND  # the previous round's day, the tournament being in the past
    r4 = play(r4, offset=3)
    rounds = [Round.objects.select_related("evening").get(pk=r.pk) for r in (r1, r2, r3, r4)]
    assert [r.day for r in rounds] == [FIRST, FIRST, SECOND, SECOND]
    first, second = rounds[0].evening, rounds[2].evening
    assert first is not None
    assert second is not None
    assert rounds[1].evening == first and rounds[3].evening == second and first != second
    assert (first.date, second.date) == (FIRST, SECOND)
    assert first.kind == second.kind == Evening.Kind.TOURNAMENT
    assert first.rate_card == second.rate_card
    assert second.game == "slovenian_tarok"
    for r in rounds:
        assert {
            rt.table and rt.table.evening_id for rt in r.round_tables.select_related("table")
        } == {r.evening_id}
    t.refresh_from_db()
    assert t.evening == first and t.status == Tournament.Status.PROVISIONAL
    # An evening of a tournament stays open, as a one-day tournament's always has.
    assert first.status == second.status == Evening.Status.OPEN
    # The ranking runs across every round, whatever its day.
    totals: dict[str, Fraction] = {}
    for r in rounds:
        for rt in r.round_tables.all():
            for code, result in rt.results.items():
                totals[code] = totals.get(code, Fraction(0)) + tour.points_of(result["points"])
    rows = tour.current_standings(t)
    assert {row.id: row.points for row in rows} == totals
    assert len(rows) == len(NAMES)
    assert reads.tournament_of_evening(second) == t
    report = verify_ledger()
    assert report.ok, report.problems


def test_a_club_role_is_refused_at_the_second_days_evening_naming_the_tournament():
    t = two_days(rounds=2)
    play(tour.round_draw(tournament=t))
    r2 = play(tour.round_draw(tournament=t, day=SECOND))
    evening = Round.objects.get(pk=r2.pk).evening
    members = list(t.club.members.filter(name__in=NAMES[:3]))
    assert evening is not None
    with pytest.raises(TournamentEveningError, match="Finals"):
        services.table_open(evening=evening, members=members)


def test_a_round_moved_before_it_starts_is_played_at_its_new_days_evening():
    t = two_days(rounds=2)
    r1 = tour.round_publish(round_=tour.round_draw(tournament=t))
    assert r1.day == FIRST
    r1 = tour.round_set_day(round_=r1, day=SECOND)
    assert r1.day == SECOND and r1.log[-1]["action"] == "day"
    assert r1.log[-1]["change"] == f"{FIRST.isoformat()} → {SECOND.isoformat()}"
    r1 = tour.round_start(round_=r1)
    t.refresh_from_db()
    assert t.evening is not None
    assert t.evening.date == SECOND and r1.evening == t.evening
    lines = reads.log_lines(Round.objects.get(pk=r1.pk).log, {})
    assert any(line.text == "the round's day changed" for line in lines)
    assert verify_ledger().ok


def test_the_days_are_refused_naming_the_field():
    """A day outside the tournament's days, a later round on an earlier day, a started
    round's day changed, a last day before the first or a month away: refused, nothing
    written."""
    club = make_club(slug="sl", name="Tarok Kranj", game="slovenian_tarok")
    with pytest.raises(LedgerError, match="before the first") as caught:
        two_days(club, last_date=FIRST - datetime.timedelta(days=1))
    assert caught.value.field == "last_date"
    with pytest.raises(LedgerError, match="at most 31 days") as caught:
        two_days(club, last_date=FIRST + datetime.timedelta(days=31))
    assert caught.value.field == "last_date"
    with pytest.raises(LedgerError, match="the date must be from") as caught:
        two_days(club, last_date=datetime.date(2062, 11, 8))
    assert caught.value.field == "last_date"
    assert not Tournament.objects.exists()
    t = two_days(club)
    with pytest.raises(LedgerError, match="one of the tournament's days") as caught:
        tour.round_draw(tournament=t, day=SECOND + datetime.timedelta(days=1))
    assert caught.value.field == "day" and not t.rounds.exists()
    r1 = play(tour.round_draw(tournament=t, day=SECOND))
    with pytest.raises(LedgerError, match="round 1 is played on") as caught:
        tour.round_draw(tournament=t, day=FIRST)
    assert caught.value.field == "day" and t.rounds.count() == 1
    r2 = tour.round_draw(tournament=t)
    with pytest.raises(LedgerError, match="a later round cannot come on an earlier day"):
        tour.round_set_day(round_=r2, day=FIRST)
    with pytest.raises(LedgerError, match="already started") as caught:
        tour.round_set_day(round_=r1, day=FIRST)
    assert caught.value.field == "day"
    assert Round.objects.get(pk=r1.pk).day == SECOND
    with pytest.raises(LedgerError, match="round 1 is played on") as caught:
        tour.tournament_set_days(tournament=t, date=FIRST, last_date=FIRST)
    assert caught.value.field == "last_date"
    t.refresh_from_db()
    assert t.last_date == SECOND
    assert verify_ledger().ok


def test_the_days_change_while_the_rounds_fit_and_a_new_round_defaults_to_today():
    today = timezone.localdate()
    club = make_club(slug="sl", name="Tarok Kranj", game="slovenian_tarok")
    t = two_days(club, rounds=2)
    t = tour.tournament_set_days(
        tournament=t, date=today - datetime.timedelta(days=1), last_date=today
    )
    assert (t.date, t.last_date) == (today - datetime.timedelta(days=1), today)
    assert t.log[-1]["action"] == "days"
    r1 = tour.round_draw(tournament=t)
    assert r1.day == today
    with pytest.raises(LedgerError, match="round 1 is played on") as caught:
        tour.tournament_set_days(
            tournament=t,
            date=today - datetime.timedelta(days=1),
            last_date=today - datetime.timedelta(days=1),
        )
    assert caught.value.field == "last_date"


def test_a_one_day_tournament_has_one_day():
    club = make_club(slug="sl", name="Tarok Kranj", game="slovenian_tarok")
    t = tour.tournament_create(
        club=club, name="Cup", date=FIRST, game="slovenian_tarok", tournament_format="sl_dp"
    )
    assert t.last_date == FIRST and not t.several_days


def test_a_rounds_day_or_evening_changed_behind_the_services_is_named():
    from ledger.db import ledger_unlocked

    t = two_days(rounds=2)
    r1 = play(tour.round_draw(tournament=t))
    with ledger_unlocked():
        Round.objects.filter(pk=r1.pk).update(day=SECOND)
    report = verify_ledger()
    assert not report.ok
    assert any("tournament Finals: differs from its seal" in p for p in report.problems)
    assert any(
        "round 1: played on 2026-11-08, but its evening is of 2026-11-07" in p
        for p in report.problems
    )
    with ledger_unlocked():
        Round.objects.filter(pk=r1.pk).update(day=FIRST)
    assert seals.tournament_content(t.pk) is not None
    assert verify_ledger().ok


def test_a_refused_start_leaves_no_evening_behind():
    """A round whose start is refused (a table cannot be opened) opens no evening of its day
    and does not start the tournament: the day's evening, the tables and the round commit
    together."""
    from ledger.models import Entry, Member

    t = two_days(rounds=2)
    r1 = tour.round_publish(round_=tour.round_draw(tournament=t, day=SECOND))
    other = make_club(slug="other", name="Other")
    moved = Entry.objects.get(tournament=t, code=r1.tables[2][0]).member
    Member.objects.filter(pk=moved.pk).update(club=other)
    with pytest.raises(LedgerError, match="belong to the evening's club"):
        tour.round_start(round_=r1)
    t.refresh_from_db()
    assert not Evening.objects.exists()
    assert t.evening is None and t.status == Tournament.Status.DRAFT
    assert Round.objects.get(pk=r1.pk).status == Round.Status.PUBLISHED
    Member.objects.filter(pk=moved.pk).update(club=t.club)
    r1 = tour.round_start(round_=r1)
    assert Evening.objects.get().date == SECOND
    assert verify_ledger().ok
