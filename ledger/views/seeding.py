"""How a tournament is seeded, on the director's page (``federation.md`` section 2, "What
the ladder feeds"; section 3): the series whose ladder gives every entry his ladder rank as of
the day before (or a rating list, ``federation_ratings.tournament_rating``), each rank shown
with its source, and the director's override of one rank with a logged reason."""

from __future__ import annotations

from django.contrib import messages
from django.shortcuts import redirect
from django.utils.translation import gettext
from django.views.decorators.http import require_POST

from ledger.models import Member
from ledger.selectors import federation as federation_reads
from ledger.selectors import ratings as rating_reads
from ledger.selectors import tournaments as tournament_reads
from ledger.services import federation as federation_services
from ledger.services.errors import LedgerError
from ledger.web.http import found
from ledger.web.permissions import club_role
from ledger.web.refusals import refuse_message


def seeding_context(tournament, entries, *, changing: bool, drawn: bool) -> dict:
    """What the director's page shows of the seeding: each entry's rank source (set on the
    entries), the rating lists and the ladder series he may choose, the one chosen, and the
    qualifying series that may fill a Masters (before round 1)."""
    sources = rating_reads.rank_sources(tournament)
    for entry in entries:
        entry.rank_source = sources.get(entry.code, "")
    rating_lists = rating_reads.tournament_rating_lists(tournament)
    series = [s for s in federation_reads.club_series(tournament.club) if s.game == tournament.game]
    return {
        "rating_lists": rating_lists,
        "seeded_by": next((x for x in rating_lists if x.pk == tournament.rating_list_id), None),
        "ladder_series": series if changing else [],
        "qualifying": federation_reads.qualifying_series(tournament)
        if changing and not drawn
        else [],
    }


def _back(request, tournament):
    return redirect("tournament", club=request.club.slug, pk=tournament.pk)


@club_role(Member.Role.ADMIN)
@require_POST
def tournament_ladder(request, pk):
    """The director names the series whose ladder seeds the tournament and every entry takes
    his ladder rank from it (as of the day before the tournament); an empty choice names none.
    A rating list chosen before gives way to the series."""
    tournament = found(tournament_reads.tournament_for_club(club=request.club, pk=pk), "tournament")
    value = request.POST.get("series", "")
    choices = [s for s in federation_reads.club_series(request.club) if s.game == tournament.game]
    chosen = next((s for s in choices if str(s.pk) == value), None)
    if value and chosen is None:
        messages.error(request, gettext("series: choose one of the series shown."))
        return _back(request, tournament)
    try:
        if tournament.rating_list_id is not None:
            federation_services.tournament_rating_set(
                tournament=tournament, rating_list=None, by=request.user
            )
            tournament.refresh_from_db()
        federation_services.tournament_ladder_set(
            tournament=tournament, series=chosen, by=request.user
        )
        if chosen is not None:
            federation_services.ladder_ranks_apply(tournament=tournament, by=request.user)
    except LedgerError as error:
        refuse_message(request, error, named=True, tournament=tournament.pk)
    else:
        if chosen is not None:
            messages.success(
                request,
                gettext("The ladder ranks are taken from {name}.").format(name=chosen.name),
            )
    return _back(request, tournament)


@club_role(Member.Role.ADMIN)
@require_POST
def tournament_ladder_rank(request, pk):
    """The director overrides one entry's ladder rank, giving the reason (logged on the
    tournament with the rank before and after)."""
    tournament = found(tournament_reads.tournament_for_club(club=request.club, pk=pk), "tournament")
    entry = tournament.entries.filter(code=request.POST.get("entry", "")[:40]).first()
    if entry is None:
        messages.error(request, gettext("entry: choose one of the entries shown."))
        return _back(request, tournament)
    try:
        federation_services.ladder_rank_override(
            entry=entry,
            rank=request.POST.get("ladder_rank", ""),
            reason=request.POST.get("reason", "")[:200],
            by=request.user,
        )
    except LedgerError as error:
        refuse_message(request, error, named=True, tournament=tournament.pk)
    else:
        messages.success(
            request, gettext("{name}'s ladder rank is overridden.").format(name=entry.name)
        )
    return _back(request, tournament)
