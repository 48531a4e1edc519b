"""The hand screens of a table (its entry form, the live preview of who pays whom, a hand, its
correction and its void): thin views over ``services.hand_record``, ``hand_correct`` and
``hand_void``, the tablet's JSON answers and the refusals on the form."""

from __future__ import annotations

import uuid
from typing import cast

from django.contrib import messages
from django.http import Http404, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext
from django.views.decorators.http import require_POST

from ledger import selectors, services
from ledger.forms.scoring import (
    HandCorrectForm,
    HandForm,
    HandNewForm,
    VoidForm,
)
from ledger.games.errors import HandError
from ledger.games.money import signed_figure
from ledger.games.registry import get_game, get_web
from ledger.models import (
    Hand,
    HandRevision,
    Member,
    Table,
)
from ledger.selectors import tournaments as tournament_reads
from ledger.selectors.privacy import erased_names, shown
from ledger.services import tournaments as tournament_services
from ledger.services.errors import BusyError, EveningClosedError, LedgerError
from ledger.tables.scoring import RevisionTable
from ledger.views.scoring import (
    CHANGES_KEY,
    DRAFT_HEADER,
    SCOREKEEPER,
    errors_by_section,
    form_errors,
    round_context,
    signed,
    table_of,
)
from ledger.web import tablet
from ledger.web.permissions import actor, can, club_role, granted
from ledger.web.refusals import logged_refusal, refusal_messages, refuse, refuse_message

# --- the preview ---------------------------------------------------------------------------


def _feedback(
    request,
    game_code: str,
    *,
    preview=None,
    errors=None,
    attempted=False,
    status=200,
    seats: int | None = None,
):
    web = get_web(game_code)
    errors = errors or {}
    context = {
        "preview": preview,
        "errors": errors,
        "error_slots": [(section, errors.get(section, [])) for section in web.sections()],
        "attempted": attempted,
        "wait_hint": web.wait_hint_for(seats),
    }
    return render(request, "ledger/_scoring_hand_feedback.html", context, status=status)


def _record_from_post(request):
    form = HandForm(request.POST)
    if not form.is_valid():
        return None, form_errors(form)
    return form.cleaned_data["record"], None


# --- hands ---------------------------------------------------------------------------------


def _hand_form_context(request, table, *, seats, record, token, hand=None, errors=None):
    """Return what the hand form needs: players, rotation, labels and the current record."""
    rates = services.rate_card(table.evening)
    web = get_web(table.game)
    game = get_game(table.game)
    pools = selectors.pool_balances(table.pk)
    state = pools if selectors.state_is_pools(game) else services.table_state(table)
    if hand is None:
        dealt = selectors.dealt_hands(table.pk)
        number = len(dealt) + 1  # hand numbers have no gaps (verify_ledger checks them)
        nxt = selectors.next_hand(table, seats, rates, number, dealt)
        preview_url = reverse("hand_preview", kwargs={"club": request.club.slug, "pk": table.pk})
    else:
        number = hand.number
        nxt = None
        posting = selectors.live_hand_postings(table.pk).get(hand.pk)
        if posting is not None and posting.state_before:
            state = posting.state_before
        if selectors.state_is_pools(game):
            pools = state
        else:
            pools = selectors.pools_before_hand(table.pk, hand, game.features.pool_codes)
        preview_url = reverse(
            "hand_correct_preview", kwargs={"club": request.club.slug, "pk": hand.pk}
        )
    if record is None and nxt is not None:
        record = {
            "format": "tarokclub.hand/1",
            "seats": seats,
            "dealer": nxt["dealer"],
            "sitting_out": nxt["sitting_out"],
        }
    entry = web.entry_context(rates=rates, seats=seats)
    return {
        **entry,
        "table": table,
        "evening": table.evening,
        "nav_evening": table.evening,
        "hand": hand,
        "number": number,
        "version": services.table_version(table.pk),
        "seats": seats,
        "state": state,
        "pool_state": pools,
        "pools": selectors.pool_items(table.game, pools),
        # A new hand's form warns as the table's screen does (a Danish cup near the bound).
        "warnings": web.table_warnings(state, rates) if hand is None else [],
        "record": record,
        "token": token,
        "suggested": nxt,
        "entry_template": web.entry_template,
        "wait_hint": web.wait_hint_for(len(seats)),
        "entry_script": web.entry_script,
        "entry_styles": web.entry_styles,
        "quick_reasons": web.quick_reasons,
        "hand_config": {
            "table": table.pk,
            "hand": hand.pk if hand else None,
            "number": number,
            "seats": seats,
            "token": token,
            "mode": "correct" if hand else "new",
            **entry["config"],
            "record": record,
            "table_url": reverse("table", kwargs={"club": request.club.slug, "pk": table.pk}),
        },
        "errors": errors or {},
        "sections": web.sections(),
        "preview_url": preview_url,
        "begun_before_signal": request.POST.get("begun_before_signal") == "1",
        **round_context(table),
    }


def _refused_page(request, context_or_errors, *, form_page, status=422):
    """Answer a refused hand: the feedback partial to the script, the whole page otherwise."""
    if request.headers.get(DRAFT_HEADER):
        return _feedback(
            request,
            context_or_errors["table"].game,
            errors=context_or_errors["errors"],
            attempted=True,
            status=status,
        )
    context_or_errors["attempted"] = True
    return render(request, form_page, context_or_errors, status=status)


def _draft_refused(request):
    """Answer a draft from the tablet that is not this user's to send now (``tablet``): 409 with
    ``{"draft": "foreign"}`` (another user made it: the script keeps it for him and shows this
    user a clean form) or ``{"draft": "confirm"}`` (his own, from an earlier session: he
    confirms it first); nothing is written. ``None`` when the hand may be saved."""
    refusal = tablet.draft_refusal(request)
    if refusal is None:
        return None
    texts = {
        "foreign": gettext("This hand was entered on this tablet by another user: it is not sent."),
        "confirm": gettext("This hand was kept on this tablet: check it and confirm to send it."),
    }
    return JsonResponse({"draft": refusal, "message": texts[refusal]}, status=409)


def _entry_page(request, context):
    """Render a hand form, saying whose copy it is (the service worker keeps it per user)."""
    response = render(request, "ledger/hand_form.html", context)
    response[tablet.USER_HEADER] = tablet.owner_key(request)
    return response


def _saved(request, url: str, *, number: int):
    if request.headers.get(DRAFT_HEADER):
        return JsonResponse({"saved": True, "url": url, "number": number})
    return redirect(url)


@club_role(SCOREKEEPER, table_link=True)
def hand_new(request, pk):
    """Enter a new hand on one screen; POST records it (once per one-time token). A save reads
    its table under the table's lock (the service), not before: the view reads it only to show
    a form or a refusal."""

    def seats(table):
        # Read when a form is shown: a save reads the seats under its lock.
        return [s.name for s in selectors.current_seats(table.pk)]

    table_url = reverse("table", kwargs={"club": request.club.slug, "pk": pk})
    if request.method != "POST":
        table = table_of(request, pk)
        current = seats(table)
        if not (table.evening.is_open and table.status == Table.Status.OPEN):
            messages.error(request, str(EveningClosedError().message))
            return redirect(table_url)
        if not 3 <= len(current) <= 5:
            messages.error(request, gettext("A hand needs 3 to 5 members at the table."))
            return redirect(table_url)
        if get_web(table.game).entry_template is None:
            messages.error(request, gettext("This game has no entry form yet: import its hands."))
            return redirect(table_url)
        context = _hand_form_context(
            request, table, seats=current, record=None, token=str(uuid.uuid4())
        )
        if _link_confirms(request, context) and tournament_services.unconfirmed_hand(table.pk):
            # The table's phone confirms its last hand before it enters another.
            return redirect("hand_confirm", club=request.club.slug, pk=table.pk)
        return _entry_page(request, context)

    refused = _draft_refused(request)
    form = HandNewForm(request.POST)
    if refused is not None or not form.is_valid():
        table = table_of(request, pk)  # a table not this request's is a 404 first
        if refused is not None:
            return refused
        context = _hand_form_context(
            request,
            table,
            seats=seats(table),
            record=None,
            token=request.POST.get("token") or str(uuid.uuid4()),
            errors=form_errors(form),
        )
        _link_confirms(request, context)
        return _refused_page(request, context, form_page="ledger/hand_form.html")
    record = form.cleaned_data["record"]
    token = form.cleaned_data["token"] or None
    # Saved on the table's own link: who of the table saved it (a hand to confirm, when the
    # tournament asks for it; the service decides).
    saved_by = request.POST.get("saved_by", "") if request.table_grants is not None else None
    try:
        hand = services.hand_record(
            table_id=pk,
            club_id=request.club.pk,
            grants=request.table_grants,
            record=record,
            token=token,
            number=form.cleaned_data["number"],
            version=form.cleaned_data["version"],
            begun_before_signal=form.cleaned_data["begun_before_signal"],
            saved_by=saved_by,
            by=actor(request, Table(pk=pk)),
        )
    except Table.DoesNotExist:
        raise Http404 from None
    except (HandError, LedgerError) as error:
        if isinstance(error, BusyError) and request.headers.get(DRAFT_HEADER):
            return refuse(request, error, table=pk)
        shown = logged_refusal(request, error, table=pk)
        table = table_of(request, pk)
        context = _hand_form_context(
            request,
            table,
            seats=seats(table),
            record=record,
            token=token or str(uuid.uuid4()),
            errors=errors_by_section(shown, table.game),
        )
        _link_confirms(request, context)
        return _refused_page(request, context, form_page="ledger/hand_form.html")
    messages.success(request, gettext("Hand {number} is saved.").format(number=hand.number))
    if saved_by is not None:
        waiting = tournament_services.unconfirmed_hand(pk)
        if waiting is not None and waiting.pk == hand.pk:
            url = reverse("hand_confirm", kwargs={"club": request.club.slug, "pk": pk})
            return _saved(request, url, number=hand.number)
    return _saved(request, table_url, number=hand.number)


def _link_confirms(request, context) -> bool:
    """Return whether a hand entered on this round table's own link waits for a second
    player's confirmation (its tournament's ``confirm_hands``); if so the form asks who of the
    table saves it (``savers`` in ``context``)."""
    strip = context.get("round_strip")
    if request.table_grants is None or strip is None:
        return False
    if not tournament_services.tournament_params(strip.tournament).confirm_hands:
        return False
    context["savers"] = context["seats"]
    context["saved_by"] = request.POST.get("saved_by", "")
    return True


@club_role(SCOREKEEPER, table_link=True)
@require_POST
def hand_preview(request, pk):
    """Show who would pay whom for the hand being entered, and the pools after; write nothing."""
    table = table_of(request, pk)
    record, errors = _record_from_post(request)
    if errors:
        return _feedback(request, table.game, errors=errors, status=400)  # an unreadable record
    seats = [s.name for s in selectors.current_seats(table.pk)]
    pools = selectors.pool_balances(table.pk)
    state = pools if selectors.state_is_pools(get_game(table.game)) else services.table_state(table)
    try:
        preview = selectors.settle_preview(
            table=table, record=record, seats=seats, state=state, pools=pools
        )
    except (HandError, LedgerError) as error:  # why it would be refused; nothing was asked
        errors = errors_by_section(refusal_messages(error), table.game)
        return _feedback(request, table.game, errors=errors, seats=len(seats))
    return _feedback(request, table.game, preview=preview, seats=len(seats))


def _hand(request, pk) -> Hand:
    return get_object_or_404(
        granted(
            request,
            Hand.objects.select_related("table__evening__club", "table__first_dealer", "dealer"),
            "table_id",
        ),
        pk=pk,
        table__evening__club=request.club,
    )


@club_role(table_link=True)
def hand_detail(request, pk):
    """Show one hand: its record, who paid whom, and every revision (who, when, why)."""
    hand = _hand(request, pk)
    table = hand.table
    posting = selectors.live_hand_postings(table.pk).get(hand.pk)
    names = erased_names(table_id=table.pk)  # an erased member's seat, by his label
    record = shown(hand.record, names)
    settled = None
    if posting is not None:
        transfers = [
            {
                "from": t.source.name,
                "to": t.target.name,
                "points": t.points,
                "reason": t.reason,
            }
            for t in posting.transfers.select_related("source__member", "target__member")
        ]
        seats = hand.record["seats"]
        effect = selectors.posting_effects([posting.pk])[posting.pk]
        settled = {
            "net": [
                dict(signed_figure(effect["net"].get(n, 0)), name=names.get(n, n)) for n in seats
            ],
            "pools": selectors.pool_items(
                table.game,
                selectors.pools_after(posting, effect, get_game(table.game).features.pool_codes),
                before=posting.state_before or {},
            ),
            "summary": selectors.transfer_summary(transfers, record["seats"], table.game),
        }
    revisions = HandRevision.objects.filter(hand=hand).select_related("by").order_by("number")
    context = {
        "hand": hand,
        "table": table,
        "evening": table.evening,
        "nav_evening": table.evening,
        "settled": settled,
        "record": get_web(table.game).record_lines(record),
        "revisions": RevisionTable(revisions),
        "void_form": VoidForm(),
        "writable": (
            table.evening.is_open
            and table.status == Table.Status.OPEN
            and hand.status == Hand.Status.RECORDED
        ),
        "correctable": hand.status == Hand.Status.RECORDED
        and _tournament_correction(request, table) is not None,
        **round_context(table),
    }
    return render(request, "ledger/hand.html", context)


def _tournament_correction(request, table: Table):
    """Return the closed round's table that ``table`` was opened as, when the director (the
    club admin) may correct its hands after the round (section 11 of tournament.md), else
    None. Asks the database only for a closed table of an open evening."""
    if not (table.evening.is_open and table.status == Table.Status.CLOSED):
        return None
    if not can(request, Member.Role.ADMIN):
        return None
    return tournament_reads.closed_round_table(table)


def _changes(*, table: Table, title: str, changed, voided=None) -> dict:
    """Return what a correction or a void changed: each hand whose net or pools changed."""
    codes = get_game(table.game).features.pool_codes
    web = get_web(table.game)
    ids = [p.pk for _h, old, new in changed for p in (old, new)]
    if voided is not None:
        ids.append(voided[1].pk)
    effects = selectors.posting_effects(ids)

    hands = []
    if voided is not None:
        hand, old = voided
        hands.append(
            {
                "number": hand.number,
                "voided": True,
                "members": [
                    {"name": n, "old": signed(v), "new": signed(0)}
                    for n, v in effects[old.pk]["net"].items()
                    if v
                ],
                "pools": [],
            }
        )
    for hand, old, new in changed:
        old_net, new_net = effects[old.pk]["net"], effects[new.pk]["net"]
        names = list(dict.fromkeys(list(old_net) + list(new_net)))
        members = [
            {"name": n, "old": signed(old_net.get(n, 0)), "new": signed(new_net.get(n, 0))}
            for n in names
            if old_net.get(n, 0) != new_net.get(n, 0)
        ]
        old_pools = selectors.pools_after(old, effects[old.pk], codes)
        new_pools = selectors.pools_after(new, effects[new.pk], codes)
        pools = [
            {"name": c, "label": web.pool_label(c), "old": old_pools[c], "new": new_pools[c]}
            for c in codes
            if old_pools[c] != new_pools[c]
        ]
        if members or pools:
            hands.append(
                {"number": hand.number, "voided": False, "members": members, "pools": pools}
            )
    return {"table": table.pk, "title": title, "hands": hands, "resettled": len(changed)}


@club_role(SCOREKEEPER, table_link=True)
def hand_correct(request, pk):
    """Correct a hand of an open evening with a reason; later hands are re-settled."""
    hand = _hand(request, pk)
    table = hand.table
    table_url = reverse("table", kwargs={"club": request.club.slug, "pk": table.pk})
    hand_url = reverse("hand", kwargs={"club": request.club.slug, "pk": hand.pk})
    seats = list(hand.record["seats"])
    # every hand has its first revision
    latest = cast(HandRevision, hand.revisions.order_by("-number").first())
    round_table = _tournament_correction(request, table)  # a tournament's closed round
    if not (table.evening.is_open and (table.status == Table.Status.OPEN or round_table)):
        messages.error(request, str(EveningClosedError().message))
        return redirect(hand_url)
    if hand.status != Hand.Status.RECORDED:
        messages.error(request, gettext("A voided hand cannot be corrected."))
        return redirect(hand_url)
    if get_web(table.game).entry_template is None:
        messages.error(request, gettext("This game has no entry form yet: import its hands."))
        return redirect(hand_url)

    def page(record, errors=None, reason=""):
        context = _hand_form_context(
            request, table, seats=seats, record=record, token="", hand=hand, errors=errors
        )
        context["base_revision"] = latest.number
        context["reason"] = reason
        if round_table is not None:
            context["tournament_correction"] = {
                "late": tournament_services.correction_period_over(round_table.round),
                "override_reason": request.POST.get("override_reason", ""),
            }
        if not errors:
            try:
                context["preview"] = selectors.settle_preview(
                    table=table,
                    record=record,
                    seats=seats,
                    state=context["state"],
                    pools=context["pool_state"],
                )
            except (HandError, LedgerError) as error:
                context["errors"] = errors_by_section(refusal_messages(error), table.game)
        return context

    if request.method != "POST":
        return _entry_page(request, page(hand.record))

    refused = _draft_refused(request)
    if refused is not None:
        return refused
    form = HandCorrectForm(request.POST)
    if not form.is_valid():
        record = hand.record
        if "record" in form.cleaned_data:
            record = form.cleaned_data["record"]
        context = page(record, form_errors(form), request.POST.get("reason", ""))
        return _refused_page(request, context, form_page="ledger/hand_form.html")
    record = form.cleaned_data["record"]
    reason = form.cleaned_data["reason"]
    try:
        if round_table is not None:
            changed = tournament_services.tournament_hand_correct(
                hand=hand,
                record=record,
                reason=reason,
                override=request.POST.get("override") == "1",
                override_reason=request.POST.get("override_reason", ""),
                based_on=form.cleaned_data["base_revision"],
                by=actor(request, table),
            )
        else:
            changed = services.hand_correct(
                hand=hand,
                record=record,
                reason=reason,
                based_on=form.cleaned_data["base_revision"],
                by=actor(request, table),
            )
    except (HandError, LedgerError) as error:
        if isinstance(error, BusyError) and request.headers.get(DRAFT_HEADER):
            return refuse(request, error, table=table.pk, hand=hand.pk)
        shown = logged_refusal(request, error, table=table.pk, hand=hand.pk)
        context = page(record, errors_by_section(shown, table.game), reason)
        return _refused_page(request, context, form_page="ledger/hand_form.html")
    title = gettext("Hand {number} is corrected.").format(number=hand.number)
    request.session[CHANGES_KEY] = _changes(table=table, title=title, changed=changed)
    return _saved(request, table_url, number=hand.number)


@club_role(SCOREKEEPER, table_link=True)
@require_POST
def hand_correct_preview(request, pk):
    """Preview a correction of a hand from the state it started from; write nothing."""
    hand = _hand(request, pk)
    record, errors = _record_from_post(request)
    if errors:
        # an unreadable record
        return _feedback(request, hand.table.game, errors=errors, status=400)
    posting = selectors.live_hand_postings(hand.table_id).get(hand.pk)
    state = posting.state_before if posting and posting.state_before else {}
    game = get_game(hand.table.game)
    pools = state
    if not selectors.state_is_pools(game):
        pools = selectors.pools_before_hand(hand.table_id, hand, game.features.pool_codes)
    try:
        preview = selectors.settle_preview(
            table=hand.table,
            record=record,
            seats=list(hand.record["seats"]),
            state=state,
            pools=pools,
        )
    except (HandError, LedgerError) as error:
        return _feedback(
            request,
            hand.table.game,
            errors=errors_by_section(refusal_messages(error), hand.table.game),
            seats=len(hand.record["seats"]),
        )
    return _feedback(request, hand.table.game, preview=preview, seats=len(hand.record["seats"]))


@club_role(SCOREKEEPER, table_link=True)
@require_POST
def hand_void(request, pk):
    """Void a hand with a reason; the later hands are re-settled without it."""
    hand = _hand(request, pk)
    table = hand.table
    form = VoidForm(request.POST)
    hand_url = reverse("hand", kwargs={"club": request.club.slug, "pk": hand.pk})
    if not form.is_valid():
        messages.error(request, gettext("Give a reason for voiding the hand."))
        return redirect(hand_url)
    old = selectors.live_hand_postings(table.pk).get(hand.pk)
    try:
        changed = services.hand_void(
            hand=hand, reason=form.cleaned_data["reason"], by=actor(request, table)
        )
    except LedgerError as error:
        refuse_message(request, error, table=table.pk, hand=hand.pk)
        return redirect(hand_url)
    title = gettext("Hand {number} is voided.").format(number=hand.number)
    request.session[CHANGES_KEY] = _changes(
        table=table, title=title, changed=changed, voided=(hand, old) if old else None
    )
    return redirect("table", club=request.club.slug, pk=table.pk)
