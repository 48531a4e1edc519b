"""A round table's own link for one phone (issue 21 part 4): the table cards with their QR
codes, the link that opens the table's entry screen, the players it reports missing."""

from __future__ import annotations

import logging
import secrets

from django.contrib import messages
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext
from django.views.decorators.http import require_POST
from django_htmx.http import HttpResponseClientRedirect

from ledger import reports
from ledger.models import Club, Member, Round, RoundTable, Table
from ledger.selectors import round_tables as table_reads
from ledger.selectors import tournaments as reads
from ledger.services import tournaments as service
from ledger.services.errors import LedgerError
from ledger.views.tournament_sheets import pdf_response
from ledger.views.tournaments import ADMIN, round_of, to_round
from ledger.web.http import found
from ledger.web.permissions import ROLE_RANK, TABLE_LINKS, club_role, role_of
from ledger.web.qr import qr_svg

logger = logging.getLogger(__name__)


@club_role(ADMIN)
def round_cards_pdf(request, pk):
    """Every table's card for a published round: its number, its players in seat order and
    the QR code of the table's own link, for one phone or tablet at the table."""
    round_ = round_of(request, pk)
    if round_.status not in service.LINK_ROUNDS:
        messages.error(request, gettext("Publish the draw first: the cards carry its tables."))
        return to_round(request, round_)
    cards = _cards(request, round_)
    return pdf_response(request, lambda: reports.tournament_cards_pdf(round_=round_, cards=cards))


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
    rt = table_reads.round_table_by_token(club=club, token=token)
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
        context["after"] = (
            table_reads.after_round(rt) if round_.status == Round.Status.CLOSED else None
        )
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
                table_reads.after_round(rt) if round_.status == Round.Status.CLOSED else None
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
        context["strip"] = table_reads.strip_of(rt, hands=0)
        return render(request, "ledger/tournaments/link.html", {**context, "state": "waiting"})
    strip = table_reads.round_strip(rt.table)
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
