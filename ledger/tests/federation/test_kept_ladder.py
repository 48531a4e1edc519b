"""The kept ladder (``services.federation.ladder``): a series' ladder stored under the
fingerprint of what it reads, so that a page reads the stored lines; every change the ladder
depends on (a correction of a closed tournament, a reopened tournament, a higher revision of
an imported event, a merge of two players, a change of the series' rule) changes the
fingerprint, and the next read gives the recomputed ladder; ``verify_ledger`` names a kept
line that disagrees with a recompute."""

import copy
import datetime
from fractions import Fraction

import pytest
from django.utils import timezone

from ledger.models import KeptLadder, KeptLadderLine, Series, Tournament
from ledger.selectors.federation import ladder_lines
from ledger.selectors.results_file import results_document
from ledger.selectors.verify import verify_ledger
from ledger.services import federation as fed
from ledger.services import tournaments as tour
from ledger.services.federation.ladder import (
    ladder_fingerprint,
    ladder_fingerprints,
    ladder_kept,
    ladders_kept,
)
from ledger.services.federation.results import results_import
from ledger.tests.factories import make_club, make_member
from ledger.tests.federation.test_masters import (
    correct_until_the_ranking_moves,
    one_hand_final,
    ranking_names,
)
from ledger.tests.federation.test_results_file import final_tournament
from ledger.tests.federation.test_series_ladder import create, first_dp, played, second_dp, world

pytestmark = pytest.mark.django_db


def figures(series):
    """The kept ladder as (position, player's name, total, counted events)."""
    return [
        (line.position, line.player.name, line.total, line.counted)
        for line in ladder_lines(Series.objects.get(pk=series.pk))
    ]


def engine_figures(series):
    """The same, computed through the engine now (nothing kept)."""
    series = Series.objects.get(pk=series.pk)
    from ledger.selectors.federation import _lines

    return [
        (line.position, line.player.name, line.total, line.counted)
        for line in _lines(series, fed.series_ladder(series))
    ]


def fingerprint(series):
    return ladder_fingerprint(Series.objects.get(pk=series.pk))


def two_events():
    club, tzs, members = world()
    first = first_dp(club, members)
    second = second_dp(club, members)
    series = create(tzs, events=[(first, 1), (second, "3/2")])
    return club, tzs, members, series


def test_a_read_keeps_the_ladder_and_the_next_reads_it_unchanged(django_assert_num_queries):
    """The first read computes and stores the lines; the next, its fingerprint the same,
    reads them in three queries (the events, the last merge, the kept ladder) and a fourth
    for the lines, the same figures as the engine's."""
    _club, _tzs, _members, series = two_events()
    assert not KeptLadder.objects.exists()
    first = figures(series)
    assert first == engine_figures(series)
    assert [(p, n, t) for p, n, t, _c in first] == [
        (1, "Bor", Fraction(9)),
        (2, "Ana", Fraction(7)),
        (3, "Cene", Fraction(13, 2)),
        (4, "Dan", Fraction(5, 2)),
    ]
    kept = KeptLadder.objects.get(series=series)
    assert (kept.events, kept.last_event) == (2, datetime.date(2026, 11, 7))
    assert KeptLadderLine.objects.filter(series=series).count() == 4
    series = Series.objects.get(pk=series.pk)
    with django_assert_num_queries(4):
        ladder_lines(series)
    assert KeptLadder.objects.get(series=series).fingerprint == kept.fingerprint


def test_a_correction_of_a_closed_tournament_changes_the_fingerprint():
    """A hand of the final tournament corrected (after the period, with the override): the
    fingerprint changes and the kept ladder is the corrected ranking."""
    club, tzs, members = world()
    t, table, hand = one_hand_final(club, members)
    series = create(tzs, events=[(t, "1")])
    before_figures = figures(series)
    before = fingerprint(series)
    correct_until_the_ranking_moves(t, table, hand)
    assert fingerprint(series) != before
    after = figures(series)
    assert after != before_figures and after == engine_figures(series)
    assert [(p, n) for p, n, _t, _c in after] == ranking_names(t)


def test_a_reopened_tournament_changes_the_fingerprint():
    """Reopened, the tournament leaves the kept ladder at once; final again, it is back."""
    _club, _tzs, _members, series = two_events()
    kept = figures(series)
    before = fingerprint(series)
    first = Tournament.objects.get(name="DP 1")
    tour.tournament_reopen(tournament=first, reason="a protest")
    assert fingerprint(series) != before
    reopened = figures(series)
    assert reopened == engine_figures(series)
    assert {c for _p, _n, _t, counted in reopened for c in counted} == {"DP 2"}
    tour.tournament_finish(tournament=Tournament.objects.get(pk=first.pk))
    assert figures(series) == kept


def test_a_higher_revision_of_an_imported_event_changes_the_fingerprint():
    """An imported event replaced by its revision 2 (renamed): the fingerprint changes and the
    kept lines name the event as revision 2 does, their totals as before."""
    t = final_tournament()
    document = results_document(t, exported_at=timezone.now())
    tzs = t.club.federations.get()
    event = results_import(document=document, federation=tzs).event
    series = create(tzs)
    fed.series_event_add(series=series, imported=event)
    before_figures = figures(series)
    assert {c for *_x, counted in before_figures for c in counted} == {"DP Kranj"}
    before = fingerprint(series)
    newer = copy.deepcopy(document)
    newer["revision"] = 2
    newer["name"] = "DP Kranj (corrected)"
    results_import(document=newer, federation=tzs)
    assert fingerprint(series) != before
    after = figures(series)
    assert after == engine_figures(series)
    assert [(p, n, total) for p, n, total, _c in after] == [
        (p, n, total) for p, n, total, _c in before_figures
    ]
    assert {c for *_x, counted in after for c in counted} == {"DP Kranj (corrected)"}


def test_a_merge_of_two_players_changes_the_fingerprint():
    """Ana plays the first event for Kranj and the second, as Ana Kos, for Bled: two lines;
    her two records merged, one line with both results."""
    club, tzs, members = world()
    bled = make_club(slug="bled", name="Tarok Bled", game="slovenian_tarok")
    fed.club_join(federation=tzs, club=bled)
    others = {n: make_member(bled, n) for n in ("Ana Kos", "Eva", "Fil", "Gal")}
    first = first_dp(club, members)
    second = played(
        bled,
        others,
        datetime.date(2026, 11, 7),
        {"Ana Kos": 80, "Eva": 10, "Fil": 20, "Gal": -110},
        "DP 2",
    )
    series = create(tzs, events=[(first, 1), (second, 1)])
    before = figures(series)
    assert len(before) == 8
    print_ = fingerprint(series)
    for m in (*members.values(), *others.values()):
        m.refresh_from_db()
    kept, merged = members["Ana"].player, others["Ana Kos"].player
    assert kept is not None and merged is not None
    fed.player_merge(kept=kept, merged=merged)
    assert fingerprint(series) != print_
    after = figures(series)
    assert after == engine_figures(series)
    assert len(after) == 7
    assert after[0][1:] == ("Ana", Fraction(8), ("DP 1", "DP 2"))


def test_a_change_of_the_series_rule_changes_the_fingerprint():
    """The rule changed through ``series_change`` (best of 1): the fingerprint changes and
    the ladder counts each player's best event, the other struck."""
    _club, _tzs, _members, series = two_events()
    figures(series)
    before = fingerprint(series)
    fed.series_change(
        series=series,
        name=series.name,
        seed=series.seed,
        starts_on=series.starts_on,
        ends_on=series.ends_on,
        rule={**series.rule, "best_of": 1},
    )
    assert fingerprint(series) != before
    after = figures(series)
    assert after == engine_figures(series)
    assert [(p, n, t) for p, n, t, _c in after] == [
        (1, "Bor", Fraction(6)),
        (2, "Cene", Fraction(9, 2)),
        (3, "Ana", Fraction(4)),
        (4, "Dan", Fraction(3, 2)),
    ]
    struck = {line.player.name: line.struck for line in ladder_lines(series)}
    assert struck["Bor"] == ("DP 1",)


def test_a_changed_factor_changes_the_totals():
    """DP 2's factor from 3/2 to 3: the fingerprint changes and the totals are the new
    factor's."""
    _club, _tzs, _members, series = two_events()
    figures(series)
    before = fingerprint(series)
    fed.series_event_factor_set(event=series.events.get(tournament__name="DP 2"), factor="3")
    assert fingerprint(series) != before
    after = figures(series)
    assert after == engine_figures(series)
    assert [(p, n, t) for p, n, t, _c in after] == [
        (1, "Bor", Fraction(15)),
        (2, "Cene", Fraction(11)),
        (3, "Ana", Fraction(10)),
        (4, "Dan", Fraction(4)),
    ]


def test_a_removed_event_leaves_the_ladder():
    """DP 1 removed: the fingerprint changes and the ladder is DP 2's alone (times 3/2)."""
    _club, _tzs, _members, series = two_events()
    figures(series)
    before = fingerprint(series)
    fed.series_event_remove(event=series.events.get(tournament__name="DP 1"))
    assert fingerprint(series) != before
    after = figures(series)
    assert after == engine_figures(series)
    assert [(p, n, t, c) for p, n, t, c in after] == [
        (1, "Bor", Fraction(6), ("DP 2",)),
        (2, "Cene", Fraction(9, 2), ("DP 2",)),
        (3, "Ana", Fraction(3), ("DP 2",)),
        (4, "Dan", Fraction(3, 2), ("DP 2",)),
    ]


def test_verify_names_a_kept_line_that_disagrees_with_a_recompute():
    """A kept line tampered with (its total): ``verify_ledger`` names the series and the line;
    a stale kept ladder (its events changed since) is no problem, its next read recomputes."""
    _club, _tzs, _members, series = two_events()
    ladder_kept(series)
    assert verify_ledger().problems == []
    KeptLadderLine.objects.filter(series=series, position=2).update(total="99")
    problems = verify_ledger().problems
    assert len(problems) == 1
    assert problems[0].startswith("kept ladder Pokal 2026: line 2 (player ")
    tour.tournament_reopen(tournament=Tournament.objects.get(name="DP 2"), reason="a protest")
    assert verify_ledger().problems == []


def test_several_ladders_are_checked_at_once_and_only_a_stale_one_recomputed(
    django_assert_num_queries,
):
    """A player's page keeps every series that may count him: their fingerprints and kept
    ladders are read in three queries whatever their number; a fresh one is left as kept, a
    stale one recomputed, with the same fingerprint one series alone gets."""
    club, tzs, members = world()
    first, second = first_dp(club, members), second_dp(club, members)
    cup = create(tzs, events=[(first, 1), (second, "3/2")])
    league = create(tzs, name="Liga 2026", seed="Liga 2026", events=[(first, 1)])
    ladder_kept(cup)
    ladder_kept(league)
    both = list(Series.objects.filter(pk__in=[cup.pk, league.pk]).order_by("pk"))
    with django_assert_num_queries(3):
        ladders_kept(both)
    assert ladder_fingerprints(both) == {one.pk: ladder_fingerprint(one) for one in both}
    fed.series_event_add(series=league, tournament=second, factor="2")
    was = KeptLadder.objects.get(series=cup).computed_at
    ladders_kept(list(Series.objects.filter(pk__in=[cup.pk, league.pk]).order_by("pk")))
    assert KeptLadder.objects.get(series=cup).computed_at == was
    assert KeptLadder.objects.get(series=league).fingerprint == fingerprint(league)
    assert figures(league) == engine_figures(league)
    assert [name for _p, name, _t, _c in figures(league)] == ["Bor", "Ana", "Cene", "Dan"]
    with django_assert_num_queries(0):
        ladders_kept([])
