"""The statistics of hands: the per-seat rows (``PostingSeat``) and their summary
(``AccountStats``), the one module that writes either.

When a hand posts, its game's pure ``stats_of(record, settlement)`` says what each seat
counts (his role, whether he played, the game's counts); ``record_hand`` writes one row per
seat in the posting's transaction and adds the seat's figures to his account's running
summary, as ``ledger.services.balances`` adds transfers to the balances. A reversal of a hand
posting takes its rows' figures off again (``unrecord_hand``); the rows themselves are never
changed. The standings read the summary, a member's hands read the rows; nothing reads the
stored JSON of a hand for statistics.

``derive`` sums the live rows, which ``verify_ledger`` compares with the summary;
``replay`` writes the rows of hand postings that have none by settling their revision again
(after a ``loaddata``: backups and fixtures leave the derived rows out), and ``rebuild``
recomputes the summary from the rows.
"""

from __future__ import annotations

from collections import defaultdict

from ledger.games.registry import get_game
from ledger.models import Account, AccountStats, Posting, PostingSeat

STAT_KEYS = ("played",)  # every game's; each game adds its own (``features.stat_keys``)
_BATCH = 2000


def stat_keys(game_code: str) -> tuple[str, ...]:
    """Return the statistics a table of ``game_code`` keeps: ``played`` and the game's."""
    return (*STAT_KEYS, *get_game(game_code).features.stat_keys)


def _figures(played: bool, counts: dict) -> dict[str, int]:
    return {"played": int(played), **counts}


def seat_rows(game, *, posting: Posting, accounts: dict, record, settlement) -> list[PostingSeat]:
    """Return the unsaved rows of a hand posting, one per seat of ``record``, from the game's
    ``stats_of``; ``accounts`` maps each seat's name to his account."""
    keys = game.features.stat_keys
    rows = []
    for name, seat in game.stats_of(record, settlement).items():
        counts = {key: int(seat.counts.get(key, 0)) for key in keys}
        rows.append(
            PostingSeat(
                posting=posting,
                account=accounts[name],
                role=seat.role,
                played=seat.played,
                counts=counts,
            )
        )
    return rows


def record_hand(
    game, *, posting: Posting, accounts: dict, record, settlement, current=None
) -> None:
    """Write the seat rows of a hand posting and add their figures to the summary.

    ``current`` (account id -> statistics, as the caller read them under its table's lock,
    ``TableLedger.stats``) spares the summary's read; it is kept up to date."""
    rows = PostingSeat.objects.bulk_create(
        seat_rows(game, posting=posting, accounts=accounts, record=record, settlement=settlement)
    )
    figures = {row.account_id: _figures(row.played, row.counts) for row in rows}
    _add(figures, sign=1, current=current)


def unrecord_hand(posting: Posting, current=None) -> None:
    """Take the figures of a reversed hand posting's rows off the summary (rows stay);
    ``current`` as for ``record_hand``."""
    rows = PostingSeat.objects.filter(posting=posting).values_list("account_id", "played", "counts")
    _add({pk: _figures(played, counts) for pk, played, counts in rows}, sign=-1, current=current)


def _add(changes: dict[int, dict[str, int]], *, sign: int, current=None) -> None:
    """Add ``sign`` times ``changes`` (account id -> figures) to the accounts' summaries
    (read here unless ``current`` holds every account's, an account missing from it having
    none); ``current`` is updated."""
    if not changes:
        return
    if current is None:
        current = dict(
            AccountStats.objects.filter(account_id__in=list(changes)).values_list(
                "account", "stats"
            )
        )
    rows = []
    for pk, figures in sorted(changes.items()):
        stats = dict(current.get(pk) or {})
        for key, value in figures.items():
            stats[key] = stats.get(key, 0) + sign * value
        current[pk] = stats
        rows.append(AccountStats(account_id=pk, stats=stats))
    AccountStats.objects.bulk_create(
        rows, update_conflicts=True, unique_fields=["account"], update_fields=["stats"]
    )


def _rows(tables):
    rows = PostingSeat.objects.live()
    return rows if tables is None else rows.filter(account__table__in=tables)


def derive(tables=None) -> dict[int, dict[str, int]]:
    """Return member account id -> {statistic: value}, summed over the live seat rows of
    ``tables`` (a Table queryset or ids; every table when None), in one query."""
    result: dict[int, dict[str, int]] = {}
    for pk, played, counts in _rows(tables).values_list("account_id", "played", "counts"):
        stats = result.setdefault(pk, {})
        for key, value in _figures(played, counts).items():
            stats[key] = stats.get(key, 0) + value
    return result


def rebuild(tables=None) -> int:
    """Recompute the summary of ``tables`` (every table when None) from the live seat rows;
    return the number of rows written. Call it inside a transaction."""
    accounts = Account.objects.all() if tables is None else Account.objects.filter(table__in=tables)
    AccountStats.objects.filter(account__in=accounts).delete()
    derived = sorted(derive(tables).items())
    rows = [AccountStats(account_id=pk, stats=stats) for pk, stats in derived]
    AccountStats.objects.bulk_create(rows, batch_size=_BATCH)
    return len(rows)


def replay(tables=None) -> int:
    """Write the seat rows of every live hand posting of ``tables`` that has none, by settling
    its revision again from the state it started from and its evening's rate card; return the
    number of postings replayed. Call it inside a transaction."""
    postings = (
        Posting.objects.live()
        .filter(kind=Posting.Kind.HAND, seat_rows__isnull=True)
        .select_related("revision", "table__evening")
        .order_by("table_id", "pk")
    )
    if tables is not None:
        postings = postings.filter(table__in=tables)
    accounts: dict[int, dict[str, Account]] = {}
    rows: list[PostingSeat] = []
    count = 0
    for posting in postings.iterator(chunk_size=_BATCH):
        table = posting.table
        if table.pk not in accounts:
            accounts[table.pk] = {a.code: a for a in Account.objects.filter(table=table)}
        game = get_game(table.game)
        rates = game.rate_card(table.evening.rate_card)
        state = posting.state_before
        record = game.parse_hand(posting.revision.record, rates, state=state)
        settlement = game.settle(record, rates, state)
        rows += seat_rows(
            game,
            posting=posting,
            accounts=accounts[table.pk],
            record=record,
            settlement=settlement,
        )
        count += 1
        if len(rows) >= _BATCH:
            PostingSeat.objects.bulk_create(rows)
            rows = []
    PostingSeat.objects.bulk_create(rows)
    return count


def stored(tables=None) -> dict[int, dict[str, int]]:
    """Return the summary as stored: account id -> {statistic: value}."""
    rows = AccountStats.objects.all()
    if tables is not None:
        rows = rows.filter(account__table__in=tables)
    return dict(rows.values_list("account_id", "stats"))


def _nonzero(stats: dict | None) -> dict:
    return {key: value for key, value in (stats or {}).items() if value}


def differences(tables=None) -> list[tuple[int, dict, dict]]:
    """Return (account id, stored, derived) for every summary row that differs from the sum
    of its live seat rows (a row of zeros and no row are the same)."""
    derived = derive(tables)
    kept = stored(tables)
    out = []
    for pk in sorted(set(derived) | set(kept)):
        want, have = _nonzero(derived.get(pk)), _nonzero(kept.get(pk))
        if want != have:
            out.append((pk, have, want))
    return out


def totals(rows) -> dict:
    """Sum statistic dicts: ``rows`` is an iterable of {statistic: value}."""
    out: dict[str, int] = defaultdict(int)
    for stats in rows:
        for key, value in (stats or {}).items():
            out[key] += value
    return dict(out)
