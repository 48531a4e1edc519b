"""The treasurer and the season: standings, member pages, evening sheets, jetons, PDFs (issue 5).

Views are thin: they read through ``ledger.selectors``, write through
``ledger.services`` (counting jetons, adjustments, closing and reopening), show a refused
write (``LedgerError``) on its form (``refuse``), and wrap the ``(filename, content_type,
bytes)`` of ``ledger.reports`` in a response. Members read; only treasurers count, adjust, close and
reopen. Every object is looked up inside the club of the URL, so another club's gets 404.
"""

from __future__ import annotations

from django.contrib import messages
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.safestring import mark_safe
from django.utils.text import slugify
from django.utils.translation import gettext
from django.views.decorators.http import require_POST
from django.views.generic import TemplateView
from django_tables2 import LazyPaginator, RequestConfig, SingleTableMixin
from django_tables2.export import ExportMixin

from ledger import selectors, services
from ledger.exports import FORMATS, SafeTableExport
from ledger.forms.treasury import AdjustmentForm, CloseForm, JetonCountForm, ReopenForm
from ledger.games.money import signed_points
from ledger.games.registry import get_game
from ledger.games.web import stats_notes
from ledger.models import Member, Table
from ledger.selectors.privacy import erased_seat_names
from ledger.services.errors import JetonDifferenceError, LedgerError
from ledger.tables.columns import price_text
from ledger.tables.season import (
    MemberEveningsTable,
    MemberHandsTable,
    SeasonEveningsTable,
    StandingsTable,
    open_evening_notes,
    standing_summary,
)
from ledger.tables.sheet import EveningSheetTable, JetonTable, settlement_table
from ledger.views.home import to_tournament
from ledger.web import charts, kept, kept_pdfs, render_cache
from ledger.web.http import found, picked_season
from ledger.web.permissions import ClubRequest, can, club_role
from ledger.web.refusals import refuse

TREASURER = Member.Role.TREASURER
EXPORT_FORMATS = FORMATS
# Before the close only the balances mean anything: the close's lines and the money come at
# closing.


# --- helpers -------------------------------------------------------------------------------


def _season(request, *, required: bool = False):
    """Return the season chosen by ``?season=`` (default: the running one) and all seasons.

    The season is None when the club has none yet (Http404 when ``required``).
    """
    seasons = selectors.seasons_for_club(club=request.club)
    season = picked_season(seasons=seasons, value=request.GET.get("season"))
    if season is None and required:
        raise Http404("No season yet")
    return season, seasons


def _urls(club: str, season=None) -> dict:
    """Return the URL builders the tables link with."""
    query = f"?season={season.pk}" if season else ""
    return {
        "member_url": lambda pk: reverse("member_season", kwargs={"club": club, "pk": pk}) + query,
        "sheet_url": lambda pk: reverse("evening_sheet", kwargs={"club": club, "pk": pk}),
        "pdf_url": lambda pk: reverse("evening_sheet_pdf", kwargs={"club": club, "pk": pk}),
        "treasury_url": lambda pk: reverse("evening_treasury", kwargs={"club": club, "pk": pk}),
    }


def _member(request, pk: int) -> Member:
    member = Member.objects.filter(club=request.club, pk=pk).first()
    if member is None:
        raise Http404("No such member")
    return member


def _file_response(report: tuple[str, str, bytes], *, attachment: bool = False) -> HttpResponse:
    filename, content_type, content = report
    response = HttpResponse(content, content_type=content_type)
    disposition = "attachment" if attachment else "inline"
    response["Content-Disposition"] = f'{disposition}; filename="{filename}"'
    return response


def _export(request, table, name: str):
    """Return the table as CSV or XLSX when ``?_export=`` asks for it, else None."""
    export_format = request.GET.get("_export")
    if export_format not in EXPORT_FORMATS:
        return None
    exporter = SafeTableExport(export_format, table, dataset_kwargs={"title": name[:31]})
    return exporter.response(filename=f"{name}.{export_format}")


# --- standings and member pages ------------------------------------------------------------


class StandingsView(ExportMixin, SingleTableMixin, TemplateView):
    """The season's standings: sortable, paginated, exported to CSV and XLSX."""

    request: ClubRequest  # through ``club_role``

    template_name = "ledger/standings.html"
    table_class = StandingsTable
    table_pagination = {"per_page": 30}
    export_formats = EXPORT_FORMATS
    export_class = SafeTableExport  # formulas neutralised (ledger/exports.py)

    def dispatch(self, request, *args, **kwargs):
        self.season, self.seasons = _season(request)
        if self.season is not None:
            self.export_name = f"standings-{request.club.slug}-{slugify(self.season.name)}"
        return super().dispatch(request, *args, **kwargs)

    def get_table_data(self):
        # Read once: an export builds the table a second time.
        if not hasattr(self, "rows"):
            self.rows = selectors.standings_for_season(season=self.season) if self.season else []
        return self.rows

    def get_table_kwargs(self):
        return {"member_url": _urls(self.request.club.slug, self.season)["member_url"]}

    def get_dataset_kwargs(self):
        return {"title": str(self.season.name)[:31] if self.season else "standings"}

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        context.update(season=self.season, seasons=self.seasons, export_formats=EXPORT_FORMATS)
        if self.season is None:
            return context
        games = getattr(self.get_table_data(), "games", None) or [self.request.club.game]
        context["stats_notes"] = stats_notes(games)
        if self.request.GET.get(self.export_trigger_param) not in self.export_formats:
            # +1 query: an open evening's points count already (not asked for an export).
            context["open_notes"] = open_evening_notes(selectors.season_open_evenings(self.season))
        if self.request.club.publish_results:
            context["public_url"] = (
                reverse("public_standings", kwargs={"club": self.request.club.slug})
                + f"?season={self.season.pk}"
            )
        urls = _urls(self.request.club.slug)
        if not can(self.request, TREASURER):
            urls["treasury_url"] = None
        # A list (one query, a season's evenings are few), so its rendering can be kept.
        rows = list(selectors.season_evenings(season=self.season))
        evenings = SeasonEveningsTable(
            rows,
            prefix="ev-",
            sheet_url=urls["sheet_url"],
            pdf_url=urls["pdf_url"],
            treasury_url=urls["treasury_url"],
        )
        RequestConfig(self.request, paginate={"per_page": 20}).configure(evenings)
        render_cache.keep(
            evenings,
            self.request,
            rows=[(e.pk, e.date, e.status, e.n_tables, e.n_hands) for e in rows],
        )
        render_cache.keep(
            context["table"],
            self.request,
            rows=(self.season.pk, self.get_table_data().stats_columns, list(self.get_table_data())),
        )
        context["evenings_table"] = evenings
        return context


standings = club_role()(StandingsView.as_view())


@club_role()
def member_season(request, pk):
    """A member's season: totals, a chart of cumulative points, his evenings and hands. The
    page is kept by the season's seals and the reader (``ledger.web.kept``): a hand saved at
    any of the season's tables, a close or a reopen renders it again."""
    member = _member(request, pk)
    season, seasons = _season(request)
    if season is None:
        body = _member_season_body(request, member, None, [])
    elif request.GET.get("_export") in EXPORT_FORMATS:
        return _member_season_export(request, member, season)
    else:
        club = request.club
        frame = (
            kept.names(club),  # his and the dealers' names (a rename, an erasure)
            club.currency,
            (member.name, member.role),
            [(s.pk, s.name, s.starts_on, s.ends_on) for s in seasons],  # the picker
        )
        key = kept.reader_key(request, kept.version_of(kept.season_seals(season)), *frame)
        body = kept.kept_page_part(
            key, lambda: _member_season_body(request, member, season, seasons)
        )
    context = {"member": member, "season": season, "body": mark_safe(body)}  # noqa: S308
    return render(request, "ledger/member_season.html", context)


def _member_season_tables(request, member, season):
    """Return the member's season's figures and its two tables: his evenings, his hands."""
    data = selectors.member_season(season=season, member=member)
    urls = _urls(request.club.slug, season)
    evenings = MemberEveningsTable(
        data.evenings,
        prefix="ev-",
        stats_columns=data.stats_columns,
        sheet_url=urls["sheet_url"],
    )
    hands = MemberHandsTable(
        selectors.member_hands(season=season, member=member),
        prefix="h-",
        sheet_url=urls["sheet_url"],
        names=erased_seat_names(season=season),
    )
    return data, evenings, hands


def _member_season_export(request, member, season):
    """Return his evenings, or his hands (``?table=hands``), as CSV or XLSX."""
    _data, evenings, hands = _member_season_tables(request, member, season)
    base = f"{slugify(member.name)}-{slugify(season.name)}"
    if request.GET.get("table") == "hands":
        return _export(request, hands, f"hands-{base}")
    return _export(request, evenings, f"evenings-{base}")


def _member_season_body(request, member, season, seasons) -> str:
    """Render the member's season page's content (no season: the page says so)."""
    context = {"member": member, "season": season, "seasons": seasons}
    if season is not None:
        data, evenings, hands = _member_season_tables(request, member, season)
        RequestConfig(request, paginate=False).configure(evenings)
        render_cache.keep(evenings, request, rows=(member.pk, data.stats_columns, data.evenings))
        # No count of every hand he played: the pages are "previous" and "next" (LazyPaginator).
        RequestConfig(
            request, paginate={"per_page": 25, "paginator_class": LazyPaginator}
        ).configure(hands)
        render_cache.keep(hands, request, rows=hands.page_values())
        points = [(e["date"], e["cumulative"]) for e in data.evenings]
        title = gettext("Points over the season: {name}").format(name=member.name)
        chart = render_cache.kept(
            render_cache.digest("season-chart", title, points),
            lambda: str(charts.cumulative_points_svg(points=points, title=title)),
        )
        context.update(
            standing=data.standing,
            summary=standing_summary(data.standing, request.club.currency, data.games),
            evenings_table=evenings,
            hands_table=hands,
            chart=mark_safe(chart) if data.evenings else "",  # noqa: S308 - the chart's SVG
        )
    return render_to_string("ledger/treasury/_member_season_body.html", context, request=request)


# --- the evening sheet ---------------------------------------------------------------------


def _sheet_context(request, evening) -> dict:
    """Return the evening sheet's context; the reader's own column comes first at his tables,
    and his result of the evening is ``mine``."""
    sheet = selectors.evening_sheet(evening=evening)
    member = getattr(request, "member", None)
    name = member.name if member is not None else None
    return {
        "evening": evening,
        "nav_evening": evening,
        "sheet": sheet,
        "sheet_tables": [_sheet_table(s, name) for s in sheet.tables],
        "mine": next((r for r in sheet.settlement if r.name == name), None),
        "settlement_table": settlement_table(sheet),
        "price": price_text(evening.price_per_point),
    }


def _sheet_table(sheet_table, name: str | None) -> dict:
    """Return a table of the sheet with the reader's own column first (the rest in seat
    order), whether he sat there, and each member's total at it."""
    members = sorted(sheet_table.seats, key=lambda seat: seat != name)
    return {
        "sheet": sheet_table,
        "table": EveningSheetTable(sheet_table, members=members),
        "mine": name in sheet_table.seats,
        "totals": [(n, sheet_table.balances.get(n, 0)) for n in members],
    }


@club_role()
def evening_sheet(request, pk):
    """The evening's score sheets (a row per hand, a column per member, transfers a tap
    away), the reader's own result first, the split and the results; the rendered sheet is
    kept by the evening's version and the reader, and each table's part by its table's seal
    for every reader it looks the same to (``ledger.web.kept``)."""
    evening = found(selectors.evening_for_club(club=request.club, pk=pk), "evening")
    club = request.club
    seals = kept.evening_seals(club, evening.pk)
    frame = (kept.names(club), club.currency, club.time_zone)  # names, money, the log's times
    key = kept.reader_key(request, kept.version_of(seals), *frame)
    body = kept.kept_page_part(key, lambda: _sheet_body(request, evening, seals, frame))
    context = {"evening": evening, "nav_evening": evening, "sheet_body": mark_safe(body)}  # noqa: S308
    return render(request, "ledger/treasury/sheet.html", context)


def _sheet_body(request, evening, seals: list[tuple], frame: tuple) -> str:
    """Render the evening sheet's content, each table's part kept by its table's seal, the
    reader's name among its parts only where he sat (his column comes first there)."""
    context = _sheet_context(request, evening)
    for t in context["sheet_tables"]:
        table = t["sheet"].table
        mine = t["table"].members[0] if t["mine"] else ""
        part_key = kept.table_part_key(seals, table.pk, mine, request.club.slug, evening.pk, *frame)
        t["html"] = mark_safe(  # noqa: S308
            kept.kept_local_part(
                part_key,
                # No context processors: the part shows the table and the club's address only.
                lambda t=t: render_to_string(
                    "ledger/treasury/_sheet_table_part.html",
                    {"t": t, "club": request.club, "evening": evening, "request": request},
                ),
            )
        )
    return render_to_string("ledger/treasury/_sheet_body.html", context, request=request)


def _kept_pdf(request, key: str | None, render) -> HttpResponse:
    """Serve the PDF kept under ``key`` or render it, one render at a time per user
    (``ledger.web.kept``); 429 with ``Retry-After`` while the user's last one is under way."""
    try:
        return _file_response(kept.kept_report(request, key, render))
    except kept.Busy:
        return kept.busy_response()


@club_role()
def evening_sheet_pdf(request, pk):
    """The evening's score sheets as a PDF with the settlement and a line for the treasurer's
    and each member's signature; ``?transfers=1`` adds every transfer in an appendix. A closed
    evening's is kept until it is reopened."""
    evening = found(selectors.evening_for_club(club=request.club, pk=pk), "evening")
    transfers = request.GET.get("transfers") == "1"
    return _kept_pdf(request, *kept_pdfs.evening_sheet(evening, transfers))


@club_role()
def table_sheet_pdf(request, pk, table):
    """One table's score sheet on one page, each member's result and a line to sign (kept
    once the evening is closed). A tournament's round table has its own sheet (its round's
    facts, places and points): the address leads there."""
    evening = found(selectors.evening_for_club(club=request.club, pk=pk), "evening")
    table_obj = _table_of(evening, table, related=("round_table",))
    round_table = _round_table_of(table_obj)
    if round_table is not None:
        return redirect(
            "tournament_round_table_sheet_pdf",
            club=request.club.slug,
            pk=round_table.round_id,
            number=round_table.number,
        )
    return _kept_pdf(request, *kept_pdfs.table_sheet(evening, table_obj))


@club_role()
def standings_pdf(request):
    """The season's standings as a PDF (kept until any of its evenings changes)."""
    season, _ = _season(request, required=True)
    return _kept_pdf(request, *kept_pdfs.season_standings(season, request.club))


@club_role()
def member_season_pdf(request, pk):
    """A member's season report as a PDF, kept until any of the season's evenings changes
    (rendered when its evening closes: ``ledger.web.kept_pdfs``)."""
    member = _member(request, pk)
    season, _ = _season(request, required=True)
    return _kept_pdf(request, *kept_pdfs.member_season(season, request.club, member))


# --- the treasurer's screen ----------------------------------------------------------------


def _treasury(request, evening, *, status: int = 200, **forms):
    """Render the treasurer's screen; ``forms`` replace the blank forms (bound, with errors)."""
    jetons = selectors.evening_jetons(evening=evening)
    tables = []
    for table_jetons in jetons:
        table_id = table_jetons.table.pk
        count_form = forms.get(f"count_{table_id}") or JetonCountForm(
            lines=table_jetons.lines,
            prefix=f"t{table_id}",
            initial={
                f"count_{line.account_id}": line.counted
                for line in table_jetons.lines
                if line.counted is not None
            },
        )
        adjust_form = forms.get(f"adjust_{table_id}") or AdjustmentForm(
            names=[line.name for line in table_jetons.lines], prefix=f"a{table_id}"
        )
        tables.append(
            {
                "jetons": table_jetons,
                # A game without jetons (Hungarian) has no count to enter on this screen.
                "uses_jetons": get_game(table_jetons.table.game).features.uses_jetons,
                "table": JetonTable(table_jetons, form=count_form if evening.is_open else None),
                "count_form": count_form,
                "adjust_form": adjust_form,
                "differences": [
                    (name, diff, signed_points(diff))
                    for name, diff in table_jetons.differences.items()
                ],
                "total_difference": signed_points(table_jetons.total_difference),
                # What changed since a stale count (read only for a stale table).
                "stale_changes": (
                    services.stale_count_changes(table_jetons.table) if table_jetons.stale else ""
                ),
            }
        )
    differences = any(t.differences for t in jetons)
    context = _sheet_context(request, evening)
    context.update(
        tables=tables,
        differences=differences,
        close_form=forms.get("close") or CloseForm(),
        reopen_form=forms.get("reopen") or ReopenForm(),
    )
    return render(request, "ledger/treasury/evening.html", context, status=status)


def _table_of(evening, table_pk: int, related: tuple[str, ...] = ()) -> Table:
    table = (
        Table.objects.filter(evening=evening, pk=table_pk)
        .select_related("evening", *related)
        .first()
    )
    if table is None:
        raise Http404("No such table")
    return table


def _round_table_of(table: Table):
    """Return the tournament's round table ``table`` was opened as (read with the table),
    or None for an ordinary table."""
    try:
        return table.round_table
    except Table.round_table.RelatedObjectDoesNotExist:
        return None


def _back(request, evening, anchor: str = ""):
    url = reverse("evening_treasury", kwargs={"club": request.club.slug, "pk": evening.pk})
    return redirect(url + (f"#{anchor}" if anchor else ""))


@club_role(TREASURER)
def evening_treasury(request, pk):
    """The treasurer's screen: expected versus counted jetons, adjustments, close and reopen."""
    evening = found(selectors.evening_for_club(club=request.club, pk=pk), "evening")
    return to_tournament(request, evening) or _treasury(request, evening)


@require_POST
@club_role(TREASURER)
def treasury_count(request, pk, table):
    """Record the jetons counted at one table (the ledger does not change)."""
    evening = found(selectors.evening_for_club(club=request.club, pk=pk), "evening")
    table = _table_of(evening, table)
    (jetons,) = [t for t in selectors.evening_jetons(evening=evening) if t.table == table]
    if request.POST.get("as_expected"):
        return _count_as_expected(request, evening, table, jetons)
    form = JetonCountForm(request.POST, lines=jetons.lines, prefix=f"t{table.pk}")
    if form.is_valid():
        try:
            services.jetons_count(table=table, counts=form.counts(), by=request.user)
        except LedgerError as error:
            names = {line.name: f"count_{line.account_id}" for line in jetons.lines}
            refuse(request, error, form, fields=names, capitalised=True)
        else:
            messages.success(request, gettext("Count saved for table {n}.").format(n=table.number))
            return _back(request, evening, f"table-{table.number}")
    return _treasury(request, evening, status=422, **{f"count_{table.pk}": form})


def _count_as_expected(request, evening, table, jetons):
    """The one tap: every account holds what the ledger expects, at the version shown."""
    form = JetonCountForm(lines=jetons.lines, prefix=f"t{table.pk}")
    form.cleaned_data = {}  # nothing was typed: the refusal is the form's own line
    try:
        version = int(request.POST.get("version", ""))
    except ValueError:
        form.add_error(None, gettext("version: the screen's version is missing; reload it"))
        return _treasury(request, evening, status=422, **{f"count_{table.pk}": form})
    try:
        services.jetons_confirm(table=table, version=version, by=request.user)
    except LedgerError as error:
        refuse(request, error, form, capitalised=True)
        return _treasury(request, evening, status=422, **{f"count_{table.pk}": form})
    messages.success(request, gettext("Table {n}: every count as expected.").format(n=table.number))
    return _back(request, evening, f"table-{table.number}")


@require_POST
@club_role(TREASURER)
def treasury_adjust(request, pk, table):
    """Post an explicit adjustment between two accounts of a table, with a reason."""
    evening = found(selectors.evening_for_club(club=request.club, pk=pk), "evening")
    table = _table_of(evening, table)
    names = list(selectors.table_account_names(table=table))
    form = AdjustmentForm(request.POST, names=names, prefix=f"a{table.pk}")
    if form.is_valid():
        try:
            services.adjustment_post(table=table, by=request.user, **form.cleaned_data)
        except LedgerError as error:
            refuse(request, error, form, capitalised=True)
        else:
            messages.success(
                request,
                gettext("Adjustment posted: {source} → {target} {points}.").format(
                    **form.cleaned_data
                ),
            )
            return _back(request, evening, f"table-{table.number}")
    return _treasury(request, evening, status=422, **{f"adjust_{table.pk}": form})


@require_POST
@club_role(TREASURER)
def treasury_close(request, pk):
    """Close every table by its game (the cups split, the radelc penalties and the pool split, or
    nothing), write the results and lock the evening."""
    evening = found(selectors.evening_for_club(club=request.club, pk=pk), "evening")
    form = CloseForm(request.POST)
    if form.is_valid():
        try:
            services.evening_close(
                evening=evening,
                by=request.user,
                confirm_differences=form.cleaned_data["confirm_differences"],
            )
        except JetonDifferenceError as error:
            refuse(request, error, form, fields="confirm_differences", capitalised=True)
        except LedgerError as error:
            refuse(request, error, form, capitalised=True)
        else:
            messages.success(request, gettext("The evening is closed."))
            kept_pdfs.after_close(request, "evening", evening.pk)
            return _back(request, evening, "results")
    # Refused: the page answers at the close section (the form posts to ``…#close``) with the
    # refusal on top of it and the confirmation box focused (static/ledger/focus.js).
    form.fields["confirm_differences"].widget.attrs["data-focus-on-load"] = ""
    return _treasury(request, evening, status=422, close=form)


@require_POST
@club_role(TREASURER)
def treasury_reopen(request, pk):
    """Reopen a closed evening (the split is reversed); the reason is logged."""
    evening = found(selectors.evening_for_club(club=request.club, pk=pk), "evening")
    form = ReopenForm(request.POST)
    if form.is_valid():
        try:
            services.evening_reopen(
                evening=evening, reason=form.cleaned_data["reason"], by=request.user
            )
        except LedgerError as error:
            refuse(request, error, form, capitalised=True)
        else:
            messages.success(request, gettext("The evening is open again."))
            return _back(request, evening)
    return _treasury(request, evening, status=422, reopen=form)
