"""A Masters filled from a qualifying series (``entries_from_series``), and the ladder as a pure
function of its events' final rankings: a correction of a final tournament moves it at once,
a reopened tournament leaves it until it is final again (``federation.md`` section 2)."""

import datetime
import random

import pytest

from ledger.models import Entry, Member, Tournament
from ledger.services import federation as fed
from ledger.services import tournaments as tour
from ledger.services.errors import LedgerError
from ledger.services.tournaments.state import current_standings
from ledger.tests.factories import make_club, make_member
from ledger.tests.federation.test_series_ladder import create, first_dp, world
from ledger.tests.helpers import first_hand_again, random_hand_at

pytestmark = pytest.mark.django_db

QUALIFY = {"source": "placement", "scale": {"kind": "linear"}, "qualify": 3}


def masters(club, date=datetime.date(2026, 12, 1)):
    return tour.tournament_create(
        club=club,
        name="Masters",
        date=date,
        game="slovenian_tarok",
        tournament_format="sl_dp",
        params={"rounds": 1},
    )


def qualifying_world():
    """Kranj (Ana, Bor, Cene, Dan) and Ljubljana (Eva) in TZS; a DP of Kranj won by Ana
    before Bor, Cene and Dan, a later one where Eva (a guest of Kranj, her player Ljubljana's)
    plays: a series of both qualifying three."""
    club, tzs, members = world()
    ljubljana = make_club(slug="lj", name="Tarok Ljubljana", game="slovenian_tarok")
    fed.club_join(federation=tzs, club=ljubljana)
    eva = make_member(ljubljana, "Eva")
    eva_player = fed.player_for_member(eva)
    first = first_dp(club, members)
    second = tour.tournament_create(
        club=ljubljana,
        name="DP 2",
        date=datetime.date(2026, 10, 10),
        game="slovenian_tarok",
        tournament_format="sl_dp",
        params={"rounds": 1},
    )
    # Ana, Bor and Cene play at Ljubljana as guests: their players are Kranj's.
    for name in ("Ana", "Bor", "Cene"):
        tour.entry_add_guest(tournament=second, name=name, club_name="Tarok Kranj")
    tour.entries_add(tournament=second, members=[eva])
    from ledger.tests.helpers import score_table

    r = tour.round_start(round_=tour.round_publish(round_=tour.round_draw(tournament=second)))
    codes = {e.name: e.code for e in second.entries.all()}
    scores = {"Eva": 100, "Ana": 10, "Bor": -40, "Cene": -70}
    for rt in r.round_tables.select_related("table", "round__tournament"):
        score_table(rt, {codes[n]: s for n, s in scores.items()})
    tour.round_close(round_=r)
    tour.tournament_finish(tournament=second)
    series = create(tzs, events=[(first, "1"), (second, "1")], rule=QUALIFY)
    return club, tzs, members, eva_player, series


def test_a_masters_is_filled_from_the_qualifying_series():
    """Ana (7 points), Bor (5) and Eva (4) qualify: Ana and Bor are entered as Kranj's members,
    Eva as a guest from Ljubljana linked to her own player, each with his position as ladder
    rank; Cene (3) does not qualify; the series is the Masters' ladder, the act logged; a
    second fill enters no one twice."""
    club, _tzs, members, eva_player, series = qualifying_world()
    t = masters(club)
    entries = fed.entries_from_series(tournament=t, series=series)
    rows = {e.name: (e.ladder_rank, e.guest, e.club_name, e.player_id) for e in entries}
    assert rows == {
        "Ana": (1, False, "Tarok Kranj", members["Ana"].player_id),
        "Bor": (2, False, "Tarok Kranj", members["Bor"].player_id),
        "Eva": (3, True, "Tarok Ljubljana", eva_player.pk),
    }
    t.refresh_from_db()
    assert t.ladder_id == series.pk
    assert t.log[-1]["action"] == "entries_series" and t.log[-1]["entered"] == 3
    assert Member.objects.get(club=club, name="Eva").active is False
    assert fed.entries_from_series(tournament=t, series=series) == []
    assert t.entries.count() == 3


def test_standings_as_of_the_day_before_and_an_entered_player_skipped():
    """A Masters on the day of DP 2 reads only DP 1 (Ana, Bor, Cene); Bor, entered by hand
    before, keeps his entry and is skipped."""
    club, _tzs, members, _eva, series = qualifying_world()
    t = masters(club, date=datetime.date(2026, 10, 10))
    tour.entries_add(tournament=t, members=[members["Bor"]])
    entries = fed.entries_from_series(tournament=t, series=series)
    assert [(e.name, e.ladder_rank) for e in entries] == [("Ana", 1), ("Cene", 3)]
    assert t.entries.get(name="Bor").ladder_rank is None


def test_refusals_write_nothing():
    """A series without qualify, of another game, and a tournament already drawn are refused
    by field, nothing entered."""
    club, tzs, members, _eva, series = qualifying_world()
    t = masters(club)
    plain = create(tzs, name="Pokal", rule={"source": "placement", "scale": {"kind": "linear"}})
    with pytest.raises(LedgerError) as caught:
        fed.entries_from_series(tournament=t, series=plain)
    assert caught.value.field == "series" and "qualify" in str(caught.value.message)
    danish = make_club(slug="dk", name="Dansk", game="danish_tarok")
    cup = fed.series_create(
        club=danish,
        name="Cup",
        seed="Cup",
        starts_on=datetime.date(2026, 9, 1),
        ends_on=datetime.date(2027, 6, 30),
        rule=QUALIFY,
    )
    with pytest.raises(LedgerError) as caught:
        fed.entries_from_series(tournament=t, series=cup)
    assert caught.value.field == "series"
    tour.entries_add(tournament=t, members=[members[n] for n in ("Ana", "Bor", "Cene", "Dan")])
    tour.round_draw(tournament=t)
    before = Entry.objects.count()
    with pytest.raises(LedgerError) as caught:
        fed.entries_from_series(tournament=t, series=series)
    assert caught.value.field == "series"
    assert Entry.objects.count() == before
    t.refresh_from_db()
    assert t.ladder_id is None


def one_hand_final(club, members):
    """A one-round DP of Kranj's four with one random hand at its table, made final."""
    t = tour.tournament_create(
        club=club,
        name="DP",
        date=datetime.date(2026, 10, 3),
        game="slovenian_tarok",
        tournament_format="sl_dp",
        params={"rounds": 1},
    )
    tour.entries_add(tournament=t, members=list(members.values()))
    r = tour.round_start(round_=tour.round_publish(round_=tour.round_draw(tournament=t)))
    table = r.round_tables.select_related("table__evening").get(number=1).table
    assert table is not None
    hand = random_hand_at(table, random.Random(1))
    tour.round_close(round_=r)
    tour.tournament_finish(tournament=t)
    return Tournament.objects.get(pk=t.pk), table, hand


def ladder_names(series):
    names = []
    for row in fed.series_ladder(series):
        entry = Entry.objects.filter(player_id=int(row.player)).first()
        assert entry is not None
        names.append((row.position, entry.name))
    return names


def ranking_names(t):
    names = dict(t.entries.values_list("code", "name"))
    return [(row.rank, names[row.id]) for row in current_standings(t)]


def correct_until_the_ranking_moves(t, table, hand) -> None:
    """Correct the final tournament's one hand (overriding its finality, with reasons) with
    other random records until its ranking changes."""
    before = ranking_names(t)
    for seed in range(2, 40):
        tour.tournament_hand_correct(
            hand=hand,
            record=first_hand_again(table, random.Random(seed)),
            reason="count misread",
            override=True,
            override_reason="the sheet was wrong",
        )
        if ranking_names(t) != before:
            break
    assert ranking_names(t) != before


def test_a_correction_moves_the_ladder_at_once_and_a_reopened_event_leaves_it():
    """The ladder follows the final ranking: a correction of a hand of the final tournament
    (after the period, with the override) gives the corrected ranking on the ladder at once;
    reopened, the tournament leaves the ladder; final again, it is back."""
    club, tzs, members = world()
    t, table, hand = one_hand_final(club, members)
    series = create(tzs, events=[(t, "1")])
    before = ladder_names(series)
    assert before == ranking_names(t) and len(before) == 4
    correct_until_the_ranking_moves(t, table, hand)
    assert ladder_names(series) == ranking_names(t)
    tour.tournament_reopen(tournament=t, reason="a protest")
    assert list(fed.series_ladder(series)) == []
    tour.tournament_finish(tournament=t)
    assert ladder_names(series) == ranking_names(Tournament.objects.get(pk=t.pk))
