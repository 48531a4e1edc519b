"""Generate a federation-sized history quickly (the bulk path of ``make bench``).

The hands come from the same generator the tests use (the Danish engine's ``generate``) and
are settled by the same pure engine; only the writing is bulk (``bulk_create``) instead of one
service call per hand. ``verify_ledger`` over the result proves it equals what the services
would have written.
"""

from __future__ import annotations

import datetime
import random

from django.contrib.auth import get_user_model
from django.db import transaction

from ledger.games.danish.engine import rotation
from ledger.games.danish.engine.generate import random_hand
from ledger.games.money import MAX_POINTS, to_money
from ledger.games.registry import get_game
from ledger.models import (
    Account,
    AccountBalance,
    Club,
    Evening,
    EveningLog,
    EveningResult,
    Hand,
    HandRevision,
    Member,
    Posting,
    Season,
    Seat,
    Table,
    Transfer,
)
from ledger.services import balances as summary
from ledger.services import people, seals, stats

GAME = get_game("danish_tarok")
POOLS = GAME.features.pool_codes

FIRST_NAMES = [
    "Anna",
    "Bo",
    "Carl",
    "Dorte",
    "Erik",
    "Frida",
    "Gorm",
    "Hanne",
    "Ib",
    "Jette",
    "Karl",
    "Lise",
    "Mads",
    "Nina",
    "Ole",
    "Pia",
    "Rasmus",
    "Sofie",
    "Tage",
    "Ulla",
    "Viggo",
    "Yrsa",
    "Åse",
    "Ørn",
]


def generate(
    *,
    clubs: int = 3,
    seasons: int = 5,
    evenings: int = 40,
    tables: int = 4,
    hands: int = 40,
    seed: int = 2026,
    progress=print,
) -> dict:
    """Write the history and return its counts."""
    rng = random.Random(seed)
    rates = GAME.rate_card({})
    counts = {"clubs": 0, "evenings": 0, "tables": 0, "hands": 0, "transfers": 0}
    user_model = get_user_model()
    for c in range(clubs):
        club = Club.objects.create(name=f"Bench Tarokklub {c + 1}", slug=f"bench{c + 1}")
        members = Member.objects.bulk_create(Member(club=club, name=name) for name in FIRST_NAMES)
        reader = user_model.objects.create_user(username=f"bench{c + 1}", password="bench-pw-1")
        Member.objects.filter(pk=members[0].pk).update(user=reader, role="admin")
        people.seal_clubs([club.pk])  # the bench's members, sealed as a trusted set-up
        counts["clubs"] += 1
        for s in range(seasons):
            year = 2021 + s
            season = Season.objects.create(
                club=club,
                name=f"{year}/{year + 1}",
                starts_on=datetime.date(year, 8, 1),
                ends_on=datetime.date(year + 1, 7, 31),
            )
            for e in range(evenings):
                date = season.starts_on + datetime.timedelta(days=7 * e)
                with transaction.atomic():
                    evening = _evening(
                        club, season, date, members, rates, rng, tables, hands, counts
                    )
                    # Sealed as the services seal what they write.
                    seals.seal_all(Table.objects.filter(evening=evening))
            progress(
                f"  club {c + 1}/{clubs} season {s + 1}/{seasons}: "
                f"{counts['hands']} hands, {counts['transfers']} transfers"
            )
    analyze()
    return counts


def analyze() -> None:
    """Give the planner the statistics of the tables just filled (issue 31), on both
    databases, as a server's autovacuum (or ``restore``) would have: a bulk load leaves
    PostgreSQL's planner without any and SQLite's without ``sqlite_stat1``."""
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("ANALYZE")


def _evening(club, season, date, members, rates, rng, n_tables, n_hands, counts):
    evening = Evening.objects.create(
        club=club,
        game=GAME.code,
        season=season,
        date=date,
        rate_card=rates.as_dict(),
        price_per_point=club.price_per_point,
        starting_jetons=club.starting_jetons,
    )
    counts["evenings"] += 1
    present = rng.sample(members, 16)
    sizes = [4] * n_tables
    sizes[0] = rng.choice((3, 4, 5))
    table_rows, seat_rows, account_rows, plans = [], [], [], []
    start = 0
    for number, size in enumerate(sizes, start=1):
        seated = (present * 2)[start : start + size]
        start += size
        table = Table(evening=evening, number=number, first_dealer=seated[0])
        table_rows.append(table)
        plans.append((table, seated))
    Table.objects.bulk_create(table_rows)
    for table, seated in plans:
        seat_rows += [
            Seat(table=table, member=m, name=m.name, position=i + 1) for i, m in enumerate(seated)
        ]
        account_rows += [Account(table=table, kind="pool", code=cup) for cup in POOLS]
        account_rows += [Account(table=table, kind="member", member=m, code=m.name) for m in seated]
    Seat.objects.bulk_create(seat_rows)
    Account.objects.bulk_create(account_rows)
    accounts = {(a.table_id, a.code): a for a in account_rows}

    hand_rows, revision_rows, posting_rows, pending = [], [], [], []
    results = {}
    for table, seated in plans:
        names = [m.name for m in seated]
        balance = dict.fromkeys(names + list(POOLS), 0)
        moves = [_tuple(m) for m in GAME.initial_state(names, rates)[1]]
        posting_rows.append(Posting(table=table, kind="funding"))
        pending.append(moves)
        _apply(balance, moves)
        for number in range(1, n_hands + 1):
            dealer, out = rotation.hand_schedule(names, names[0], number, rates.five_seat_rotation)
            out = out or None
            state = GAME.next_state(None, {cup: balance[cup] for cup in POOLS}, names)
            record, settlement = _playable_hand(rng, names, dealer, out, rates, state)
            stored = record.as_dict()
            stored.pop(GAME.features.state_in, None)
            hand = Hand(
                table=table,
                number=number,
                record=stored,
                dealer=next(m for m in seated if m.name == dealer),
            )
            revision = HandRevision(hand=hand, number=1, action="record", record=stored)
            posting = Posting(
                table=table,
                kind="hand",
                hand=hand,
                revision=revision,
                state_before=state,
                state_after=settlement.state_after,
                outcome={**settlement.outcome_data, "roles": settlement.roles},
            )
            moves = [_tuple(t) for t in settlement.transfers]
            hand_rows.append(hand)
            revision_rows.append(revision)
            posting_rows.append(posting)
            pending.append(moves)
            _apply(balance, moves)
            counts["hands"] += 1
        moves = [_tuple(m) for m in GAME.close(dict(balance), None, rates, names)]
        posting_rows.append(Posting(table=table, kind="split"))
        pending.append(moves)
        _apply(balance, moves)
        for m in seated:
            results[m.pk] = results.get(m.pk, 0) + balance[m.name]
    Hand.objects.bulk_create(hand_rows, batch_size=2000)
    for revision in revision_rows:
        revision.hand_id = revision.hand.pk
    HandRevision.objects.bulk_create(revision_rows, batch_size=2000)
    for posting in posting_rows:
        if posting.hand is not None:
            posting.hand_id = posting.hand.pk
            posting.revision_id = posting.revision.pk
    Posting.objects.bulk_create(posting_rows, batch_size=2000)
    transfer_rows = []
    for posting, moves in zip(posting_rows, pending, strict=True):
        for source, target, points, reason in moves:
            transfer_rows.append(
                Transfer(
                    posting=posting,
                    table_id=posting.table_id,
                    source=accounts[(posting.table_id, source)],
                    target=accounts[(posting.table_id, target)],
                    points=points,
                    reason=reason,
                )
            )
    Transfer.objects.bulk_create(transfer_rows, batch_size=5000)
    # The balance summary, written with the transfers as the services write it.
    change = summary.deltas((t.source_id, t.target_id, t.points) for t in transfer_rows)
    AccountBalance.objects.bulk_create(
        (AccountBalance(account_id=pk, balance=b, transfers=n) for pk, (b, n) in change.items()),
        batch_size=2000,
    )
    # The seat rows of the hands just written and their summary, as the services write them.
    stats.replay(table_rows)
    stats.rebuild(table_rows)
    counts["transfers"] += len(transfer_rows)
    counts["tables"] += len(plans)
    EveningResult.objects.bulk_create(
        EveningResult(
            evening=evening,
            member_id=member_id,
            points=points,
            money=to_money(points, evening.price_per_point),
        )
        for member_id, points in results.items()
    )
    # The close's log entry, as ``services.evening_close`` writes it (verify_ledger counts the
    # closes in the log against the results').
    EveningLog.objects.create(evening=evening, action="close")
    Table.objects.filter(evening=evening).update(status="closed")
    Evening.objects.filter(pk=evening.pk).update(status="closed")
    return evening


def _playable_hand(rng, names, dealer, out, rates, state):
    """Draw a random hand and settle it; draw again when it would carry a cup past the one
    bound on amounts (``MAX_POINTS``), which the services would refuse at the next hand."""
    for _attempt in range(50):
        data = random_hand(rng, names, dealer, rates, sitting_out=out, with_table=False)
        record = GAME.parse_hand({**data, "seats": names}, rates, state=state)
        settlement = GAME.settle(record, rates, state)
        after = dict(state)
        for t in settlement.transfers:
            if t.source in after:
                after[t.source] -= t.points
            if t.target in after:
                after[t.target] += t.points
        if all(value <= MAX_POINTS for value in after.values()):
            return record, settlement
    raise RuntimeError("no playable hand in 50 draws")  # pragma: no cover


def _tuple(move):
    return (move.source, move.target, move.points, move.reason)


def _apply(balance, moves):
    for source, target, points, _reason in moves:
        balance[source] -= points
        balance[target] += points
