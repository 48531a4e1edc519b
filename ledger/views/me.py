"""A member's own page ("Min side"): tonight so far, his season, its chart, his last hands."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.shortcuts import render
from django.utils.translation import gettext
from django_tables2 import RequestConfig

from ledger import selectors
from ledger.games.money import signed_points
from ledger.games.registry import get_web
from ledger.selectors.federation import player_ladder_lines
from ledger.selectors.ratings import user_players
from ledger.selectors.tournaments import my_tournaments
from ledger.tables.federation import PlayerResultsTable
from ledger.tables.season import standing_summary
from ledger.web import charts, render_cache
from ledger.web.http import picked_season
from ledger.web.permissions import club_role

# The chart is drawn 720 units wide and shown about 358 px wide on a 390 px phone: 24 units
# are 11.9 px there, so its labels stay legible (>= 11 px).
PHONE_FONT_SIZE = 24


@club_role()
def my_page(request):
    member = request.member
    context = {"member": member}
    if member is None:
        return render(request, "ledger/me/my_page.html", context)
    seasons = selectors.seasons_for_club(club=request.club)
    season = picked_season(seasons=seasons, value=request.GET.get("season"))
    context.update(
        tonight=selectors.tonight(member=member),
        tournaments=my_tournaments(member=member),
        season=season,
        seasons=seasons,
    )
    if season is not None:
        data = selectors.member_season(season=season, member=member)
        rank, ranked = selectors.season_rank(season=season, member=member)
        evenings = list(reversed(data.evenings))
        context.update(
            standing=data.standing,
            summary=standing_summary(data.standing, request.club.currency, data.games),
            rank=rank,
            ranked=ranked,
            evenings=evenings,
            best_evening_id=next(
                (
                    e["evening_id"]
                    for e in evenings
                    if data.standing.best is not None
                    and e["points"] == data.standing.best
                    and e["date"] == data.standing.best_date
                ),
                None,
            ),
            hands=selectors.last_hands(season=season, member=member),
            chart=charts.cumulative_points_svg(
                points=[(e["date"], e["cumulative"]) for e in data.evenings],
                title=gettext("Points over the season: {name}").format(name=member.name),
                font_size=PHONE_FONT_SIZE,
                height=360,
            )
            if data.evenings
            else "",
        )
    for hand in context.get("hands", []):
        hand.words = "; ".join(get_web(hand.game).outcome_words(hand.outcome, brief=True))
        hand.net_text = signed_points(hand.net)
    for evening in context.get("evenings", []):
        evening["points_text"] = signed_points(evening["points"])
        evening["cumulative_text"] = signed_points(evening["cumulative"])
    for item in context.get("tonight", []):
        item.balance_text = signed_points(item.balance)
    return render(request, "ledger/me/my_page.html", context)


# The results a player's page shows at once (``?p<player>-page=``), newest first.
RESULTS_PAGE = 50


@login_required
def my_player(request):
    """The user's own player page across clubs (site-level): each player his memberships link
    to, with his clubs, tournament results and imported placings (``RESULTS_PAGE`` a page),
    his lines on the kept ladders and his ratings explained (their rated tables a page at a
    time)."""
    players = []
    for page in user_players(request.user):
        results = PlayerResultsTable(page.results, prefix=f"p{page.player.pk}-")
        RequestConfig(request, paginate={"per_page": RESULTS_PAGE}).configure(results)
        render_cache.keep(results, request, rows=page.results)
        ladders = player_ladder_lines(page.player)
        players.append({"page": page, "results": results, "ladders": ladders})
    return render(request, "ledger/me/my_player.html", {"players": players})
