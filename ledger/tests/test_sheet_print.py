"""The score sheet laid out for print (``ledger.sheet_print``): its monospaced columns, what
the page's room does to them, and the PDF read back by where each word is drawn."""

from __future__ import annotations

import datetime
import re

import pytest
from django.utils import translation

from ledger import reports, services
from ledger.sheet_print import (
    DEALER_CHARS,
    PORTRAIT_MM,
    PT,
    SPREAD_MM,
    U_RUN,
    U_SHEET,
    grid_for,
    needs_landscape,
)
from ledger.tests import factories
from ledger.tests.helpers import page_words, seen_text

NAMES = ["Anna", "Bo", "Carl", "Dorte", "Erik"]


@pytest.fixture
def club(db):
    return factories.make_club()


def grid(scores, totals, pools=(), *, names=NAMES, pool_names=("kongekop", "pagatkop")):
    pools = list(pools) or [["100", "100"]] * len(scores)
    return grid_for(
        labels=[str(n + 1) for n in range(len(scores))],
        wide_labels=["Funding", "Total"],
        dealers=names[:1],
        scores=scores,
        totals=totals,
        pools=pools,
        names=list(names),
        pool_names=list(pool_names),
    )


def test_each_figure_ends_at_its_column_in_its_layers_grid():
    """A row's layers: each member's points end at his points' column (9 pt characters), his
    running total at his total's column (10 pt characters), a negative figure in the red
    layer of its size; the widths in pt are where the columns end."""
    scores = [[("+110", "70"), ("\u2212225", "\u2212265"), ("", "\u221240")] + [("", "5")] * 2]
    g = grid(scores, ["+65", "\u221230", "\u221235", "0", "0"])
    row = g.row(label="1", dealer="Anna", scores=scores[0], pools=["210", "105"])
    assert row["a"].startswith("1 Anna")
    assert row["a"].find("+110") + len("+110") == g.points_end[0]
    assert row["r"].find("70") + 2 == g.total_end[0]
    assert row["m"].find("\u2212225") + 4 == g.points_end[1]
    assert row["rm"].find("\u2212265") + 4 == g.total_end[1]
    assert row["rm"].rfind("\u221240") + 3 == g.total_end[2]
    assert row["a"].endswith("105") and len(row["a"]) == g.pool_end[1]
    # Each member's points end before his running total begins, a column after another.
    widest = [3, 4, 3, 1, 1]  # each member's widest running total, in characters
    for points, total, chars in zip(g.points_end, g.total_end, widest, strict=True):
        assert points * U_SHEET < (total - chars) * U_RUN
    assert g.total_end[0] * U_RUN < g.points_end[1] * U_SHEET
    ends = [g.dealer_at * U_SHEET, *(e * U_RUN for e in g.total_end)]
    assert [round(sum(g.widths_pt[:k]), 6) for k in (1, 3, 4, 5, 6, 7)] == [
        round(e, 6) for e in ends
    ]


def test_the_columns_share_the_pages_room_up_to_a_limit():
    """Three members with small figures: each column takes at most SPREAD_MM more than its
    figures need, and the whole stays within a portrait page; wide figures at five members
    ask for landscape."""
    small = grid([[("+5", "5")] * 3], ["+5"] * 3, names=NAMES[:3])
    assert small.width_mm <= PORTRAIT_MM
    natural = (small.dealer_at + 1) * U_SHEET * PT + 3 * (6 * U_SHEET + 4 * U_RUN) * PT
    assert small.width_mm <= natural + 5 * SPREAD_MM
    assert small.width_mm > natural + 3 * (SPREAD_MM - 5)
    assert not needs_landscape([small.width_mm])
    big = [("+1234567", "\u22127654321")] * 5
    wide = grid([big], ["\u22127654321"] * 5, pools=[["1234567", "1234567"]])
    assert needs_landscape([wide.width_mm])


def test_a_long_name_is_cut_as_dealer_and_whole_over_his_columns(club):
    """A dealer's name longer than DEALER_CHARS is cut short with an ellipsis on his rows; his
    whole name heads his columns (wrapped over them)."""
    long_name = "Bartholomäus Wilhelmine von Überlingen"
    members = [factories.make_member(club, n) for n in (long_name, "Bo", "Carl")]
    evening = services.evening_open(club=club, date=datetime.date(2026, 11, 12))
    table = services.table_open(evening=evening, members=members, first_dealer=members[0])
    factories.random_table_hands(table, 2, seed=5)
    with translation.override("en"):
        _, _, content = reports.table_sheet_pdf(table=table)
    _, text = seen_text(content)
    assert f"\n1 {long_name[: DEALER_CHARS - 1].rstrip()}… " in text
    head = text.split("\nWhat happened", 1)[0].rsplit("DKK\n", 1)[1]  # over the columns
    assert head.startswith("Bartholomäus\n") and head.endswith(
        "# Dealer Überlingen Bo Carl kongekop pagatkop"
    )
    assert all(part in head for part in long_name.split())


@pytest.mark.once  # what is printed: the same on either database, checked once
@pytest.mark.slow
def test_every_figure_on_paper_stands_in_its_column(club):
    """A table of five, twelve hands, read back from the PDF by where each word is drawn:
    every figure of every row ends on one of the table's twelve column ends (five members'
    points and running totals, two cups), whatever its length or colour."""
    members = [factories.make_member(club, n) for n in NAMES]
    evening = services.evening_open(club=club, date=datetime.date(2026, 11, 12))
    table = services.table_open(evening=evening, members=members)
    factories.random_table_hands(table, 12, seed=8)
    services.evening_close(evening=evening)
    with translation.override("en"):
        _, _, content = reports.table_sheet_pdf(table=table)
    reader, _text = seen_text(content)
    words = page_words(reader.pages[0])
    lines: dict[float, list] = {}
    for word in words:
        lines.setdefault(word.y, []).append(word)
    rows = [
        line
        for line in lines.values()
        if line[0].word.isdigit() and len(line) > 2 and line[1].word in NAMES
    ]
    assert [int(line[0].word) for line in rows] == list(range(1, 13))
    ends = {round(w.end, 1) for line in rows for w in line[2:]}
    assert all(w.end is not None for line in rows for w in line[2:])
    assert len(ends) <= 12
    assert all(len(line) >= 2 + 5 + 2 for line in rows)  # each member's total, the cups


@pytest.mark.once  # what is printed: the same on either database, checked once
@pytest.mark.slow
def test_a_long_table_names_its_members_at_the_top_of_every_page(club):
    """A table of forty hands runs over three pages: each page starts with the members' names
    over their columns, and every hand is printed once, in order, across them."""
    members = [factories.make_member(club, n) for n in NAMES]
    evening = services.evening_open(club=club, date=datetime.date(2026, 11, 12))
    table = services.table_open(evening=evening, members=members)
    factories.random_table_hands(table, 40, seed=8)
    with translation.override("en"):
        _, _, content = reports.table_sheet_pdf(table=table)
    reader, text = seen_text(content)
    assert len(reader.pages) >= 3
    head = "# Dealer Anna Bo Carl Dorte Erik kongekop pagatkop"
    for page in reader.pages:
        words = " ".join(w.word for w in page_words(page))
        assert words.count(head) == 1
    numbers = [int(n) for n, _ in re.findall(rf"\n(\d+) ({'|'.join(NAMES)}) ", text)]
    assert numbers == list(range(1, 41))
