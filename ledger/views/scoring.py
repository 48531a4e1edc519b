"""The scorekeeper's tablet: evenings, tables and hands (issue 4).

Views are thin: they parse a form, call a service (``ledger.services`` writes every row) and
map a refused write (``HandError`` from the rules, ``LedgerError`` from the ledger) to the
form section it concerns. Reading members need the member role; every write needs the
scorekeeper role in the club the object belongs to. The hand preview runs the rules engine
on the server without writing anything.
"""

from __future__ import annotations

import itertools
import uuid
from collections import defaultdict

from django.contrib import messages
from django.contrib.staticfiles import finders
from django.contrib.staticfiles.storage import staticfiles_storage
from django.db.models import Count, Q, Sum
from django.http import Http404, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_GET, require_POST

from ledger import selectors, services
from ledger.forms.scoring import (
    EveningStartForm,
    HandCorrectForm,
    HandForm,
    LeaveForm,
    SeatForm,
    TableOpenForm,
    VoidForm,
)
from ledger.games.base import Dealt
from ledger.games.errors import HandError
from ledger.games.registry import get_game, get_web
from ledger.models import (
    Account,
    Evening,
    Hand,
    HandRevision,
    Member,
    Posting,
    Season,
    Seat,
    Table,
    Transfer,
)
from ledger.services.errors import EveningClosedError, LedgerError
from ledger.tables import HandTable, RevisionTable, signed_points
from ledger.views.home import club_page
from ledger.web.permissions import club_role

SCOREKEEPER = Member.Role.SCOREKEEPER
DRAFT_HEADER = "X-Hand-Submit"
CHANGES_KEY = "scoring_changes"


def pool_items(game_code: str, balances: dict, before: dict | None = None) -> list[dict]:
    """Return the game's pools for display: code, label, CSS modifier, points (and before)."""
    web = get_web(game_code)
    items = []
    for code in get_game(game_code).features.pool_codes:
        item = {
            "code": code,
            "label": web.pool_label(code),
            "css": web.pool_class(code),
            "points": balances.get(code, 0),
            "after": balances.get(code, 0),
        }
        if before is not None:
            item["before"] = before.get(code, 0)
        items.append(item)
    return items


# --- reads ---------------------------------------------------------------------------------


def signed(points: int | None) -> dict:
    """Return ``points`` for display: text with a real minus sign and a colour class."""
    if points is None:
        return {"points": None, "text": "", "cls": ""}
    cls = "pos" if points > 0 else "neg" if points < 0 else "zero"
    return {"points": points, "text": signed_points(points), "cls": cls}


def posting_effects(posting_ids) -> dict[int, dict]:
    """Return each posting's net per member and change per pool, from its transfers (one query)."""
    effects = {pid: {"net": defaultdict(int), "pools": defaultdict(int)} for pid in posting_ids}
    rows = Transfer.objects.filter(posting_id__in=list(posting_ids)).values_list(
        "posting_id",
        "source__kind",
        "source__code",
        "target__kind",
        "target__code",
        "points",
    )
    for posting_id, s_kind, s_code, t_kind, t_code, points in rows:
        effect = effects[posting_id]
        effect["net" if s_kind == Account.Kind.MEMBER else "pools"][s_code] -= points
        effect["net" if t_kind == Account.Kind.MEMBER else "pools"][t_code] += points
    return effects


def pools_after(posting: Posting, effect: dict, codes) -> dict[str, int]:
    """Return the pools after a hand posting: the state it started from plus its transfers."""
    return {c: (posting.state_before or {}).get(c, 0) + effect["pools"][c] for c in codes}


def state_is_pools(game) -> bool:
    """Whether a game's state is its pools (the Danish cups) or something else (radli)."""
    return set(game.features.pool_codes) <= set(game.next_state(None, {}, ()))


def pools_before_hand(table_id: int, hand: Hand, codes) -> dict[str, int]:
    """Return the pools before ``hand``: the live postings of its table's earlier hands and
    every posting that is no hand (for a game whose state does not hold the pools)."""
    totals = dict.fromkeys(codes, 0)
    earlier = Q(posting__hand__number__lt=hand.number, posting__kind=Posting.Kind.HAND) | ~Q(
        posting__kind=Posting.Kind.HAND
    )
    rows = (
        Transfer.objects.filter(table_id=table_id, posting__reversed_by__isnull=True)
        .filter(earlier)
        .exclude(posting__reverses__isnull=False)
        .values_list("source__code", "target__code", "points")
    )
    for source, target, points in rows:
        if source in totals:
            totals[source] -= points
        if target in totals:
            totals[target] += points
    return totals


def live_hand_postings(table_id: int) -> dict[int, Posting]:
    """Return the live hand posting of every recorded hand of a table, by hand id."""
    return {
        p.hand_id: p
        for p in Posting.objects.filter(
            table_id=table_id, kind=Posting.Kind.HAND, reversed_by__isnull=True
        )
    }


def hand_rows(table: Table) -> list[dict]:
    """Return every hand of ``table`` with its net per member and the pools after it."""
    hands = list(
        Hand.objects.filter(table=table)
        .select_related("dealer")
        .annotate(revision_count=Count("revisions"))
        .order_by("number")
    )
    live = live_hand_postings(table.pk)
    effects = posting_effects([p.pk for p in live.values()])
    game = get_game(table.game)
    codes = game.features.pool_codes
    web = get_web(table.game)
    rows = []
    running = dict.fromkeys(codes, 0)  # a state without the pools: the hands' running sum
    for hand in hands:
        posting = live.get(hand.pk)
        row = {
            "number": hand.number,
            "url": reverse("hand", kwargs={"club": table.evening.club.slug, "pk": hand.pk}),
            "dealer": hand.dealer.name,
            "voided": hand.status == Hand.Status.VOIDED,
            "revisions": hand.revision_count,
            "net": {},
            "pools_after": {},
            "out": set(hand.record.get("sitting_out") or ()),
            "events": [],
        }
        if posting is not None:
            effect = effects[posting.pk]
            row["net"] = dict(effect["net"])
            row["events"] = web.outcome_words(posting.outcome, brief=True)
            if state_is_pools(game):
                row["pools_after"] = pools_after(posting, effect, codes)
            else:
                running = {c: running[c] + effect["pools"][c] for c in codes}
                row["pools_after"] = dict(running)
        rows.append(row)
    return rows


def dealt_of(record: dict) -> Dealt:
    """Return how a stored hand record was dealt: its seats, dealer and sitters."""
    return Dealt(
        seats=tuple(record.get("seats") or ()),
        dealer=record.get("dealer", ""),
        sitting_out=tuple(record.get("sitting_out") or ()),
    )


def dealt_hands(table_id: int) -> list[Dealt]:
    """Return every hand of the table as it was dealt (voided ones too), in number order."""
    records = Hand.objects.filter(table_id=table_id).order_by("number")
    return [dealt_of(record) for record in records.values_list("record", flat=True)]


def suggestion(table: Table, seats: list[str], rates, number: int, dealt=None) -> dict | None:
    """Return the next hand's schedule: its number, dealer, sitting-out members, forehand and
    every seat's role, continuing from the hands really dealt (``dealt``, else read)."""
    game = get_game(table.game)
    if not game.features.min_seats <= len(seats) <= game.features.max_seats:
        return None
    first = seats[0]
    if table.first_dealer_id and table.first_dealer.name in seats:
        first = table.first_dealer.name
    dealt = dealt_hands(table.pk) if dealt is None else dealt
    schedule = game.schedule(seats, dealt, rates, first=first)
    after = [*dealt, Dealt(tuple(seats), schedule.dealer, tuple(schedule.sitting_out))]
    return {
        "number": number,
        "dealer": schedule.dealer,
        "sitting_out": list(schedule.sitting_out),
        "forehand": schedule.forehand,
        "active": list(schedule.active),
        "roles": dict(schedule.roles),
        "notes": get_web(table.game).schedule_notes(schedule),
        "next_dealer": game.schedule(seats, after, rates, first=first).dealer,
    }


def table_state(table: Table) -> dict:
    """Return a table's seats with balances, its pools and the next hand's suggestion."""
    seats = list(Seat.objects.filter(table=table).select_related("member").order_by("position"))
    balances = selectors.table_balances(table.pk)
    rates = services.rate_card(table.evening)
    current = [s.name for s in seats if not s.left]
    hands = list(
        Hand.objects.filter(table=table).order_by("number").values_list("status", "record")
    )
    counts = {
        "total": len(hands),
        "recorded": sum(status == Hand.Status.RECORDED for status, _record in hands),
    }
    dealt = [dealt_of(record) for _status, record in hands]
    state = services.table_state(table)
    return _state(table, seats, balances, rates, counts, current, state=state, dealt=dealt)


def _state(table, seats, balances, rates, counts, current, *, state=None, dealt=None) -> dict:
    """``state`` is the game's state the next hand starts from (None: not shown); ``dealt``
    the table's hands as dealt (None: read them)."""
    web = get_web(table.game)
    recorded = counts.get("recorded") or 0
    nxt = suggestion(table, current, rates, (counts.get("total") or 0) + 1, dealt)
    members = []
    for seat in seats:
        name = seat.name  # the table's key for him; the screen shows his name today
        members.append(
            {
                "name": seat.member.name,
                "member_id": seat.member_id,
                "left": seat.left,
                "balance": signed(balances.get(name, 0)),
                "deals": bool(nxt) and nxt["dealer"] == name and not seat.left,
                "sits_out": bool(nxt) and name in nxt["sitting_out"],
                "marks": web.seat_marks(state, name) if state is not None else [],
            }
        )
    return {
        "table": table,
        "members": members,
        "pools": pool_items(table.game, balances),
        "next": nxt,
        "recorded": recorded,
        "seated": len(current),
    }


def evening_tables(evening: Evening) -> list[dict]:
    """Return every table of ``evening`` with seats, balances and pools (a fixed query count)."""
    tables = list(evening.tables.select_related("first_dealer").order_by("number"))
    seats = defaultdict(list)
    for seat in (
        Seat.objects.filter(table__evening=evening)
        .select_related("member")
        .order_by("table_id", "position")
    ):
        seats[seat.table_id].append(seat)
    names = {
        a.pk: (a.table_id, a.name)
        for a in Account.objects.filter(table__evening=evening).select_related("member")
    }
    balances = defaultdict(dict)
    for field, sign in (("target_id", 1), ("source_id", -1)):
        for row in (
            Transfer.objects.filter(table__evening=evening)
            .values(field)
            .annotate(total=Sum("points"))
            .order_by()
        ):
            table_id, name = names[row[field]]
            balances[table_id][name] = balances[table_id].get(name, 0) + sign * row["total"]
    counts: dict[int, dict] = defaultdict(lambda: {"total": 0, "recorded": 0})
    dealt = defaultdict(list)
    for table_id, status, record in (
        Hand.objects.filter(table__evening=evening)
        .order_by("table_id", "number")
        .values_list("table_id", "status", "record")
    ):
        dealt[table_id].append(dealt_of(record))
        counts[table_id]["total"] += 1
        counts[table_id]["recorded"] += status == Hand.Status.RECORDED
    rates = services.rate_card(evening)
    states = []
    for table in tables:
        table.evening = evening
        current = [s.name for s in seats[table.pk] if not s.left]
        states.append(
            _state(
                table,
                seats[table.pk],
                balances[table.pk],
                rates,
                counts.get(table.pk, {}),
                current,
                dealt=dealt[table.pk],
            )
        )
    return states


def evening_ranking(tables: list[dict]) -> list[dict]:
    """Rank the members of an evening by their points so far over all its tables.

    ``tables`` are ``evening_tables``'s states (no query here). Equal points share a rank.
    """
    totals: dict[int, dict] = {}
    for state in tables:
        for m in state["members"]:
            row = totals.setdefault(
                m["member_id"], {"member_id": m["member_id"], "name": m["name"], "points": 0}
            )
            row["points"] += m["balance"]["points"] or 0
            row.setdefault("tables", []).append(state["table"].number)
    rows = sorted(totals.values(), key=lambda r: (-r["points"], r["name"].casefold()))
    rank = 0
    for i, row in enumerate(rows):
        if i == 0 or row["points"] != rows[i - 1]["points"]:
            rank = i + 1
        row["rank"] = rank
        row["balance"] = signed(row["points"])
    return rows


def transfer_summary(transfers, seats, game_code: str) -> dict:
    """Group a settlement's transfers into who pays whom, per pair of accounts, for display."""
    pools = get_game(game_code).features.pool_codes
    web = get_web(game_code)
    flows = defaultdict(int)
    for t in transfers:
        flows[(t["from"], t["to"])] += t["points"]
    order = {name: i for i, name in enumerate(list(seats) + list(pools))}
    names = sorted({n for pair in flows for n in pair}, key=lambda n: order.get(n, 99))
    pairs = []
    for a, b in itertools.combinations(names, 2):
        amount = flows.get((a, b), 0) - flows.get((b, a), 0)
        if amount == 0:
            continue
        payer, payee = (a, b) if amount > 0 else (b, a)
        pairs.append(
            {
                "payer": payer,
                "payee": payee,
                "points": abs(amount),
                "payer_is_cup": payer in pools,
                "payee_is_cup": payee in pools,
            }
        )
    pairs.sort(key=lambda p: (order.get(p["payer"], 99), order.get(p["payee"], 99)))
    details = [
        {
            "from": t["from"],
            "to": t["to"],
            "points": t["points"],
            "reason": web.payment_label(t["reason"]),
        }
        for t in transfers
    ]
    # The same payments by reason, in the order the rules moved them; a reason's moves
    # between the same two accounts are added up (a refunding is one line per member).
    groups: dict[str, dict] = {}
    for t in transfers:
        group = groups.setdefault(
            t["reason"],
            {"reason": t["reason"], "label": web.payment_label(t["reason"]), "moves": {}},
        )
        move = group["moves"].setdefault(
            (t["from"], t["to"]),
            {
                "from": t["from"],
                "to": t["to"],
                "points": 0,
                "from_is_cup": t["from"] in pools,
                "to_is_cup": t["to"] in pools,
            },
        )
        move["points"] += t["points"]
    by_reason = [
        dict(
            g, moves=list(g["moves"].values()), total=sum(m["points"] for m in g["moves"].values())
        )
        for g in groups.values()
    ]
    return {"pairs": pairs, "details": details, "groups": by_reason}


# --- errors --------------------------------------------------------------------------------


def errors_by_section(error, game_code: str) -> dict[str, list[str]]:
    """Translate a refused hand into messages per form section of the game's entry form."""
    web = get_web(game_code)
    errors = defaultdict(list)
    if isinstance(error, HandError):
        for problem in error.problems:
            message = gettext(problem.template).format(**problem.params)
            errors[web.section_of(problem.field)].append(message)
    elif isinstance(error, LedgerError):
        errors[web.section_of(error.field)].append(str(error.message))
    return dict(errors)


def form_errors(form) -> dict[str, list[str]]:
    errors = defaultdict(list)
    for field, messages_ in form.errors.items():
        section = "reason" if field == "reason" else "general"
        errors[section].extend(str(m) for m in messages_)
    return dict(errors)


# --- the preview ---------------------------------------------------------------------------


def settle_preview(
    *, table: Table, record: dict, seats: list[str], state: dict, pools: dict | None = None
) -> dict:
    """Parse and settle ``record`` at ``table`` from ``state``; write nothing.

    ``pools`` are the pools before the hand when the game's state is not its pools.

    Raise HandError or LedgerError when the hand is refused.
    """
    game = get_game(table.game)
    data = dict(record)
    if game.features.state_in:
        data.pop(game.features.state_in, None)
    if data.get("seats", seats) != seats:
        raise LedgerError(
            _("the seats must be the table's: {names}").format(names=", ".join(seats)), "seats"
        )
    data["seats"] = seats
    rates = services.rate_card(table.evening)
    parsed = game.parse_hand(data, rates, state=state)
    settlement = game.settle(parsed, rates, state)
    transfers = [t.as_dict() for t in settlement.transfers]
    before = state if pools is None else pools
    after = dict(before)
    for t in transfers:
        for key, sign in (("from", -1), ("to", 1)):
            if t[key] in game.features.pool_codes:
                after[t[key]] = after.get(t[key], 0) + sign * t["points"]
    web = get_web(table.game)
    return {
        "story": web.preview_story(parsed, settlement, state),
        "pools_label": web.word("pools_after"),
        "net": [
            dict(signed(settlement.net[name]), name=name, out=name in parsed.sitting_out)
            for name in seats
        ],
        "pools": pool_items(table.game, after, before=before),
        "summary": transfer_summary(transfers, seats, table.game),
    }


def _feedback(request, game_code: str, *, preview=None, errors=None, attempted=False, status=200):
    web = get_web(game_code)
    errors = errors or {}
    context = {
        "preview": preview,
        "errors": errors,
        "error_slots": [(section, errors.get(section, [])) for section in web.sections()],
        "attempted": attempted,
        "wait_hint": web.wait_hint,
    }
    return render(request, "ledger/_scoring_hand_feedback.html", context, status=status)


def _record_from_post(request):
    form = HandForm(request.POST)
    if not form.is_valid():
        return None, form_errors(form)
    return form.cleaned_data["record"], None


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
    existing = Evening.objects.filter(
        club=request.club, date=date, status=Evening.Status.OPEN
    ).first()
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
    """Show every table of an evening, its pools and balances; htmx polls the live part."""
    evening = get_object_or_404(Evening.objects.select_related("club"), pk=pk, club=request.club)
    tables = evening_tables(evening)
    context = {
        "evening": evening,
        "nav_evening": evening,
        "tables": tables,
        "ranking": evening_ranking(tables),
    }
    if request.htmx:
        return render(request, "ledger/_scoring_evening_live.html", context)
    return render(request, "ledger/evening.html", context)


@club_role()
def evening_wall(request, pk):
    """The evening on the club room's wall: every table's pools and balances and the evening's
    ranking in large type, no navigation, refreshed by htmx (a fixed number of queries)."""
    evening = get_object_or_404(Evening.objects.select_related("club"), pk=pk, club=request.club)
    tables = evening_tables(evening)
    context = {"evening": evening, "tables": tables, "ranking": evening_ranking(tables)}
    if request.htmx:
        return render(request, "ledger/_wall_live.html", context)
    return render(request, "ledger/wall.html", context)


@club_role(SCOREKEEPER)
def table_new(request, pk):
    """Open a table at an evening: seat 3 to 5 members in order; each pays the funding."""
    evening = get_object_or_404(Evening.objects.select_related("club"), pk=pk, club=request.club)
    if not evening.is_open:
        messages.error(request, gettext("The evening is closed."))
        return redirect("evening", club=request.club.slug, pk=evening.pk)
    form = TableOpenForm(
        request.POST or None, club=request.club, busy=selectors.seated_at_open_tables(evening)
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
                form.add_error(None, str(error.message))
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


def _table(request, pk) -> Table:
    return get_object_or_404(
        Table.objects.select_related("evening__club", "first_dealer"),
        pk=pk,
        evening__club=request.club,
    )


@club_role()
def table_detail(request, pk):
    """Show a table: seats, balances, pools, the next dealer, and every hand with its net."""
    table = _table(request, pk)
    state = table_state(table)
    rows = hand_rows(table)
    members = [m["name"] for m in state["members"]]
    context = {
        "table": table,
        "evening": table.evening,
        "nav_evening": table.evening,
        "state": state,
        "hands": HandTable(rows, members=members, game=table.game),
        "writable": table.evening.is_open and table.status == Table.Status.OPEN,
    }
    if request.htmx:
        return render(request, "ledger/_scoring_table_live.html", context)
    changes = request.session.get(CHANGES_KEY)
    if changes and changes.get("table") == table.pk:
        context["changes"] = request.session.pop(CHANGES_KEY)
    seats = [s for s in Seat.objects.filter(table=table, left=False).select_related("member")]
    context["seat_form"] = SeatForm(table=table, seats=sorted(seats, key=lambda s: s.position))
    return render(request, "ledger/table.html", context)


@club_role(SCOREKEEPER)
@require_POST
def table_seat(request, pk):
    """Seat a late arrival; he pays the funding."""
    table = _table(request, pk)
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
            messages.error(request, str(error.message))
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
    table = _table(request, pk)
    form = LeaveForm(request.POST, seats=selectors.current_seats(table.pk))
    if form.is_valid():
        member = form.cleaned_data["member"]
        try:
            services.table_leave(table=table, member=member, by=request.user)
        except LedgerError as error:
            messages.error(request, str(error.message))
        else:
            messages.success(
                request, gettext("{name} has left the table.").format(name=member.name)
            )
    else:
        messages.error(request, gettext("Choose a member who is seated."))
    return redirect("table", club=request.club.slug, pk=table.pk)


# --- hands ---------------------------------------------------------------------------------


def _hand_form_context(request, table, *, seats, record, token, hand=None, errors=None):
    """Return what the hand form needs: players, rotation, labels and the current record."""
    rates = services.rate_card(table.evening)
    web = get_web(table.game)
    game = get_game(table.game)
    pools = selectors.pool_balances(table.pk)
    state = pools if state_is_pools(game) else services.table_state(table)
    if hand is None:
        dealt = dealt_hands(table.pk)
        number = len(dealt) + 1  # hand numbers have no gaps (verify_ledger checks them)
        nxt = suggestion(table, seats, rates, number, dealt)
        preview_url = reverse("hand_preview", kwargs={"club": request.club.slug, "pk": table.pk})
    else:
        number = hand.number
        nxt = None
        posting = live_hand_postings(table.pk).get(hand.pk)
        if posting is not None and posting.state_before:
            state = posting.state_before
        if state_is_pools(game):
            pools = state
        else:
            pools = pools_before_hand(table.pk, hand, game.features.pool_codes)
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
        "pools": pool_items(table.game, pools),
        "record": record,
        "token": token,
        "suggested": nxt,
        "entry_template": web.entry_template,
        "wait_hint": web.wait_hint,
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
    }


def _refused(request, context_or_errors, *, form_page, status=422):
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


def _saved(request, url: str, *, number: int):
    if request.headers.get(DRAFT_HEADER):
        return JsonResponse({"saved": True, "url": url, "number": number})
    return redirect(url)


@club_role(SCOREKEEPER)
def hand_new(request, pk):
    """Enter a new hand on one screen; POST records it (once per one-time token)."""
    table = _table(request, pk)
    seats = [s.name for s in selectors.current_seats(table.pk)]
    table_url = reverse("table", kwargs={"club": request.club.slug, "pk": table.pk})
    if request.method != "POST":
        if not (table.evening.is_open and table.status == Table.Status.OPEN):
            messages.error(request, str(EveningClosedError().message))
            return redirect(table_url)
        if not 3 <= len(seats) <= 5:
            messages.error(request, gettext("A hand needs 3 to 5 members at the table."))
            return redirect(table_url)
        if get_web(table.game).entry_template is None:
            messages.error(request, gettext("This game has no entry form yet: import its hands."))
            return redirect(table_url)
        context = _hand_form_context(
            request, table, seats=seats, record=None, token=str(uuid.uuid4())
        )
        return render(request, "ledger/hand_form.html", context)

    form = HandForm(request.POST)
    if not form.is_valid():
        context = _hand_form_context(
            request,
            table,
            seats=seats,
            record=None,
            token=request.POST.get("token") or str(uuid.uuid4()),
            errors=form_errors(form),
        )
        return _refused(request, context, form_page="ledger/hand_form.html")
    record = form.cleaned_data["record"]
    token = form.cleaned_data["token"] or None
    try:
        hand = services.hand_record(
            table=table,
            record=record,
            token=token,
            number=form.cleaned_data["number"],
            version=form.cleaned_data["version"],
            by=request.user,
        )
    except (HandError, LedgerError) as error:
        context = _hand_form_context(
            request,
            table,
            seats=seats,
            record=record,
            token=token or str(uuid.uuid4()),
            errors=errors_by_section(error, table.game),
        )
        return _refused(request, context, form_page="ledger/hand_form.html")
    messages.success(request, gettext("Hand {number} is saved.").format(number=hand.number))
    return _saved(request, table_url, number=hand.number)


@club_role(SCOREKEEPER)
@require_POST
def hand_preview(request, pk):
    """Show who would pay whom for the hand being entered, and the pools after; write nothing."""
    table = _table(request, pk)
    record, errors = _record_from_post(request)
    if errors:
        return _feedback(request, table.game, errors=errors, status=400)  # an unreadable record
    seats = [s.name for s in selectors.current_seats(table.pk)]
    pools = selectors.pool_balances(table.pk)
    state = pools if state_is_pools(get_game(table.game)) else services.table_state(table)
    try:
        preview = settle_preview(table=table, record=record, seats=seats, state=state, pools=pools)
    except (HandError, LedgerError) as error:
        return _feedback(request, table.game, errors=errors_by_section(error, table.game))
    return _feedback(request, table.game, preview=preview)


def _hand(request, pk) -> Hand:
    return get_object_or_404(
        Hand.objects.select_related("table__evening__club", "table__first_dealer", "dealer"),
        pk=pk,
        table__evening__club=request.club,
    )


@club_role()
def hand_detail(request, pk):
    """Show one hand: its record, who paid whom, and every revision (who, when, why)."""
    hand = _hand(request, pk)
    table = hand.table
    posting = live_hand_postings(table.pk).get(hand.pk)
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
        effect = posting_effects([posting.pk])[posting.pk]
        settled = {
            "net": [dict(signed(effect["net"].get(n, 0)), name=n) for n in seats],
            "pools": pool_items(
                table.game,
                pools_after(posting, effect, get_game(table.game).features.pool_codes),
                before=posting.state_before or {},
            ),
            "summary": transfer_summary(transfers, seats, table.game),
        }
    revisions = HandRevision.objects.filter(hand=hand).select_related("by").order_by("number")
    context = {
        "hand": hand,
        "table": table,
        "evening": table.evening,
        "nav_evening": table.evening,
        "settled": settled,
        "record": get_web(table.game).record_lines(hand.record),
        "revisions": RevisionTable(revisions),
        "void_form": VoidForm(),
        "writable": (
            table.evening.is_open
            and table.status == Table.Status.OPEN
            and hand.status == Hand.Status.RECORDED
        ),
    }
    return render(request, "ledger/hand.html", context)


def _changes(*, table: Table, title: str, changed, voided=None) -> dict:
    """Return what a correction or a void changed: each hand whose net or pools changed."""
    codes = get_game(table.game).features.pool_codes
    web = get_web(table.game)
    ids = [p.pk for _h, old, new in changed for p in (old, new)]
    if voided is not None:
        ids.append(voided[1].pk)
    effects = posting_effects(ids)

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
        old_pools = pools_after(old, effects[old.pk], codes)
        new_pools = pools_after(new, effects[new.pk], codes)
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


@club_role(SCOREKEEPER)
def hand_correct(request, pk):
    """Correct a hand of an open evening with a reason; later hands are re-settled."""
    hand = _hand(request, pk)
    table = hand.table
    table_url = reverse("table", kwargs={"club": request.club.slug, "pk": table.pk})
    hand_url = reverse("hand", kwargs={"club": request.club.slug, "pk": hand.pk})
    seats = list(hand.record["seats"])
    latest = hand.revisions.order_by("-number").first()
    if not (table.evening.is_open and table.status == Table.Status.OPEN):
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
        if not errors:
            try:
                context["preview"] = settle_preview(
                    table=table,
                    record=record,
                    seats=seats,
                    state=context["state"],
                    pools=context["pool_state"],
                )
            except (HandError, LedgerError) as error:
                context["errors"] = errors_by_section(error, table.game)
        return context

    if request.method != "POST":
        return render(request, "ledger/hand_form.html", page(hand.record))

    form = HandCorrectForm(request.POST)
    if not form.is_valid():
        record = hand.record
        if "record" in form.cleaned_data:
            record = form.cleaned_data["record"]
        context = page(record, form_errors(form), request.POST.get("reason", ""))
        return _refused(request, context, form_page="ledger/hand_form.html")
    record = form.cleaned_data["record"]
    reason = form.cleaned_data["reason"]
    try:
        changed = services.hand_correct(
            hand=hand,
            record=record,
            reason=reason,
            based_on=form.cleaned_data["base_revision"],
            by=request.user,
        )
    except (HandError, LedgerError) as error:
        context = page(record, errors_by_section(error, table.game), reason)
        return _refused(request, context, form_page="ledger/hand_form.html")
    title = gettext("Hand {number} is corrected.").format(number=hand.number)
    request.session[CHANGES_KEY] = _changes(table=table, title=title, changed=changed)
    return _saved(request, table_url, number=hand.number)


@club_role(SCOREKEEPER)
@require_POST
def hand_correct_preview(request, pk):
    """Preview a correction of a hand from the state it started from; write nothing."""
    hand = _hand(request, pk)
    record, errors = _record_from_post(request)
    if errors:
        # an unreadable record
        return _feedback(request, hand.table.game, errors=errors, status=400)
    posting = live_hand_postings(hand.table_id).get(hand.pk)
    state = posting.state_before if posting and posting.state_before else {}
    game = get_game(hand.table.game)
    pools = state
    if not state_is_pools(game):
        pools = pools_before_hand(hand.table_id, hand, game.features.pool_codes)
    try:
        preview = settle_preview(
            table=hand.table,
            record=record,
            seats=list(hand.record["seats"]),
            state=state,
            pools=pools,
        )
    except (HandError, LedgerError) as error:
        return _feedback(request, hand.table.game, errors=errors_by_section(error, hand.table.game))
    return _feedback(request, hand.table.game, preview=preview)


@club_role(SCOREKEEPER)
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
    old = live_hand_postings(table.pk).get(hand.pk)
    try:
        changed = services.hand_void(hand=hand, reason=form.cleaned_data["reason"], by=request.user)
    except LedgerError as error:
        messages.error(request, str(error.message))
        return redirect(hand_url)
    title = gettext("Hand {number} is voided.").format(number=hand.number)
    request.session[CHANGES_KEY] = _changes(
        table=table, title=title, changed=changed, voided=(hand, old) if old else None
    )
    return redirect("table", club=request.club.slug, pk=table.pk)


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
