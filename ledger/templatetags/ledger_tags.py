"""Template filters shared by the ledger's screens and PDFs."""

from django import template
from django.conf import settings

from ledger.games.money import sign_class, signed_points
from ledger.games.registry import get_web
from ledger.tables.columns import (
    currency_symbol,
    decimal_points_html,
    figure_html,
    money_html,
    money_text,
)
from ledger.web.text_size import reader_text_size

register = template.Library()


@register.filter
def signed(points):
    """Points with their sign and a real minus: +5, 0, −5."""
    return signed_points(points)


@register.filter
def money(amount, currency=None):
    """Money in the active language, with a true minus (``ledger.tables.columns.money_text``):
    ``{{ x|money }}`` the figure in the active club's currency's decimals (7,50; 1 235 for
    forints); ``{{ x|money:club.currency }}`` with the currency's sign (7,50 €)."""
    return money_text(amount, currency, symbol=bool(currency))


@register.filter
def money_signed(amount, currency=None):
    """Money as ``money`` does, in a span red when negative (``class="money neg"``)."""
    return money_html(amount, currency, symbol=bool(currency))


@register.filter
def figure(points):
    """A running figure (a pool, a total): a true minus, red when negative."""
    return figure_html(points)


@register.simple_tag
def seat_table(draw_table, round_):
    """A round's table as drawn, written by a django-tables2 table (``SeatTable``: the seeded
    group when the round is drawn in groups, the figures once it is closed), kept by what it
    shows (``ledger.web.render_cache``): the director's round page, looked at again every ten
    seconds during play, writes a hall's tables only when one changes. Written without the
    request (it neither sorts nor pages), so the context processors do not run per table."""
    from django.template.loader import get_template
    from django.utils.safestring import mark_safe

    from ledger.tables.tournaments import SeatTable
    from ledger.web import render_cache

    groups, closed = round_.kind == "seeded_groups", round_.status == "closed"

    def write() -> str:
        table = SeatTable(draw_table.seats, groups=groups, closed=closed)
        return str(get_template(table.template_name).render({"table": table}))

    key = render_cache.digest("seats", draw_table.seats, groups, closed)
    return mark_safe(render_cache.kept(key, write))  # noqa: S308 - the table's own template


@register.simple_tag
def my_rounds_table(rounds):
    """A member's rounds of a tournament in a django-tables2 table (``MyRoundsTable``)."""
    from ledger.tables.tournaments import MyRoundsTable

    return MyRoundsTable(rounds)


@register.filter
def decimal_points(text):
    """Exact points with two decimals (a tournament's): the language's decimal sign, a true
    minus, red when negative."""
    return decimal_points_html(text)


@register.filter
def currency_sign(code):
    """The sign a currency is written with after an amount: €, Ft, DKK."""
    return currency_symbol(code)


@register.filter
def sign(value):
    """The CSS class of a figure's sign: pos, neg or zero."""
    return sign_class(value)


@register.simple_tag
def site_languages():
    """The site's languages as (code, name) with each name in its own language, untranslated
    (``settings.LANGUAGES``; Django's own tag would translate "English")."""
    return settings.LANGUAGES


@register.simple_tag(takes_context=True)
def text_size(context):
    """The reader's text size (``ledger.web.text_size``): normal, large or larger."""
    request = context.get("request")
    return reader_text_size(request) if request is not None else "normal"


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

    from ledger.web.tables2_speed import td_html

    cells = []
    for column, cell in row.items():
        if column.localize is not None:
            cell = localize(cell) if column.localize else unlocalize(cell)
        cells.append(f"<td {td_html(column)}>{conditional_escape(cell)}</td>")
    return format_html("<tr {}>{}</tr>", row.attrs.as_html(), mark_safe("".join(cells)))  # noqa: S308


@register.simple_tag
def player_ladder_table(ladder_lines):
    """A player's lines on the kept ladders in a django-tables2 table (``PlayerLadderTable``)."""
    from ledger.tables.federation import PlayerLadderTable

    return PlayerLadderTable(ladder_lines)


# The rated tables a player's page shows at once, newest first (``?rl<list>p<player>-page=``).
RATED_TABLES_PAGE = 50


@register.simple_tag(takes_context=True)
def rating_block(context, player_list):
    """A player's rating on one list for ``ledger/federation/_player_ratings.html``: its
    history as a line chart (SVG, from the initial rating, every table) and its rated tables
    explained in a django-tables2 table, newest first, ``RATED_TABLES_PAGE`` a page:
    ``{"chart", "table", "rating"}``."""
    from django.utils.safestring import mark_safe
    from django.utils.translation import gettext
    from django_tables2 import RequestConfig

    from ledger.federation.engine.rating import RatingParams
    from ledger.tables.federation import RatingChangesTable, whole
    from ledger.web import charts, render_cache

    changes = player_list.changes
    player = changes[0].player_id if changes else 0
    table = RatingChangesTable(
        changes[::-1], prefix=f"rl{player_list.rating_list.pk}p{player}-", orderable=False
    )
    request = context.get("request")
    history = player_list.history
    if request is not None:
        RequestConfig(request, paginate={"per_page": RATED_TABLES_PAGE}).configure(table)
        render_cache.keep(table, request, rows=changes)
    initial = round(RatingParams(**player_list.rating_list.params).initial)
    title = gettext("Rating over time: {name}").format(name=player_list.rating_list.name)
    # The chart drawn once per history, title and start (the language is in the title).
    chart_key = render_cache.digest("rating-chart", title, initial, history)
    chart = render_cache.kept(
        chart_key,
        lambda: str(
            charts.cumulative_points_svg(
                points=history, title=title, font_size=24, height=360, start=initial, text=whole
            )
        ),
    )
    return {
        "rating": whole(player_list.rating) if player_list.rating is not None else "",
        "chart": mark_safe(chart),  # noqa: S308 - the chart's own SVG, escaped when drawn
        "table": table,
    }
