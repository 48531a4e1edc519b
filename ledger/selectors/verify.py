"""Re-check the whole ledger from the hand records: the third depth of the invariants."""

from __future__ import annotations

import json
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any, cast

from django.db.models import Q, QuerySet

from ledger.games.errors import RulesError
from ledger.games.money import to_money
from ledger.games.registry import get_game
from ledger.models import (
    Account,
    AccountBalance,
    ChainLink,
    Club,
    Evening,
    EveningLog,
    EveningResult,
    Hand,
    HandConfirmation,
    HandRevision,
    KeptLadder,
    Posting,
    PostingSeat,
    RatingList,
    Round,
    Seal,
    Seat,
    Table,
    Tournament,
    Transfer,
)
from ledger.selectors.verify_people import verify_people
from ledger.services import seals, stats, tournaments
from ledger.services.federation.ladder import kept_ladder_difference
from ledger.services.federation.ratings import rating_list_difference

Kind = Seal.Kind


@dataclass
class Report:
    tables: int = 0
    hands: int = 0
    transfers: int = 0
    problems: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems


def verify_ledger(tables=None, *, club=None) -> Report:
    """Re-settle every hand posting and check reversals, funding, closes, zero-sum and pools,
    that the account balance summary equals the balances summed from the transfers, and that
    the statistics summary equals the statistics derived from the live hands.

    Postings are replayed in the order they were written; a hand posting must equal the
    settlement of the revision it points at from the state the ledger held at that moment.
    Every recorded hand has exactly one live posting (a voided one none), its record equals
    its latest revision, and every adjustment moved what was asked of it.

    With neither ``tables`` nor ``club`` the whole ledger is checked, the tournaments, the
    clubs' people (``verify_people``) and the seals of what is gone included; with ``club``
    all of that club's (its evenings, tables, tournaments, people and the seals it held).
    ``tables`` alone checks those tables and their evenings only (a service's own check).
    """
    report = Report()
    whole = tables is None
    if tables is None:
        tables = Table.objects.all() if club is None else Table.objects.filter(evening__club=club)
    for table in tables.select_related("evening").order_by("pk").iterator(chunk_size=500):
        try:
            _verify_table(table, report)
        except Exception as error:  # a damaged ledger must be reported, never crash the check
            report.problems.append(
                f"evening {table.evening.date} table {table.number}: cannot be checked: "
                f"{type(error).__name__}: {error}"
            )
    _verify_stats(tables, report.problems)
    if not whole:
        evenings = Evening.objects.filter(tables__in=tables).distinct()
    elif club is not None:
        evenings = Evening.objects.filter(club=club)
    else:
        evenings = Evening.objects.all()
    for evening in evenings.order_by("pk").iterator(chunk_size=500):
        try:
            _verify_evening(evening, report.problems)
        except Exception as error:  # a damaged ledger must be reported, never crash the check
            report.problems.append(
                f"evening {evening.date}: cannot be checked: {type(error).__name__}: {error}"
            )
    if whole:
        _verify_orphan_seals(report.problems, club)
        _verify_tournaments(report.problems, club)
        _verify_chains(report.problems, club)
        verify_people(report.problems, club)
        _verify_ratings(report.problems, club)
        _verify_kept_ladders(report.problems, club)
    return report


def _verify_ratings(problems, club=None) -> None:
    """Check that every stored rating list (of the club's federations) equals its
    recomputation from its rated tables; report its first differing table."""
    lists = RatingList.objects.select_related("federation").order_by("pk")
    if club is not None:
        lists = lists.filter(federation__clubs=club).distinct()
    for rating_list in lists:
        try:
            difference = rating_list_difference(rating_list)
        except Exception as error:  # a damaged list must be reported, never crash the check
            difference = f"cannot be checked: {type(error).__name__}: {error}"
        if difference is not None:
            problems.append(f"rating list {rating_list.name}: {difference}")


def _verify_kept_ladders(problems, club=None) -> None:
    """Check that every kept ladder that is current (its fingerprint the series' own; a stale
    one is recomputed at its next read) equals a recompute through the engine; report its
    first differing line."""
    kept = KeptLadder.objects.select_related("series").order_by("series_id")
    if club is not None:
        kept = kept.filter(Q(series__club=club) | Q(series__federation__clubs=club)).distinct()
    for ladder in kept:
        try:
            difference = kept_ladder_difference(ladder.series)
        except Exception as error:  # a damaged ladder must be reported, never crash the check
            difference = f"cannot be checked: {type(error).__name__}: {error}"
        if difference is not None:
            problems.append(f"kept ladder {ladder.series.name}: {difference}")


def _verify_chains(problems, club=None) -> None:
    """Check each club's chain (``ChainLink``): its links numbered 1..n, each sealed chained to
    the one before it, its head sealed over the last; every evening, tournament and round of
    the club in it, in the status its last link gives; no link naming what is gone."""
    clubs = Club.objects.all() if club is None else Club.objects.filter(pk=club.pk)
    heads = dict(
        Seal.objects.filter(kind=Kind.CLUB, object_id__in=clubs.values("pk")).values_list(
            "object_id", "digest"
        )
    )
    for club_id, slug in clubs.order_by("pk").values_list("pk", "slug"):
        label = f"club {slug}"
        links = list(
            ChainLink.objects.filter(club_id=club_id)
            .order_by("number")
            .values_list("number", "kind", "object_id", "status", "digest")
        )
        previous = ""
        for position, (number, kind, object_id, status, have) in enumerate(links, 1):
            if number != position:
                problems.append(
                    f"{label}: its chain's link {position} is numbered {number}: a link was "
                    "removed or inserted"
                )
            if have != seals.link_digest(club_id, number, kind, object_id, status, previous):
                problems.append(
                    f"{label}: its chain's link {number} ({kind} {object_id} {status}) differs "
                    "from its seal, or does not follow the link before it"
                )
            previous = have
        head = heads.get(club_id)
        if links and head is None:
            problems.append(f"{label}: the club's chain has no head")
        elif head is not None and head != seals.head_digest(club_id, len(links), previous):
            problems.append(
                f"{label}: the club's chain differs from its head: the chain was cut short or "
                "a link removed (an evening, a tournament or a round gone with its seals)"
            )
        last = {(kind, object_id): (number, status) for number, kind, object_id, status, _ in links}
        present = {}
        for kind, model, extra in (
            (ChainLink.Kind.EVENING, Evening, "date"),
            (ChainLink.Kind.TOURNAMENT, Tournament, "name"),
            (ChainLink.Kind.ROUND, Round, "number"),
        ):
            rows = model.objects.filter(
                **({"tournament__club_id": club_id} if model is Round else {"club_id": club_id})
            )
            for pk, status, name in rows.values_list("pk", "status", extra):
                present[(kind, pk)] = (status, name)
        for (kind, object_id), (status, name) in sorted(present.items()):
            seen = last.get((kind, object_id))
            if seen is None:
                problems.append(f"{label}: {kind} {name} is not in the club's chain")
            elif seen[1] != status:
                problems.append(
                    f"{label}: {kind} {name} is {status}, but the club's chain last saw it "
                    f"{seen[1]} (link {seen[0]})"
                )
        for (kind, object_id), (number, status) in sorted(last.items(), key=lambda i: i[1]):
            if (kind, object_id) not in present:
                problems.append(
                    f"{label}: the club's chain holds {kind} {object_id} ({status}, link "
                    f"{number}), which is gone: removed with its seals"
                )


def _verify_tournaments(problems, club=None) -> None:
    """Every tournament's head seal (its row, entries, rounds with their published draws,
    round tables, byes and logs), its evening's kind, every started round's evening (of the
    tournament, of the round's day, holding the round's tables), and every closed round: its stored
    table scores, places, points and byes' points must be what its tables' closes give now
    (``services.tournaments.round_results``, recomputed through the engine)."""
    events: QuerySet[Tournament] = (
        Tournament.objects.all() if club is None else club.tournaments.all()
    )
    heads = dict(
        Seal.objects.filter(kind=Kind.TOURNAMENT, object_id__in=events.values("pk")).values_list(
            "object_id", "digest"
        )
    )
    for tournament in events.select_related("evening").order_by("pk").iterator(200):
        label = f"tournament {tournament.name}"
        have = heads.get(tournament.pk)
        if have is None:
            problems.append(f"{label}: the tournament has no seal")
        elif have != seals.digest(Kind.TOURNAMENT, seals.tournament_content(tournament.pk)):
            problems.append(
                f"{label}: differs from its seal: its parameters, seed, log, entries, a "
                "round's draw, log or results, a round table or a bye changed, was added or was "
                "removed outside the ledger"
            )
        if tournament.evening is not None and not tournament.evening.is_tournament:
            problems.append(f"{label}: its evening {tournament.evening.date} is a club evening")
    started = Round.objects.filter(tournament__in=events).exclude(started_at=None)
    for round_ in started.select_related("tournament", "evening").order_by("pk").iterator(200):
        label = f"tournament {round_.tournament.name} round {round_.number}"
        evening = round_.evening
        if evening is None:
            problems.append(f"{label}: started, but has no evening")
        elif not evening.is_tournament or evening.club_id != round_.tournament.club_id:
            problems.append(f"{label}: its evening {evening.date} is not one of its tournament")
        elif evening.date != round_.day:
            problems.append(
                f"{label}: played on {round_.day}, but its evening is of {evening.date}"
            )
        elif round_.round_tables.exclude(table__evening=evening).exclude(table=None).exists():
            problems.append(f"{label}: a table of it is not at its evening {evening.date}")
    rounds = Round.objects.filter(status=Round.Status.CLOSED, tournament__in=events).select_related(
        "tournament"
    )
    for round_ in rounds.order_by("pk").iterator(chunk_size=200):
        label = f"tournament {round_.tournament.name} round {round_.number}"
        try:
            round_tables = list(round_.round_tables.select_related("table").order_by("number"))
            results, bye_points, _leavers = tournaments.round_results(round_, round_tables)
        except Exception as error:  # a damaged ledger must be reported, never crash the check
            problems.append(f"{label}: cannot be recomputed: {type(error).__name__}: {error}")
            continue
        for rt in round_tables:
            if rt.results != results[rt.pk]:
                problems.append(
                    f"{label} table {rt.number}: stored results {rt.results} differ from "
                    f"the recomputation {results[rt.pk]}"
                )
        for bye in round_.bye_rows.all():
            if bye.points != bye_points:
                problems.append(f"{label}: the bye's points {bye.points} differ from {bye_points}")
    _verify_confirmations(problems, events)


def _verify_confirmations(problems, events) -> None:
    """Every hand confirmed by a second player (issue 27) as its round's sealed log says it:
    who saved it, who confirmed it and which revision. A confirmation is a row the seal does
    not cover; its round's log entry is, so a hand marked confirmed (it then counts for the
    target) or changed outside the ledger shows here."""
    logged: dict[tuple, tuple] = {}
    names: dict[int, str] = {}
    rounds = Round.objects.filter(tournament__in=events).values_list(
        "pk", "tournament__name", "number", "log"
    )
    for pk, tournament, number, log in rounds:
        names[pk] = f"tournament {tournament} round {number}"
        for line in log or []:
            if isinstance(line, dict) and line.get("action") == "confirm":
                key = (pk, line.get("table"), line.get("hand"))
                logged[key] = (line.get("saved_by"), line.get("confirmed_by"), line.get("revision"))
    stored: dict[tuple, tuple] = {}
    rows = HandConfirmation.objects.filter(
        hand__table__round_table__round__tournament__in=events
    ).values_list(
        "hand__table__round_table__round_id",
        "hand__table__round_table__number",
        "hand__number",
        "saved_by",
        "confirmed_by",
        "revision",
        "confirmed_at",
    )
    for round_id, table, hand, saved_by, confirmed_by, revision, at in rows:
        if at is not None or confirmed_by or revision is not None:
            stored[(round_id, table, hand)] = (saved_by, confirmed_by, revision)
    for key in sorted(set(logged) | set(stored), key=str):
        if logged.get(key) != stored.get(key):
            key_round, key_table, key_hand = key
            problems.append(
                f"{names.get(key_round, key_round)} table {key_table} hand {key_hand}: "
                "its confirmation "
                f"{stored.get(key)} differs from its round's log {logged.get(key)}"
            )


def _json(value):
    """``value`` as the database keeps JSON (tuples become lists)."""
    return json.loads(json.dumps(value))


def _check_chain(where, kind, rows, stored, problems, content=list) -> None:
    """Check the chained seals of ``rows`` (in order): each row's seal is its content chained
    to the stored seal of the row before it; a row changed, inserted or removed from the middle
    breaks it."""
    previous = ""
    for row in rows:
        have = stored.get(row[0])
        want = seals.digest(kind, content(row), previous)
        if have is None:
            problems.append(f"{where(row)}: has no seal")
        elif have != want:
            problems.append(
                f"{where(row)}: differs from its seal, or does not follow the one sealed before "
                "it (changed, inserted or removed outside the ledger)"
            )
        previous = have or want


def _verify_table_seals(table, label, problems) -> None:
    """Recompute the seals of the table's postings, hands, revisions and head."""
    stored: defaultdict[str, dict] = defaultdict(dict)
    hand_ids = list(Hand.objects.filter(table=table).values_list("pk", flat=True))
    for kind, object_id, digest in Seal.objects.filter(
        kind__in=[Kind.POSTING, Kind.HAND], scope=table.pk
    ).values_list("kind", "object_id", "digest"):
        stored[kind][object_id] = digest
    for object_id, digest in Seal.objects.filter(
        kind=Kind.REVISION, scope__in=hand_ids
    ).values_list("object_id", "digest"):
        stored[Kind.REVISION][object_id] = digest
    accounts = {
        row[0]: list(row)
        for row in Account.objects.filter(table=table).values_list(*seals.ACCOUNT_FIELDS)
    }
    transfers = defaultdict(list)
    for row in (
        Transfer.objects.filter(table=table).order_by("pk").values_list(*seals.TRANSFER_FIELDS)
    ):
        transfers[row[1]].append(row)
    postings = list(
        Posting.objects.filter(table=table).order_by("pk").values_list(*seals.POSTING_FIELDS)
    )
    _check_chain(
        lambda row: f"{label} posting {row[0]} ({row[3]})",
        Kind.POSTING,
        postings,
        stored[Kind.POSTING],
        problems,
        content=lambda row: seals.posting_content(row, transfers.get(row[0], []), accounts),
    )
    hands = list(Hand.objects.filter(table=table).order_by("pk").values_list(*seals.HAND_FIELDS))
    for row in hands:
        have = stored[Kind.HAND].get(row[0])
        if have is None:
            problems.append(f"{label} hand {row[2]}: has no seal")
        elif have != seals.digest(Kind.HAND, list(row)):
            problems.append(
                f"{label} hand {row[2]}: differs from its seal (changed outside the ledger)"
            )
    numbers = {row[0]: row[2] for row in hands}
    revisions = defaultdict(list)
    for row in (
        HandRevision.objects.filter(hand__table=table)
        .order_by("pk")
        .values_list(*seals.REVISION_FIELDS)
    ):
        revisions[row[1]].append(row)
    for rows in revisions.values():
        _check_chain(
            lambda row: f"{label} hand {numbers.get(row[1])} revision {row[3]}",
            Kind.REVISION,
            rows,
            stored[Kind.REVISION],
            problems,
        )
    for kind, present, noun in (
        (Kind.POSTING, {row[0] for row in postings}, "posting"),
        (Kind.HAND, set(numbers), "hand"),
    ):
        for object_id in sorted(set(stored[kind]) - present):
            problems.append(f"{label}: {noun} {object_id} was sealed here and is missing")
    sealed_revisions = {pk for rows in revisions.values() for pk, *_ in rows}
    for object_id in sorted(set(stored[Kind.REVISION]) - sealed_revisions):
        problems.append(f"{label}: hand revision {object_id} was sealed here and is missing")
    head = Seal.objects.filter(kind=Kind.TABLE, object_id=table.pk).first()
    if head is None:
        problems.append(f"{label}: the table has no seal")
    elif head.digest != seals.digest(Kind.TABLE, seals.table_content(table.pk)):
        problems.append(
            f"{label}: the table differs from its seal: its evening, number, status, seats, "
            "accounts, or the number of its hands or postings changed outside the ledger"
        )


def _verify_evening(evening, problems) -> None:
    """Recompute the seals of the evening's log and head, and its results from its tables."""
    label = f"evening {evening.date}"
    logs = list(
        EveningLog.objects.filter(evening=evening).order_by("pk").values_list(*seals.LOG_FIELDS)
    )
    stored = dict(
        Seal.objects.filter(kind=Kind.LOG, scope=evening.pk).values_list("object_id", "digest")
    )
    _check_chain(
        lambda row: f"{label} log entry {row[0]} ({row[2]})", Kind.LOG, logs, stored, problems
    )
    for object_id in sorted(set(stored) - {row[0] for row in logs}):
        problems.append(f"{label}: log entry {object_id} was sealed here and is missing")
    head = Seal.objects.filter(kind=Kind.EVENING, object_id=evening.pk).first()
    if head is None:
        problems.append(f"{label}: the evening has no seal")
    elif head.digest != seals.digest(Kind.EVENING, seals.evening_content(evening.pk)):
        problems.append(
            f"{label}: the evening differs from its seal: its date, status, game, rate card, "
            "price, tables, results or log changed outside the ledger"
        )
    closes = sum(1 for row in logs if row[2] == "close")
    results = EveningResult.objects.filter(evening=evening)
    latest = max(results.values_list("closing", flat=True), default=0)
    if latest != closes:
        problems.append(
            f"{label}: has results of {latest} closes, but its log records {closes} closes"
        )
    if evening.status != Evening.Status.CLOSED:
        return
    open_tables = evening.tables.exclude(status=Table.Status.CLOSED).count()
    if open_tables:
        problems.append(f"{label}: closed, but {open_tables} of its tables are open")
    members = Account.objects.filter(table__evening=evening, kind=Account.Kind.MEMBER)
    balances = Transfer.objects.filter(table__evening=evening).balances()
    want: dict[int, int] = {}
    for pk, member_id in members.values_list("pk", "member_id"):
        want[member_id] = want.get(member_id, 0) + balances.get(pk, 0)
    have = {r.member_id: r for r in results.filter(closing=latest)}
    for member_id in sorted(set(want) | set(have)):
        result = have.get(member_id)
        if result is None:
            problems.append(f"{label}: member {member_id} played but has no result")
        elif result.points != want.get(member_id):
            problems.append(
                f"{label}: the result of member {member_id} says {result.points} points, "
                f"but the tables' close gives {want.get(member_id, 0)}"
            )
        elif result.money != to_money(result.points, evening.price_per_point):
            problems.append(
                f"{label}: the result of member {member_id} says {result.money} in money, "
                f"not {result.points} points at the evening's price"
            )


def _verify_orphan_seals(problems, club=None) -> None:
    """Report heads sealed for tables, evenings and tournaments that are gone (of ``club``:
    its evenings' and tournaments' seals, scoped by the club, and the tables' of its evenings,
    present or gone)."""
    for kind, model, noun in (
        (Kind.TABLE, Table, "table"),
        (Kind.EVENING, Evening, "evening"),
        (Kind.TOURNAMENT, Tournament, "tournament"),
    ):
        sealed = Seal.objects.filter(kind=kind)
        if club is not None and kind == Kind.TABLE:
            evenings = Seal.objects.filter(kind=Kind.EVENING, scope=club.pk).values("object_id")
            sealed = sealed.filter(scope__in=evenings)
        elif club is not None:
            sealed = sealed.filter(scope=club.pk)
        present: QuerySet[Any, Any] = model.objects.values("pk")
        gone = sealed.exclude(object_id__in=present).values_list("object_id", flat=True)
        for object_id in gone.order_by("object_id"):
            problems.append(f"{noun} {object_id} was sealed and is missing")


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
    # account id -> code; looked up too with what an adjustment's intent names (any JSON)
    codes: dict[Any, str] = {pk: a.code for pk, a in accounts.items()}
    pools = game.features.pool_codes
    guarded = [p.code for p in game.features.pools if not p.may_go_negative]
    for code in pools:
        if code not in codes.values():
            problems.append(f"{label}: the table has no {code} account")
    moves = defaultdict(list)
    # account id -> [balance, transfers], from transfers
    derived: defaultdict[int, list[int]] = defaultdict(lambda: [0, 0])
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
    balance: defaultdict[str, int] = defaultdict(int)
    live_states: dict[int, dict | None] = {}  # live hand postings, in order: their state after
    for posting in postings:
        previous_state = live_states[max(live_states)] if live_states else None
        these = moves.get(posting.pk, [])
        pool_now = {code: balance[code] for code in pools}
        where = f"{label} posting {posting.pk} ({posting.kind}"
        where += f", hand {cast(Hand, posting.hand).number})" if posting.hand_id else ")"
        if posting.kind == Posting.Kind.HAND:
            report.hands += 1
            record = cast(HandRevision, posting.revision).record if posting.revision_id else None
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
                if settlement is not None:
                    if _json(settlement.state_after) != posting.state_after:
                        problems.append(
                            f"{where}: its state after differs from the settlement of its record"
                        )
                    outcome = {**settlement.outcome_data, "roles": settlement.roles}
                    if _json(outcome) != posting.outcome:
                        problems.append(
                            f"{where}: its outcome differs from the settlement of its record"
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
            original = by_id.get(posting.reverses_id) if posting.reverses_id is not None else None
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
            intent: dict[str, Any] = posting.intent or {}
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
    _verify_hands(table, label, postings, reversed_ids, seats, problems)
    _verify_table_seals(table, label, problems)


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


def _verify_hands(table, label, postings, reversed_ids, seats, problems) -> None:
    live: defaultdict[int, int] = defaultdict(int)
    for p in postings:
        if p.kind == Posting.Kind.HAND and p.pk not in reversed_ids:
            live[p.hand_id] += 1
    latest: dict[int, HandRevision] = {}
    for stored in HandRevision.objects.filter(hand__table=table).order_by("hand_id", "number"):
        latest[stored.hand_id] = stored
    members = {s.name: s.member_id for s in seats}
    hands = list(Hand.objects.filter(table=table).order_by("number"))
    numbers = [h.number for h in hands]
    if numbers != list(range(1, len(hands) + 1)):
        missing = sorted(set(range(1, max(numbers, default=0) + 1)) - set(numbers))
        problems.append(
            f"{label}: its hands are numbered {_ranges(numbers)}, not 1 to {len(hands)}"
            + (f" (missing {', '.join(map(str, missing))})" if missing else "")
        )
    for hand in hands:
        where = f"{label} hand {hand.number}"
        dealer = members.get((hand.record or {}).get("dealer"))
        if dealer is not None and hand.dealer_id != dealer:
            problems.append(f"{where}: its dealer is not the one its record names")
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


def _ranges(numbers) -> str:
    return ", ".join(map(str, numbers)) if len(numbers) <= 12 else f"{numbers[0]}..{numbers[-1]}"
