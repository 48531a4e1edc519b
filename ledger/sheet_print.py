"""A score sheet laid out for print (``templates/ledger/pdf/_score_sheet.html``): a grid of
monospaced columns in four layers a row.

WeasyPrint's time grows with the boxes it lays out, about the same for a table cell, a span or
a block, whatever it holds: a sheet of 160 hands with a cell per figure took four times as long
as the same rows as one line of text each. So each row is a few lines of text, one per style,
drawn over each other: the number, the dealer and each hand's points (9 pt); the running totals
(10 pt, bold); and, in red, each negative figure of either. Every figure is padded to its
column in its layer's own character grid (DejaVu Sans Mono: every character as wide as any
other), so a member's points and running total stand in his columns under his name as in a
table, the page's width shared out between the members' columns. What happened follows on the
row's next lines, wrapped, in the sheet's words.

Pure: it takes the screen's table (``EveningSheetTable``: the same words and figures) and
returns plain strings and widths.
"""

from __future__ import annotations

import math
import unicodedata
from dataclasses import dataclass, field

from ledger.games.money import MINUS, points_text, signed_points
from ledger.games.registry import get_game

PT = 25.4 / 72  # mm
SHEET_PT, RUN_PT, HEAD_PT = 9, 10, 8.5  # the sheet's sizes (_score_sheet_style.html)
ADVANCE = 1233 / 2048  # DejaVu Sans Mono: every character's advance, in em
U_SHEET, U_RUN = ADVANCE * SHEET_PT, ADVANCE * RUN_PT  # a character's width in each layer, pt
PAD_MM = 0.9  # each row's padding at either side
PORTRAIT_MM = 186 - 2 * PAD_MM  # the figures' room between a portrait page's margins
LANDSCAPE_MM = 273 - 2 * PAD_MM
DEALER_CHARS = 14  # a longer dealer's name is cut short (his full name heads his column)
NAME_MM = 30  # a longer member's name wraps above his columns
SPREAD_MM = 15  # each column takes at most this much of a wide page's spare room
GAP = 1.5  # characters (10 pt) at least between a member's points and his running total
# DejaVu Sans Bold's advances (em) for a header's width: a digit, a sign, another character.
HEAD_ADVANCE = {"digit": 0.696, "sign": 0.838, "other": 0.72}


def _head_mm(text: str) -> float:
    """Return about how wide ``text`` is in the header's bold DejaVu Sans (a little over)."""
    em = sum(
        HEAD_ADVANCE["digit" if c.isdigit() else "sign" if c in "+−" else "other"] for c in text
    )
    return em * HEAD_PT * PT


def _negative(text: str) -> bool:
    return str(text).startswith(MINUS)


def _plain(text: str) -> str:
    """Return ``text`` as one line of composed characters (a column counts characters)."""
    return " ".join(unicodedata.normalize("NFC", str(text)).split())


def _cut(text: str, chars: int) -> str:
    return text if len(text) <= chars else text[: chars - 1].rstrip() + "…"


class _Line:
    """One layer's line of a row: text placed at character positions of its grid."""

    def __init__(self) -> None:
        self.text = ""

    def left(self, text: str, at: int) -> None:
        self.text = self.text.ljust(at) + text

    def right(self, text: str, end: int) -> None:
        if text:
            self.text = self.text.ljust(end - len(text)) + text


@dataclass
class Grid:
    """Where each column's figures end: a dealer's start, each member's points' and running
    total's end, each pool's end (in characters of their layer's grid), and each column's
    width in pt for the header above them."""

    dealer_at: int
    points_end: list[int] = field(default_factory=list)
    total_end: list[int] = field(default_factory=list)
    pool_end: list[int] = field(default_factory=list)
    widths_pt: list[float] = field(default_factory=list)

    @property
    def width_mm(self) -> float:
        return sum(self.widths_pt) * PT

    def row(self, *, label, dealer, scores, pools) -> dict:
        """Return a row's four layers: ``a`` (number, dealer, points, pools), ``r`` (running
        totals, bold), ``m`` (negative points and pools, red) and ``rm`` (negative totals)."""
        layers = {key: _Line() for key in ("a", "m", "r", "rm")}
        layers["a"].left(label, 0)
        if dealer:
            layers["a"].left(dealer, self.dealer_at)
        for (net, running), points_end, total_end in zip(
            scores, self.points_end, self.total_end, strict=True
        ):
            layers["m" if _negative(net) else "a"].right(net, points_end)
            layers["rm" if _negative(running) else "r"].right(running, total_end)
        for pool, end in zip(pools, self.pool_end, strict=True):
            layers["m" if _negative(pool) else "a"].right(pool, end)
        return {key: line.text for key, line in layers.items()}


def grid_for(*, labels, wide_labels, dealers, scores, totals, pools, names, pool_names) -> Grid:
    """Return the columns of a score sheet: as wide as their widest figure or header (a
    member's name up to NAME_MM), then each member's and pool's column given a share of the
    page's spare width (up to SPREAD_MM), on a landscape page when a portrait one is too
    narrow."""
    label_chars = max((len(t) for t in labels), default=1)
    dealer_chars = min(DEALER_CHARS, max((len(t) for t in dealers), default=0))
    dealer_at = label_chars + 1
    spill = max((len(t) for t in wide_labels), default=0)  # a wide row's words span both
    dealer_chars = max(dealer_chars, spill - dealer_at)
    start_pt = (dealer_at + dealer_chars) * U_SHEET

    def lay_out(spare_pt: float) -> Grid:
        grid = Grid(dealer_at=dealer_at)
        grid.widths_pt = [dealer_at * U_SHEET, dealer_chars * U_SHEET]
        x = start_pt
        for i, name in enumerate(names):
            column = [s[i] for s in scores]
            points = max((len(net) for net, _run in column), default=0)
            total = max([len(totals[i]), *(len(run) for _net, run in column)])
            points_end = math.ceil((x + spare_pt) / U_SHEET - 1e-9) + 1 + points
            total_end = math.ceil(points_end * U_SHEET / U_RUN + GAP - 1e-9) + total
            head_pt = min(NAME_MM, _head_mm(name)) / PT
            total_end = max(total_end, math.ceil((x + head_pt) / U_RUN - 1e-9))
            grid.points_end.append(points_end)
            grid.total_end.append(total_end)
            grid.widths_pt.append(total_end * U_RUN - x)
            x = total_end * U_RUN
        for j, name in enumerate(pool_names):
            figures = max((len(p[j]) for p in pools), default=1)
            end = math.ceil((x + spare_pt) / U_SHEET - 1e-9) + 1 + figures
            head_pt = min(NAME_MM, _head_mm(name)) / PT
            end = max(end, math.ceil((x + head_pt) / U_SHEET - 1e-9))
            grid.pool_end.append(end)
            grid.widths_pt.append(end * U_SHEET - x)
            x = end * U_SHEET
        return grid

    natural = lay_out(0)
    room = PORTRAIT_MM if natural.width_mm <= PORTRAIT_MM else LANDSCAPE_MM
    columns = len(names) + len(pool_names)
    if not columns:
        return natural
    # Two characters to spare: each column's start is rounded up to its grid.
    spare_mm = min(SPREAD_MM, (room - natural.width_mm) / columns) - 2 * U_RUN * PT
    return lay_out(spare_mm / PT) if spare_mm > 0 else natural


def print_sheet(table) -> dict:
    """Return a table's score sheet for print from its screen table (``EveningSheetTable``):
    the header's words and column widths, each row's layers and what happened, the totals'
    layers and the sheet's width in mm (over a portrait page's room, the report is printed
    in landscape)."""
    sheet = table.sheet
    codes = get_game(sheet.table.game).features.pool_codes
    headers = [str(c.header) for c in table.columns]
    rows = table.print_rows()
    for row in rows:
        row["label"] = _plain(row["label"])
        row["dealer"] = _cut(_plain(row["dealer"]), DEALER_CHARS)
        # A hand's points of 0 are left out, as for a member who sat out.
        row["scores"] = [("" if net == "0" else net, run) for net, run in row["scores"]]
    hands = [r for r in rows if r["kind"] in ("hand", "voided")]
    foot_label = _plain(table.columns[0].footer) if len(table.columns) else ""
    totals = [signed_points(sheet.balances.get(name, 0)) for name in table.members]
    foot_pools = [points_text(sheet.balances.get(code, 0)) for code in codes]
    pool_names = headers[2 + len(table.members) : 2 + len(table.members) + len(codes)]
    grid = grid_for(
        labels=[str(r["label"]) for r in hands],
        wide_labels=[foot_label, *(str(r["label"]) for r in rows if r not in hands)],
        dealers=[r["dealer"] for r in hands],
        scores=[r["scores"] for r in rows],
        totals=totals,
        pools=[*(r["pools"] for r in rows), foot_pools],
        names=[str(n) for n in table.members],
        pool_names=pool_names,
    )
    printed = []
    for row in rows:
        wide = row["kind"] not in ("hand", "voided")
        layers = grid.row(
            label=str(row["label"]),
            dealer="" if wide else row["dealer"],
            scores=row["scores"],
            pools=row["pools"],
        )
        printed.append({"kind": row["kind"], "layers": layers, "events": row["events"]})
    foot = grid.row(
        label=foot_label,
        dealer="",
        scores=[("", total) for total in totals],
        pools=foot_pools,
    )
    return {
        "sheet": sheet,
        "table": table,
        "members": table.members,
        "headers": headers,
        "pools": pool_names,
        "widths": [f"{pt:.2f}pt" for pt in grid.widths_pt],
        "width": f"{sum(grid.widths_pt):.2f}pt",
        "mm": grid.width_mm,
        "rows": printed,
        "foot": foot,
    }


def needs_landscape(widths_mm) -> bool:
    """Return whether a table's figures are wider than a portrait page (then the whole report
    is printed in landscape)."""
    return any(mm > PORTRAIT_MM for mm in widths_mm)
