"""PDF reports, rendered by WeasyPrint from HTML templates (``templates/ledger/pdf/``).

Each renderer is a plain function returning ``(filename, content_type, bytes)``; views and the
``season_report`` command only wrap or write the bytes. Pages are A4 with the club's name, the
report's title, the date printed and "page n of m" (CSS ``@page`` counters) in the margins.
The tables are the django-tables2 tables of the screens, rendered without links or sorting;
a score sheet is printed from its table's ``print_rows`` (the same words and figures) laid out
by ``ledger.sheet_print``: monospaced columns, a few lines of text a row rather than a box per
figure, since WeasyPrint's time grows with the boxes it lays out.
"""

from __future__ import annotations

from itertools import groupby

from django.conf import settings
from django.template.loader import render_to_string
from django.utils import formats, timezone
from django.utils.safestring import mark_safe
from django.utils.text import slugify
from django.utils.translation import gettext

from ledger import selectors
from ledger.games.web import stats_notes
from ledger.models import Evening, Member, Season, Table
from ledger.selectors import federation as federation_reads
from ledger.selectors import round_tables as table_reads
from ledger.selectors import tournaments as reads
from ledger.selectors.chain import club_head
from ledger.selectors.privacy import erased_seat_names
from ledger.sheet_print import needs_landscape, print_sheet
from ledger.tables.columns import price_text
from ledger.tables.federation import LadderTable
from ledger.tables.season import (
    MemberEveningsTable,
    MemberHandsTable,
    SeasonEveningsTable,
    StandingsTable,
    standing_summary,
)
from ledger.tables.sheet import EveningSheetTable, settlement_table
from ledger.tables.tournaments import (
    TournamentStandingsTable,
    draw_mode_text,
    round_kind_text,
)
from ledger.web import charts

PDF = "application/pdf"

# How many PDFs this process has laid out with WeasyPrint (read by tests and the bench: a
# kept PDF is served without adding to it).
RENDERED = {"pdfs": 0}


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
    RENDERED["pdfs"] += 1
    return HTML(string=html, base_url=str(settings.BASE_DIR)).write_pdf()


def _no_link(_pk):
    return None


def _score_sheets(sheet) -> tuple[list[dict], bool]:
    """Return each table of the sheet laid out for print (``ledger.sheet_print``) and
    whether the report is printed in landscape."""
    tables = [print_sheet(EveningSheetTable(sheet_table)) for sheet_table in sheet.tables]
    return tables, needs_landscape(t["mm"] for t in tables)


def evening_sheet_pdf(*, evening: Evening, transfers: bool = False) -> tuple[str, str, bytes]:
    """Return the evening's score sheets (a row per hand: dealer, what happened, each member's
    points and running total, the pools), the settlement, the fewest payments, a line for the
    treasurer's and each member's signature and the log; ``transfers`` adds an appendix with
    every posting's transfers."""
    # Read the evening afresh: a caller's copy may predate its closing.
    evening = Evening.objects.select_related("club", "season").get(pk=evening.pk)
    sheet = selectors.evening_sheet(evening=evening)
    date = formats.date_format(evening.date, "DATE_FORMAT")
    title = gettext("Evening sheet {date}").format(date=date)
    tables, landscape = _score_sheets(sheet)
    context = {
        "evening": evening,
        "sheet": sheet,
        "sheet_tables": tables,
        "settlement_table": settlement_table(sheet),
        "price": price_text(evening.price_per_point),
        "transfers": transfers,
        "ledger_head": club_head(evening.club_id),
    }
    content = _render(
        "ledger/pdf/evening_sheet.html",
        context,
        club=evening.club,
        title=title,
        landscape=landscape,
    )
    suffix = "-transfers" if transfers else ""
    return f"evening-{evening.club.slug}-{evening.date:%Y-%m-%d}{suffix}.pdf", PDF, content


def _table_sheet_context(table: Table) -> tuple[dict, bool]:
    """Return what the table sheet shows of an ordinary table (its score sheet, each
    member's result, the price) and whether it is printed in landscape."""
    evening = table.evening
    sheet = selectors.evening_sheet(evening=evening, table=table)
    tables, landscape = _score_sheets(sheet)
    score_sheet = tables[0] if tables else None
    seats = score_sheet["sheet"].seats if score_sheet else []
    context = {
        "evening": evening,
        "table": table,
        "sheet": sheet,
        "score_sheet": score_sheet,
        "results": sorted(sheet.settlement, key=lambda r: seats.index(r.name)),
        "price": price_text(evening.price_per_point),
        "ledger_head": club_head(evening.club_id),
    }
    return context, landscape


def table_sheet_pdf(*, table: Table) -> tuple[str, str, bytes]:
    """Return one table's score sheet on one page, to sign at the table: the club, the date,
    the table and its game, every hand, each member's result (and money once the evening is
    closed) and a line for each member's signature with his name under it."""
    table = Table.objects.select_related("evening__club", "evening__season").get(pk=table.pk)
    evening = table.evening
    context, landscape = _table_sheet_context(table)
    date = formats.date_format(evening.date, "DATE_FORMAT")
    title = gettext("Table {number}, {date}").format(number=table.number, date=date)
    content = _render(
        "ledger/pdf/table_sheet.html", context, club=evening.club, title=title, landscape=landscape
    )
    name = f"table-{evening.club.slug}-{evening.date:%Y-%m-%d}-{table.number}.pdf"
    return name, PDF, content


def season_standings_pdf(*, season: Season) -> tuple[str, str, bytes]:
    """Return the season's standings with the list of its evenings."""
    rows = selectors.standings_for_season(season=season)
    title = gettext("Standings {season}").format(season=season.name)
    context = {
        "season": season,
        "standings_table": StandingsTable(rows, orderable=False),
        "stats_notes": stats_notes(rows.games or [season.club.game]),
        "evenings_table": SeasonEveningsTable(
            selectors.season_evenings(season=season).order_by("date", "pk"),
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


def _hand_groups(table: MemberHandsTable) -> list[dict]:
    """Return the rows of a member's hands grouped by evening and table, in their order:
    each group's date and table number print once over its hands, so a row is four cells
    instead of six (WeasyPrint's time grows with the cells: 598 -> 435 ms for 120 hands)."""
    return [
        {"date": rows[0].record.evening_date, "table": rows[0].record.table_number, "rows": rows}
        for rows in (
            list(group)
            for _key, group in groupby(
                table.rows, key=lambda row: (row.record.evening_id, row.record.table_id)
            )
        )
    ]


def member_season_pdf(*, season: Season, member: Member) -> tuple[str, str, bytes]:
    """Return a member's season: totals, the chart of cumulative points, evenings and hands."""
    data = selectors.member_season(season=season, member=member)
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
    }
    hands = MemberHandsTable(
        selectors.member_hands(season=season, member=member),
        orderable=False,
        names=erased_seat_names(season=season),
        exclude=("evening_date", "table_number"),  # each group's heading says them
    )
    context["hands_table"] = hands
    context["hand_groups"] = _hand_groups(hands)
    content = _render("ledger/pdf/member_season.html", context, club=season.club, title=title)
    name = f"member-{season.club.slug}-{slugify(member.name)}-{slugify(season.name)}.pdf"
    return name, PDF, content


# --- tournaments (issue 21) ----------------------------------------------------------------


# A standings table of more columns than this is printed in landscape: rank, name, club, a
# column per round, the total, two tie-breaks, rounds, byes and status fit A4 portrait in the
# board's large type for one round (Danish headers are the longest).
PORTRAIT_COLUMNS = 10


def board_type(columns: int) -> int:
    """Return the point size of a standings table on the notice board: 12 (large type, read
    from a metre) up to 13 columns, smaller for a wider table (a ``hu_kupa`` ranking after
    four rounds and its final has 18), so that every column stays on A4 landscape."""
    return 12 if columns <= 13 else 11 if columns <= 15 else 10


def tournament_ranking_pdf(*, tournament) -> tuple[str, str, bytes]:
    """Return a tournament's ranking (provisional or final) in large type for the board:
    position, name, club, ladder rank, the points of each round and the total, every
    tie-break in the format's order, rounds played, byes and status (and a ``hu_kupa``
    final's group and score); a note naming the format, the tie-break order, the seed and
    each place the lot decided; the corrections made after the correction period."""

    standings = reads.standings_after(tournament)
    final = tournament.status == "final"
    title = (
        gettext("Final ranking: {name}") if final else gettext("Provisional ranking: {name}")
    ).format(name=tournament.name)
    table = TournamentStandingsTable.of(standings, ladder=True, orderable=False)
    context = {
        "tournament": tournament,
        "table": table,
        "board_pt": board_type(len(table.columns)),
        "rules": reads.rules_note(tournament),
        "lot_notes": reads.lot_notes(standings),
        "corrections": [c for c in reads.corrections(tournament) if c.after_period],
        "ledger_head": club_head(tournament.club_id),
    }
    content = _render(
        "ledger/pdf/tournament_ranking.html",
        context,
        club=tournament.club,
        title=title,
        landscape=len(table.columns) > PORTRAIT_COLUMNS,
    )
    return f"ranking-{tournament.club.slug}-{tournament.pk}.pdf", PDF, content


def tournament_round_result_pdf(*, round_) -> tuple[str, str, bytes]:
    """Return a round's result in large type for the board: every table with its players in
    seat order, their table scores, places and tournament points, the byes with their
    points, and the standings after the round (later rounds left out) with the tie-breaks in
    the format's order; the places the lot decided and the corrections of the round."""

    tournament = round_.tournament
    result = reads.round_result(round_)
    table = (
        TournamentStandingsTable.of(result.standings, orderable=False)
        if result.standings is not None
        else None
    )
    title = gettext("{name}: result of round {number}").format(
        name=tournament.name, number=round_.number
    )
    context = {
        "tournament": tournament,
        "round": round_,
        "kind": round_kind_text(round_.kind),
        "view": result.view,
        "standings_table": table,
        "board_pt": board_type(len(table.columns)) if table is not None else 12,
        "basis": reads.score_basis_text(tournament),
        "rules": reads.rules_note(tournament),
        "lot_notes": reads.lot_notes(result.standings) if result.standings else [],
        "corrections": result.corrections,
    }
    content = _render(
        "ledger/pdf/tournament_round_result.html",
        context,
        club=tournament.club,
        title=title,
        landscape=table is not None and len(table.columns) > PORTRAIT_COLUMNS,
    )
    name = f"round-{tournament.club.slug}-{tournament.pk}-{round_.number}.pdf"
    return name, PDF, content


def round_table_sheet_pdf(*, round_, round_table, number: int) -> tuple[str, str, bytes]:
    """Return a round table's sheet to sign: the ordinary table sheet (every hand as it
    shows them) with the tournament, round, table and game, the start and end, why the
    table's round ended, the hands played against the target, each player's table score
    (its basis named), place, tournament points and a line to sign (a substitute marked:
    his result counts for no one), and the corrections made after the round closed. Before
    the round starts, the draw's players with empty lines."""

    tournament = round_.tournament
    data = table_reads.round_table_sheet(round_, round_table, number)
    table = round_table.table if round_table is not None else None
    if table is not None:
        context, landscape = _table_sheet_context(table)
    else:
        context, landscape = {"score_sheet": None}, False
    context |= {"tournament": tournament, "round": round_, "data": data}
    title = gettext("{name}: round {round}, table {number}").format(
        name=tournament.name, round=round_.number, number=number
    )
    content = _render(
        "ledger/pdf/tournament_table_sheet.html",
        context,
        club=tournament.club,
        title=title,
        landscape=landscape,
    )
    name = f"table-{tournament.club.slug}-{tournament.pk}-{round_.number}-{number}.pdf"
    return name, PDF, content


def tournament_draw_pdf(*, round_) -> tuple[str, str, bytes]:
    """Return a round's draw sheet: every table with its players in seat order (seat 1 deals
    first), their clubs and seeding groups, the byes, the draw's mode and its warnings."""

    tournament = round_.tournament
    title = gettext("{name}: draw of round {number}").format(
        name=tournament.name, number=round_.number
    )
    context = {
        "tournament": tournament,
        "round": round_,
        "kind": round_kind_text(round_.kind),
        "mode": draw_mode_text(round_.mode),
        "view": reads.round_view(round_),
        "rules": reads.rules_note(tournament),
        "corrections": reads.corrections(tournament, round_=round_),
    }
    content = _render("ledger/pdf/tournament_draw.html", context, club=tournament.club, title=title)
    return f"draw-{tournament.club.slug}-{tournament.pk}-{round_.number}.pdf", PDF, content


def tournament_cards_pdf(*, round_, cards: list[dict]) -> tuple[str, str, bytes]:
    """Return the cards of a published round, two to an A4 page: each table's number, its
    players in seat order and the QR code of its own link (``cards``: table, link, qr)."""
    tournament = round_.tournament
    title = gettext("{name}: tables of round {number}").format(
        name=tournament.name, number=round_.number
    )
    context = {"tournament": tournament, "round": round_, "cards": cards}
    content = _render(
        "ledger/pdf/tournament_cards.html", context, club=tournament.club, title=title
    )
    return f"tables-{tournament.club.slug}-{tournament.pk}-{round_.number}.pdf", PDF, content


def whatif_pdf(
    *, club, title: str, result, filename: str, table, format_label=None
) -> tuple[str, str, bytes]:
    """Return a what-if comparison (``selectors.whatif``): the members side by side
    (``table``, the page's), and for an evening or a season the hands the other card cannot
    score and the hands that changed most; for a tournament the format ranked under."""
    table.orderable = False
    context = {"result": result, "table": table, "format_label": format_label}
    heading = gettext("What if: {scope}").format(scope=title)
    content = _render("ledger/pdf/whatif.html", context, club=club, title=heading, landscape=True)
    return filename, PDF, content


# --- a series' ladder (issue 30) -------------------------------------------------------------


def series_ladder_pdf(*, series, board=None) -> tuple[str, str, bytes]:
    """Return a series' ladder in large type for the notice board (14 pt, A4 landscape):
    position, player, club, total, best, wins, events, struck events and the qualified line
    marked; the date of the standings (the last final event counted), the rule in words."""
    board = board or federation_reads.ladder_board(series)
    owner = series.federation or series.club
    title = gettext("Ladder: {name}").format(name=series.name)
    context = {
        "series": series,
        "board": board,
        "table": LadderTable(board.lines, exclude=("counted",), orderable=False),
    }
    content = _render("ledger/pdf/ladder.html", context, club=owner, title=title, landscape=True)
    return f"ladder-{owner.slug}-{series.pk}.pdf", PDF, content
