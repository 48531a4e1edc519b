"""The director's screens of a tournament (issue 21) and the hall's wall.

The director is the club's admin. Views are thin: they read through
``ledger.selectors.tournaments``, write through ``ledger.services.tournaments``, and show a
refused write (``LedgerError``, naming the field) as a message. Every object is looked up
inside the club of the URL, so another club's gets 404. Members of the club read the
standings and the wall.
"""

from __future__ import annotations

import logging
import secrets

from django.contrib import messages
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext
from django.views.decorators.http import require_POST
from django_htmx.http import HttpResponseClientRedirect
from django_tables2 import RequestConfig

from ledger import reports
from ledger.exports import FORMATS, SafeTableExport
from ledger.forms.tournaments import (
    GuestForm,
    ImportForm,
    MembersEntryForm,
    SubstituteForm,
    SwapForm,
    TournamentForm,
)
from ledger.forms.treasury import ReopenForm
from ledger.models import Club, Entry, Member, Round, RoundTable, Table, tournament_format_choices
from ledger.selectors import tournaments as reads
from ledger.services import tournaments as service
from ledger.services.errors import LedgerError
from ledger.tables.tournaments import TournamentStandingsTable, draw_mode_text, round_kind_text
from ledger.tournaments import engine
from ledger.web import kept, render_cache
from ledger.web.http import found
from ledger.web.permissions import ROLE_RANK, TABLE_LINKS, can, club_role, role_of
from ledger.web.qr import qr_svg
from ledger.web.refusals import log_refusal

logger = logging.getLogger(__name__)

ADMIN = Member.Role.ADMIN


def _tournament(request, pk):
    return found(reads.tournament_for_club(club=request.club, pk=pk), "tournament")


def _round(request, pk):
    return found(reads.round_for_club(club=request.club, pk=pk), "round")


def _refused(request, error: LedgerError) -> None:
    log_refusal(request, error)
    messages.error(request, str(error.message))


def _to_tournament(request, tournament):
    return redirect("tournament", club=request.club.slug, pk=tournament.pk)


def _to_round(request, round_):
    return redirect("tournament_round", club=request.club.slug, pk=round_.pk)


# --- the list and the tournament ------------------------------------------------------------


@club_role(ADMIN)
def tournaments(request):
    """The club's tournaments and the form of a new one (game, format, parameters)."""
    form = TournamentForm(request.POST or None, club=request.club)
    status = 200
    if request.method == "POST":
        if form.is_valid():
            data = form.cleaned_data
            try:
                tournament = service.tournament_create(
                    club=request.club,
                    name=data["name"],
                    date=data["date"],
                    game=data["game"],
                    tournament_format=data["tournament_format"],
                    params=data["params"],
                    seed=data["seed"],
                    by=request.user,
                )
            except LedgerError as error:
                form.add_error(
                    error.field if error.field in form.fields else None, str(error.message)
                )
            else:
                return _to_tournament(request, tournament)
        status = 422
    return render(
        request,
        "ledger/tournaments/list.html",
        {
            "tournaments": reads.tournaments_for_club(club=request.club),
            "form": form,
            "formats": [
                (dict(tournament_format_choices()).get(code, code), _defaults(code))
                for code in engine.FORMATS
            ],
        },
        status=status,
    )


def _defaults(code: str) -> str:
    params = engine.default_params(code)
    targets = ", ".join(f"{k}: {v}" for k, v in sorted(params.hands_target.items()))
    text = gettext("{rounds} rounds of {minutes} minutes").format(
        rounds=params.rounds, minutes=params.time_limit_min
    )
    if targets:
        text += " · " + gettext("hands by table size {targets}").format(targets=targets)
    return text


@club_role(ADMIN)
def tournament(request, pk):
    """A tournament: its entries (add members, a guest, a list), its rounds, the next draw."""
    return _tournament_page(request, _tournament(request, pk))


def _tournament_page(request, tournament, *, status: int = 200):
    """Render the tournament's page (422 after a refused entry, its message shown)."""
    entries = list(tournament.entries.select_related("member").order_by("name"))
    entered = {e.member_id for e in entries}
    members = [
        m.name
        for m in Member.objects.filter(club=request.club, active=True).order_by("name")
        if m.pk not in entered
    ]
    rounds = list(tournament.rounds.order_by("number"))
    params = service.tournament_params(tournament)
    last = engine.FORMATS[tournament.tournament_format].last_round(params.rounds)
    can_draw = (not rounds or rounds[-1].status == Round.Status.CLOSED) and len(rounds) < last
    return render(
        request,
        "ledger/tournaments/tournament.html",
        {
            "tournament": tournament,
            "entries": entries,
            "members": members,
            "rounds": rounds,
            "params": params,
            "last_round": last,
            "can_draw": can_draw and tournament.status in ("draft", "running"),
            "members_form": MembersEntryForm(),
            "guest_form": GuestForm(),
            "import_form": ImportForm(),
            "log": reads.log_lines(tournament.log, {}),
        },
        status=status,
    )


def _names(text: str) -> list[str]:
    """Return the names typed one a line or separated by commas, each once, in order."""
    names = [n.strip() for line in text.splitlines() for n in line.split(",")]
    return list(dict.fromkeys(n for n in names if n))


@club_role(ADMIN)
@require_POST
def tournament_entries(request, pk):
    """Enter members by name, a guest or a list; withdraw or remove an entry."""
    tournament = _tournament(request, pk)
    action = request.POST.get("action")
    refused = True  # until an action is done
    try:
        if action == "members":
            form = MembersEntryForm(request.POST)
            if form.is_valid():
                names = _names(form.cleaned_data["names"])
                found_members = {
                    m.name: m for m in Member.objects.filter(club=request.club, name__in=names)
                }
                unknown = [n for n in names if n not in found_members]
                if unknown:
                    raise LedgerError(
                        gettext("no member of this name: {names}").format(names=", ".join(unknown)),
                        "names",
                    )
                added = service.entries_add(
                    tournament=tournament,
                    members=[found_members[n] for n in names],
                    by=request.user,
                )
                messages.success(request, gettext("{n} entered.").format(n=len(added)))
                refused = False
            else:
                messages.error(request, gettext("Type the members' names."))
        elif action == "guest":
            form = GuestForm(request.POST)
            if form.is_valid():
                service.entry_add_guest(
                    tournament=tournament,
                    name=form.cleaned_data["name"],
                    club_name=form.cleaned_data["club_name"],
                    ladder_rank=form.cleaned_data["ladder_rank"],
                    by=request.user,
                )
                messages.success(request, gettext("The guest is entered."))
                refused = False
            else:
                messages.error(request, " ".join(e for errs in form.errors.values() for e in errs))
        elif action == "import":
            form = ImportForm(request.POST, request.FILES)
            if form.is_valid():
                added = service.entries_import(
                    tournament=tournament, text=form.cleaned_data["text"], by=request.user
                )
                messages.success(request, gettext("{n} entered.").format(n=len(added)))
                refused = False
            else:
                messages.error(request, " ".join(e for errs in form.errors.values() for e in errs))
        elif action in ("withdraw", "remove"):
            given = request.POST.get("entry", "")
            entry = (
                Entry.objects.filter(tournament=tournament, pk=int(given)).first()
                if given.isdigit() and len(given) < 19
                else None
            )
            if entry is None:
                raise LedgerError(gettext("no such entry"), "entry")
            if action == "withdraw":
                service.entry_withdraw(entry=entry, by=request.user)
            else:
                service.entry_remove(entry=entry, by=request.user)
            refused = False
        else:
            messages.error(request, gettext("Unknown action."))
    except LedgerError as error:
        _refused(request, error)
    if refused:
        return _tournament_page(request, tournament, status=422)
    return _to_tournament(request, tournament)


@club_role(ADMIN)
@require_POST
def tournament_draw(request, pk):
    """Draw the next round (unpublished)."""
    tournament = _tournament(request, pk)
    try:
        round_ = service.round_draw(tournament=tournament, by=request.user)
    except LedgerError as error:
        _refused(request, error)
        return _to_tournament(request, tournament)
    if round_.mode == engine.FALLBACK:
        # The search found no draw within its budget: the seat-by-seat fill may break the
        # pairing rules the director expects; its checker's findings are on the round.
        logger.warning(
            "round %s drawn by the fallback fill",
            round_.number,
            extra={
                "event": "fallback-draw",
                "club": request.club.slug,
                "tournament": tournament.pk,
                "round": round_.pk,
                "warnings": len(round_.warnings or []),
            },
        )
    return _to_round(request, round_)


@club_role(ADMIN)
@require_POST
def tournament_finish(request, pk):
    """Make the provisional ranking final."""
    tournament = _tournament(request, pk)
    try:
        service.tournament_finish(tournament=tournament, by=request.user)
    except LedgerError as error:
        _refused(request, error)
    return _to_tournament(request, tournament)


@club_role(ADMIN)
@require_POST
def tournament_reopen(request, pk):
    """Reopen a final tournament with a reason (logged); the ranking is provisional again."""
    tournament = _tournament(request, pk)
    try:
        service.tournament_reopen(
            tournament=tournament, reason=request.POST.get("reason", ""), by=request.user
        )
    except LedgerError as error:
        _refused(request, error)
    return _to_tournament(request, tournament)


@club_role(ADMIN)
@require_POST
def tournament_cancel(request, pk):
    """Cancel a tournament that will not be played to its end, with a reason (logged)."""
    tournament = _tournament(request, pk)
    try:
        service.tournament_cancel(
            tournament=tournament, reason=request.POST.get("reason", ""), by=request.user
        )
    except LedgerError as error:
        _refused(request, error)
        return _tournament_page(request, tournament, status=422)
    messages.success(request, gettext("The tournament is cancelled."))
    return _to_tournament(request, tournament)


# --- a round -------------------------------------------------------------------------------


@club_role(ADMIN)
def tournament_round(request, pk):
    """A round: its draw (seats, groups, byes, mode, the checker's warnings), the swap before
    publishing, then the clock and every table's progress, then the round's result."""
    return _round_page(request, _round(request, pk))


def _round_page(request, round_: Round, *, status: int = 200, **extra):
    view = reads.round_view(round_)
    return render(
        request,
        "ledger/tournaments/round.html",
        {
            "tournament": round_.tournament,
            "round": round_,
            "view": view,
            # The time left only while the round is played (a closed round has none).
            "clock": _clock(round_) if round_.status == Round.Status.PLAYING else None,
            "swap_form": SwapForm(players=view.players),
            "kind_text": round_kind_text(round_.kind),
            "mode_text": draw_mode_text(round_.mode),
            "substitute_form": _substitute_form(request, round_, view),
            "log": reads.log_lines(round_.log, {c: n for c, n in view.players}),
            "corrections": reads.corrections(round_.tournament, round_=round_),
            "may_reopen": round_.status == Round.Status.CLOSED
            and not round_.tournament.rounds.filter(number__gt=round_.number).exists(),
            "reopen_form": ReopenForm(),
            **extra,
        },
        status=status,
    )


def _round_action(request, pk, act):
    round_ = _round(request, pk)
    try:
        act(round_)
    except LedgerError as error:
        _refused(request, error)
    return _to_round(request, round_)


@club_role(ADMIN)
@require_POST
def round_swap(request, pk):
    """Swap two players of an unpublished draw (checked again and recorded)."""
    round_ = _round(request, pk)
    form = SwapForm(request.POST, players=reads.round_view(round_).players)
    if not form.is_valid():
        messages.error(request, gettext("Choose two players of the draw."))
        return _to_round(request, round_)
    return _round_action(
        request,
        pk,
        lambda r: service.round_swap(
            round_=r,
            first=form.cleaned_data["first"],
            second=form.cleaned_data["second"],
            by=request.user,
        ),
    )


@club_role(ADMIN)
@require_POST
def round_redraw(request, pk):
    return _round_action(request, pk, lambda r: service.round_redraw(round_=r, by=request.user))


@club_role(ADMIN)
@require_POST
def round_publish(request, pk):
    return _round_action(request, pk, lambda r: service.round_publish(round_=r, by=request.user))


@club_role(ADMIN)
@require_POST
def round_start(request, pk):
    return _round_action(request, pk, lambda r: service.round_start(round_=r, by=request.user))


@club_role(ADMIN)
@require_POST
def round_close(request, pk):
    """Close the round, after a confirmation that names every table still below its target
    while the time is not up (a slip of the finger closes nothing)."""
    round_ = _round(request, pk)
    if request.POST.get("confirm") != "1" and round_.status == Round.Status.PLAYING:
        view = reads.round_view(round_)
        signal = round_.signal_at
        early = signal is not None and timezone.now() < signal
        short = [
            t
            for t in view.tables
            if early and t.status == "open" and t.target is not None and t.hands < t.target
        ]
        return _round_page(request, round_, confirm_close={"early": early, "short": short})
    return _round_action(request, pk, lambda r: service.round_close(round_=r, by=request.user))


@club_role(ADMIN)
@require_POST
def round_reopen(request, pk):
    """Reopen a closed round with the director's reason (no later round drawn yet)."""
    round_ = _round(request, pk)
    form = ReopenForm(request.POST)
    if not form.is_valid():
        messages.error(request, gettext("Give the reason for reopening the round."))
        return _round_page(request, round_, status=422)
    try:
        service.round_reopen(round_=round_, reason=form.cleaned_data["reason"], by=request.user)
    except LedgerError as error:
        _refused(request, error)
        return _round_page(request, round_, status=422)
    messages.success(request, gettext("The round is reopened."))
    return _to_round(request, round_)


@club_role(ADMIN)
@require_POST
def round_unpublish(request, pk):
    """Withdraw a published draw that has not started, to draw the round again (section 9)."""
    return _round_action(request, pk, lambda r: service.round_unpublish(round_=r, by=request.user))


def _round_table(round_: Round, number) -> RoundTable:
    rt = round_.round_tables.filter(number=number).first() if str(number).isdigit() else None
    if rt is None:
        raise LedgerError(gettext("choose a table of the round"), "table")
    return rt


@club_role(ADMIN)
@require_POST
def round_release(request, pk):
    """Hand a table's link over to another phone or tablet (the one holding it loses it)."""

    def act(round_):
        rt = service.round_table_release(
            round_table=_round_table(round_, request.POST.get("table")), by=request.user
        )
        messages.success(
            request,
            gettext("Table {number}'s link is free: the next phone to open it keeps it.").format(
                number=rt.number
            ),
        )

    return _round_action(request, pk, act)


def _substitute_form(request, round_: Round, view, data=None) -> SubstituteForm:
    players = [
        (s["code"], gettext("{name}, table {number}").format(name=s["name"], number=t.number))
        for t in view.tables
        for s in t.seats
    ]
    return SubstituteForm(
        data, club=request.club, tournament=round_.tournament, players=sorted(players, key=_second)
    )


def _second(pair):
    return pair[1].casefold()


@club_role(ADMIN)
@require_POST
def round_substitute(request, pk):
    """Seat a substitute for a drawn player who is not there or has left (section 9)."""

    def act(round_):
        form = _substitute_form(request, round_, reads.round_view(round_), request.POST)
        if not form.is_valid():
            raise LedgerError(
                " ".join(e for errors in form.errors.values() for e in errors), "__all__"
            )
        data = form.cleaned_data
        rt = next((rt for rt in round_.round_tables.all() if data["absent"] in rt.seats), None)
        if rt is None:
            raise LedgerError(gettext("a substitute is seated at a table of a round being played"))
        service.round_substitute(
            round_table=rt,
            absent=data["absent"],
            member=data["member"],
            guest_name=data["guest_name"],
            by=request.user,
        )
        messages.success(request, gettext("The substitute is seated."))

    return _round_action(request, pk, act)


@club_role(ADMIN)
def round_cards_pdf(request, pk):
    """Every table's card for a published round: its number, its players in seat order and
    the QR code of the table's own link, for one phone or tablet at the table."""
    round_ = _round(request, pk)
    if round_.status not in service.LINK_ROUNDS:
        messages.error(request, gettext("Publish the draw first: the cards carry its tables."))
        return _to_round(request, round_)
    cards = _cards(request, round_)
    return _pdf(request, lambda: reports.tournament_cards_pdf(round_=round_, cards=cards))


def _cards(request, round_: Round) -> list[dict]:
    view = reads.round_view(round_)
    tokens = dict(round_.round_tables.values_list("number", "token"))
    cards = []
    for table in view.tables:
        link = request.build_absolute_uri(_link_path(request.club, tokens[table.number]))
        cards.append({"table": table, "link": link, "qr": qr_svg(link, scale=5)})
    return cards


def _link_path(club, token: str) -> str:
    return reverse("table_link", kwargs={"club": club.slug, "token": token})


# --- the table's own link (issue 21 part 4) --------------------------------------------------


def _linked(request, club, token) -> RoundTable:
    rt = reads.round_table_by_token(club=club, token=token)
    return found(rt, "table")


def table_link(request, club, token):
    """A round table's own link, the QR code on its card: the first phone or tablet to open
    it keeps it for the round (a secret in its session) and scores that table only, logged in
    or not; another device is told to ask the director, who can hand the link over.

    While the round waits for its start the page shows the table's seats and reloads itself
    (htmx); once the clock runs it opens the table's entry screen, or the table's screen when
    the table has played its hands or its time is over.
    """
    club_obj = get_object_or_404(Club, slug=club)
    rt = _linked(request, club_obj, token)
    request.club = club_obj
    round_ = rt.round
    context = {"club": club_obj, "rt": rt, "round": round_, "tournament": round_.tournament}
    if round_.status not in service.LINK_ROUNDS:
        # The round is over: the table's results and, once drawn, where its players sit next
        # (the page looks again by itself until the next round is published).
        context["after"] = reads.after_round(rt) if round_.status == Round.Status.CLOSED else None
        return render(request, "ledger/tournaments/link.html", {**context, "state": "over"})
    role = role_of(request.user, club_obj)
    if role is None or ROLE_RANK[role] < ROLE_RANK[Member.Role.SCOREKEEPER]:
        # A scorekeeper of the club (the director too) scores any table: he never takes the
        # link from the table's phone.
        links = dict(request.session.get(TABLE_LINKS) or {})
        secret = links.get(str(rt.pk)) or secrets.token_urlsafe(32)
        try:
            held = service.round_table_claim(round_table=rt, secret=secret)
        except LedgerError:
            context["after"] = (
                reads.after_round(rt) if round_.status == Round.Status.CLOSED else None
            )
            return render(request, "ledger/tournaments/link.html", {**context, "state": "over"})
        if not held:
            return render(
                request, "ledger/tournaments/link.html", {**context, "state": "held"}, status=409
            )
        if links.get(str(rt.pk)) != secret:
            links[str(rt.pk)] = secret
            request.session[TABLE_LINKS] = links
    if round_.status == Round.Status.PUBLISHED or rt.table_id is None:
        context["strip"] = reads.strip_of(rt, hands=0)
        return render(request, "ledger/tournaments/link.html", {**context, "state": "waiting"})
    strip = reads.round_strip(rt.table)
    playable = strip is not None and not strip.finished and rt.table.status == Table.Status.OPEN
    name = "hand_new" if playable else "table"
    url = reverse(name, kwargs={"club": club_obj.slug, "pk": rt.table_id})
    if request.htmx:
        return HttpResponseClientRedirect(url)
    return redirect(url)


@require_POST
def table_link_missing(request, club, token):
    """The table says who of its drawn players is not there (from its own link): the director
    sees it on the round's page and seats a substitute or waits."""
    club_obj = get_object_or_404(Club, slug=club)
    rt = _linked(request, club_obj, token)
    link = _link_path(club_obj, token)
    secret = (request.session.get(TABLE_LINKS) or {}).get(str(rt.pk))
    if not secret or rt.device != service.device_digest(str(secret)):
        return redirect(link)
    try:
        service.round_table_report_missing(round_table=rt, codes=request.POST.getlist("missing"))
    except LedgerError as error:
        messages.error(request, str(error.message))
    else:
        messages.success(request, gettext("The director is told."))
    if rt.table_id is None:
        return redirect(link)
    return redirect("table", club=club_obj.slug, pk=rt.table_id)


def _clock(round_: Round) -> dict | None:
    """Return the round's clock: its end and the time left (None before the start)."""
    if round_.started_at is None:
        return None
    ends = round_.signal_at
    left = max(0, int((ends - timezone.now()).total_seconds()))
    return {
        "started": round_.started_at,
        "ends": ends,
        "seconds": left,
        "left": reads.clock_text(left),
        "over": left == 0,
    }


@club_role(ADMIN)
def round_pdf(request, pk):
    """The round's draw sheet as a PDF for the notice board."""
    round_ = _round(request, pk)
    return _pdf(request, lambda: reports.tournament_draw_pdf(round_=round_))


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
    round_ = _published(request, _round(request, pk))
    return _pdf(request, lambda: reports.tournament_round_result_pdf(round_=round_))


@club_role()
def round_table_sheet_pdf(request, pk, number):
    """A round table's sheet to sign: the ordinary table sheet with the tournament's facts,
    each player's table score, place and points and a line to sign."""
    round_, rt = found(
        reads.round_table_for_club(club=request.club, round_pk=pk, number=number), "table"
    )
    _published(request, round_)
    return _pdf(
        request,
        lambda: reports.round_table_sheet_pdf(round_=round_, round_table=rt, number=number),
    )


def _pdf(request, render) -> HttpResponse:
    """Serve the report ``render()`` returns, rendered under the user's lock (one render at a
    time per user, ``ledger.web.kept``; 429 while his last one is under way)."""
    try:
        filename, content_type, content = kept.kept_report(request, None, render)
    except kept.Busy:
        return kept.busy_response()
    response = HttpResponse(content, content_type=content_type)
    response["Content-Disposition"] = f'inline; filename="{filename}"'
    return response


# --- standings and the wall ----------------------------------------------------------------


def _standings(tournament) -> reads.Standings:
    """Return the standings after the closed rounds, kept by the tournament's version (raised
    by every service that changes its entries, draws or results): the engine ranks every
    entry once per close, correction or entry change, not once per reader."""
    return render_cache.kept(
        f"tournament-standings:{_kept_as(tournament)}", lambda: reads.standings_after(tournament)
    )


def _kept_as(tournament) -> str:
    """Return what names a tournament's state where its standings are kept: its id, when it
    was made (another database's tournament of the same id differs there) and its version."""
    return f"{tournament.pk}:{tournament.created_at.timestamp()}:{tournament.version}"


def _standings_table(request, tournament):
    """Return the standings' table: the ranking PDF's columns (ladder rank, rounds, total,
    final, tie-breaks in the format's order, rounds played, byes, status)."""
    table = TournamentStandingsTable.of(_standings(tournament), ladder=True)
    RequestConfig(request, paginate=False).configure(table)
    # The rows (and the rounds' columns) follow from the version: it keys the HTML too.
    render_cache.keep(table, request, rows=_kept_as(tournament))
    return table


@club_role()
def tournament_standings(request, pk):
    """The standings after the closed rounds (provisional until the tournament is final);
    CSV and XLSX with ``?_export=``."""
    tournament = _tournament(request, pk)
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
    tournament = _tournament(request, pk)
    return _pdf(request, lambda: reports.tournament_ranking_pdf(tournament=tournament))


@club_role()
def tournament_wall(request, pk):
    """The hall's screen: the round's countdown in large type, where every player sits
    (alphabetically) and, once a round has closed, the live standings; before that the
    published draw by table (a ranking of all at 0 in lot order would mislead). Lists too long
    for the screen page by themselves (static/ledger/wall-pages.js); refreshed by htmx."""
    tournament = _tournament(request, pk)
    current = tournament.rounds.exclude(status=Round.Status.DRAFTED).order_by("-number").first()
    standings = _standings(tournament)
    seats = reads.where_to_sit(current)
    drawn = standings.rounds == 0
    context = {
        "tournament": tournament,
        "club": request.club,
        "round": current,
        "clock": _clock(current) if current and current.status == Round.Status.PLAYING else None,
        "seats": seats,
        "draw": reads.draw_of(seats) if drawn else None,
        "standings": None if drawn else standings.lines,
    }
    if request.htmx:
        return render(request, "ledger/tournaments/_wall_live.html", context)
    return render(request, "ledger/tournaments/wall.html", context)
