"""The federation's reads: a series' ladder named by players and tournaments, a federation's
players, and the series a club may use."""

from fractions import Fraction

import pytest

from ledger.models import Player
from ledger.selectors import federation as reads
from ledger.services import federation as fed
from ledger.tests.factories import make_club
from ledger.tests.federation.test_series_ladder import create, first_dp, world

pytestmark = pytest.mark.django_db


def test_the_ladder_names_each_player_and_event():
    """The ladder's lines carry the Player and the tournaments' names, with exact totals."""
    club, tzs, members = world()
    first = first_dp(club, members)
    rule = {"source": "placement", "scale": {"kind": "linear"}, "qualify": 2}
    series = create(tzs, events=[(first, "3/2")], rule=rule)
    lines = reads.ladder_lines(series)
    assert [(x.position, x.player.name, x.total, x.counted, x.qualified) for x in lines] == [
        (1, "Ana", Fraction(6), ("DP 1",), True),
        (2, "Bor", Fraction(9, 2), ("DP 1",), True),
        (3, "Cene", Fraction(3), ("DP 1",), False),
        (4, "Dan", Fraction(3, 2), ("DP 1",), False),
    ]
    assert reads.club_series(club) == [series]
    assert reads.club_series(make_club(slug="other", game="slovenian_tarok")) == []
    guest = Player.objects.create(name="Urban")
    fed.player_set_licence(player=guest, federation=tzs, licence="SLO-3")
    names = [p.name for p in reads.federation_players(tzs)]
    assert names == ["Ana", "Bor", "Cene", "Dan", "Urban"]
