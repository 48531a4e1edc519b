"""Club set-up: a superuser creates a club; its admins keep members, house rules, seasons and
settings; members get a one-time link to choose their log-in (``ledger.services.invitations``)."""

from __future__ import annotations

from typing import cast

from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext
from django.views.decorators.http import require_POST
from django_tables2 import RequestConfig

from ledger import selectors, services
from ledger.forms.ratecard import PresetForm, RateCardForm
from ledger.forms.setup import (
    ClubCreateForm,
    ClubSettingsForm,
    InvitationAcceptForm,
    MemberAddForm,
    MemberEditForm,
    MembersPasteForm,
    SeasonForm,
)
from ledger.games.registry import GAMES, get_web
from ledger.models import Member, Season
from ledger.services import invitations
from ledger.services.errors import LedgerError
from ledger.tables.setup import MemberTable, PeopleLogTable, SeasonTable
from ledger.web import locale
from ledger.web.permissions import club_role
from ledger.web.qr import qr_svg
from ledger.web.refusals import refuse, refuse_message

ADMIN = Member.Role.ADMIN


@login_required
def club_new(request):
    """Create a club (superusers only): the club, its first season, the creator as club admin."""
    if not request.user.is_superuser:
        raise PermissionDenied
    # ?game=<code> chooses the game beforehand (its form asks what that game needs).
    chosen = request.GET.get("game")
    form = ClubCreateForm(request.POST or None, initial={"game": chosen} if chosen in GAMES else {})
    status = 200
    if request.method == "POST":
        if form.is_valid():
            data = form.cleaned_data
            try:
                club, _member, _season = services.club_create(
                    name=data["name"],
                    slug=data["slug"],
                    game=data["game"],
                    rate_card=form.rate_card(),
                    price_per_point=data["price_per_point"],
                    currency=data["currency"] or None,
                    language=data["language"] or None,
                    time_zone=data["time_zone"] or None,
                    # A game without jetons asks none: the club keeps the default stack.
                    **(
                        {"starting_jetons": data["starting_jetons"]}
                        if "starting_jetons" in data
                        else {}
                    ),
                    season_name=data["season_name"],
                    season_starts_on=data["season_starts_on"],
                    season_ends_on=data["season_ends_on"],
                    admin_user=request.user,
                )
            except LedgerError as error:
                refuse(request, error, form)
            else:
                messages.success(
                    request, gettext("The club {name} is created.").format(name=club.name)
                )
                return redirect("setup_members", club=club.slug)
        status = 422
    return render(request, "ledger/setup/club_new.html", {"form": form}, status=status)


def _setup_context(request, tab: str, **extra) -> dict:
    return {"setup_tab": tab, **extra}


@club_role(ADMIN)
def members(request):
    """The club's members: add one, paste a list, change roles, deactivate, invite."""
    add_form = MemberAddForm(prefix="add")
    paste_form = MembersPasteForm(prefix="paste")
    status = 200
    if request.method == "POST":
        action = request.POST.get("action")
        if action == "paste":
            paste_form = MembersPasteForm(request.POST, prefix="paste")
            form: MembersPasteForm | MemberAddForm = paste_form
            names = None
            if paste_form.is_valid():
                names = paste_form.names_list()
            role = Member.Role.MEMBER
        else:
            add_form = MemberAddForm(request.POST, prefix="add")
            form = add_form
            names = None
            if add_form.is_valid():
                names = [add_form.cleaned_data["name"]]
            role = add_form.cleaned_data.get("role") or Member.Role.MEMBER
        if names is not None:
            try:
                added = services.members_add(
                    club=request.club, names=names, role=role, by=request.user
                )
            except LedgerError as error:
                refuse(request, error, form)
            else:
                messages.success(
                    request,
                    gettext("Added: {names}.").format(names=", ".join(m.name for m in added)),
                )
                return redirect("setup_members", club=request.club.slug)
        status = 422
    rows = Member.objects.filter(club=request.club).select_related("user", "club")
    table = MemberTable(rows, request=request)
    return render(
        request,
        "ledger/setup/members.html",
        _setup_context(request, "members", table=table, add_form=add_form, paste_form=paste_form),
        status=status,
    )


@club_role(ADMIN)
@require_POST
def member_edit(request, pk):
    """Set a member's role, or deactivate / reactivate him."""
    member = get_object_or_404(Member, pk=pk, club=request.club)
    form = MemberEditForm(request.POST)
    if form.is_valid() and (form.cleaned_data["role"] or form.cleaned_data["active"] is not None):
        if member.user_id == request.user.pk and (
            form.cleaned_data["role"] not in ("", ADMIN) or form.cleaned_data["active"] is False
        ):
            messages.error(request, gettext("You cannot take your own admin rights away."))
        else:
            try:
                services.member_update(
                    member=member,
                    role=form.cleaned_data["role"] or None,
                    active=form.cleaned_data["active"],
                    by=request.user,
                )
            except LedgerError as error:
                refuse_message(request, error, member=member.pk)
            else:
                messages.success(request, gettext("{name} is saved.").format(name=member.name))
    else:
        messages.error(request, gettext("Choose a role or active / inactive."))
    return redirect("setup_members", club=request.club.slug)


@club_role(ADMIN)
def rates(request):
    """The club's house rules: its game's rate card, field by field, with each default."""
    club = request.club
    web = get_web(club.game)
    # A preset chosen (a GET: nothing is saved) fills the form; saving it stores the card.
    fill = PresetForm(request.GET if "preset" in request.GET else None, game=club.game)
    card, preset, status = club.rate_card, None, 200
    if fill.is_bound:
        if fill.is_valid():
            card, preset = fill.rate_card(), web.preset_text(fill.cleaned_data["preset"])
        else:
            status = 422
    form = RateCardForm(request.POST or None, game=club.game, card=card)
    if request.method == "POST":
        if form.is_valid():
            try:
                # a valid form has its card
                services.rate_card_set(club=club, rate_card=cast(dict, form.rate_card))
            except LedgerError as error:
                refuse(request, error, form)
            else:
                messages.success(
                    request,
                    gettext("The house rules are saved; they apply to evenings opened from now."),
                )
                return redirect("setup_rates", club=club.slug)
        status = 422
    return render(
        request,
        "ledger/setup/rates.html",
        _setup_context(
            request,
            "rates",
            form=form,
            fill=fill,
            preset=preset,
            changes=web.rate_card_changes(card),
        ),
        status=status,
    )


@club_role(ADMIN)
def seasons(request):
    """The club's seasons; add one."""
    form = SeasonForm(request.POST or None)
    status = 200
    if request.method == "POST":
        if form.is_valid():
            try:
                services.season_save(club=request.club, **form.cleaned_data)
            except LedgerError as error:
                refuse(request, error, form)
            else:
                messages.success(request, gettext("The season is saved."))
                return redirect("setup_seasons", club=request.club.slug)
        status = 422
    table = SeasonTable(Season.objects.filter(club=request.club), club_slug=request.club.slug)
    return render(
        request,
        "ledger/setup/seasons.html",
        _setup_context(request, "seasons", form=form, table=table),
        status=status,
    )


@club_role(ADMIN)
def season_edit(request, pk):
    """Change a season's name and dates."""
    season = get_object_or_404(Season, pk=pk, club=request.club)
    form = SeasonForm(request.POST or None, instance=season)
    status = 200
    if request.method == "POST":
        if form.is_valid():
            try:
                services.season_save(club=request.club, season=season, **form.cleaned_data)
            except LedgerError as error:
                refuse(request, error, form)
            else:
                messages.success(request, gettext("The season is saved."))
                return redirect("setup_seasons", club=request.club.slug)
        status = 422
    return render(
        request,
        "ledger/setup/season_edit.html",
        _setup_context(request, "seasons", form=form, season=season),
        status=status,
    )


@club_role(ADMIN)
def club_settings(request):
    """The club's name, language, price per point, currency, time zone and starting jetons."""
    form = ClubSettingsForm(request.POST or None, instance=request.club)
    status = 200
    if request.method == "POST":
        if form.is_valid():
            try:
                services.club_update(club=request.club, **form.cleaned_data)
            except LedgerError as error:
                refuse(request, error, form)
            else:
                messages.success(request, gettext("The club's settings are saved."))
                return redirect("setup_settings", club=request.club.slug)
        status = 422
    return render(
        request,
        "ledger/setup/settings.html",
        _setup_context(
            request,
            "settings",
            form=form,
            public_url=request.build_absolute_uri(
                reverse("public_club", kwargs={"club": request.club.slug})
            ),
        ),
        status=status,
    )


@club_role(ADMIN)
def people_log(request):
    """The club's people log, newest first: every member added, role, log-in and active flag
    changed, password reset, invitation made, used or revoked (who, when, before → after)."""
    table = PeopleLogTable(selectors.people_log(request.club), request=request)
    RequestConfig(request, paginate={"per_page": 50}).configure(table)
    return render(
        request, "ledger/setup/people_log.html", _setup_context(request, "log", table=table)
    )


# --- invitations ---------------------------------------------------------------------------


def invitation_path(invitation) -> str:
    """Return the path of an invitation's one-time link."""
    return reverse("invitation_accept", kwargs={"token": invitations.token_of(invitation.nonce)})


def landing_url(club) -> str:
    """Where a member lands after his first log-in: his own page."""
    return reverse("my_page", kwargs={"club": club.slug})


@club_role(ADMIN)
@require_POST
def invitation_new(request, pk):
    """Make a member without a log-in a one-time link to choose his first one.

    A member who has a log-in is refused with the reason on the members page, and nothing is
    written: access to an existing log-in is its owner's own password reset, never a link the
    club admin can read.
    """
    member = get_object_or_404(Member, pk=pk, club=request.club)
    try:
        services.invitation_create(member=member, by=request.user)
    except LedgerError as error:
        refuse_message(request, error, member=member.pk)
        response = redirect("setup_members", club=request.club.slug)
        response.status_code = 303
        return response
    messages.success(
        request,
        gettext("A link for {name} is ready; print it or show its QR code.").format(
            name=member.name
        ),
    )
    return redirect("setup_invitations", club=request.club.slug)


@club_role(ADMIN)
@require_POST
def invitations_all(request):
    """Invite every active member who has no log-in, in one tap; then show the sheet."""
    made = services.invitations_create_missing(club=request.club, by=request.user)
    if made:
        messages.success(
            request,
            gettext("Links for {count} members are ready: {names}.").format(
                count=len(made), names=", ".join(i.member.name for i in made)
            ),
        )
    else:
        messages.info(request, gettext("Every active member has a log-in or a pending link."))
    return redirect("setup_invitations", club=request.club.slug)


def _invitation_cards(request) -> list[dict]:
    cards = []
    for invitation in selectors.pending_invitations(request.club):
        link = request.build_absolute_uri(invitation_path(invitation))
        cards.append(
            {
                "invitation": invitation,
                "member": invitation.member,
                "link": link,
                "qr": qr_svg(link, title=invitation.member.name),
            }
        )
    return cards


@club_role(ADMIN)
def invitations_sheet(request):
    """Every pending invitation's link and QR code, to print on A4 (or as a PDF)."""
    return render(
        request,
        "ledger/setup/invitations.html",
        _setup_context(request, "members", cards=_invitation_cards(request)),
    )


@club_role(ADMIN)
def invitations_pdf(request):
    """The pending invitations as an A4 PDF (WeasyPrint)."""
    from ledger import reports

    title = gettext("Invitations")
    content = reports._render(
        "ledger/setup/pdf/invitations.html",
        {"cards": _invitation_cards(request)},
        club=request.club,
        title=title,
    )
    response = HttpResponse(content, content_type="application/pdf")
    response["Content-Disposition"] = f'inline; filename="{request.club.slug}-invitations.pdf"'
    return response


def _invitation_refused(request, refused: invitations.InvitationRefused):
    """Answer a refused link (410), in its club's language where the link is known."""
    if refused.club is not None:
        locale.use_club(request, refused.club)
    return render(
        request, "ledger/setup/invitation_refused.html", {"reason": refused.message}, status=410
    )


def invitation_accept(request, token):
    """The invited member chooses his user name and password and is logged in."""
    try:
        invitation = invitations.find(token)
    except invitations.InvitationRefused as refused:
        return _invitation_refused(request, refused)
    member = invitation.member
    locale.use_club(request, member.club)  # the link reads in the club's language
    form = InvitationAcceptForm(request.POST or None, member=member)
    status = 200
    if request.method == "POST":
        if form.is_valid():
            try:
                user, _ = services.invitation_accept(
                    token=token,
                    password=form.cleaned_data["password1"],
                    username=form.cleaned_data["username"],
                )
            except invitations.InvitationRefused as refused:
                return _invitation_refused(request, refused)
            except LedgerError as error:
                refuse(request, error, form)
            else:
                login(request, user, backend="django.contrib.auth.backends.ModelBackend")
                messages.success(request, gettext("Welcome, {name}.").format(name=member.name))
                return redirect(landing_url(member.club))
        status = 422
    return render(
        request,
        "ledger/setup/invitation_accept.html",
        {"form": form, "member": member, "invited_club": member.club},
        status=status,
    )
