"""The federation's pages: a series' ladder under a club's URLs (read-only), and the officers'
pages under ``/f/<federation>/`` (``ledger.web.federation_access``)."""

from __future__ import annotations

from django.contrib import messages
from django.http import Http404, HttpResponseRedirect
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_POST
from django_tables2 import RequestConfig

from ledger import reports
from ledger.exports import FORMATS, SafeTableExport
from ledger.selectors import federation as reads
from ledger.services import federation as services
from ledger.services.errors import LedgerError
from ledger.tables.federation import LadderTable
from ledger.views.tournament_sheets import pdf_response
from ledger.views.tournaments import ADMIN, tournament_of
from ledger.web import render_cache
from ledger.web.federation_access import federation_officer
from ledger.web.permissions import club_role
from ledger.web.refusals import refuse_message


def _club_series(request, pk):
    series = next((s for s in reads.club_series(request.club) if s.pk == pk), None)
    if series is None:
        raise Http404
    return series


def ladder_export(request, series, table, name: str):
    """The ladder as CSV or XLSX when ``?_export=`` asks for it (every text cell neutralised,
    ``ledger.exports``), else None."""
    export_format = request.GET.get("_export")
    if export_format not in FORMATS:
        return None
    exporter = SafeTableExport(export_format, table, dataset_kwargs={"title": name[:31]})
    return exporter.response(filename=f"{name}.{export_format}")


# The lines of a ladder's page; its exports and PDF hold every line.
LADDER_PAGE = 100


def ladder_table(request, series, name: str):
    """The series' kept ladder for a page: ``(table, None)`` with the table showing one page
    of ``LADDER_PAGE`` lines (``?page=``; only that page's lines are read), or ``(None,
    response)``: the whole ladder as CSV or XLSX when ``?_export=`` asks, or a redirect to the
    page and line of the first player whose name holds (or licence is) ``?find=`` (none
    found: the first page, saying so)."""
    table = LadderTable(reads.kept_lines(series))
    exported = ladder_export(request, series, table, name)
    if exported is not None:
        return None, exported
    find = request.GET.get("find", "").strip()[:60]
    if find:
        position = reads.ladder_position(series, find)
        if position is not None:
            page = (position - 1) // LADDER_PAGE + 1
            return None, HttpResponseRedirect(f"{request.path}?page={page}#line-{position}")
        messages.warning(
            request, gettext("No player on the ladder is called “{name}”.").format(name=find)
        )
    RequestConfig(request, paginate={"per_page": LADDER_PAGE}).configure(table)
    render_cache.keep(table, request, rows=table.page_values())
    return table, None


@club_role()
def series_ladder(request, pk):
    """A series' ladder (a series of the club or of a federation it belongs to), a page of
    it (``ladder_table``); CSV and XLSX of all of it with ``?_export=``."""
    series = _club_series(request, pk)
    table, answer = ladder_table(request, series, f"ladder-{request.club.slug}-{series.pk}")
    if answer is not None:
        return answer
    return render(
        request,
        "ledger/federation/ladder.html",
        {
            "series": series,
            "table": table,
            "pdf_url": reverse(
                "series_ladder_pdf", kwargs={"club": request.club.slug, "pk": series.pk}
            ),
            # The club's own cup is changed by its admin (a federation's: by its officers).
            "change_url": reverse("cup_change", kwargs={"club": request.club.slug, "pk": series.pk})
            if series.club_id == request.club.pk and request.club_role == ADMIN
            else None,
        },
    )


@club_role()
def series_ladder_pdf(request, pk):
    """A series' ladder as a PDF in large type for the notice board."""
    series = _club_series(request, pk)
    return pdf_response(request, lambda: reports.series_ladder_pdf(series=series))


@club_role(ADMIN)
@require_POST
def tournament_entries_series(request, pk):
    """Fill the tournament's entries from a qualifying series (``entries_from_series``), the
    director having ticked the confirmation; back to the tournament's page with the outcome."""
    tournament = tournament_of(request, pk)
    given = request.POST.get("series", "")
    series = next(
        (s for s in reads.qualifying_series(tournament) if given.isdigit() and str(s.pk) == given),
        None,
    )
    try:
        if series is None:
            raise LedgerError(_("choose a qualifying series"), "series")
        if not request.POST.get("confirm"):
            raise LedgerError(
                _("tick the box to confirm that the qualified players are entered"),
                "confirm",
            )
        added = services.entries_from_series(tournament=tournament, series=series, by=request.user)
    except LedgerError as error:
        refuse_message(request, error, tournament=tournament.pk)
    else:
        messages.success(request, gettext("{n} entered.").format(n=len(added)))
    return redirect(tournament.get_absolute_url())


@federation_officer()
def federation_home(request):
    """A federation's home for its officers: its game and language, its member clubs, and the
    way to each of the officer's pages."""
    federation = request.federation
    return render(
        request,
        "ledger/federation/home.html",
        {"federation": federation, "clubs": list(federation.clubs.order_by("name"))},
    )
