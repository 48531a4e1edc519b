"""A tournament's sheets and the hall's screen: the draw, a round's result and a table's sheet
as PDF, the standings with their exports and ranking PDF, the wall."""

from __future__ import annotations

import logging

from django.http import Http404, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django_tables2 import RequestConfig

from ledger import reports
from ledger.exports import FORMATS, SafeTableExport
from ledger.models import Round
from ledger.selectors import round_tables as table_reads
from ledger.selectors import tournaments as reads
from ledger.selectors.results_file import results_document
from ledger.services.errors import LedgerError
from ledger.tables.tournaments import TournamentStandingsTable
from ledger.views.tournaments import ADMIN, round_clock, round_of, tournament_of
from ledger.web import kept, kept_pdfs, render_cache
from ledger.web.http import found
from ledger.web.permissions import can, club_role
from ledger.web.refusals import refuse_message

logger = logging.getLogger(__name__)


@club_role(ADMIN)
def round_pdf(request, pk):
    """The round's draw sheet as a PDF for the notice board."""
    round_ = round_of(request, pk)
    return pdf_response(request, lambda: reports.tournament_draw_pdf(round_=round_))


def _published(request, round_: Round) -> Round:
    """Return ``round_`` unless its draw is unpublished and the reader is not the director
    (404: an unpublished draw may still change, so only the director reads it)."""
    if round_.status == Round.Status.DRAFTED and not can(request, ADMIN):
        raise Http404("No such round")
    return round_


@club_role()
def round_result_pdf(request, pk):
    """The round's result as a PDF in large type for the notice board: every table's
    scores, places and points, the byes, the standings after the round."""
    round_ = _published(request, round_of(request, pk))
    key, render = kept_pdfs.round_result(round_, request.club)
    return pdf_response(request, render, key)


@club_role()
def round_table_sheet_pdf(request, pk, number):
    """A round table's sheet to sign: the ordinary table sheet with the tournament's facts,
    each player's table score, place and points and a line to sign."""
    round_, rt = found(
        table_reads.round_table_for_club(club=request.club, round_pk=pk, number=number), "table"
    )
    _published(request, round_)
    return pdf_response(
        request,
        lambda: reports.round_table_sheet_pdf(round_=round_, round_table=rt, number=number),
    )


def pdf_response(request, render, key: str | None = None) -> HttpResponse:
    """Serve the report kept under ``key``, else the one ``render()`` returns, rendered under
    the user's lock (one render at a time per user, ``ledger.web.kept``; 429 while his last
    one is under way) and kept when there is a key (``ledger.web.kept_pdfs``)."""
    try:
        filename, content_type, content = kept.kept_report(request, key, render)
    except kept.Busy:
        return kept.busy_response()
    response = HttpResponse(content, content_type=content_type)
    response["Content-Disposition"] = f'inline; filename="{filename}"'
    return response


# --- standings and the wall ----------------------------------------------------------------


def kept_standings(tournament) -> reads.Standings:
    """Return the standings after the closed rounds, kept by the tournament's version (raised
    by every service that changes its entries, draws or results): the engine ranks every
    entry once per close, correction or entry change, not once per reader."""
    return render_cache.kept(
        f"tournament-standings:{kept_as(tournament)}", lambda: reads.standings_after(tournament)
    )


def kept_as(tournament) -> str:
    """Return what names a tournament's state where its standings are kept: its id, when it
    was made (another database's tournament of the same id differs there) and its version."""
    return f"{tournament.pk}:{tournament.created_at.timestamp()}:{tournament.version}"


def _standings_table(request, tournament):
    """Return the standings' table: the ranking PDF's columns (ladder rank, rounds, total,
    final, tie-breaks in the format's order, rounds played, byes, status)."""
    table = TournamentStandingsTable.of(kept_standings(tournament), ladder=True)
    RequestConfig(request, paginate=False).configure(table)
    # The rows (and the rounds' columns) follow from the version: it keys the HTML too.
    render_cache.keep(table, request, rows=kept_as(tournament))
    return table


@club_role()
def tournament_standings(request, pk):
    """The standings after the closed rounds (provisional until the tournament is final);
    CSV and XLSX with ``?_export=``."""
    tournament = tournament_of(request, pk)
    table = _standings_table(request, tournament)
    export_format = request.GET.get("_export")
    name = f"ranking-{request.club.slug}-{tournament.pk}"
    if export_format in FORMATS:
        exporter = SafeTableExport(export_format, table, dataset_kwargs={"title": name[:31]})
        return exporter.response(filename=f"{name}.{export_format}")
    return render(
        request,
        "ledger/tournaments/standings.html",
        {"tournament": tournament, "table": table, "is_director": can(request, ADMIN)},
    )


@club_role()
def tournament_ranking_pdf(request, pk):
    """The ranking (provisional or final) as a PDF in large type for the notice board."""
    tournament = tournament_of(request, pk)
    key, render = kept_pdfs.ranking(tournament, request.club)
    return pdf_response(request, render, key)


@club_role(ADMIN)
def tournament_results_file(request, pk):
    """The final tournament's results file for its federation (``tarokclub.results/1``), as a
    download; a tournament not final, or of a club of no federation, goes back to its page
    with the reason."""
    tournament = tournament_of(request, pk)
    try:
        document = results_document(tournament, exported_at=timezone.now())
    except LedgerError as error:
        refuse_message(request, error, tournament=tournament.pk)
        return redirect(tournament.get_absolute_url())
    response = JsonResponse(document, json_dumps_params={"ensure_ascii": False, "indent": 2})
    filename = f"results-{tournament.pk}-r{document['revision']}.json"
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


@club_role()
def tournament_wall(request, pk):
    """The hall's screen: the round's countdown in large type, where every player sits
    (alphabetically) and, once a round has closed, the live standings; before that the
    published draw by table (a ranking of all at 0 in lot order would mislead). Lists too long
    for the screen page by themselves (static/ledger/wall-pages.js); refreshed by htmx."""
    tournament = tournament_of(request, pk)
    current = tournament.rounds.exclude(status=Round.Status.DRAFTED).order_by("-number").first()
    standings = kept_standings(tournament)
    seats = table_reads.where_to_sit(current)
    drawn = standings.rounds == 0
    context = {
        "tournament": tournament,
        "club": request.club,
        "round": current,
        "clock": round_clock(current)
        if current and current.status == Round.Status.PLAYING
        else None,
        "seats": seats,
        "draw": table_reads.draw_of(seats) if drawn else None,
        "standings": None if drawn else standings.lines,
    }
    if request.htmx:
        return render(request, "ledger/tournaments/_wall_live.html", context)
    return render(request, "ledger/tournaments/wall.html", context)
