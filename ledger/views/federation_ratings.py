"""A federation's rating lists for its officers (``federation.md`` section 3): the lists,
a new list, a list's recomputation (POST) and its current ratings; and the director's
seeding of a tournament by a rating list (a club admin's POST under the club's URLs)."""

from __future__ import annotations

from django.contrib import messages
from django.http import Http404
from django.shortcuts import redirect, render
from django.utils.translation import gettext
from django.views.decorators.http import require_POST
from django_tables2 import RequestConfig

from ledger.forms.ratings import RatingListForm
from ledger.models import Member
from ledger.selectors import ratings as reads
from ledger.selectors import tournaments as tournament_reads
from ledger.services import federation as federation_services
from ledger.services.errors import LedgerError
from ledger.services.federation import ratings as service
from ledger.tables.federation import RatingsTable
from ledger.web.federation_access import federation_officer
from ledger.web.http import found
from ledger.web.permissions import club_role
from ledger.web.refusals import refuse, refuse_message


def _params_field(field: str) -> str:
    """The form's field of a refused parameter (``params.k_factor``: ``k_factor``)."""
    return field.removeprefix("params.")


def _page(request, form, status=200):
    federation = request.federation
    lists = reads.federation_lists(federation)
    chosen = next((x for x in lists if str(x.pk) == request.GET.get("list")), None)
    chosen = chosen or (lists[0] if lists else None)
    table = None
    if chosen is not None:
        table = RatingsTable(reads.list_ratings(chosen))
        RequestConfig(request, paginate=False).configure(table)
    return render(
        request,
        "ledger/federation/ratings.html",
        {"federation": federation, "lists": lists, "chosen": chosen, "table": table, "form": form},
        status=status,
    )


@federation_officer()
def federation_ratings(request):
    """The federation's rating lists, the current ratings of one, and a new list (POST)."""
    form = RatingListForm(request.POST or None)
    if request.method != "POST":
        return _page(request, form)
    if form.is_valid():
        try:
            created = service.rating_list_create(
                federation=request.federation,
                name=form.cleaned_data["name"],
                params=form.params(),
                club_evenings=form.cleaned_data["club_evenings"],
                by=request.user,
            )
        except LedgerError as error:
            refuse(request, error, form, fields=_params_field)
        else:
            messages.success(request, gettext("The rating list is created and rated."))
            return redirect(f"{request.path}?list={created.pk}")
    return _page(request, form, status=422)


@federation_officer()
@require_POST
def federation_rating_recompute(request, pk):
    """Re-rate a list from its first table (its rows are derived: rebuilt from the events)."""
    rating_list = next((x for x in reads.federation_lists(request.federation) if x.pk == pk), None)
    if rating_list is None:
        raise Http404
    tables = service.rating_list_recompute(rating_list=rating_list)
    messages.success(
        request,
        gettext("{name}: {count} tables rated.").format(name=rating_list.name, count=tables),
    )
    return redirect("federation_ratings", federation=request.federation.slug)


@club_role(Member.Role.ADMIN)
@require_POST
def tournament_rating(request, pk):
    """The director seeds a tournament from a rating list (its ladder ranks by rating as of
    the day before, the unrated after), or names none (``rating_list`` empty)."""
    tournament = found(tournament_reads.tournament_for_club(club=request.club, pk=pk), "tournament")
    value = request.POST.get("rating_list", "")
    lists = reads.tournament_rating_lists(tournament)
    chosen = next((x for x in lists if str(x.pk) == value), None)
    if value and chosen is None:
        messages.error(request, gettext("rating_list: choose one of the lists shown."))
        return redirect("tournament", club=request.club.slug, pk=tournament.pk)
    try:
        federation_services.tournament_rating_set(
            tournament=tournament, rating_list=chosen, by=request.user
        )
        if chosen is not None:
            federation_services.ladder_ranks_apply(tournament=tournament, by=request.user)
    except LedgerError as error:
        refuse_message(request, error, tournament=tournament.pk)
    return redirect("tournament", club=request.club.slug, pk=tournament.pk)
