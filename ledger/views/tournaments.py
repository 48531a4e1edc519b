"""The director's screens of a tournament (issue 21) and the hall's wall.

The director is the club's admin. Views are thin: they read through
``ledger.selectors.tournaments``, write through ``ledger.services.tournaments``, and show a
refused write (``LedgerError``, naming the field) as a message (``refuse_message``). Every
object is looked up inside the club of the URL, so another club's gets 404. Members of the
club read the standings and the wall.
"""

from __future__ import annotations

import logging
from typing import cast

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_POST

from ledger.forms.tournaments import (
    DayForm,
    DaysForm,
    GuestForm,
    ImportForm,
    MembersEntryForm,
    SubstituteForm,
    SwapForm,
    TournamentForm,
)
from ledger.forms.treasury import ReopenForm
from ledger.models import Entry, Member, Round, RoundTable, tournament_format_choices
from ledger.selectors import round_tables as table_reads
from ledger.selectors import tournaments as reads
from ledger.services import tournaments as service
from ledger.services.errors import LedgerError
from ledger.tables.tournaments import (
    RoundListTable,
    TournamentEntryTable,
    TournamentListTable,
    draw_mode_text,
    round_kind_text,
)
from ledger.tournaments import engine
from ledger.views.seeding import seeding_context
from ledger.web import kept_pdfs
from ledger.web.http import found
from ledger.web.permissions import club_role
from ledger.web.refusals import form_errors_text, refuse, refuse_message

logger = logging.getLogger(__name__)

ADMIN = Member.Role.ADMIN


def tournament_of(request, pk):
    return found(reads.tournament_for_club(club=request.club, pk=pk), "tournament")


def round_of(request, pk):
    return found(reads.round_for_club(club=request.club, pk=pk), "round")


def _form_refused(request, form) -> None:
    """Show a form's errors as a message, each naming its field."""
    for name, errors in form.errors.items():
        label = form.fields[name].label if name in form.fields else ""
        for error in errors:
            messages.error(request, f"{label}: {error}" if label else str(error))


def _to_tournament(request, tournament):
    return redirect("tournament", club=request.club.slug, pk=tournament.pk)


def to_round(request, round_):
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
                    last_date=data["last_date"],
                    by=request.user,
                )
            except LedgerError as error:
                refuse(request, error, form)
            else:
                return _to_tournament(request, tournament)
        status = 422
    return render(
        request,
        "ledger/tournaments/list.html",
        {
            "table": TournamentListTable(
                reads.tournaments_for_club(club=request.club), club_slug=request.club.slug
            ),
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
    return _tournament_page(request, tournament_of(request, pk))


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
    changing = tournament.status in ("draft", "running")
    next_day = service.next_round_day(tournament, rounds[-1] if rounds else None)
    return render(
        request,
        "ledger/tournaments/tournament.html",
        {
            "tournament": tournament,
            "entries": entries,
            "entries_table": TournamentEntryTable(entries, changing=changing, drawn=bool(rounds)),
            "members": members,
            "rounds": rounds,
            "round_days": RoundListTable.by_day(rounds, club_slug=request.club.slug),
            "params": params,
            "last_round": last,
            "can_draw": can_draw and changing,
            "days_form": DaysForm(
                initial={"date": tournament.date, "last_date": tournament.last_date}
            )
            if changing
            else None,
            "draw_day_form": DayForm(tournament=tournament, initial={"day": next_day.isoformat()})
            if tournament.several_days
            else None,
            "members_form": MembersEntryForm(),
            "guest_form": GuestForm(),
            "import_form": ImportForm(),
            "log": reads.log_lines(tournament.log, {}),
            **seeding_context(tournament, entries, changing=changing, drawn=bool(rounds)),
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
    tournament = tournament_of(request, pk)
    action = request.POST.get("action")
    refused = True  # until an action is done
    try:
        if action == "members":
            members_form = MembersEntryForm(request.POST)
            if members_form.is_valid():
                names = _names(members_form.cleaned_data["names"])
                found_members = {
                    m.name: m for m in Member.objects.filter(club=request.club, name__in=names)
                }
                unknown = [n for n in names if n not in found_members]
                if unknown:
                    raise LedgerError(
                        _("no member of this name: {names}"), "names", names=", ".join(unknown)
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
            guest_form = GuestForm(request.POST)
            if guest_form.is_valid():
                service.entry_add_guest(
                    tournament=tournament,
                    name=guest_form.cleaned_data["name"],
                    club_name=guest_form.cleaned_data["club_name"],
                    ladder_rank=guest_form.cleaned_data["ladder_rank"],
                    by=request.user,
                )
                messages.success(request, gettext("The guest is entered."))
                refused = False
            else:
                messages.error(request, form_errors_text(guest_form))
        elif action == "import":
            import_form = ImportForm(request.POST, request.FILES)
            if import_form.is_valid():
                added = service.entries_import(
                    tournament=tournament, text=import_form.cleaned_data["text"], by=request.user
                )
                messages.success(request, gettext("{n} entered.").format(n=len(added)))
                refused = False
            else:
                messages.error(request, form_errors_text(import_form))
        elif action in ("withdraw", "remove"):
            given = request.POST.get("entry", "")
            entry = (
                Entry.objects.filter(tournament=tournament, pk=int(given)).first()
                if given.isdigit() and len(given) < 19
                else None
            )
            if entry is None:
                raise LedgerError(_("no such entry"), "entry")
            if action == "withdraw":
                service.entry_withdraw(entry=entry, by=request.user)
            else:
                service.entry_remove(entry=entry, by=request.user)
            refused = False
        else:
            messages.error(request, gettext("Unknown action."))
    except LedgerError as error:
        refuse_message(request, error)
    if refused:
        return _tournament_page(request, tournament, status=422)
    return _to_tournament(request, tournament)


@club_role(ADMIN)
@require_POST
def tournament_draw(request, pk):
    """Draw the next round (unpublished)."""
    tournament = tournament_of(request, pk)
    day = None
    if "day" in request.POST:
        form = DayForm(request.POST, tournament=tournament)
        if not form.is_valid():
            _form_refused(request, form)
            return _to_tournament(request, tournament)
        day = form.cleaned_data["day"]
    try:
        round_ = service.round_draw(tournament=tournament, day=day, by=request.user)
    except LedgerError as error:
        refuse_message(request, error)
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
    return to_round(request, round_)


@club_role(ADMIN)
@require_POST
def tournament_days(request, pk):
    """Set the tournament's first and last day."""
    tournament = tournament_of(request, pk)
    form = DaysForm(request.POST)
    if not form.is_valid():
        _form_refused(request, form)
        return _to_tournament(request, tournament)
    try:
        service.tournament_set_days(tournament=tournament, by=request.user, **form.cleaned_data)
    except LedgerError as error:
        refuse_message(request, error)
    return _to_tournament(request, tournament)


@club_role(ADMIN)
@require_POST
def tournament_finish(request, pk):
    """Make the provisional ranking final."""
    tournament = tournament_of(request, pk)
    try:
        service.tournament_finish(tournament=tournament, by=request.user)
    except LedgerError as error:
        refuse_message(request, error)
    else:
        kept_pdfs.after_close(request, "tournament", tournament.pk)
    return _to_tournament(request, tournament)


@club_role(ADMIN)
@require_POST
def tournament_reopen(request, pk):
    """Reopen a final tournament with a reason (logged); the ranking is provisional again."""
    tournament = tournament_of(request, pk)
    try:
        service.tournament_reopen(
            tournament=tournament, reason=request.POST.get("reason", ""), by=request.user
        )
    except LedgerError as error:
        refuse_message(request, error)
    return _to_tournament(request, tournament)


@club_role(ADMIN)
@require_POST
def tournament_cancel(request, pk):
    """Cancel a tournament that will not be played to its end, with a reason (logged)."""
    tournament = tournament_of(request, pk)
    try:
        service.tournament_cancel(
            tournament=tournament, reason=request.POST.get("reason", ""), by=request.user
        )
    except LedgerError as error:
        refuse_message(request, error)
        return _tournament_page(request, tournament, status=422)
    messages.success(request, gettext("The tournament is cancelled."))
    return _to_tournament(request, tournament)


# --- a round -------------------------------------------------------------------------------


@club_role(ADMIN)
def tournament_round(request, pk):
    """A round: its draw (seats, groups, byes, mode, the checker's warnings), the swap before
    publishing, then the clock and every table's progress, then the round's result."""
    return _round_page(request, round_of(request, pk))


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
            "clock": round_clock(round_) if round_.status == Round.Status.PLAYING else None,
            "swap_form": SwapForm(players=view.players),
            "kind_text": round_kind_text(round_.kind),
            "mode_text": draw_mode_text(round_.mode),
            "substitute_form": _substitute_form(request, round_, view),
            "log": reads.log_lines(round_.log, {c: n for c, n in view.players}),
            "corrections": reads.corrections(round_.tournament, round_=round_),
            "may_reopen": round_.status == Round.Status.CLOSED
            and not round_.tournament.rounds.filter(number__gt=round_.number).exists(),
            "reopen_form": ReopenForm(),
            "day_form": DayForm(tournament=round_.tournament, initial={"day": round_.day})
            if round_.tournament.several_days
            and round_.status in (Round.Status.DRAFTED, Round.Status.PUBLISHED)
            else None,
            **extra,
        },
        status=status,
    )


@club_role(ADMIN)
@require_POST
def round_day(request, pk):
    """Move a round not started to another of the tournament's days."""
    round_ = round_of(request, pk)
    form = DayForm(request.POST, tournament=round_.tournament)
    if not form.is_valid():
        _form_refused(request, form)
        return to_round(request, round_)
    try:
        service.round_set_day(round_=round_, day=form.cleaned_data["day"], by=request.user)
    except LedgerError as error:
        refuse_message(request, error)
    return to_round(request, round_)


def _round_action(request, pk, act):
    round_ = round_of(request, pk)
    try:
        act(round_)
    except LedgerError as error:
        refuse_message(request, error)
    return to_round(request, round_)


@club_role(ADMIN)
@require_POST
def round_swap(request, pk):
    """Swap two players of an unpublished draw (checked again and recorded)."""
    round_ = round_of(request, pk)
    form = SwapForm(request.POST, players=reads.round_view(round_).players)
    if not form.is_valid():
        messages.error(request, gettext("Choose two players of the draw."))
        return to_round(request, round_)
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
    round_ = round_of(request, pk)
    if request.POST.get("confirm") != "1" and round_.status == Round.Status.PLAYING:
        view = reads.round_view(round_)
        signal = round_.signal_at
        early = signal is not None and timezone.now() < signal
        # Before the signal, every open table short of its hands target (or playing to the
        # time alone, when the format sets no target) is named: it will end by the director
        # (an open table has its hands counted).
        short = [
            t
            for t in view.tables
            if early and t.status == "open" and (t.target is None or cast(int, t.hands) < t.target)
        ]
        return _round_page(request, round_, confirm_close={"early": early, "short": short})
    return _round_action(request, pk, lambda r: _close_round(request, r))


def _close_round(request, round_) -> None:
    service.round_close(round_=round_, by=request.user)
    kept_pdfs.after_close(request, "round", round_.pk)  # its result and the ranking, kept


@club_role(ADMIN)
@require_POST
def round_reopen(request, pk):
    """Reopen a closed round with the director's reason (no later round drawn yet)."""
    round_ = round_of(request, pk)
    form = ReopenForm(request.POST)
    if not form.is_valid():
        messages.error(request, gettext("Give the reason for reopening the round."))
        return _round_page(request, round_, status=422)
    try:
        service.round_reopen(round_=round_, reason=form.cleaned_data["reason"], by=request.user)
    except LedgerError as error:
        refuse_message(request, error)
        return _round_page(request, round_, status=422)
    messages.success(request, gettext("The round is reopened."))
    return to_round(request, round_)


@club_role(ADMIN)
@require_POST
def round_unpublish(request, pk):
    """Withdraw a published draw that has not started, to draw the round again (section 9)."""
    return _round_action(request, pk, lambda r: service.round_unpublish(round_=r, by=request.user))


def _round_table(round_: Round, number) -> RoundTable:
    rt = round_.round_tables.filter(number=number).first() if str(number).isdigit() else None
    if rt is None:
        raise LedgerError(_("choose a table of the round"), "table")
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
            raise LedgerError.of_validation(ValidationError(form.errors.as_data()))
        data = form.cleaned_data
        rt = next((rt for rt in round_.round_tables.all() if data["absent"] in rt.seats), None)
        if rt is None:
            raise LedgerError(_("a substitute is seated at a table of a round being played"))
        service.round_substitute(
            round_table=rt,
            absent=data["absent"],
            member=data["member"],
            guest_name=data["guest_name"],
            by=request.user,
        )
        messages.success(request, gettext("The substitute is seated."))

    return _round_action(request, pk, act)


def round_clock(round_: Round) -> dict | None:
    """Return the round's clock: its end and the time left (None before the start)."""
    if round_.started_at is None:
        return None
    ends = round_.signal_at
    left = max(0, int((ends - timezone.now()).total_seconds()))
    return {
        "started": round_.started_at,
        "ends": ends,
        "seconds": left,
        "left": table_reads.clock_text(left),
        "over": left == 0,
    }
