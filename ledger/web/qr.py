"""QR codes as inline SVG (segno): the invitation sheet, a table's live view."""

from __future__ import annotations

from django.utils.safestring import mark_safe


def qr_svg(text: str, *, title: str = "", scale: int = 4):
    """Return ``text`` as a QR code in inline SVG markup (no style, no script)."""
    import segno

    code = segno.make(text, error="m")
    svg = code.svg_inline(scale=scale, omitsize=True, title=title or None, light="#fff")
    return mark_safe(svg.replace("<svg ", '<svg role="img" ', 1))  # noqa: S308 (segno's markup)
