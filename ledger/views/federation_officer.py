"""The federation officer's pages under ``/f/<federation>/`` (``federation.md`` sections 1
and 2; every view a ``federation_officer`` view): member clubs, players (search, licence,
merge), series (list, create, change, events, ladder), the federation's log and its officers."""

from __future__ import annotations

from django.http import Http404
from django.middleware.csrf import get_token
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.html import format_html
from django.utils.text import capfirst
from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_http_methods
from django_tables2 import RequestConfig

from ledger.forms.federation import (
    JoinForm,
    LicenceForm,
    MergeForm,
    OfficerForm,
    PlayerSearchForm,
    SeriesEventForm,
    SeriesForm,
)
from ledger.selectors import federation as reads
from ledger.selectors import ratings as rating_reads
from ledger.services import federation as services
from ledger.services.errors import LedgerError
from ledger.tables.federation import (
    EntryTable,
    FederationLogTable,
    MemberClubTable,
    MembershipTable,
    OfficerTable,
    PlacingTable,
    PlayerTable,
    SeriesEventTable,
    SeriesTable,
)
from ledger.views.federation import ladder_table
from ledger.views.series_edit import change_event, change_series
from ledger.web.federation_access import federation_officer
from ledger.web.http import found
from ledger.web.refusals import logged_refusal, refuse

PER_PAGE = 50


def _to(name: str, request, **kwargs):
    return redirect(reverse(name, kwargs={"federation": request.federation.slug, **kwargs}))


def _page(request, template: str, status: int = 200, **context):
    return render(
        request,
        f"ledger/federation/{template}",
        {"federation": request.federation, **context},
        status=status,
    )


@federation_officer()
@require_http_methods(["GET", "POST"])
def federation_clubs(request):
    """The member clubs (name, game, members) and the form that adds a club of the game."""
    federation = request.federation
    form = JoinForm(request.POST or None, clubs=reads.joinable_clubs(federation))
    status = 200
    if request.method == "POST":
        if form.is_valid():
            try:
                services.club_join(
                    federation=federation, club=form.cleaned_data["club"], by=request.user
                )
            except LedgerError as error:
                refuse(request, error, form, capitalised=True)
            else:
                return _to("federation_clubs", request)
        status = 422
    table = MemberClubTable(reads.member_clubs(federation))
    RequestConfig(request, paginate=False).configure(table)
    return _page(request, "clubs.html", status, table=table, form=form)


@federation_officer()
@require_http_methods(["GET"])
def federation_players(request):
    """The federation's players, paginated, searched by name, licence or club (``q``)."""
    search = PlayerSearchForm(request.GET or None)
    q = search.cleaned_data["q"] if search.is_valid() else ""
    table = PlayerTable(reads.search_players(request.federation, q), federation=request.federation)
    RequestConfig(request, paginate={"per_page": PER_PAGE}).configure(table)
    return _page(request, "players.html", table=table, search=search, q=q)


def _player_or_404(request, pk: int):
    player = reads.federation_player(request.federation, pk)
    if player is None:
        raise Http404
    return player


@federation_officer()
@require_http_methods(["GET", "POST"])
def federation_player(request, pk):
    """A player's officer page: his licence (a form), club memberships, tournament entries
    and imported placings (``PER_PAGE`` a page each), his lines on the federation's kept
    ladders and his ratings explained (their rated tables a page at a time)."""
    player = _player_or_404(request, pk)
    form = LicenceForm(request.POST or None, initial={"licence": player.licence})
    status = 200
    if request.method == "POST":
        if form.is_valid():
            try:
                services.player_set_licence(
                    player=player,
                    federation=request.federation,
                    licence=form.cleaned_data["licence"],
                    by=request.user,
                )
            except LedgerError as error:
                refuse(request, error, form, capitalised=True)
            else:
                return _to("federation_player", request, pk=player.pk)
        status = 422
    record = reads.player_record(player)
    tables = {
        "memberships": MembershipTable(record.memberships, prefix="m-"),
        "entries": EntryTable(record.entries, prefix="e-"),
        "placings": PlacingTable(record.placings, prefix="i-"),
    }
    for table in tables.values():
        RequestConfig(request, paginate={"per_page": PER_PAGE}).configure(table)
    ratings = rating_reads.player_ratings(player)
    ladders = reads.player_ladder_lines(player, request.federation)
    return _page(
        request,
        "player.html",
        status,
        player=player,
        form=form,
        ratings=ratings,
        ladder_lines=ladders,
        **tables,
    )


@federation_officer()
@require_http_methods(["GET", "POST"])
def federation_player_merge(request):
    """A merge of two records of one person: the records found by name (``q``), a preview of
    what moves, then the confirmation (POST) that merges them (``player_merge``)."""
    federation = request.federation
    search = PlayerSearchForm(request.GET or None)
    q = search.cleaned_data["q"] if search.is_valid() else ""
    everyone = reads.search_players(federation)
    data = request.POST if request.method == "POST" else None
    if data is None and "kept" in request.GET:
        data = request.GET
    players = everyone if data is not None else reads.search_players(federation, q)
    form = MergeForm(data, players=players)
    preview, status = None, 200
    if data is not None:
        if form.is_valid():
            kept, merged = form.cleaned_data["kept"], form.cleaned_data["merged"]
            if kept.pk == merged.pk:
                form.add_error(
                    "merged", capfirst(gettext("a player cannot be merged into himself"))
                )
            elif request.method == "POST":
                try:
                    kept = services.player_merge(kept=kept, merged=merged, by=request.user)
                except LedgerError as error:
                    refuse(request, error, form, capitalised=True)
                else:
                    return _to("federation_player", request, pk=kept.pk)
            else:
                preview = {"kept": kept, "merged": merged, **reads.merge_counts(merged)}
        if not form.is_valid() or form.errors:
            status = 422
    return _page(request, "merge.html", status, form=form, search=search, preview=preview)


@federation_officer()
@require_http_methods(["GET"])
def federation_series_list(request):
    """The federation's series, each a link to its page."""
    table = SeriesTable(reads.federation_series(request.federation).select_related("federation"))
    RequestConfig(request, paginate={"per_page": PER_PAGE}).configure(table)
    return _page(request, "series_list.html", table=table)


@federation_officer()
@require_http_methods(["GET", "POST"])
def federation_series_new(request):
    """A new series: its rule, seed, dates and events among the federation's final
    tournaments, each with its factor (``series_create``)."""
    federation = request.federation
    form = SeriesForm(request.POST or None, tournaments=reads.final_tournaments(federation))
    status = 200
    if request.method == "POST":
        if form.is_valid():
            data = form.cleaned_data
            try:
                series = services.series_create(
                    federation=federation,
                    name=data["name"],
                    seed=data["seed"],
                    starts_on=data["starts_on"],
                    ends_on=data["ends_on"],
                    rule=form.rule(),
                    events=form.events(),
                    by=request.user,
                )
            except LedgerError as error:
                refuse(request, error, form, fields=form.field_of, capitalised=True)
            else:
                return _to("federation_series", request, pk=series.pk)
        status = 422
    return _page(request, "series_new.html", status, form=form)


def _series_or_404(request, pk: int):
    series = reads.federation_one_series(request.federation, pk)
    if series is None:
        raise Http404
    return series


def rule_in_words(rule: dict) -> list[str]:
    """A series' rule in words, one line a part (its source and scale, the count, qualify)."""
    lines = []
    scale = rule.get("scale") or {}
    kind = scale.get("kind")
    if rule.get("source") == "points":
        lines.append(gettext("Each result is the player's tournament points."))
    elif kind == "table":
        lines.append(
            gettext("Points by place: {points}; beyond them {beyond}.").format(
                points=", ".join(str(p) for p in scale.get("points", [])),
                beyond=scale.get("beyond", 0),
            )
        )
    elif kind == "field":
        lines.append(
            gettext(
                "By the field: the winner gets {base} plus the players; then less {gaps}."
            ).format(base=scale.get("base"), gaps=", ".join(str(g) for g in scale.get("gaps", [])))
        )
    else:
        lines.append(gettext("By place, linear: of N players the last gets 1, the winner N."))
    if rule.get("best_of") is not None:
        n = int(rule["best_of"])
        lines.append(
            ngettext(
                "A player's best {n} result counts.", "A player's best {n} results count.", n
            ).format(n=n)
        )
    elif rule.get("strike_worst") is not None:
        n = int(rule["strike_worst"])
        lines.append(
            ngettext(
                "Each player's worst {n} result is struck (a missed event counts 0).",
                "Each player's worst {n} results are struck (a missed event counts 0).",
                n,
            ).format(n=n)
        )
    else:
        lines.append(gettext("Every result counts."))
    if rule.get("qualify") is not None:
        lines.append(gettext("The first {n} qualify.").format(n=rule["qualify"]))
    return lines


@federation_officer()
@require_http_methods(["GET", "POST"])
def federation_series(request, pk):
    """A series: its rule in words, its events with their factors, the form that adds an
    event (a tournament or an imported event, ``series_event_add``) and its ladder's link."""
    federation = request.federation
    series = _series_or_404(request, pk)
    form = SeriesEventForm(
        request.POST or None,
        tournaments=reads.final_tournaments(federation).exclude(series_events__series=series),
        imported=reads.imported_events(federation).exclude(series_events__series=series),
    )
    status = 200
    if request.method == "POST":
        if form.is_valid():
            data = form.cleaned_data
            try:
                services.series_event_add(
                    series=series,
                    tournament=data["tournament"],
                    imported=data["imported"],
                    factor=data["factor"],
                    by=request.user,
                )
            except LedgerError as error:
                refuse(request, error, form, capitalised=True)
            else:
                return _to("federation_series", request, pk=series.pk)
        status = 422
    events = SeriesEventTable(
        reads.series_event_rows(series),
        change_url=lambda event: reverse(
            "federation_series_event",
            kwargs={"federation": federation.slug, "pk": series.pk, "event": event.pk},
        ),
    )
    RequestConfig(request, paginate=False).configure(events)
    return _page(
        request,
        "series.html",
        status,
        series=series,
        rule=rule_in_words(series.rule),
        events=events,
        form=form,
    )


@federation_officer()
@require_http_methods(["GET", "POST"])
def federation_series_change(request, pk):
    """The series changed: its name, seed, dates and rule on a form prefilled with them
    (``series_change``); back to the series' page with the outcome."""
    series = _series_or_404(request, pk)
    form, done = change_series(request, series)
    if done:
        return _to("federation_series", request, pk=series.pk)
    return _page(
        request,
        "series_change.html",
        422 if request.method == "POST" else 200,
        series=series,
        form=form,
    )


@federation_officer()
@require_http_methods(["GET", "POST"])
def federation_series_event(request, pk, event):
    """An event of the series: its factor changed (``series_event_factor_set``), or the event
    removed from the series (``series_event_remove``, a button of its own)."""
    series = _series_or_404(request, pk)
    one = found(reads.series_event(series, event), "series event")
    form, done = change_event(request, one)
    if done:
        return _to("federation_series", request, pk=series.pk)
    return _page(
        request,
        "series_event.html",
        422 if request.method == "POST" else 200,
        series=series,
        event=one,
        form=form,
    )


@federation_officer()
@require_http_methods(["GET"])
def federation_series_ladder(request, pk):
    """A series' ladder (the club side's table), a page of it (``ladder_table``)."""
    series = _series_or_404(request, pk)
    table, answer = ladder_table(request, series, f"ladder-{request.federation.slug}-{series.pk}")
    if answer is not None:
        return answer
    return _page(request, "series_ladder.html", series=series, table=table)


@federation_officer()
@require_http_methods(["GET"])
def federation_log(request):
    """The federation's log, newest first, each action in words, paginated."""
    table = FederationLogTable(reads.federation_log(request.federation))
    RequestConfig(request, paginate={"per_page": PER_PAGE}).configure(table)
    return _page(request, "log.html", table=table)


@federation_officer()
@require_http_methods(["GET", "POST"])
def federation_officers(request):
    """The federation's officers: one added by username, one removed (never the last)."""
    federation = request.federation
    removing = "remove" in request.POST
    form = OfficerForm(request.POST if request.method == "POST" and not removing else None)
    status, problem = 200, None
    if request.method == "POST":
        if removing:
            user = reads.user_by_pk(request.POST["remove"])
            try:
                if user is None:
                    raise LedgerError(_("no such officer"), "officer")
                services.officer_remove(federation=federation, user=user, by=request.user)
            except LedgerError as error:
                problem = capfirst("; ".join(m for _f, m in logged_refusal(request, error)))
            else:
                return _to("federation_officers", request)
        elif form.is_valid():
            try:
                services.officer_add(
                    federation=federation, username=form.cleaned_data["username"], by=request.user
                )
            except LedgerError as error:
                refuse(request, error, form, capitalised=True)
            else:
                return _to("federation_officers", request)
        status = 422
    table = OfficerTable(
        reads.officers(federation),
        csrf_input=format_html(
            '<input type="hidden" name="csrfmiddlewaretoken" value="{}">', get_token(request)
        ),
    )
    RequestConfig(request, paginate=False).configure(table)
    return _page(request, "officers.html", status, table=table, form=form, problem=problem)
