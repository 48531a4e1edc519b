"""PDF reports, rendered by WeasyPrint from HTML templates (``templates/ledger/pdf/``).

Each renderer is a plain function returning ``(filename, content_type, bytes)``; views and the
``season_report`` command only wrap or write the bytes. Pages are A4 with the club's name, the
report's title, the date printed and "page n of m" (CSS ``@page`` counters) in the margins.
The tables are the django-tables2 tables of the screens, rendered without links or sorting.
"""

from __future__ import annotations

from django.conf import settings
from django.template.loader import render_to_string
from django.utils import formats, timezone
from django.utils.safestring import mark_safe
from django.utils.text import slugify
from django.utils.translation import gettext

from ledger import charts, selectors_season
from ledger.games.web import stats_notes
from ledger.models import Evening, Member, Season
from ledger.tables import (
    EveningSheetTable,
    MemberEveningsTable,
    MemberHandsTable,
    SeasonEveningsTable,
    SettlementTable,
    StandingsTable,
    price_text,
    standing_summary,
)

PDF = "application/pdf"


def _css_string(text: str) -> str:
    """Return ``text`` as a quoted CSS string, safe inside a ``<style>`` element."""
    escaped = []
    for char in str(text):
        if char.isalnum() or char in " .,:;-_/()+·–":
            escaped.append(char)
        else:
            escaped.append(f"\\{ord(char):x} ")
    return '"' + "".join(escaped) + '"'


def _page_counter() -> str:
    """Return the CSS ``content`` of "page n of m" in the current language."""
    label = gettext("Page {page} of {pages}")
    before, rest = label.split("{page}", 1)
    middle, after = rest.split("{pages}", 1)
    return (
        f"{_css_string(before)} counter(page) {_css_string(middle)} "
        f"counter(pages) {_css_string(after)}"
    )


def _render(template: str, context: dict, *, club, title: str, landscape: bool = False) -> bytes:
    """Render ``template`` to PDF bytes with the shared page frame."""
    from weasyprint import HTML  # imported late: it loads Pango, which a page view never needs

    printed = formats.date_format(timezone.localdate(), "DATE_FORMAT")
    margins = {
        "page_size": "A4 landscape" if landscape else "A4",
        "css_club": _css_string(club.name),
        "css_title": _css_string(title),
        "css_printed": _css_string(gettext("Printed {date}").format(date=printed)),
        "css_pages": _page_counter(),
    }
    context = {
        **context,
        "club": club,
        "title": title,
        "printed": printed,
        "page_css": {key: mark_safe(value) for key, value in margins.items()},  # noqa: S308
    }
    html = render_to_string(template, context)
    return HTML(string=html, base_url=str(settings.BASE_DIR)).write_pdf()


def _no_link(_pk):
    return None


def evening_sheet_pdf(*, evening: Evening) -> tuple[str, str, bytes]:
    """Return the evening sheet: every hand with its transfers, the pools, split, settlement,
    and lines for the treasurer's and a member's signature."""
    # Read the evening afresh: a caller's copy may predate its closing.
    evening = Evening.objects.select_related("club", "season").get(pk=evening.pk)
    sheet = selectors_season.evening_sheet(evening=evening)
    date = formats.date_format(evening.date, "DATE_FORMAT")
    title = gettext("Evening sheet {date}").format(date=date)
    context = {
        "evening": evening,
        "sheet": sheet,
        "sheet_tables": [
            (s, EveningSheetTable(s.postings, members=s.seats, game=s.table.game))
            for s in sheet.tables
        ],
        "settlement_table": SettlementTable(
            sheet.settlement, exclude=() if sheet.closed else ("split", "points", "money")
        ),
        "price": price_text(evening.price_per_point),
    }
    content = _render("ledger/pdf/evening_sheet.html", context, club=evening.club, title=title)
    return f"evening-{evening.club.slug}-{evening.date:%Y-%m-%d}.pdf", PDF, content


def season_standings_pdf(*, season: Season) -> tuple[str, str, bytes]:
    """Return the season's standings with the list of its evenings."""
    rows = selectors_season.standings_for_season(season=season)
    title = gettext("Standings {season}").format(season=season.name)
    context = {
        "season": season,
        "standings_table": StandingsTable(rows, orderable=False),
        "stats_notes": stats_notes(rows.games or [season.club.game]),
        "evenings_table": SeasonEveningsTable(
            selectors_season.season_evenings(season=season).order_by("date", "pk"),
            orderable=False,
            exclude=("actions",),
            sheet_url=_no_link,
            pdf_url=_no_link,
        ),
    }
    content = _render(
        "ledger/pdf/standings.html", context, club=season.club, title=title, landscape=True
    )
    return f"standings-{season.club.slug}-{slugify(season.name)}.pdf", PDF, content


def member_season_pdf(*, season: Season, member: Member) -> tuple[str, str, bytes]:
    """Return a member's season: totals, the chart of cumulative points, evenings and hands."""
    data = selectors_season.member_season(season=season, member=member)
    title = gettext("{name}: season {season}").format(name=member.name, season=season.name)
    chart = charts.cumulative_points_svg(
        points=[(e["date"], e["cumulative"]) for e in data.evenings],
        title=gettext("Points over the season: {name}").format(name=member.name),
    )
    context = {
        "season": season,
        "member": member,
        "standing": data.standing,
        "summary": standing_summary(data.standing, season.club.currency, data.games),
        "chart": chart if data.evenings else "",
        "evenings_table": MemberEveningsTable(
            data.evenings, stats_columns=data.stats_columns, orderable=False
        ),
        "hands_table": MemberHandsTable(
            selectors_season.member_hands(season=season, member=member), orderable=False
        ),
    }
    content = _render("ledger/pdf/member_season.html", context, club=season.club, title=title)
    name = f"member-{season.club.slug}-{slugify(member.name)}-{slugify(season.name)}.pdf"
    return name, PDF, content
