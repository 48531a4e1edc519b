"""The engine names no game: it reads the games' table sizes and formats it is given
(``use_games``, a ``Catalogue``), and nothing else."""

from __future__ import annotations

import pytest

from ledger.games.base import TableSizes
from ledger.tournaments.engine import (
    FORMATS,
    GENERIC_FORMATS,
    TABLE_SIZES,
    Entry,
    bye_points,
    catalogue_of,
    draw_round,
    plays,
    table_plan,
    use_games,
)
from ledger.tournaments.engine.rules import RANDOM, FormatRules, catalogue


@pytest.fixture
def koenigrufen():
    """The engine given one game it has never heard of, Königrufen at tables of 4 (or 5),
    with a placement format of its own; the registry's catalogue is put back after."""
    own = FormatRules(
        code="at_cup",
        games=("koenigrufen",),
        first_kind=RANDOM,
        later_kind=RANDOM,
        rounds=2,
        scoring="placement",
        basis="final",
        tie_breaks=("score_sum", "lot"),
        time_limit_min=60,
    )
    previous = use_games(catalogue_of([("koenigrufen", TableSizes(4, (5,)), (own,))]))
    yield own
    use_games(previous)


def test_the_draw_seats_the_sizes_it_is_given(koenigrufen):
    """Nine players of the new game sit at a table of 4 and one of 5; the generic formats and
    its own are offered, no other game's."""
    assert list(TABLE_SIZES) == ["koenigrufen"]
    assert list(FORMATS) == ["at_cup", *GENERIC_FORMATS]
    assert plays("at_cup", "koenigrufen") and plays("generic_sum", "koenigrufen")
    assert not plays("sl_dp", "koenigrufen") and not plays("generic_sum", "danish_tarok")
    assert table_plan(9, "koenigrufen").sizes == (4, 5)
    draw = draw_round(
        number=1,
        kind=RANDOM,
        game="koenigrufen",
        format_code="generic_sum",
        seed="Wien-2027",
        entries=tuple(Entry(f"P{i}") for i in range(9)),
    )
    assert sorted(len(table) for table in draw.tables) == [4, 5] and draw.byes == ()
    # A bye of a placement format scores the mean of the game's base table: (3+2+1+0)/4.
    assert str(bye_points("at_cup", "koenigrufen")) == "3/2"
    with pytest.raises(KeyError):
        table_plan(4, "danish_tarok")


def test_without_games_the_engine_says_so():
    """An engine given no games names the call that gives them."""
    previous = use_games(None)
    try:
        with pytest.raises(LookupError, match="use_games"):
            catalogue()
    finally:
        use_games(previous)
