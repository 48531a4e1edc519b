"""PDF reports, rendered by WeasyPrint from HTML templates (``templates/ledger/pdf/``).

Each renderer is a plain function returning ``(filename, content_type, bytes)``; views and the
``season_report`` command only wrap or write the bytes. Pages are A4 with the club's name, the
report's title, the date printed and "page n of m" (CSS ``@page`` counters) in the margins.
The tables are the django-tables2 tables of the screens, rendered without links or sorting;
a score sheet is printed from its table's ``print_rows`` (the same words and figures) as one
block of monospaced text a row, no table, which keeps a 160-hand evening to a few pages;
WeasyPrint's time grows with the boxes it lays out, a table's cell or an inline element
costing as much as a row of text.
"""

from __future__ import annotations

import textwrap

from django.conf import settings
from django.template.loader import render_to_string
from django.utils import formats, timezone
from django.utils.safestring import mark_safe
from django.utils.text import slugify
from django.utils.translation import gettext

from ledger import selectors
from ledger.games.money import signed_points
from ledger.games.registry import get_game
from ledger.games.web import stats_notes
from ledger.models import Evening, Member, Season, Table
from ledger.selectors import tournaments as reads
from ledger.tables.columns import price_text
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


# The score sheet on paper (_score_sheet.html): one block of monospaced text a row, no table.
# The figures (the number, the dealer, each member's points and running total, the pools) are
# padded to each column's widest entry, so they line up under the names; what happened follows
# and is wrapped here, in Python, to the width the page leaves it, its further lines indented
# under its first. WeasyPrint's time grows with the boxes it lays out: a table's rows and cells
# were most of a 160-hand evening's time, a row of plain text is one box. What happened takes
# the rest of the width, at least EVENTS_MM; A4 portrait leaves PORTRAIT_MM between the
# margins (_score_sheet_style.html), else the report is printed in landscape (LANDSCAPE_MM).
EVENTS_MM, PORTRAIT_MM, LANDSCAPE_MM = 24, 186, 273
PT = 25.4 / 72  # mm
MONO_PT = 6.6  # the sheet's font size (_score_sheet_style.html)
MONO_CHAR_MM = 0.602 * MONO_PT * PT  # DejaVu Sans Mono's advance: 0.602 em
ROW_PADDING_MM = 1.6 + 0.8  # the sheet's padding, and a margin for the rounding of glyphs
NAME_CHARS = 12  # a longer name is cut with "…" above its column
DEALER_CHARS = 10  # and a longer dealer's in his column
GAP = "  "


def _cut(text: str, width: int) -> str:
    return text if len(text) <= width else text[: width - 1] + "…"


def _figures(table: EveningSheetTable, rows: list[dict]) -> dict:
    """Return the figures' header, rows and footer as padded text, and their width in mm."""
    sheet = table.sheet
    codes = get_game(sheet.table.game).features.pool_codes
    headers = [str(c.header) for c in table.columns]
    pool_headers = headers[2 + len(table.members) : 2 + len(table.members) + len(codes)]
    scores = [
        [f"{net} {running}" if net and net != "0" else running for net, running in r["scores"]]
        for r in rows
    ]
    pools = [[str(p) for p in r["pools"]] for r in rows]
    foot = [signed_points(sheet.balances.get(m, 0)) for m in table.members]
    foot += [str(sheet.balances.get(code, 0)) for code in codes]
    names = [_cut(name, NAME_CHARS) for name in table.members] + [
        _cut(h, NAME_CHARS) for h in pool_headers
    ]
    cells = [a + b for a, b in zip(scores, pools, strict=True)]
    widths = [
        max([len(names[i]), len(foot[i]), *(len(row[i]) for row in cells)])
        for i in range(len(names))
    ]

    labels = [str(r["label"]) for r in rows]
    dealers = [_cut(str(r["dealer"] or ""), DEALER_CHARS) for r in rows]
    foot_label = str(table.columns[0].footer) if len(table.columns) else ""
    label_w = max([len(headers[0]), len(foot_label), *(len(x) for x in labels)])
    dealer_w = max([len(_cut(headers[1], DEALER_CHARS)), *(len(x) for x in dealers)])

    def line(label: str, dealer: str, values) -> str:
        left = label.ljust(label_w) + GAP + dealer.ljust(dealer_w)
        return GAP.join([left, *(v.rjust(w) for v, w in zip(values, widths, strict=True))])

    head = line(headers[0], _cut(headers[1], DEALER_CHARS), names)
    return {
        "head": head,
        "rows": [line(*row) for row in zip(labels, dealers, cells, strict=True)],
        "foot": line(foot_label, "", foot),
        "mm": len(head) * MONO_CHAR_MM + ROW_PADDING_MM,
        "headers": headers,
    }


def _needs_landscape(figures_mm) -> bool:
    """Return whether a table's figures leave what happened too little of a portrait page
    (then the whole report is printed in landscape)."""
    return any(mm + EVENTS_MM > PORTRAIT_MM for mm in figures_mm)


def _with_events(figures: str, events: str, chars: int) -> str:
    """Return ``figures`` followed by ``events`` wrapped to ``chars`` a line, its further
    lines indented under its first."""
    events = " ".join(str(events).split())
    if not events:
        return figures
    lines = textwrap.wrap(events, max(chars, 8), break_on_hyphens=False) or [""]
    return figures + GAP + ("\n" + " " * (len(figures) + len(GAP))).join(lines)


def _score_sheets(sheet) -> tuple[list[dict], bool]:
    """Return each table of the sheet for print (its rows as lines of text: the figures and
    what happened) and whether the report is printed in landscape."""
    tables = []
    for sheet_table in sheet.tables:
        table = EveningSheetTable(sheet_table)
        rows = table.print_rows()
        tables.append((sheet_table, table, rows, _figures(table, rows)))
    landscape = _needs_landscape(figures["mm"] for *_, figures in tables)
    page_chars = int(((LANDSCAPE_MM if landscape else PORTRAIT_MM) - ROW_PADDING_MM) / MONO_CHAR_MM)
    out = []
    for sheet_table, table, rows, figures in tables:
        chars = page_chars - len(figures["head"]) - len(GAP)
        for row, text in zip(rows, figures["rows"], strict=True):
            row["text"] = _with_events(text, row["events"], chars)
        out.append(
            {
                "sheet": sheet_table,
                "table": table,
                "rows": rows,
                "head": _with_events(figures["head"], figures["headers"][-1], chars),
                "foot": figures["foot"],
            }
        )
    return out, landscape


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
        "hands_table": MemberHandsTable(
            selectors.member_hands(season=season, member=member), orderable=False
        ),
    }
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
    data = reads.round_table_sheet(round_, round_table, number)
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
