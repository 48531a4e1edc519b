"""What if: the replay under each evening's own card gives back the ledger on every closed
demo evening, and a preset changes the spec's worked examples as the engine says."""

import json

import pytest

from ledger.games.errors import RulesError
from ledger.models import Evening, Season, Tournament
from ledger.selectors import whatif
from ledger.selectors.tournaments import standings_after
from ledger.selectors.verify import verify_ledger
from ledger.tests.helpers import ledger_snapshot, run_command

# The demo's evenings replayed through the engines: what the database holds is the fixture's on
# either database, so one run (SQLite) is enough (``once``: make test-postgres leaves it out).
pytestmark = [pytest.mark.django_db, pytest.mark.slow, pytest.mark.once]


class TestDemoReplay:
    def test_own_card_gives_zero_differences_on_every_closed_demo_evening(self, demo):
        evenings = list(Evening.objects.filter(status=Evening.Status.CLOSED).order_by("date", "pk"))
        assert len(evenings) > 5
        before = ledger_snapshot()
        for evening in evenings:
            result = whatif.compare_evening(evening, None)
            assert result.members, evening
            assert result.unscored == [], evening
            assert result.hands == [], evening
            for line in result.members:
                assert line.points_whatif == line.points_played, (evening, line)
                assert line.money_whatif == line.money_played, (evening, line)
                assert line.rank_whatif == line.rank_played, (evening, line)
            # the ledger's own results, as the close wrote them
            if evening.kind == Evening.Kind.CLUB:
                stored = {
                    r.member.name: r.points
                    for r in evening.results.filter(
                        closing=max(evening.results.values_list("closing", flat=True))
                    ).select_related("member")
                }
                assert {m.name: m.points_played for m in result.members} == stored, evening
        assert ledger_snapshot() == before
        assert verify_ledger().ok

    def test_own_card_gives_zero_differences_on_every_demo_season(self, demo):
        for season in Season.objects.all():
            result = whatif.compare_season(season, None)
            assert all(m.points_difference == 0 for m in result.members), season
            assert all(m.money_difference == 0 for m in result.members), season


class TestDemoTournament:
    def test_its_own_format_gives_its_ranking_and_another_changes_the_points(self, demo):
        tournament = Tournament.objects.get(club__slug="demo-sl")
        assert tournament.tournament_format == "sl_dp"
        assert whatif.formats_for(tournament) == ["sl_dp", "generic_placement"]
        own = whatif.compare_tournament(tournament, "sl_dp")
        assert own.rounds == 2 and own.differences == 0
        standings = {line.code: line for line in standings_after(tournament).lines}
        for line in own.members:
            assert (line.rank_played, line.points_played) == (
                standings[line.code].rank,
                standings[line.code].points,
            )
        other = whatif.compare_tournament(tournament, "generic_placement")
        assert other.differences > 0
        # a table's last place scores 1/2 in the DP, 0 under placement points (3 seats: 2, 1, 0)
        assert any(m.points_whatif != m.points_played for m in other.members)

    def test_a_format_of_another_basis_is_refused_naming_format(self, demo):
        tournament = Tournament.objects.get(club__slug="demo-sl")
        with pytest.raises(RulesError) as refused:
            whatif.compare_tournament(tournament, "generic_sum")
        assert refused.value.problems[0].field == "format"

    def test_the_command_prints_it(self, demo):
        tournament = Tournament.objects.get(club__slug="demo-sl")
        status, out = run_command(
            "whatif", "--tournament", str(tournament.pk), "--format", "generic_placement"
        )
        assert status == 0, out
        data = json.loads(out)
        assert data["format"] == "generic_placement" and data["unscored"] == []
        assert {"member", "points_played", "points_whatif", "rank_played", "rank_whatif"} <= set(
            data["members"][0]
        )
