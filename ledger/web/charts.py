"""Charts drawn on the server as SVG, so they look the same on screen and in a PDF."""

from __future__ import annotations

import datetime
import math

from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe

from ledger.games.money import signed_points

FONT = "DejaVu Sans, sans-serif"
ACCENT = "#0b4f8a"
GOOD = "#0a6b2d"
BAD = "#a3120b"
GRID = "#d4d7dc"
MUTED = "#555"


def _nice_step(span: float, ticks: int = 5) -> int:
    """Return a round step (1, 2 or 5 times a power of ten) giving about ``ticks`` ticks."""
    raw = max(span / ticks, 1)
    power = 10 ** math.floor(math.log10(raw))
    for factor in (1, 2, 5, 10):
        if raw <= factor * power:
            return int(factor * power)
    return int(10 * power)  # pragma: no cover - the loop always returns


def _label_width(label: str, size: float) -> float:
    """Return about how wide ``label`` is drawn at ``size`` (DejaVu Sans: a digit 0.64 em, a
    sign 0.84 em, bold a little wider; taken on the wide side, so a margin holds it)."""
    return sum(0.84 if char in "+-\u2212" else 0.7 for char in label) * size


def cumulative_points_svg(
    *,
    points: list[tuple[datetime.date, int]] | list[tuple[datetime.date, float]],
    title: str,
    width: int = 720,
    height: int = 260,
    font_size: int = 13,
    start: int = 0,
    text=signed_points,
) -> SafeString:
    """Return an SVG line chart of cumulative points, one point per evening.

    ``points`` are ``(date, cumulative points after that evening)`` in date order; the line
    starts at ``start`` (0) before the first evening, the line of ``start`` drawn darker and
    each point green above it, red below; ``text`` writes a value (a rating chart: the
    initial rating and whole numbers). The chart scales to its container (``viewBox``).
    ``font_size`` is in viewBox units: a chart shown narrow needs it larger to stay legible
    (720 units shown 358 px wide make 24 units 11.9 px); the margins grow with it.
    """
    scale = font_size / 13
    values = [start] + [v for _, v in points]
    low, high = min(values), max(values)
    step = _nice_step(high - low or 10)
    low = math.floor(low / step) * step
    high = math.ceil(high / step) * step
    if high == low:
        high = low + step
    ticks = range(int(low), int(high) + 1, step)
    # The margins hold the widest tick's label on the left and the last value's on the right.
    left = round(max(64 * scale, max(_label_width(text(t), font_size) for t in ticks) + 12 * scale))
    last_label = _label_width(text(values[-1]), round(15 * scale)) if points else 0
    right = round(max(56 * scale, last_label + 12 * scale))
    top, bottom = round(18 * scale), round(40 * scale)
    plot_w, plot_h = width - left - right, height - top - bottom

    def x(i: int) -> float:
        return left + plot_w * i / max(len(values) - 1, 1)

    def y(v: float) -> float:
        return top + plot_h * (high - v) / (high - low)

    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="chart" viewBox="0 0 {width} {height}" '
        f'width="{width}" height="{height}" role="img" aria-label="{escape(title)}" '
        f'font-family="{FONT}" font-size="{font_size}">',
        f"<title>{escape(title)}</title>",
    ]
    for tick in ticks:
        ty = y(tick)
        stroke = MUTED if tick == start else GRID
        stroke_width = 1.5 if tick == start else 1
        parts.append(
            f'<line x1="{left}" x2="{left + plot_w}" y1="{ty:.1f}" y2="{ty:.1f}" '
            f'stroke="{stroke}" stroke-width="{stroke_width}"/>'
        )
        parts.append(
            f'<text x="{left - round(8 * scale)}" y="{ty + 4 * scale:.1f}" text-anchor="end" '
            f'fill="{MUTED}">'
            f"{text(tick)}</text>"
        )
    labels = max(2, min(12, int(plot_w // (font_size * 3.8))))
    every = max(1, math.ceil(len(points) / labels))
    for i, (date, _) in enumerate(points, start=1):
        if (i - 1) % every == 0 or i == len(points):
            parts.append(
                f'<text x="{x(i):.1f}" y="{top + plot_h + round(22 * scale)}" text-anchor="middle" '
                f'fill="{MUTED}">{date.day}/{date.month}</text>'
            )
    line = " ".join(f"{x(i):.1f},{y(v):.1f}" for i, v in enumerate(values))
    parts.append(
        f'<polyline points="{line}" fill="none" stroke="{ACCENT}" stroke-width="3" '
        'stroke-linejoin="round" stroke-linecap="round"/>'
    )
    for i, v in enumerate(values[1:], start=1):
        colour = GOOD if v > start else BAD if v < start else MUTED
        parts.append(
            f'<circle cx="{x(i):.1f}" cy="{y(v):.1f}" r="4.5" fill="{colour}" '
            f'stroke="#fff" stroke-width="1.5"><title>{points[i - 1][0].isoformat()}: '
            f"{text(v)}</title></circle>"
        )
    if points:
        last = values[-1]
        colour = GOOD if last > start else BAD if last < start else MUTED
        parts.append(
            f'<text x="{x(len(values) - 1) + 8 * scale:.1f}" y="{y(last) + 5 * scale:.1f}" '
            f'fill="{colour}" '
            f'font-weight="bold" font-size="{round(15 * scale)}">{text(last)}</text>'
        )
    parts.append("</svg>")
    return mark_safe("".join(parts))  # noqa: S308 - every interpolated text is escaped
