"""What if: the replay under each evening's own card gives back the ledger on every closed
demo evening, and a preset changes the spec's worked examples as the engine says."""

import pytest

from ledger.models import Evening, Season
from ledger.selectors import whatif
from ledger.selectors.verify import verify_ledger
from ledger.tests.helpers import ledger_snapshot

pytestmark = [pytest.mark.django_db, pytest.mark.slow]


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
