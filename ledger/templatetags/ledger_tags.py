"""Template filters shared by the ledger's screens and PDFs."""

from django import template
from django.utils import formats

from ledger.games.money import signed_points
from ledger.games.registry import get_web

register = template.Library()


@register.filter
def signed(points):
    """Points with their sign and a real minus: +5, 0, −5."""
    return signed_points(points)


@register.filter
def money(amount):
    """An amount of money with two decimals in the active language (7,50 in Danish)."""
    return formats.number_format(amount, 2, use_l10n=True)


@register.simple_tag
def game_word(game_code, key, **values):
    """The phrase ``key`` of a shared screen in the words of the game ``game_code`` ('': the
    game has none, and the screen leaves it out), with ``values`` filled in."""
    return get_web(game_code).word(key, **values)


@register.simple_tag(takes_context=True)
def render_table_kept(context, table):
    """Render a django-tables2 table, kept by what it shows (``ledger.web.render_cache``)."""
    from ledger.web import render_cache

    return render_cache.render(table, context["request"])


@register.simple_tag
def table_row(row):
    """Return a django-tables2 row as its template writes it: ``<tr>`` with the row's
    attributes, a ``<td>`` per cell with the column's attributes, the value localized as the
    column asks (``column.localize``)."""
    from django.templatetags.l10n import localize, unlocalize
    from django.utils.html import conditional_escape, format_html
    from django.utils.safestring import mark_safe

    cells = []
    for column, cell in row.items():
        if column.localize is not None:
            cell = localize(cell) if column.localize else unlocalize(cell)
        cells.append(f"<td {column.attrs['td'].as_html()}>{conditional_escape(cell)}</td>")
    return format_html("<tr {}>{}</tr>", row.attrs.as_html(), mark_safe("".join(cells)))  # noqa: S308
