"""The public results pages of a club that publishes them: no log-in, names and points.

``/p/<club>/`` shows the running season's standings, its closed evenings and links to the
club's tournaments (those with a published draw), ``standings/``
another season's (``?season=``), ``evening/<pk>/`` a closed evening's results, ``t/<pk>/`` a
tournament's ranking and its published draws. Every page
answers 404 unless the club publishes its results, and an open evening is never shown, so a
page reveals nothing of a club that keeps them private, not even that it exists. Money shows
only when the club also publishes it; nothing links into the logged-in site but "Log in",
and no URL names a member.
"""

from __future__ import annotations

from django.http import Http404
from django.shortcuts import render
from django.views.decorators.http import require_safe

from ledger import selectors
from ledger.games.web import stats_notes
from ledger.selectors import tournaments as reads
from ledger.selectors.chain import club_head
from ledger.tables.season import PublicResultsTable, PublicStandingsTable, PublicTableTable
from ledger.tables.tournaments import TournamentStandingsTable
from ledger.views.tournament_sheets import kept_as, kept_standings
from ledger.web import render_cache
from ledger.web.http import found, picked_season


def _money_excluded(club) -> tuple[str, ...]:
    return () if club.publish_money else ("money",)


def _standings(request, club: str, *, value: str | None, tournaments: bool = False):
    public = found(
        selectors.published_club(slug=club, known=getattr(request, "url_club", None)), "club"
    )
    seasons = selectors.seasons_for_club(club=public)
    season = picked_season(seasons=seasons, value=value)
    context = {"public_club": public, "seasons": seasons, "season": season}
    if tournaments:
        context["tournaments"] = selectors.published_tournaments(club=public)
        # The club's chain head, witnessed by anyone who reads the page (see ledger_head).
        context["ledger_head"] = club_head(public.pk)
    if season is not None:
        # Published results are the closed evenings' only: an open evening is never public.
        # A member who left the club (inactive) is not named on the public pages.
        rows = selectors.standings_for_season(season=season, closed_only=True, active_only=True)
        context.update(
            table=PublicStandingsTable(rows, exclude=_money_excluded(public)),
            stats_notes=stats_notes(rows.games or [public.game]),
            evenings=selectors.closed_evenings(season=season),
        )
    return render(request, "ledger/public/standings.html", context)


@require_safe
def public_club(request, club):
    """The club's public page: the running season's standings, its closed evenings, the
    other seasons and the club's tournaments (those with a published draw)."""
    return _standings(request, club, value=None, tournaments=True)


@require_safe
def public_standings(request, club):
    """A season's standings on the public page (``?season=<id>``)."""
    return _standings(request, club, value=request.GET.get("season"))


@require_safe
def public_evening(request, club, pk):
    """A closed evening's results: each member's result, then each table's members and points."""
    public = found(
        selectors.published_club(slug=club, known=getattr(request, "url_club", None)), "club"
    )
    evening = found(selectors.published_evening(club=public, pk=pk), "evening")
    data = selectors.evening_results(evening=evening)
    excluded = _money_excluded(public)
    context = {
        "public_club": public,
        "evening": evening,
        "results_table": PublicResultsTable(data.results, exclude=excluded),
        "tables": [(t.number, PublicTableTable(t.lines)) for t in data.tables],
    }
    return render(request, "ledger/public/evening.html", context)


@require_safe
def public_tournament(request, club, pk):
    """A tournament's ranking (after the closed rounds) and its published draws."""
    public = found(selectors.published_club(slug=club), "club")
    tournament = found(reads.tournament_for_club(club=public, pk=pk), "tournament")
    if tournament.status == tournament.Status.CANCELLED:
        raise Http404("cancelled")
    rounds = list(tournament.rounds.exclude(status="drafted").order_by("number"))
    # The ranking and its rendering kept by the tournament's version, as the director's
    # standings are: a full hall's spectators rank and render 138 lines once per change.
    table = TournamentStandingsTable.of(kept_standings(tournament), ladder=True)
    render_cache.keep(table, request, rows=kept_as(tournament))
    context = {
        "public_club": public,
        "tournament": tournament,
        "table": table,
        "draws": [reads.round_view(r) for r in rounds],
        "rules": reads.rules_note(tournament),
    }
    return render(request, "ledger/public/tournament.html", context)
