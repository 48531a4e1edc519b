"""The season chart's labels stay inside its drawing, however long the numbers."""

from __future__ import annotations

import datetime
import re

from ledger.web import charts

# DejaVu Sans's advances (the font's own figures, in em): a digit 1303/2048, bold 1425/2048;
# the minus and plus signs 1716/2048 in either weight.
DIGIT, BOLD_DIGIT, SIGN = 1303 / 2048, 1425 / 2048, 1716 / 2048


def drawn_width(label: str, size: float, *, bold: bool) -> float:
    return sum((BOLD_DIGIT if bold else DIGIT) if c.isdigit() else SIGN for c in label) * size


def test_the_last_value_and_the_ticks_stay_inside_the_chart():
    """A season of large losses: the last value's label right of the line and the widest
    tick's label left of the plot are drawn within the 720 units of the chart's width (the
    margins were fixed: "−32960" ran 17 units past the right edge, and was cut off)."""
    days = (10, 11, 12, 13)
    for scale in (1, 10):
        values = [v * scale for v in (-19300, -16025, -16560, -32960)]
        points = [(datetime.date(2026, 11, d), v) for d, v in zip(days, values, strict=True)]
        svg = str(charts.cumulative_points_svg(points=points, title="Anna"))
        viewbox = re.search(r'viewBox="0 0 (\d+) ', svg)
        last = re.search(
            r'<text x="([\d.]+)"[^>]*font-weight="bold" font-size="(\d+)">([^<]+)</text>', svg
        )
        assert viewbox and last
        width = float(viewbox.group(1))
        x, size, label = last.groups()
        assert label == f"\u2212{32960 * scale}"
        assert float(x) + drawn_width(label, int(size), bold=True) <= width
        ticks = re.findall(
            r'<text x="([\d.]+)" y="[\d.]+" text-anchor="end"[^>]*>([^<]+)</text>', svg
        )
        assert ticks
        for tick_x, tick in ticks:
            assert float(tick_x) - drawn_width(tick, 13, bold=False) >= 0, tick
