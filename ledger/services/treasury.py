"""The treasurer's writes: jeton counts, adjustments, closing and reopening an evening, and
the jeton arithmetic they share."""

from __future__ import annotations

import datetime
from typing import TYPE_CHECKING

from django.db.models import Max
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from ledger.games.money import MAX_BALANCE, MAX_POINTS, to_money
from ledger.games.registry import get_game
from ledger.models import (
    Account,
    AccountBalance,
    Club,
    Evening,
    EveningLog,
    EveningResult,
    HandRevision,
    JetonCount,
    Posting,
    Table,
    Transfer,
)
from ledger.services import seals

if TYPE_CHECKING:
    from django_stubs_ext import StrOrPromise
from ledger.services.errors import (
    EveningClosedError,
    JetonDifferenceError,
    LedgerError,
    StaleFormError,
    later,
    problem,
)
from ledger.services.ledger import (
    TableLedger,
    lock_evening,
    lock_table,
    post_split,
    table_balances,
    table_version,
    touched,
    writing,
)
from ledger.services.tables import check_club_evening, reopen_locked


def jeton_expected(table: Table, balances: dict[str, int] | None = None) -> dict[str, int]:
    """Return the jetons each account should hold, by account code: a pool its balance, a
    member his stack (the evening's ``starting_jetons`` plus his balance)."""
    balances = balances if balances is not None else table_balances(table.pk)
    pools = set(get_game(table.game).features.pool_codes)
    start = table.evening.starting_jetons
    return {code: balance + (0 if code in pools else start) for code, balance in balances.items()}


def jeton_differences(table: Table) -> dict[str, int]:
    """Return counted minus expected per counted account code (latest count), no zeros."""
    expected = jeton_expected(table)
    latest = {}
    for count in JetonCount.objects.filter(table=table).select_related("account"):
        latest[count.account.code] = count.points
    return {
        code: counted - expected[code]
        for code, counted in latest.items()
        if counted != expected[code]
    }


def jeton_counts_stale(table: Table) -> bool:
    """Return whether a latest count of ``table`` predates its latest change (a hand, a
    correction, an adjustment; a reopening's reversal of the split is no change)."""
    counted = JetonCount.objects.filter(table=table).aggregate(at=Max("counted_at"))["at"]
    if counted is None:
        return False
    changed = (
        Posting.objects.filter(table=table)
        .changing_the_count()
        .aggregate(at=Max("created_at"))["at"]
    )
    return changed is not None and counted < changed


def stale_count_changes(table: Table) -> str:
    """Return what changed at ``table`` since its latest jeton count, in words ("Table 2: hand
    14 saved after the count at 22:41"); "" when no count is stale. Hands saved, corrected
    and voided, and late arrivals seated, in the order they happened."""
    facts = _stale_count_facts(table)
    return _changes_text(facts) if facts is not None else ""


_CHANGE_WORDS: dict[object, StrOrPromise] = {
    HandRevision.Action.RECORD: _("hand {number} saved"),
    HandRevision.Action.CORRECT: _("hand {number} corrected"),
    HandRevision.Action.VOID: _("hand {number} voided"),
    "seated": _("{name} seated"),
}


def _stale_count_facts(table: Table) -> tuple[int, list[tuple[object, dict]], str] | None:
    """What changed at ``table`` since its latest jeton count: its number, each change as
    (kind, parameters) in order, and the count's time; None when no count is stale."""
    counted = JetonCount.objects.filter(table=table).aggregate(at=Max("counted_at"))["at"]
    if counted is None:
        return None
    changes: list[tuple[datetime.datetime, object, dict]] = [
        (at, action, {"number": number})
        for at, action, number in HandRevision.objects.filter(
            hand__table=table, at__gt=counted
        ).values_list("at", "action", "hand__number")
        if action in _CHANGE_WORDS
    ]
    # A member is seated when his account is first funded: a correction of an earlier hand
    # re-posts a late arrival's funding with a new time, which seats nobody.
    fundings = (
        Transfer.objects.filter(table=table, posting__kind=Posting.Kind.FUNDING)
        .filter(source__kind=Account.Kind.MEMBER)
        .select_related("source", "posting")
        .order_by("posting__created_at", "pk")
    )
    seen = set()
    for transfer in fundings:
        if transfer.source_id in seen:
            continue
        seen.add(transfer.source_id)
        if transfer.posting.created_at > counted:
            changes.append((transfer.posting.created_at, "seated", {"name": transfer.source.name}))
    if not changes:
        return None
    changes.sort(key=lambda change: change[0])
    time = timezone.localtime(counted).strftime("%H:%M")
    return table.number, [(kind, params) for _at, kind, params in changes], time


def _changes_text(facts: tuple[int, list[tuple[object, dict]], str]) -> str:
    """A stale count's changes in words, in the active language (reads no database)."""
    number, changes, time = facts
    return str(_("Table {number}: {changes} after the count at {time}")).format(
        number=number,
        changes=", ".join(str(_CHANGE_WORDS[kind]).format(**params) for kind, params in changes),
        time=time,
    )


def evening_close(*, evening: Evening, by=None, confirm_differences: bool = False) -> Evening:
    """Close every table the game's way, write each member's result in points and money,
    and lock the evening."""
    with writing():
        evening = lock_evening(evening.pk)
        check_club_evening(evening)
        evening.club = Club.objects.get(pk=evening.club_id)
        if evening.status != Evening.Status.OPEN:
            raise EveningClosedError()
        tables = list(
            Table.objects.select_for_update(of=("self",)).filter(evening=evening).order_by("pk")
        )
        tables.sort(key=lambda t: t.number)
        # A count made before a change explains its differences: ask for a recount first.
        stale = [
            t for t in tables if get_game(t.game).features.uses_jetons and jeton_counts_stale(t)
        ]
        if stale and not confirm_differences:
            field = "confirm_differences"
            refusal = problem(
                field,
                _(
                    "the jetons of table {tables} were counted before its latest change; "
                    "count again or confirm to close"
                ),
                tables=", ".join(str(t.number) for t in stale),
            )
            facts = [f for f in (_stale_count_facts(t) for t in stale) if f is not None]
            changes = [problem(field, later(_changes_text, f)) for f in facts]
            raise JetonDifferenceError(problems=[refusal, *changes])
        differences = {
            t.number: jeton_differences(t) for t in tables if get_game(t.game).features.uses_jetons
        }
        if any(differences.values()) and not confirm_differences:
            raise JetonDifferenceError(
                _("the counted jetons differ from the ledger; confirm the differences to close"),
                "confirm_differences",
            )
        for table in tables:
            touched(table_id=table.pk)
            table.evening = evening
            if table.status == Table.Status.OPEN:
                post_split(table, by)
                table.status = Table.Status.CLOSED
                table.save(update_fields=["status"])
        points: dict[int, int] = {}
        for table in tables:
            balances = AccountBalance.objects.of_table(table.pk)
            for account in Account.objects.filter(table=table, kind=Account.Kind.MEMBER):
                member_id = account.member_id
                if member_id is not None:  # a member's account always names him
                    points[member_id] = points.get(member_id, 0) + balances.get(account.pk, 0)
        for total in points.values():
            if abs(total) > MAX_BALANCE:
                raise LedgerError(
                    _("a member's result would pass the bound of {limit} points"),
                    "__all__",
                    limit=MAX_BALANCE,
                )
        closing = EveningLog.objects.filter(evening=evening, action="close").count() + 1
        EveningResult.objects.bulk_create(
            EveningResult(
                evening=evening,
                member_id=member_id,
                points=total,
                money=to_money(total, evening.price_per_point),
                closing=closing,
            )
            for member_id, total in points.items()
        )
        details = [
            {"table": n, "account": code, "difference": diff}
            for n, d in differences.items()
            for code, diff in d.items()
        ]
        seals.seal_log(
            EveningLog.objects.create(evening=evening, action="close", details=details, by=by)
        )
        evening.status = Evening.Status.CLOSED
        evening.closed_at = timezone.now()
        evening.save(update_fields=["status", "closed_at"])
        # The ratings follow here (ratings imports the ledger's services: no module-level import).
        from ledger.services.federation.ratings import ratings_follow_evening

        ratings_follow_evening(evening)
    return evening


def evening_reopen(*, evening: Evening, reason: str, by=None) -> Evening:
    """Reopen a closed evening: reverse every table's close and unlock it. Logged with reason."""
    if not reason or not reason.strip():
        raise LedgerError(_("reopening an evening needs a reason"), "reason")
    with writing():
        evening = lock_evening(evening.pk)
        check_club_evening(evening)
        if evening.status != Evening.Status.CLOSED:
            raise LedgerError(_("the evening is not closed"), "evening")
        if Evening.objects.filter(
            club_id=evening.club_id,
            date=evening.date,
            status=Evening.Status.OPEN,
            kind=Evening.Kind.CLUB,
        ).exists():
            raise LedgerError(_("an evening of this date is already open"), "evening")
        evening.status = Evening.Status.OPEN
        evening.closed_at = None
        evening.save(update_fields=["status", "closed_at"])
        for table in (
            Table.objects.select_for_update(of=("self",)).filter(evening=evening).order_by("pk")
        ):
            touched(table_id=table.pk)
            table.evening = evening
            reopen_locked(table, by=by, note=reason)
        seals.seal_log(
            EveningLog.objects.create(evening=evening, action="reopen", reason=reason, by=by)
        )
        # The ratings follow here (ratings imports the ledger's services: no module-level import).
        from ledger.services.federation.ratings import ratings_follow_evening

        ratings_follow_evening(evening)
    return evening


def check_points(value, field: str, *, positive: bool) -> None:
    if isinstance(value, bool) or not isinstance(value, int):
        raise LedgerError(_("a whole number of points is needed"), field)
    low = 1 if positive else 0
    if not low <= value <= MAX_POINTS:
        raise LedgerError(
            _("the points must be between {low} and {high}"), field, low=low, high=MAX_POINTS
        )


def jetons_count(*, table: Table, counts: dict[str, int], by=None) -> list[JetonCount]:
    """Record what the treasurer counted per account code; the ledger is not changed."""
    with writing():
        table = lock_table(table.pk)
        check_club_evening(table.evening)
        if table.evening.status != Evening.Status.OPEN:
            raise EveningClosedError()
        accounts = {a.code: a for a in Account.objects.filter(table=table)}
        rows = []
        for code, points in counts.items():
            if code not in accounts:
                raise LedgerError(_("{name} has no account at this table"), code, name=code)
            check_points(points, code, positive=False)
            rows.append(
                JetonCount(table=table, account=accounts[code], points=points, counted_by=by)
            )
        return JetonCount.objects.bulk_create(rows)


def jetons_confirm(*, table: Table, version: int, by=None) -> list[JetonCount]:
    """Record that every account of ``table`` holds what the ledger expects: the treasurer's
    one tap when his count matches. ``version`` is the ``table_version`` his screen showed;
    if the table changed since (a hand saved meanwhile), the expected figures he confirmed
    are no longer the ledger's, and the confirmation is refused (StaleFormError, ``version``).
    """
    with writing():
        table = lock_table(table.pk)
        check_club_evening(table.evening)
        if table.evening.status != Evening.Status.OPEN:
            raise EveningClosedError()
        if version != table_version(table.pk):
            raise StaleFormError(
                _("the table changed since the screen was shown; look at the counts again"),
                "version",
            )
        accounts = {a.code: a for a in Account.objects.filter(table=table)}
        expected = jeton_expected(table)
        rows = [
            JetonCount(table=table, account=accounts[code], points=points, counted_by=by)
            for code, points in expected.items()
        ]
        return JetonCount.objects.bulk_create(rows)


def adjustment_post(
    *, table: Table, source: str, target: str, points: int, reason: str, by=None
) -> Posting:
    """Post a treasurer's explicit adjustment between two accounts (by code), with a reason.

    The posting keeps what was asked (``intent``: account ids and points), which
    ``verify_ledger`` compares with its transfers.
    """
    if not reason or not reason.strip():
        raise LedgerError(_("an adjustment needs a reason"), "reason")
    check_points(points, "points", positive=True)
    if source == target:
        raise LedgerError(_("an adjustment moves points between two different accounts"), "target")
    with writing():
        table = lock_table(table.pk)
        check_club_evening(table.evening)
        if table.evening.status != Evening.Status.OPEN:
            raise EveningClosedError()
        ledger = TableLedger(table)
        for field, code in (("source", source), ("target", target)):
            if code not in ledger.accounts:
                raise LedgerError(_("{name} has no account at this table"), field, name=code)
        src, dst = ledger.accounts[source], ledger.accounts[target]
        return ledger.post_accounts(
            Posting.Kind.ADJUSTMENT,
            [(src, dst, points, "adjustment")],
            by=by,
            note=reason,
            intent={"source": src.pk, "target": dst.pk, "points": points},
        )
