"""What if: an evening or a season replayed under another rate card, beside the ledger, for the
club's treasurers and admins; the table as CSV or XLSX, and a PDF. Read-only.

The scope is in the address (``whatif/evening/<id>/``, ``whatif/season/<id>/``,
``whatif/tournament/<id>/``), looked up in the club of the URL (another club's is 404); the
card (a tournament: the format) is chosen in a GET form (``ledger.forms.whatif``), so the CSV
and PDF links repeat the same query. Without a choice the comparison is under the scope's own
card or format (no differences: the replay gives the ledger back).
"""

from __future__ import annotations

from django.http import Http404, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils import formats
from django.utils.text import slugify
from django.utils.translation import gettext
from django_tables2 import RequestConfig

from ledger import reports
from ledger.exports import FORMATS, SafeTableExport
from ledger.forms.whatif import TournamentWhatIfForm, WhatIfForm
from ledger.games.registry import get_game, get_web
from ledger.models import Evening, Member, Season, tournament_format_choices
from ledger.selectors import whatif
from ledger.selectors.sheet import evening_for_club
from ledger.selectors.tournaments import tournament_for_club
from ledger.tables.whatif import TournamentWhatIfTable, WhatIfTable
from ledger.web import kept
from ledger.web.permissions import club_role

TREASURER = Member.Role.TREASURER


def _scope(request, scope: str, pk: int):
    """Return ``(title, evenings, game, own card, the scope's object)`` of the club's evening
    or season ``pk``; Http404 for another club's, an unknown scope or a tournament's evening."""
    club = request.club
    if scope == "evening":
        evening = evening_for_club(club=club, pk=pk)
        if evening is None or evening.kind != Evening.Kind.CLUB:
            raise Http404("No such evening")
        title = gettext("Evening {date}").format(
            date=formats.date_format(evening.date, "SHORT_DATE_FORMAT")
        )
        return title, [evening], evening.game, evening.rate_card, evening
    if scope == "season":
        season = Season.objects.filter(club=club, pk=pk).first()
        if season is None:
            raise Http404("No such season")
        evenings = whatif.season_evenings_closed(season)
        game = whatif.game_of_evenings(evenings, club.game)
        own = next((e.rate_card for e in reversed(evenings) if e.game == game), club.rate_card)
        title = gettext("Season {name}").format(name=season.name)
        return title, evenings, game, own, season
    raise Http404("No such scope")


def _compare_tournament(request, pk: int) -> dict:
    """Read the tournament and the format chosen, and rank its rounds both ways."""
    tournament = tournament_for_club(club=request.club, pk=pk)
    if tournament is None:
        raise Http404("No such tournament")
    form = TournamentWhatIfForm(request.GET or None, tournament=tournament)
    context = {
        "scope": "tournament",
        "subject": tournament,
        "scope_title": tournament.name,
        "form": form,
        "result": None,
    }
    if form.is_bound and not form.is_valid():
        return context
    result = whatif.compare_tournament(tournament, form.chosen())
    labels = dict(tournament_format_choices())
    context["result"] = result
    context["format_label"] = labels.get(result.format_whatif, result.format_whatif)
    context["table"] = TournamentWhatIfTable(result.members)
    return context


def _compare(request, scope: str, pk: int) -> dict:
    """Read the scope and the form, and compare: the context of the page and the PDF."""
    if scope == "tournament":
        return _compare_tournament(request, pk)
    title, evenings, game, own, subject = _scope(request, scope, pk)
    own_card = get_game(game).rate_card(own or {}).as_dict()
    form = WhatIfForm(request.GET or None, game=game, club=request.club, own_card=own_card)
    context = {
        "scope": scope,
        "subject": subject,
        "scope_title": title,
        "form": form,
        "result": None,
    }
    if form.is_bound and not form.is_valid():
        return context
    result = whatif.compare(evenings, form.chosen)
    context["result"] = result
    if form.chosen is not None:
        context["changes"] = get_web(game).rate_card_changes(
            form.chosen.rates.as_dict(), base=own_card
        )
    context["table"] = WhatIfTable(result.members)
    return context


@club_role(TREASURER)
def whatif_page(request, scope, pk):
    """The comparison page: choose a card, read the members side by side, download it."""
    return _page(request, scope, pk, _compare(request, scope, pk))


def _page(request, scope, pk, context):
    table = context.get("table")
    if table is not None:
        RequestConfig(request, paginate=False).configure(table)
        export = request.GET.get("_export")
        if export in FORMATS:
            name = f"whatif-{request.club.slug}-{scope}-{pk}"
            exporter = SafeTableExport(export, table, dataset_kwargs={"title": name[:31]})
            return exporter.response(filename=f"{name}.{export}")
    query = request.GET.copy()
    query.pop("_export", None)
    context["query"] = query.urlencode()
    context["pdf_url"] = reverse(
        "whatif_pdf", kwargs={"club": request.club.slug, "scope": scope, "pk": pk}
    )
    if scope == "evening":
        context["back_url"] = reverse("evening", kwargs={"club": request.club.slug, "pk": pk})
    elif scope == "tournament":
        context["back_url"] = reverse("tournament", kwargs={"club": request.club.slug, "pk": pk})
    else:
        context["back_url"] = reverse("standings", kwargs={"club": request.club.slug})
        context["back_url"] += f"?season={pk}"
    status = 422 if context["form"].errors else 200
    return render(request, "ledger/treasury/whatif.html", context, status=status)


@club_role(TREASURER)
def whatif_pdf(request, scope, pk):
    """The comparison as a PDF (rendered under the user's lock; a refused card: the page)."""
    context = _compare(request, scope, pk)
    if context["result"] is None:
        return _page(request, scope, pk, context)
    name = f"whatif-{request.club.slug}-{scope}-{slugify(str(context['scope_title']))}"
    try:
        filename, content_type, content = kept.kept_report(
            request,
            None,
            lambda: reports.whatif_pdf(
                club=request.club,
                title=context["scope_title"],
                result=context["result"],
                filename=f"{name}.pdf",
                table=context["table"],
                format_label=context.get("format_label"),
            ),
        )
    except kept.Busy:
        return kept.busy_response()
    response = HttpResponse(content, content_type=content_type)
    response["Content-Disposition"] = f'inline; filename="{filename}"'
    return response
