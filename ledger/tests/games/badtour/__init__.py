"""A test-only game package that ``manage.py check`` must refuse (``ledger/tests/test_checks.py``):
the high-card game under another code, declaring table sizes it cannot seat, tournament
formats that are not its own, and a new club's currency and time zone the site does not offer.
Registered by no settings; a test names it in ``TAROK_GAMES``."""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

from ledger.games.base import TableSizes
from ledger.tests.games.toy import ToyHighCard
from ledger.tournaments.engine.rules import GENERIC_FORMATS

CODE = "toy_bad_tournaments"
_SUM = GENERIC_FORMATS["generic_sum"]


class BadTournaments(ToyHighCard):
    code = CODE
    features = replace(
        ToyHighCard.features,
        table_sizes=TableSizes(4, (6, 4)),
        tournament_formats=(
            replace(_SUM, code="generic_sum", games=(CODE,)),
            replace(_SUM, code="toy_cup", games=("danish_tarok",)),
            replace(_SUM, code="toy_championship_of_all", games=(CODE,)),
            replace(_SUM, code="sl_dp", games=(CODE,)),
            replace(
                _SUM,
                code="toy_places",
                games=(CODE,),
                placement={4: (Fraction(3), Fraction(2), Fraction(1))},
            ),
            replace(_SUM, code="toy_open", games=(CODE,)),
        ),
    )


GAME = BadTournaments()
