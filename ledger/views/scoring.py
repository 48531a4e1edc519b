"""The scorekeeper's tablet: evenings and tables (issue 4); a table's hands are
``ledger.views.hands``.

Views are thin: they parse a form, call a service (``ledger.services`` writes every row) and
map a refused write (``HandError`` from the rules, ``LedgerError`` from the ledger) to the
form section it concerns. Reading members need the member role; every write needs the
scorekeeper role in the club the object belongs to. The hand preview runs the rules engine
on the server without writing anything.
"""

from __future__ import annotations

from collections import defaultdict

from django.contrib import messages
from django.contrib.staticfiles import finders
from django.contrib.staticfiles.storage import staticfiles_storage
from django.http import Http404, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext
from django.views.decorators.http import require_GET, require_POST

from ledger import selectors, services
from ledger.forms.scoring import (
    EveningStartForm,
    LeaveForm,
    SeatForm,
    TableOpenForm,
)
from ledger.games.money import signed_points
from ledger.games.registry import get_web
from ledger.models import (
    Evening,
    Member,
    Season,
    Seat,
    Table,
)
from ledger.selectors import round_tables as table_reads
from ledger.services.errors import ALL, LedgerError
from ledger.tables.scoring import HandTable
from ledger.views.home import club_page, to_tournament
from ledger.web import kept
from ledger.web.permissions import club_role, granted
from ledger.web.refusals import refuse, refuse_message

SCOREKEEPER = Member.Role.SCOREKEEPER
DRAFT_HEADER = "X-Hand-Submit"
CHANGES_KEY = "scoring_changes"


def signed(points: int | None) -> dict:
    """Return ``points`` for display: text with a real minus sign and a colour class."""
    if points is None:
        return {"points": None, "text": "", "cls": ""}
    cls = "pos" if points > 0 else "neg" if points < 0 else "zero"
    return {"points": points, "text": signed_points(points), "cls": cls}


# --- errors --------------------------------------------------------------------------------


def errors_by_section(pairs, game_code: str) -> dict[str, list[str]]:
    """Lay a refused hand's (field, message) pairs (``ledger.web.refusals``: ``logged_refusal``
    for a write, ``refusal_messages`` for a preview) out by section of the game's entry form."""
    web = get_web(game_code)
    errors = defaultdict(list)
    for field, message in pairs:
        errors[web.section_of(field)].append(message)
    return dict(errors)


def form_errors(form) -> dict[str, list[str]]:
    errors: defaultdict[str, list[str]] = defaultdict(list)
    for field, messages_ in form.errors.items():
        section = "reason" if field == "reason" else "general"
        errors[section].extend(str(m) for m in messages_)
    return dict(errors)


# --- evenings ------------------------------------------------------------------------------


@club_role(SCOREKEEPER)
@require_POST
def evening_start(request):
    """Open an evening on the given date (today by default), or go to the open one."""
    form = EveningStartForm(request.POST)
    if not form.is_valid():
        messages.error(request, gettext("Choose a date for the evening."))
        return club_page(request, start_form=form, status=422)
    date = form.cleaned_data["date"]
    existing = services.open_club_evening(request.club, date)
    if existing is not None:
        return redirect("evening", club=request.club.slug, pk=existing.pk)
    in_season = Season.objects.filter(club=request.club, starts_on__lte=date, ends_on__gte=date)
    if not form.cleaned_data["no_season"] and not in_season.exists():
        # A second step: the date is outside every season; the scorekeeper must confirm.
        return club_page(request, start_form=form, no_season=True)
    evening = services.evening_open(club=request.club, date=date, by=request.user)
    return redirect("evening", club=request.club.slug, pk=evening.pk)


@club_role()
def evening_detail(request, pk):
    """Show every table of an evening, its pools and balances; htmx polls the live part (304
    while the evening's version is the one the poll names)."""
    etag = kept.poll_etag(request, kept.evening_version(request.club, pk)) if request.htmx else None
    if unchanged := kept.not_modified(request, etag):
        return unchanged
    evening = get_object_or_404(Evening.objects.select_related("club"), pk=pk, club=request.club)
    if not request.htmx and (elsewhere := to_tournament(request, evening)):
        return elsewhere
    tables = selectors.evening_tables(evening)
    context = {
        "evening": evening,
        "nav_evening": evening,
        "tables": tables,
        "ranking": selectors.evening_ranking(tables),
    }
    if request.htmx:
        return kept.tagged(render(request, "ledger/_scoring_evening_live.html", context), etag)
    return render(request, "ledger/evening.html", context)


@club_role()
def evening_wall(request, pk):
    """The evening on the club room's wall: every table's pools and balances and the evening's
    ranking in large type, no navigation, refreshed by htmx (a fixed number of queries; 304
    while the evening's version is the one the poll names)."""
    etag = kept.poll_etag(request, kept.evening_version(request.club, pk)) if request.htmx else None
    if unchanged := kept.not_modified(request, etag):
        return unchanged
    evening = get_object_or_404(Evening.objects.select_related("club"), pk=pk, club=request.club)
    if not request.htmx and (elsewhere := to_tournament(request, evening)):
        return elsewhere
    tables = selectors.evening_tables(evening)
    context = {"evening": evening, "tables": tables, "ranking": selectors.evening_ranking(tables)}
    if request.htmx:
        return kept.tagged(render(request, "ledger/_wall_live.html", context), etag)
    return render(request, "ledger/wall.html", context)


@club_role(SCOREKEEPER)
def table_new(request, pk):
    """Open a table at an evening: seat 3 to 5 members in order; each pays the funding."""
    evening = get_object_or_404(Evening.objects.select_related("club"), pk=pk, club=request.club)
    if elsewhere := to_tournament(request, evening):
        return elsewhere
    if not evening.is_open:
        messages.error(request, gettext("The evening is closed."))
        return redirect("evening", club=request.club.slug, pk=evening.pk)
    form = TableOpenForm(
        request.POST or None,
        club=request.club,
        game=evening.game,
        busy=selectors.seated_at_open_tables(evening),
    )
    status = 200
    if request.method == "POST":
        if form.is_valid():
            try:
                table = services.table_open(
                    evening=evening,
                    members=form.cleaned_data["members"],
                    first_dealer=form.cleaned_data["first_dealer_member"],
                    by=request.user,
                )
            except LedgerError as error:
                refuse(request, error, form, fields=ALL)  # the whole form's
            else:
                return redirect("table", club=request.club.slug, pk=table.pk)
        status = 422
    return render(
        request,
        "ledger/table_new.html",
        {"evening": evening, "nav_evening": evening, "form": form},
        status=status,
    )


# --- tables --------------------------------------------------------------------------------


def table_of(request, pk) -> Table:
    return get_object_or_404(
        granted(request, Table.objects.select_related("evening__club", "first_dealer")),
        pk=pk,
        evening__club=request.club,
    )


@club_role(table_link=True)
def table_detail(request, pk):
    """Show a table: seats, balances, pools, the next dealer, and every hand with its net;
    htmx polls the live part (304 while the table's version is the one the poll names)."""
    etag = kept.poll_etag(request, kept.table_version(request.club, pk)) if request.htmx else None
    if unchanged := kept.not_modified(request, etag):
        return unchanged
    table = table_of(request, pk)
    state = selectors.table_overview(table)
    erased = {m["seat"]: m["name"] for m in state["members"] if m["erased"]}
    rows = selectors.hand_rows(table, names=erased)
    members = [(m["seat"], m["name"]) for m in state["members"]]
    context = {
        "table": table,
        "evening": table.evening,
        "nav_evening": table.evening,
        "state": state,
        "hands": HandTable(rows, members=members, game=table.game),
        "writable": table.evening.is_open and table.status == Table.Status.OPEN,
    }
    if request.htmx:
        return kept.tagged(render(request, "ledger/_scoring_table_live.html", context), etag)
    changes = request.session.get(CHANGES_KEY)
    if changes and changes.get("table") == table.pk:
        context["changes"] = request.session.pop(CHANGES_KEY)
    seats = [s for s in Seat.objects.filter(table=table, left=False).select_related("member")]
    context["seat_form"] = SeatForm(
        table=table,
        seats=sorted(seats, key=lambda s: s.position),
        busy=selectors.seated_at_open_tables(table.evening),
    )
    context.update(round_context(table))
    return render(request, "ledger/table.html", context)


@club_role(table_link=True)
@require_GET
def table_state(request, pk):
    """Serve a table's state as JSON: seats, pools, balances and the next hand's schedule
    (for the phones, the wall and tests); the same members may read it as the table screen."""
    table = table_of(request, pk)
    return JsonResponse(selectors.table_state_data(table))


@club_role(SCOREKEEPER)
@require_POST
def table_seat(request, pk):
    """Seat a late arrival; he pays the funding."""
    table = table_of(request, pk)
    seats = selectors.current_seats(table.pk)
    form = SeatForm(request.POST, table=table, seats=seats)
    if form.is_valid():
        try:
            services.table_seat(
                table=table,
                member=form.cleaned_data["member"],
                position=form.cleaned_data["position"],
                by=request.user,
            )
        except LedgerError as error:
            refuse_message(request, error, table=table.pk)
        else:
            messages.success(
                request,
                gettext("{name} is seated.").format(name=form.cleaned_data["member"].name),
            )
    else:
        messages.error(request, gettext("Choose a member to seat."))
    return redirect("table", club=request.club.slug, pk=table.pk)


@club_role(SCOREKEEPER)
@require_POST
def table_leave(request, pk):
    """Let a member leave the table; he keeps his share of the split."""
    table = table_of(request, pk)
    form = LeaveForm(request.POST, seats=selectors.current_seats(table.pk))
    if form.is_valid():
        member = form.cleaned_data["member"]
        try:
            services.table_leave(table=table, member=member, by=request.user)
        except LedgerError as error:
            refuse_message(request, error, table=table.pk)
        else:
            messages.success(
                request, gettext("{name} has left the table.").format(name=member.name)
            )
    else:
        messages.error(request, gettext("Choose a member who is seated."))
    return redirect("table", club=request.club.slug, pk=table.pk)


def round_context(table) -> dict:
    """Return a table's round strip (a tournament's round table) and the number its screens
    show: the round's table number there, else the evening's."""
    strip = table_reads.round_strip(table)
    return {
        "round_strip": strip,
        "table_number": strip.round_table.number if strip else table.number,
    }


# --- the tablet's service worker ---------------------------------------------------------


@require_GET
def service_worker(request):
    """Serve ``ledger/sw.js`` from the site's root, so that it may keep the entry screens of
    every club's tables for a tablet without a network (scope ``/``)."""
    path = finders.find("ledger/sw.js")
    try:
        if path:
            with open(path, "rb") as handle:
                body = handle.read()
        else:
            with staticfiles_storage.open("ledger/sw.js") as handle:
                body = handle.read()
    except OSError as error:
        raise Http404("no service worker") from error
    response = HttpResponse(body, content_type="text/javascript; charset=utf-8")
    response["Service-Worker-Allowed"] = "/"
    response["Cache-Control"] = "no-cache"
    return response
