"""Re-check the whole ledger from the hand records: the third depth of the invariants."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field

from ledger.games.errors import RulesError
from ledger.games.registry import get_game
from ledger.models import (
    Account,
    AccountBalance,
    Hand,
    HandRevision,
    Posting,
    PostingSeat,
    Seat,
    Table,
    Transfer,
)
from ledger.services import stats


@dataclass
class Report:
    tables: int = 0
    hands: int = 0
    transfers: int = 0
    problems: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems


def verify_ledger(tables=None) -> Report:
    """Re-settle every hand posting and check reversals, funding, closes, zero-sum and pools,
    that the account balance summary equals the balances summed from the transfers, and that
    the statistics summary equals the statistics derived from the live hands.

    Postings are replayed in the order they were written; a hand posting must equal the
    settlement of the revision it points at from the state the ledger held at that moment.
    Every recorded hand has exactly one live posting (a voided one none), its record equals
    its latest revision, and every adjustment moved what was asked of it.
    """
    report = Report()
    tables = Table.objects.all() if tables is None else tables
    for table in tables.select_related("evening").order_by("pk").iterator(chunk_size=500):
        try:
            _verify_table(table, report)
        except Exception as error:  # a damaged ledger must be reported, never crash the check
            report.problems.append(
                f"evening {table.evening.date} table {table.number}: cannot be checked: "
                f"{type(error).__name__}: {error}"
            )
    _verify_stats(tables, report.problems)
    return report


def _verify_stats(tables, problems) -> None:
    """Compare the statistics summary with the sum of the live seat rows (one query over all
    the tables at once); each row is compared with its hand's replay in ``_verify_table``."""
    differing = stats.differences(tables)
    if not differing:
        return
    accounts = {
        a.pk: a
        for a in Account.objects.filter(
            pk__in=[pk for pk, _have, _want in differing]
        ).select_related("table__evening")
    }
    for pk, have, want in differing:
        account = accounts.get(pk)
        where = (
            f"evening {account.table.evening.date} table {account.table.number}: "
            f"the statistics of {account.code}"
            if account
            else f"account {pk}: the statistics"
        )
        changed = sorted(k for k in set(have) | set(want) if have.get(k) != want.get(k))
        shown = ", ".join(f"{k} {have.get(k, 0)} (derived {want.get(k, 0)})" for k in changed)
        problems.append(f"{where} differ from its hands: {shown}")


def _verify_table(table: Table, report: Report) -> None:
    report.tables += 1
    game = get_game(table.game)
    label = f"evening {table.evening.date} table {table.number}"
    problems = report.problems
    try:
        rates = game.rate_card(table.evening.rate_card)
    except RulesError as error:
        problems.append(f"{label}: the rate card is invalid: {error}")
        return
    accounts = {a.pk: a for a in Account.objects.filter(table=table)}
    codes = {pk: a.code for pk, a in accounts.items()}
    pools = game.features.pool_codes
    guarded = [p.code for p in game.features.pools if not p.may_go_negative]
    for code in pools:
        if code not in codes.values():
            problems.append(f"{label}: the table has no {code} account")
    moves = defaultdict(list)
    derived = defaultdict(lambda: [0, 0])  # account id -> [balance, transfers], from transfers
    for row in (
        Transfer.objects.filter(table=table)
        .order_by("posting_id", "pk")
        .values_list("posting_id", "source_id", "target_id", "points", "reason", "table_id")
    ):
        posting_id, source_id, target_id, points, reason, _table = row
        missing = [i for i in (source_id, target_id) if i not in codes]
        if missing:
            problems.append(
                f"{label} posting {posting_id}: a transfer names account {missing[0]}, "
                "which is not this table's"
            )
            continue
        moves[posting_id].append((codes[source_id], codes[target_id], points, reason))
        report.transfers += 1
        derived[source_id][0] -= points
        derived[target_id][0] += points
        derived[source_id][1] += 1
        derived[target_id][1] += 1
    _verify_summary(label, codes, derived, problems)
    postings = list(
        Posting.objects.filter(table=table).select_related("hand", "revision").order_by("pk")
    )
    by_id = {p.pk: p for p in postings}
    seats = list(Seat.objects.filter(table=table).order_by("position"))
    funders = [s.name for s in seats]
    reversed_ids = {p.reverses_id for p in postings if p.reverses_id}
    seat_rows: dict[int, dict] = defaultdict(dict)  # posting id -> code -> its stored row
    for posting_id, account_id, role, played, counts in PostingSeat.objects.filter(
        posting__table=table
    ).values_list("posting_id", "account_id", "role", "played", "counts"):
        seat_rows[posting_id][codes.get(account_id, account_id)] = (role, played, counts)
    balance = defaultdict(int)
    live_states: dict[int, dict | None] = {}  # live hand postings, in order: their state after
    for posting in postings:
        previous_state = live_states[max(live_states)] if live_states else None
        these = moves.get(posting.pk, [])
        pool_now = {code: balance[code] for code in pools}
        where = f"{label} posting {posting.pk} ({posting.kind}"
        where += f", hand {posting.hand.number})" if posting.hand_id else ")"
        if posting.kind == Posting.Kind.HAND:
            report.hands += 1
            record = posting.revision.record if posting.revision_id else None
            if record is None:
                problems.append(f"{where}: points at no revision")
            else:
                state = game.next_state(previous_state, pool_now, record.get("seats", funders))
                if posting.state_before != state:
                    problems.append(
                        f"{where}: settled from state {posting.state_before}, "
                        f"but the ledger held {state}"
                    )
                try:
                    parsed = game.parse_hand(record, rates, state=state)
                    settlement = game.settle(parsed, rates, state)
                    expected = [
                        (t.source, t.target, t.points, t.reason) for t in settlement.transfers
                    ]
                except RulesError as error:
                    problems.append(f"{where}: the stored record is refused: {error}")
                    expected, settlement = None, None
                if expected is not None and expected != these:
                    problems.append(
                        f"{where}: stored transfers differ from the settlement of its record"
                    )
                if settlement is not None and posting.pk not in reversed_ids:
                    replayed = {
                        row.account.code: (row.role, row.played, row.counts)
                        for row in stats.seat_rows(
                            game,
                            posting=posting,
                            accounts={a.code: a for a in accounts.values()},
                            record=parsed,
                            settlement=settlement,
                        )
                    }
                    if replayed != seat_rows.get(posting.pk, {}):
                        problems.append(
                            f"{where}: its seat rows (roles and statistics) differ from the "
                            "settlement of its record"
                        )
                live_states[posting.pk] = settlement.state_after if settlement else None
        elif posting.kind == Posting.Kind.REVERSAL:
            original = by_id.get(posting.reverses_id)
            mirrored = (
                [(t, s, p, r) for s, t, p, r in reversed(moves.get(original.pk, []))]
                if original
                else None
            )
            if mirrored != these:
                problems.append(f"{where}: is not the exact reversal of its posting")
            if original is not None:
                live_states.pop(original.pk, None)
        elif posting.kind == Posting.Kind.FUNDING:
            allowed = {
                (m.source, m.target, m.points, m.reason)
                for name in funders
                for m in game.seat_moves(name, rates)
            }
            if not these or any(t not in allowed for t in these):
                problems.append(f"{where}: funding other than the rate card's")
        elif posting.kind == Posting.Kind.ADJUSTMENT:
            intent = posting.intent or {}
            asked = [
                (
                    codes.get(intent.get("source")),
                    codes.get(intent.get("target")),
                    intent.get("points"),
                    "adjustment",
                )
            ]
            if not intent or asked != these:
                problems.append(f"{where}: moved other than the adjustment asked")
        elif posting.kind == Posting.Kind.SPLIT:
            state = game.next_state(previous_state, pool_now, funders)
            expected = [
                (m.source, m.target, m.points, m.reason)
                for m in game.close(dict(balance), state, rates, funders)
            ]
            if expected != these:
                problems.append(f"{where}: the close is not the rule's close")
        for source, target, points, _ in these:
            if points <= 0:
                problems.append(f"{where}: a transfer of {points} points")
            balance[source] -= points
            balance[target] += points
        for code in guarded:
            if balance[code] < 0:
                problems.append(f"{where}: the {code} went below zero")
    if sum(balance.values()) != 0:
        problems.append(f"{label}: members and pools total {sum(balance.values())}, not 0")
    _verify_hands(table, label, postings, reversed_ids, problems)


def _verify_summary(label, codes, derived, problems) -> None:
    """Compare the account balance summary with the balances derived from the transfers."""
    stored = {
        pk: [balance, n]
        for pk, balance, n in AccountBalance.objects.filter(account_id__in=list(codes)).values_list(
            "account_id", "balance", "transfers"
        )
    }
    for pk in sorted(set(stored) | set(derived)):
        want = derived.get(pk, [0, 0])
        have = stored.get(pk, [0, 0])
        if have != want:
            problems.append(
                f"{label}: the balance summary of {codes[pk]} says {have[0]} points in "
                f"{have[1]} transfers, but its transfers sum to {want[0]} in {want[1]}"
            )


def _verify_hands(table, label, postings, reversed_ids, problems) -> None:
    live = defaultdict(int)
    for p in postings:
        if p.kind == Posting.Kind.HAND and p.pk not in reversed_ids:
            live[p.hand_id] += 1
    latest = {}
    for revision in HandRevision.objects.filter(hand__table=table).order_by("hand_id", "number"):
        latest[revision.hand_id] = revision
    for hand in Hand.objects.filter(table=table).order_by("number"):
        where = f"{label} hand {hand.number}"
        count = live.get(hand.pk, 0)
        if hand.status == Hand.Status.RECORDED and count != 1:
            problems.append(f"{where}: recorded, but has {count} live postings (1 expected)")
        if hand.status == Hand.Status.VOIDED and count:
            problems.append(f"{where}: voided, but has {count} live postings")
        revision = latest.get(hand.pk)
        if revision is None:
            problems.append(f"{where}: has no revision")
        elif hand.record != revision.record:
            problems.append(f"{where}: its record differs from its latest revision")
        elif hand.status == Hand.Status.RECORDED and count == 1:
            posting = next(
                p
                for p in postings
                if p.hand_id == hand.pk and p.kind == Posting.Kind.HAND and p.pk not in reversed_ids
            )
            if posting.revision_id != revision.pk:
                problems.append(f"{where}: its live posting does not settle its latest revision")
