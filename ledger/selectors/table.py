"""Reads of one table and of an evening's tables: seats, accounts and balances (read from the
summary), the hands with their nets and pools, the next hand's schedule continuing from the
hands really dealt, and the evening's ranking so far. A fixed number of queries each."""

from __future__ import annotations

import hashlib
from collections import defaultdict
from typing import cast

from django.core.cache import cache
from django.db.models import Count, OuterRef, Q, Subquery

from ledger import services
from ledger.games.base import Dealt
from ledger.games.money import signed_figure
from ledger.games.registry import get_game, get_web
from ledger.models import (
    Account,
    AccountBalance,
    Evening,
    Hand,
    Member,
    Posting,
    Seal,
    Seat,
    Table,
    Transfer,
    not_reversed,
)
from ledger.selectors.privacy import shown
from ledger.selectors.ranking import ranked
from ledger.services.ledger import table_balances as table_balances  # a selector too


def account_balances(table_id: int) -> dict[int, int]:
    """Return every account's balance of a table, by account id (one query).

    Read from the summary (``AccountBalance``), written with the transfers it sums and
    re-checked by ``verify_ledger``; an account without transfers is missing (its balance is 0).
    """
    return AccountBalance.objects.of_table(table_id)


def account_balances_from_transfers(table_id: int) -> dict[int, int]:
    """Return every account's balance of a table summed from its transfers (two queries)."""
    return Transfer.objects.filter(table_id=table_id).balances()


def table_accounts(table_id: int) -> dict[str, Account]:
    """Return the accounts of a table by code: the seats' names as seated and the pools."""
    return {a.code: a for a in Account.objects.filter(table_id=table_id).select_related("member")}


def pool_balances(table_id: int) -> dict[str, int]:
    """Return the balance of each pool of the table's game (the Danish cups, a pool)."""
    balances = account_balances(table_id)
    return {
        code: balances.get(pk, 0)
        for pk, code in Account.objects.filter(
            table_id=table_id, kind=Account.Kind.POOL
        ).values_list("pk", "code")
    }


def all_seats(table_id: int) -> list[Seat]:
    """Return every seat of the table, those who left included, in the direction of play."""
    return Seat.objects.of_table(table_id, current=False)


def current_seats(table_id: int) -> list[Seat]:
    """Return the seats still at the table, in the direction of play."""
    return Seat.objects.of_table(table_id)


def seated_at_open_tables(evening) -> dict[int, int]:
    """Return member id -> table number for everyone seated at an open table of ``evening``."""
    return dict(
        Seat.objects.filter(table__evening=evening, table__status="open", left=False).values_list(
            "member_id", "table__number"
        )
    )


def season_open_evenings(season) -> list[Evening]:
    """Return the season's open evenings, oldest first (one query; usually none or tonight's):
    the standings count their points so far."""
    return list(
        Evening.objects.filter(season=season, status=Evening.Status.OPEN)
        .only("pk", "date", "game", "season_id")
        .order_by("date", "pk")
    )


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


def posting_effects(posting_ids) -> dict[int, dict]:
    """Return each posting's net per member, change per pool and transfers (``moves``: source,
    target, points, reason, by account code, in order), from its transfers (one query)."""
    effects: dict[int, dict] = {
        pid: {"net": defaultdict(int), "pools": defaultdict(int), "moves": []}
        for pid in posting_ids
    }
    rows = (
        Transfer.objects.filter(posting_id__in=list(posting_ids))
        .order_by("pk")
        .values_list(
            "posting_id",
            "source__kind",
            "source__code",
            "target__kind",
            "target__code",
            "points",
            "reason",
        )
    )
    for posting_id, s_kind, s_code, t_kind, t_code, points, reason in rows:
        effect = effects[posting_id]
        effect["net" if s_kind == Account.Kind.MEMBER else "pools"][s_code] -= points
        effect["net" if t_kind == Account.Kind.MEMBER else "pools"][t_code] += points
        effect["moves"].append((s_code, t_code, points, reason))
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
        Transfer.objects.filter(not_reversed("posting_id"), table_id=table_id)
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
        cast(int, p.hand_id): p  # a hand posting always has its hand
        for p in Posting.objects.filter(not_reversed(), table_id=table_id, kind=Posting.Kind.HAND)
    }


def hand_rows(table: Table, *, names: dict[str, str] | None = None) -> list[dict]:
    """Return every hand of ``table`` with its net per member and the pools after it; the
    hands' words name an erased member by his label (``names``: his name as seated -> label,
    ``selectors.privacy.shown``)."""
    names = names or {}
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
            "pk": hand.pk,
            "club": table.evening.club.slug,
            "dealer": hand.dealer.name,
            "voided": hand.status == Hand.Status.VOIDED,
            "revisions": hand.revision_count,
            "net": {},
            "pools_after": {},
            "out": set(hand.record.get("sitting_out") or ()),
            "seats": set(hand.record.get("seats") or ()),
            "events": [],
        }
        if posting is not None:
            effect = effects[posting.pk]
            row["net"] = dict(effect["net"])
            row["events"] = web.hand_words(
                shown(posting.outcome, names), shown(effect["moves"], names), brief=True
            )
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


def next_deals(table: Table, seats: list[str], rates, dealt) -> tuple | None:
    """Return the next hand's ``Schedule`` and who deals the hand after it, continuing from
    the hands really dealt (``dealt``), or None when the seats are too few or too many."""
    game = get_game(table.game)
    if not game.features.min_seats <= len(seats) <= game.features.max_seats:
        return None
    first = seats[0]
    if table.first_dealer_id and cast(Member, table.first_dealer).name in seats:
        first = cast(Member, table.first_dealer).name
    schedule = game.schedule(seats, dealt, rates, first=first)
    after = [*dealt, Dealt(tuple(seats), schedule.dealer, tuple(schedule.sitting_out))]
    return schedule, game.schedule(seats, after, rates, first=first).dealer


def next_hand(
    table: Table, seats: list[str], rates, number: int, dealt=None, *, deals=False
) -> dict | None:
    """Return the next hand's schedule: its number, dealer, sitting-out members, forehand and
    every seat's role, continuing from the hands really dealt (``dealt``, else read; or
    ``deals``: what ``next_deals`` returned for them)."""
    if deals is False:
        dealt = dealt_hands(table.pk) if dealt is None else dealt
        deals = next_deals(table, seats, rates, dealt)
    if deals is None:
        return None
    schedule, next_dealer = deals
    return {
        "number": number,
        "dealer": schedule.dealer,
        "sitting_out": list(schedule.sitting_out),
        "forehand": schedule.forehand,
        "active": list(schedule.active),
        "roles": dict(schedule.roles),
        "notes": get_web(table.game).schedule_notes(schedule),
        "next_dealer": next_dealer,
    }


def table_overview(table: Table) -> dict:
    """Return a table's seats with balances, its pools and the next hand's suggestion."""
    seats = list(Seat.objects.filter(table=table).select_related("member").order_by("position"))
    balances = table_balances(table.pk)
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


def _state(
    table, seats, balances, rates, counts, current, *, state=None, dealt=None, deals=False
) -> dict:
    """``state`` is the game's state the next hand starts from (None: not shown); ``dealt``
    the table's hands as dealt (None: read them), or ``deals`` what ``next_deals`` made of
    them."""
    web = get_web(table.game)
    recorded = counts.get("recorded") or 0
    number = (counts.get("total") or 0) + 1
    nxt = next_hand(table, current, rates, number, dealt, deals=deals)
    members = []
    for seat in seats:
        name = seat.name  # the table's key for him; the screen shows his name today
        members.append(
            {
                "name": seat.member.name,
                "seat": name,
                "member_id": seat.member_id,
                "erased": seat.member.erased_at is not None,
                "left": seat.left,
                "balance": signed_figure(balances.get(name, 0)),
                "deals": nxt is not None and nxt["dealer"] == name and not seat.left,
                "sits_out": nxt is not None and name in nxt["sitting_out"],
                "marks": web.seat_marks(state, name) if state is not None else [],
            }
        )
    return {
        "table": table,
        "members": members,
        "pools": pool_items(table.game, balances),
        "warnings": web.table_warnings(state, rates) if state is not None else [],
        "next": nxt,
        "recorded": recorded,
        "seated": len(current),
    }


# The roles every game's schedule may give; a game's own (the Danish non-counter) are the rest.
COMMON_ROLES = frozenset({"dealer", "forehand", "out", "player"})


def table_state_data(table: Table) -> dict:
    """Return a table's state as plain data for the phones, the wall and tests: its seats (name,
    member id, active or left, balance), its pools by label, the balance of every seat and the
    next hand (number, dealer, sitting out, forehand, every seat's role and the game's own
    roles, such as the Danish non-counter, by role), and what the screen warns of (a Danish
    cup near the ledger's bound). What the table screen computes, read once.
    """
    state = table_overview(table)
    seats = [
        {
            "name": m["name"],
            "seat": m["seat"],
            "member_id": m["member_id"],
            "active": not m["left"],
            "left": m["left"],
            "balance": m["balance"]["points"] or 0,
        }
        for m in state["members"]
    ]
    nxt = state["next"]
    data_next = None
    if nxt is not None:
        data_next = {
            "number": nxt["number"],
            "dealer": nxt["dealer"],
            "sitting_out": list(nxt["sitting_out"]),
            "forehand": nxt["forehand"],
            "active": list(nxt["active"]),
            "roles": dict(nxt["roles"]),
        }
        for seat, role in nxt["roles"].items():
            if role not in COMMON_ROLES:
                data_next.setdefault(role, seat)
    return {
        "table": {
            "id": table.pk,
            "number": table.number,
            "game": table.game,
            "status": table.status,
            "evening": table.evening_id,
        },
        "seats": seats,
        "balances": {s["seat"]: s["balance"] for s in seats},
        "pools": [
            {"code": p["code"], "label": str(p["label"]), "points": p["points"]}
            for p in state["pools"]
        ],
        "recorded": state["recorded"],
        "next": data_next,
        "warnings": [{"level": level, "text": text} for level, text in state["warnings"]],
    }


DEALS_SECONDS = 24 * 3600


def _deals_key(table: Table, seal: str, current: list[str], rate_card) -> str:
    first = (
        cast(Member, table.first_dealer).name if table.first_dealer_id else None
    )  # as next_deals reads it
    parts = (table.pk, seal, tuple(current), first, rate_card)
    return "deals:" + hashlib.sha256(repr(parts).encode()).hexdigest()


def evening_deals(evening: Evening, tables, current: dict[int, list[str]], rates) -> dict:
    """Return each table's hands counted (``total``, ``recorded``) and its next deals
    (``next_deals``), by table id; ``tables`` carry their head seal (``seal``).

    What a table's hands say of its next deal changes only with its head seal (every hand,
    correction, void, seat and status changes it), so it is kept in the process's cache under
    that seal with the seats and the rate card it was computed for, and read from the hands'
    records only for the tables whose seal moved since (one query for those, none when every
    table is kept): a poll of the evening after a save at one table decodes that table's
    records alone, and a second reader's none.
    """
    keys = {t.pk: _deals_key(t, t.seal, current[t.pk], evening.rate_card) for t in tables if t.seal}
    kept = cache.get_many(list(keys.values()))
    found = {pk: kept[key] for pk, key in keys.items() if key in kept}
    missing = [t for t in tables if t.pk not in found]
    if not missing:
        return found
    counts: dict[int, dict] = {t.pk: {"total": 0, "recorded": 0} for t in missing}
    dealt: dict[int, list[Dealt]] = defaultdict(list)
    for table_id, status, record in (
        Hand.objects.filter(table_id__in=[t.pk for t in missing])
        .order_by("table_id", "number")
        .values_list("table_id", "status", "record")
    ):
        dealt[table_id].append(dealt_of(record))
        counts[table_id]["total"] += 1
        counts[table_id]["recorded"] += status == Hand.Status.RECORDED
    fresh = {}
    for table in missing:
        fresh[table.pk] = {
            **counts[table.pk],
            "deals": next_deals(table, current[table.pk], rates, dealt[table.pk]),
        }
    cache.set_many({keys[pk]: value for pk, value in fresh.items() if pk in keys}, DEALS_SECONDS)
    return {**found, **fresh}


def evening_tables(evening: Evening) -> list[dict]:
    """Return every table of ``evening`` with seats, balances and pools (a fixed query count):
    the balances from their summary, the hands counted and the next deal as kept by each
    table's head seal (``evening_deals``), so no hand's record is read while none changed."""
    tables = list(
        evening.tables.select_related("first_dealer")
        .annotate(
            seal=Subquery(
                Seal.objects.filter(kind=Seal.Kind.TABLE, object_id=OuterRef("pk")).values(
                    "digest"
                )[:1]
            )
        )
        .order_by("number")
    )
    seats = defaultdict(list)
    for seat in (
        Seat.objects.filter(table__evening=evening)
        .select_related("member")
        .order_by("table_id", "position")
    ):
        seats[seat.table_id].append(seat)
    balances: dict[int, dict[str, int]] = defaultdict(dict)
    for table_id, code, balance in AccountBalance.objects.filter(
        account__table__evening=evening
    ).values_list("account__table_id", "account__code", "balance"):
        balances[table_id][code] = balance
    rates = services.rate_card(evening)
    current = {t.pk: [s.name for s in seats[t.pk] if not s.left] for t in tables}
    deals = evening_deals(evening, tables, current, rates)
    states = []
    for table in tables:
        table.evening = evening
        states.append(
            _state(
                table,
                seats[table.pk],
                balances[table.pk],
                rates,
                deals[table.pk],
                current[table.pk],
                deals=deals[table.pk]["deals"],
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
    rows = ranked(
        totals.values(),
        points=lambda r: r["points"],
        name=lambda r: r["name"],
        set_rank=lambda r, rank: r.update(rank=rank, balance=signed_figure(r["points"])),
    )
    return rows
