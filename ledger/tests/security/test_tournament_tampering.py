"""verify_ledger against a tamperer who edits a tournament in the database (issue 27 item 6).

A 12-player Slovenian DP plays two rounds through the services; each test then changes what a
director's or treasurer's database access could change (a closed round's stored results, its
published draw, an entry's name or ladder rank, the parameters, the seed, the director's log, a
round table's seats, a bye, a whole closed round) and ``manage.py verify_ledger`` (the command, as
the nightly check runs it) must report it and exit 1.
"""

from __future__ import annotations

import datetime
import io

import pytest
from django.core.management import call_command

from ledger.models import Bye, Entry, Evening, Round, RoundTable, Seal, Tournament
from ledger.selectors.verify import verify_ledger
from ledger.services import tournaments as tour
from ledger.tests.factories import make_club
from ledger.tests.helpers import score_table, settle_zero_sum

pytestmark = pytest.mark.django_db

DATE = datetime.date(2026, 12, 5)
NAMES = ["Ana", "Bor", "Cene", "Dana", "Eva", "Franc", "Gal", "Hana", "Ivo", "Jana", "Kim"]


@pytest.fixture
def played():
    """Two closed rounds of an 11-player DP (a bye each round), the second's results given."""
    club = make_club(slug="sl", name="Tarok Kranj", game="slovenian_tarok")
    t = tour.tournament_create(
        club=club,
        name="DP Kranj",
        date=DATE,
        game="slovenian_tarok",
        tournament_format="sl_dp",
        params={"rounds": 3},
        seed="SL-TAMPER",
    )
    lines = "\n".join(f"{n},Kranj,{i + 1}" for i, n in enumerate(NAMES))
    tour.entries_import(tournament=t, text="name,club,rank\n" + lines)
    for _ in range(2):
        r = tour.round_draw(tournament=t)
        tour.round_publish(round_=r)
        r = tour.round_start(round_=r)
        for rt in r.round_tables.select_related("table", "round__tournament"):
            score_table(rt, dict(zip(rt.seats, (30, -10, 5, -25), strict=False)))
        tour.round_close(round_=r)
    t.refresh_from_db()
    return t


def command() -> tuple[int, str]:
    """Run ``manage.py verify_ledger`` as the nightly check does: its exit code and output."""
    out = io.StringIO()
    try:
        call_command("verify_ledger", stdout=out)
    except SystemExit as stop:
        return int(stop.code or 0), out.getvalue()
    return 0, out.getvalue()


def assert_caught(text: str) -> None:
    code, out = command()
    assert code == 1, out
    assert text in out, out


def test_the_untouched_tournament_verifies(played):
    """The two rounds, their tables and the tournament's seal verify; the command says OK."""
    assert Seal.objects.filter(kind=Seal.Kind.TOURNAMENT, object_id=played.pk).exists()
    code, out = command()
    assert code == 0 and "ledger OK" in out, out


def test_a_closed_rounds_results_edited(played):
    """The command runs the tournaments' recomputation (it used to skip it)."""
    rt = RoundTable.objects.filter(round__tournament=played, round__number=1).first()
    assert rt is not None
    code = rt.seats[0]
    results = {**rt.results, code: {**rt.results[code], "points": "99"}}
    RoundTable.objects.filter(pk=rt.pk).update(results=results)
    assert_caught("differ from the recomputation")


def test_a_published_draw_edited(played):
    """A closed round's published draw rewritten (two players swapped in ``tables``)."""
    r = Round.objects.get(tournament=played, number=1)
    tables = [list(t) for t in r.tables]
    tables[0][0], tables[1][0] = tables[1][0], tables[0][0]
    Round.objects.filter(pk=r.pk).update(tables=tables)
    assert_caught("tournament DP Kranj: differs from its seal")


@pytest.mark.parametrize(
    "change",
    [{"name": "Someone Else"}, {"ladder_rank": 1}, {"club_name": "Ljubljana"}],
    ids=["name", "ladder_rank", "club"],
)
def test_an_entry_edited(played, change):
    entry = Entry.objects.filter(tournament=played).order_by("pk").last()
    assert entry is not None
    Entry.objects.filter(pk=entry.pk).update(**change)
    assert_caught("tournament DP Kranj: differs from its seal")


@pytest.mark.parametrize(
    "change",
    [
        {"params": {"rounds": 2}},
        {"seed": "ANOTHER"},
        {"log": [{"action": "reopen", "by": "x", "at": "2026-12-05T20:00:00", "reason": "-"}]},
    ],
    ids=["params", "seed", "log"],
)
def test_the_tournament_row_edited(played, change):
    """The parameters, the seed or the director's log changed."""
    Tournament.objects.filter(pk=played.pk).update(**change)
    assert_caught("tournament DP Kranj: differs from its seal")


def test_a_rounds_log_edited(played):
    r = Round.objects.get(tournament=played, number=2)
    Round.objects.filter(pk=r.pk).update(log=r.log[:-1])
    assert_caught("tournament DP Kranj: differs from its seal")


def test_a_round_tables_seats_edited(played):
    rt = RoundTable.objects.filter(round__tournament=played, round__number=2).first()
    assert rt is not None
    RoundTable.objects.filter(pk=rt.pk).update(seats=list(reversed(rt.seats)))
    assert_caught("tournament DP Kranj: differs from its seal")


def test_a_byes_points_edited():
    """An 11-player Hungarian cup: round 1's bye scores 0 at the close; 3 written in its place
    is caught by the seal and by the recomputation."""
    club = make_club(slug="hu", name="Tarokk Pécs", game="hungarian_tarokk")
    t = tour.tournament_create(
        club=club,
        name="Kupa",
        date=DATE,
        game="hungarian_tarokk",
        tournament_format="hu_kupa",
        params={"rounds": 2},
        seed="HU-TAMPER",
    )
    lines = "\n".join(f"{n},Pécs,{i + 1}" for i, n in enumerate(NAMES))
    tour.entries_import(tournament=t, text="name,club,rank\n" + lines)
    r = tour.round_draw(tournament=t)
    tour.round_publish(round_=r)
    r = tour.round_start(round_=r)
    for rt in r.round_tables.select_related("table", "round__tournament"):
        settle_zero_sum(rt, dict(zip(rt.seats, (10, -5, 5, -10, 0), strict=True)))
    tour.round_close(round_=r)
    assert command()[0] == 0
    bye = Bye.objects.get(round=r)
    assert bye.points == "0"
    Bye.objects.filter(pk=bye.pk).update(points="3")
    assert_caught("tournament Kupa: differs from its seal")
    assert_caught("the bye's points 3 differ from 0")


def test_a_closed_round_deleted(played):
    """The last closed round deleted with its round tables and byes (its tables stay, as the
    evening's): the tournament's head no longer holds."""
    r = Round.objects.get(tournament=played, number=2)
    Bye.objects.filter(round=r).delete()
    RoundTable.objects.filter(round=r).delete()
    r.delete()
    assert_caught("tournament DP Kranj: differs from its seal")


def test_a_closed_round_deleted_is_missing_from_the_clubs_chain(played):
    """A closed round deleted with its round tables and byes: beside the tournament's head, the
    club's chain still holds the round (closed), now gone."""
    r = Round.objects.get(tournament=played, number=2)
    pk = r.pk
    Bye.objects.filter(round=r).delete()
    RoundTable.objects.filter(round=r).delete()
    r.delete()
    assert_caught(f"club sl: the club's chain holds round {pk} (closed, link")


def test_a_tournament_deleted_leaves_its_seal_missing(played):
    """A whole draft tournament deleted: its seal names what is gone."""
    draft = tour.tournament_create(
        club=played.club,
        name="Cup",
        date=DATE,
        game="slovenian_tarok",
        tournament_format="sl_dp",
    )
    pk = draft.pk
    Tournament.objects.filter(pk=pk).delete()
    assert_caught(f"tournament {pk} was sealed and is missing")


def test_the_tournament_evening_made_a_club_evening(played):
    """The evening's kind changed to club (so that a treasurer could close it): its seal and
    the tournament's check both say so."""
    Evening.objects.filter(pk=played.evening_id).update(kind=Evening.Kind.CLUB)
    report = verify_ledger()
    assert any("is a club evening" in p for p in report.problems), report.problems
    assert any("differs from its seal" in p for p in report.problems), report.problems


def test_the_command_for_one_club_checks_its_tournaments(played):
    """``verify_ledger --club`` runs the tournaments' checks of that club too; an unknown
    short name is an error, not an empty OK."""
    Entry.objects.filter(tournament=played).update(ladder_rank=None)
    out = io.StringIO()
    with pytest.raises(SystemExit) as stop:
        call_command("verify_ledger", "--club", "sl", stdout=out)
    assert stop.value.code == 1 and "DP Kranj" in out.getvalue()
    from django.core.management.base import CommandError

    with pytest.raises(CommandError, match="nope"):
        call_command("verify_ledger", "--club", "nope", stdout=io.StringIO())
