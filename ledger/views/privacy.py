"""A member's own data and his erasure (the GDPR): his download (JSON, PDF) from his page, the
erasure by himself (where the club allows it) or by a club admin (``services.privacy``)."""

from __future__ import annotations

import json

from django.contrib import messages
from django.contrib.auth import logout
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.utils.translation import gettext
from django.views.decorators.http import require_POST

from ledger import reports
from ledger.games.registry import get_web
from ledger.models import Member
from ledger.selectors.privacy import member_data
from ledger.services.errors import LedgerError
from ledger.services.privacy import member_erase
from ledger.web.permissions import club_role
from ledger.web.refusals import refuse_message


def _own(request) -> Member:
    if request.member is None:
        raise Http404("Not a member of this club")
    return request.member


@club_role()
def my_data(request):
    """Everything the site holds about the member, as a JSON download (his own data only)."""
    member = _own(request)
    content = json.dumps(member_data(member=member), ensure_ascii=False, indent=2)
    response = HttpResponse(content, content_type="application/json; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{request.club.slug}-my-data.json"'
    return response


@club_role()
def my_data_pdf(request):
    """The same as a readable A4 PDF (WeasyPrint)."""
    member = _own(request)
    data = member_data(member=member)
    # In words for the reader: a membership's role, a hand's role in its game's words.
    roles = dict(Member.Role.choices)
    for row in data["memberships"]:
        row["role_label"] = str(roles.get(row["role"], row["role"]))
    for row in data["hands"]:
        row["role_label"] = get_web(row["game"]).role_label(row["role"])
    content = reports._render(
        "ledger/me/pdf/my_data.html",
        {"data": data, "member": member},
        club=request.club,
        title=gettext("My data"),
    )
    response = HttpResponse(content, content_type="application/pdf")
    response["Content-Disposition"] = f'inline; filename="{request.club.slug}-my-data.pdf"'
    return response


def _erase(request, member: Member) -> bool:
    """Erase ``member`` if the form was confirmed; say what happened; return whether done."""
    if request.POST.get("confirm") != "erase":
        messages.error(request, gettext("Tick the box to confirm the erasure."))
        return False
    name = member.name
    try:
        erased = member_erase(member=member, by=request.user)
    except LedgerError as error:
        refuse_message(request, error, member=member.pk)
        return False
    messages.success(
        request,
        gettext("{name} is erased; the club's figures keep him as {label}.").format(
            name=name, label=erased.name
        ),
    )
    return True


@club_role()
@require_POST
def my_erase(request):
    """The member erases himself, where the club allows it; he is logged out."""
    member = _own(request)
    if not request.club.members_may_erase:
        messages.error(request, gettext("Your club does not let members erase themselves."))
        return redirect("my_page", club=request.club.slug)
    if _erase(request, member):
        logout(request)
        return redirect("home")
    return redirect("my_page", club=request.club.slug)


@club_role(Member.Role.ADMIN)
@require_POST
def member_erase_view(request, pk):
    """A club admin erases a member who has left."""
    member = get_object_or_404(Member, pk=pk, club=request.club)
    _erase(request, member)
    return redirect("setup_members", club=request.club.slug)
