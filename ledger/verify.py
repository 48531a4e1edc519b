"""Re-check the whole ledger from the hand records: the third depth of the invariants."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field

from ledger.games import get_game
from ledger.models import CUP_NAMES, Account, Posting, Seat, Table, Transfer
from ledger.rules import RulesError


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
    """Re-settle every hand posting and check reversals, funding, splits, zero-sum and cups.

    Postings are replayed in the order they were written; a hand posting must equal the
    settlement of the revision it points at from the cups the ledger held at that moment.
    """
    report = Report()
    tables = Table.objects.all() if tables is None else tables
    for table in tables.select_related("evening").order_by("pk").iterator(chunk_size=500):
        _verify_table(table, report)
    return report


def _verify_table(table: Table, report: Report) -> None:
    report.tables += 1
    game = get_game(table.game)
    label = f"evening {table.evening.date} table {table.number}"
    try:
        rates = game.rate_card.from_dict(table.evening.rate_card)
    except RulesError as error:
        report.problems.append(f"{label}: the rate card is invalid: {error}")
        return
    names = {a.pk: a.name for a in Account.objects.filter(table=table).select_related("member")}
    moves = defaultdict(list)
    for row in (
        Transfer.objects.filter(table=table)
        .order_by("posting_id", "pk")
        .values_list("posting_id", "source_id", "target_id", "points", "reason")
    ):
        moves[row[0]].append((names[row[1]], names[row[2]], row[3], row[4]))
        report.transfers += 1
    postings = list(
        Posting.objects.filter(table=table).select_related("hand", "revision").order_by("pk")
    )
    by_id = {p.pk: p for p in postings}
    funders = [
        s.member.name
        for s in Seat.objects.filter(table=table).select_related("member").order_by("position")
    ]
    balance = defaultdict(int)
    for posting in postings:
        these = moves.get(posting.pk, [])
        cups = {cup: balance[cup] for cup in CUP_NAMES}
        where = f"{label} posting {posting.pk} ({posting.kind}"
        where += f", hand {posting.hand.number})" if posting.hand_id else ")"
        if posting.kind == Posting.Kind.HAND:
            report.hands += 1
            if posting.cups_before != cups:
                report.problems.append(
                    f"{where}: settled from cups {posting.cups_before}, but the ledger held {cups}"
                )
            try:
                parsed = game.parse_hand(posting.revision.record, rates, cups_before=cups)
                expected = [
                    (t.source, t.target, t.points, t.reason)
                    for t in game.settle(parsed, rates, cups).transfers
                ]
            except RulesError as error:
                report.problems.append(f"{where}: the stored record is refused: {error}")
                expected = None
            if expected is not None and expected != these:
                report.problems.append(
                    f"{where}: stored transfers differ from the settlement of its record"
                )
        elif posting.kind == Posting.Kind.REVERSAL:
            original = by_id.get(posting.reverses_id)
            mirrored = (
                [(t, s, p, r) for s, t, p, r in reversed(moves.get(original.pk, []))]
                if original
                else None
            )
            if mirrored != these:
                report.problems.append(f"{where}: is not the exact reversal of its posting")
        elif posting.kind == Posting.Kind.FUNDING:
            if any(
                t[1] not in CUP_NAMES or t[2] != rates.funding_per_cup or t[3] != "funding"
                for t in these
            ):
                report.problems.append(f"{where}: funding other than the rate card's")
        elif posting.kind == Posting.Kind.SPLIT:
            shares = defaultdict(int)
            for _source, target, points, _reason in these:
                shares[target] += points
            member_balances = {name: balance[name] for name in funders}
            total = sum(cups.values())
            expected = game.split_cups(member_balances, total, rates.split_unit) if total else {}
            if {k: v for k, v in expected.items() if v} != dict(shares):
                report.problems.append(f"{where}: the split is not the rule's split")
        for source, target, points, _ in these:
            if points <= 0:
                report.problems.append(f"{where}: a transfer of {points} points")
            balance[source] -= points
            balance[target] += points
            for cup in CUP_NAMES:
                if balance[cup] < 0:
                    report.problems.append(f"{where}: the {cup} went below zero")
    if sum(balance.values()) != 0:
        report.problems.append(f"{label}: members and cups total {sum(balance.values())}, not 0")
