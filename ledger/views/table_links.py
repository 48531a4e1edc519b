"""A round table's own link for one phone (issue 21 part 4): the table cards with their QR
codes, the link that opens the table's entry screen, the players it reports missing, and the
confirmation of a hand saved there by a second player (issue 27, ``confirm_hands``)."""

from __future__ import annotations

import logging
import secrets
from typing import Any, cast

from django.contrib import messages
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext
from django.views.decorators.http import require_POST
from django_htmx.http import HttpResponseClientRedirect

from ledger import reports, selectors
from ledger.games.errors import HandError
from ledger.games.registry import get_game, get_web
from ledger.models import Club, Hand, Member, Round, RoundTable, Table
from ledger.selectors import round_tables as table_reads
from ledger.selectors import tournaments as reads
from ledger.services import tournaments as service
from ledger.services.errors import LedgerError
from ledger.tables.tournaments import TableResultTable
from ledger.views.scoring import SCOREKEEPER, round_context, table_of
from ledger.views.tournament_sheets import pdf_response
from ledger.views.tournaments import ADMIN, round_of, to_round
from ledger.web.http import found
from ledger.web.permissions import ROLE_RANK, TABLE_LINKS, actor, club_role, role_of
from ledger.web.qr import qr_svg
from ledger.web.refusals import logged_refusal, refuse_message

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
        token = cast(str, tokens[table.number])  # a published draw's tables have their tokens
        link = request.build_absolute_uri(_link_path(request.club, token))
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
    context: dict[str, Any] = {
        "club": club_obj,
        "rt": rt,
        "round": round_,
        "tournament": round_.tournament,
    }
    if round_.status not in service.LINK_ROUNDS:
        # The round is over: the table's results and, once drawn, where its players sit next
        # (the page looks again by itself until the next round is published).
        return _over(request, rt, context)
    role = role_of(request.user, club_obj)
    if role is None or ROLE_RANK[role] < ROLE_RANK[Member.Role.SCOREKEEPER]:
        # A scorekeeper of the club (the director too) scores any table: he never takes the
        # link from the table's phone.
        links = dict(request.session.get(TABLE_LINKS) or {})
        secret = links.get(str(rt.pk)) or secrets.token_urlsafe(32)
        try:
            held = service.round_table_claim(round_table=rt, secret=secret)
        except LedgerError:
            return _over(request, rt, context)
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
    table = cast(Table, rt.table)  # its table_id is set
    strip = table_reads.round_strip(table)
    playable = strip is not None and not strip.finished and table.status == Table.Status.OPEN
    name = "hand_new" if playable else "table"
    url = reverse(name, kwargs={"club": club_obj.slug, "pk": rt.table_id})
    if request.htmx:
        return HttpResponseClientRedirect(url)
    return redirect(url)


def _over(request, rt: RoundTable, context: dict[str, Any]):
    """Render the link's page once its round is over: once it is closed, the table's results
    and where its players sit next (the page looks again until that draw is published)."""
    after = table_reads.after_round(rt) if rt.round.status == Round.Status.CLOSED else None
    results = TableResultTable(after.results) if after else None
    return render(
        request,
        "ledger/tournaments/link.html",
        {**context, "state": "over", "after": after, "results_table": results},
    )


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
        refuse_message(request, error, round_table=rt.pk)
    else:
        messages.success(request, gettext("The director is told."))
    if rt.table_id is None:
        return redirect(link)
    return redirect("table", club=club_obj.slug, pk=rt.table_id)


# --- a hand to confirm (issue 27) -------------------------------------------------------------


def _whole_number(text) -> int | None:
    return int(text) if str(text or "").isdigit() else None


@club_role(SCOREKEEPER, table_link=True)
def hand_confirm(request, pk):
    """The table's phone after a hand saved there while the tournament asks for confirmation
    (``confirm_hands``): the hand's result in the preview's words and the hand's players; a
    second player, not the one who saved it, picks his name and confirms it. Until then the
    hand does not count for the table's target and the phone saves no other hand."""
    table = table_of(request, pk)
    if request.method == "POST":
        return _confirm_post(request, table)
    hand = service.unconfirmed_hand(table.pk)
    context = round_context(table)
    if context["round_strip"] is None or hand is None:
        # Nothing waits (confirmed meanwhile, voided, or no round table): the screen says so.
        context.update({"table": table, "evening": table.evening, "hand": None})
        return render(request, "ledger/tournaments/confirm.html", context)
    return _confirm_page(request, table, hand, context)


def _confirm_post(request, table: Table):
    # The hand the screen showed, even if it was confirmed or voided since (the service says
    # so); only a hand of this table.
    hand_id = _whole_number(request.POST.get("hand"))
    hand = Hand.objects.filter(table=table, pk=hand_id).first() if hand_id else None
    tokens = list(RoundTable.objects.filter(table_id=table.pk).values_list("token", flat=True))
    if hand is None or not tokens:
        return redirect("table", club=request.club.slug, pk=table.pk)
    try:
        service.tournament_hand_confirm(
            hand=hand,
            revision=_whole_number(request.POST.get("revision")),
            confirmed_by=request.POST.get("confirmed_by", ""),
            by=actor(request, table),
        )
    except LedgerError as error:
        shown = logged_refusal(request, error, table=table.pk, hand=hand.pk)
        context = round_context(table)
        context["errors"] = [{"field": field, "message": message} for field, message in shown]
        return _confirm_page(request, table, hand, context, status=422)
    messages.success(request, gettext("Hand {number} is confirmed.").format(number=hand.number))
    # Back through the table's link: the next hand's entry, or the table once it is done.
    if tokens[0]:
        return redirect(_link_path(request.club, tokens[0]))
    return redirect("table", club=request.club.slug, pk=table.pk)


def _confirm_page(request, table: Table, hand: Hand, context: dict, *, status: int = 200):
    """Render the confirmation screen of ``hand``: its result in the entry preview's words
    (settled again from the state before it, writing nothing) and the players to choose."""
    confirmation = getattr(hand, "confirmation", None)
    saver = confirmation.saved_by if confirmation is not None else ""
    seats = list(hand.record.get("seats", []))
    posting = selectors.live_hand_postings(table.pk).get(hand.pk)
    state = posting.state_before if posting is not None and posting.state_before else {}
    game = get_game(table.game)
    pools = state
    if not selectors.state_is_pools(game):
        pools = selectors.pools_before_hand(table.pk, hand, game.features.pool_codes)
    try:
        preview = selectors.settle_preview(
            table=table, record=hand.record, seats=seats, state=state, pools=pools
        )
    except (HandError, LedgerError):  # a hand already voided: its words only
        preview = None
    latest = hand.revisions.order_by("-number").values_list("number", flat=True).first()
    chosen = request.POST.get("confirmed_by", "") if request.method == "POST" else ""
    context.update(
        {
            "table": table,
            "evening": table.evening,
            "hand": hand,
            "revision": latest,
            "saver": saver,
            "players": [
                {"name": name, "saver": name == saver, "chosen": name == chosen} for name in seats
            ],
            "preview": preview,
            "record": get_web(table.game).record_lines(hand.record),
            "confirmed": confirmation is not None and confirmation.confirmed_at is not None,
        }
    )
    return render(request, "ledger/tournaments/confirm.html", context, status=status)
