"""Template tags of the club set-up: the QR code that opens a table's live view on a phone."""

from __future__ import annotations

from django import template

from ledger.web.qr import qr_svg

register = template.Library()


@register.inclusion_tag("ledger/setup/_table_qr.html", takes_context=True)
def table_qr(context, table):
    """Render a QR code of the table's own URL (its live view), for members' phones."""
    request = context.get("request")
    path = table.get_absolute_url()
    link = request.build_absolute_uri(path) if request is not None else path
    return {"table_link": link, "table_qr_svg": qr_svg(link, title=str(table), scale=3)}
