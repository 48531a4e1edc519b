"""Template filters shared by the ledger's screens and PDFs."""

from django import template
from django.utils import formats

from ledger.tables import signed_points

register = template.Library()


@register.filter
def signed(points):
    """Points with their sign and a real minus: +5, 0, −5."""
    return signed_points(points)


@register.filter
def money(amount):
    """An amount of money with two decimals in the active language (7,50 in Danish)."""
    return formats.number_format(amount, 2, use_l10n=True)


@register.simple_tag(takes_context=True)
def render_table_kept(context, table):
    """Render a django-tables2 table, kept by what it shows (``ledger.render_cache``)."""
    from ledger import render_cache

    return render_cache.render(table, context["request"])
