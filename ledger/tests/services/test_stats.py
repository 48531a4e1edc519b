"""The statistics of hands: one seat row per seat of every hand posting (``PostingSeat``) and
their summary (``AccountStats``), written with the posting, equal to what the live hands say,
re-checked by verify_ledger, rebuilt by ``rebuild_balances`` and after a restore, and what the
standings read."""

from __future__ import annotations

import datetime
import io
import json

import pytest
from django.core.management import call_command

from ledger import services
from ledger.games.danish.engine import rotation
from ledger.models import Account, AccountStats, Member, Posting, Table
from ledger.selectors import standings_for_season
from ledger.selectors.verify import verify_ledger
from ledger.services import stats
from ledger.tests.factories import evening_e, make_club, make_season, random_table_hands
from ledger.tests.helpers import wipe

pytestmark = pytest.mark.django_db


@pytest.fixture
def played():
    club = make_club()
    make_season(club)
    evening, table, hands = evening_e(club)
    random_table_hands(table, 12, seed=5)
    return club, evening, table, list(table.hands.order_by("number"))


def stored_stats(table) -> dict[str, dict]:
    return {
        code: s
        for code, s in AccountStats.objects.filter(account__table=table).values_list(
            "account__code", "stats"
        )
    }


def played_counts(table) -> dict[str, int]:
    """Hands played per member code, counted straight from the records of the live hand
    postings: a seat not sitting out (named, or the Danish default rotation) played."""
    out = dict.fromkeys(
        Account.objects.filter(table=table, kind=Account.Kind.MEMBER).values_list(
            "code", flat=True
        ),
        0,
    )
    for posting in (
        Posting.objects.live().filter(table=table, kind="hand").select_related("revision")
    ):
        record = posting.revision.record
        seats, dealer = record["seats"], record["dealer"]
        out_now = record.get("sitting_out")
        if out_now is None:
            out_now = rotation.default_sitting_out(seats, dealer)
        for name in seats:
            out[name] += name not in out_now
    return out


def test_the_summary_is_written_with_each_hand(played):
    _, _, table, hands = played
    summary = stored_stats(table)
    assert set(summary) == set(
        Account.objects.filter(table=table, kind="member").values_list("code", flat=True)
    )
    assert {code: s["played"] for code, s in summary.items()} == played_counts(table)
    # Every hand has three players.
    assert sum(s["played"] for s in summary.values()) == 3 * len(hands)
    assert not stats.differences()


def test_every_service_keeps_the_summary_equal_to_the_hands(played):
    _, evening, table, hands = played
    before = stored_stats(table)
    services.hand_void(hand=hands[2], reason="dealt twice")
    after_void = stored_stats(table)
    assert (
        sum(s["played"] for s in after_void.values())
        == sum(s["played"] for s in before.values()) - 3
    )
    services.hand_correct(hand=hands[0], record=hands[1].record, reason="mixed up")
    services.adjustment_post(
        table=table, source="Anna", target="Bo", points=3, reason="a jeton on the floor"
    )
    services.evening_close(evening=evening)
    services.evening_reopen(evening=evening, reason="a late count")
    assert not stats.differences()
    report = verify_ledger()
    assert report.ok, report.problems


def test_a_refused_write_leaves_the_summary_as_it_was(played):
    _, _, _, hands = played
    before = list(AccountStats.objects.order_by("pk").values_list("pk", "stats"))
    with pytest.raises(Exception):  # noqa: B017 - any refusal
        services.hand_correct(hand=hands[0], record={"nonsense": True}, reason="bad")
    assert list(AccountStats.objects.order_by("pk").values_list("pk", "stats")) == before


def test_a_tampered_statistics_row_fails_verify(played):
    _, _, table, _ = played
    row = AccountStats.objects.filter(account__table=table).order_by("pk").first()
    assert row is not None
    tampered = dict(row.stats, played=row.stats["played"] + 1)
    AccountStats.objects.filter(pk=row.pk).update(stats=tampered)
    report = verify_ledger()
    assert not report.ok
    problem = next(p for p in report.problems if "statistics of" in p)
    assert row.account.code in problem
    assert f"played {tampered['played']} (derived {row.stats['played']})" in problem


def test_a_missing_statistics_row_fails_verify(played):
    _, _, table, _ = played
    row = AccountStats.objects.filter(account__table=table).order_by("pk").first()
    assert row is not None
    row.delete()
    assert not verify_ledger().ok


def test_rebuild_balances_repairs_the_statistics(played):
    AccountStats.objects.all().delete()
    assert not verify_ledger().ok
    out = io.StringIO()
    call_command("rebuild_balances", stdout=out)
    assert "statistics of" in out.getvalue()
    assert verify_ledger().ok


def test_backup_leaves_the_statistics_out_and_restore_rebuilds_them(played, tmp_path):
    club, evening, table, _ = played
    services.evening_close(evening=evening)
    before = {t.pk: stored_stats(t) for t in Table.objects.all()}
    dump = tmp_path / "backup.json"
    call_command("backup", str(dump), stdout=io.StringIO())
    assert not any(o["model"] == "ledger.accountstats" for o in json.loads(dump.read_text()))
    wipe()
    call_command("restore", str(dump), stdout=io.StringIO())
    assert {t.pk: stored_stats(t) for t in Table.objects.all()} == before


def test_a_renamed_member_keeps_his_statistics(played):
    """The records name the seat as seated (the account's code): a rename changes nothing."""
    club, _, table, _ = played
    season = club.seasons.get()
    before = {r.name: r.played for r in standings_for_season(season=season)}
    Member.objects.filter(club=club, name="Anna").update(name="Anne")
    after = {r.name: r.played for r in standings_for_season(season=season)}
    assert after["Anne"] == before["Anna"] > 0


def test_the_standings_read_the_summary_not_the_hands(played):
    """What the standings show is what the summary holds: a (tampered) summary row shows."""
    club, _, table, _ = played
    season = club.seasons.get()
    row = AccountStats.objects.get(account__table=table, account__code="Bo")
    AccountStats.objects.filter(pk=row.pk).update(stats=dict(row.stats, played=999))
    bo = next(r for r in standings_for_season(season=season) if r.name == "Bo")
    assert bo.played == 999


def test_a_second_evening_adds_to_the_season(played):
    club, evening, table, _ = played
    second, table2, _ = evening_e(club, date=datetime.date(2026, 11, 12))
    random_table_hands(table2, 5, seed=9)
    season = club.seasons.get()
    rows = {r.name: r for r in standings_for_season(season=season)}
    expected: dict[str, int] = {}
    for t in (table, table2):
        for code, s in stored_stats(t).items():
            expected[code] = expected.get(code, 0) + s["played"]
    assert {name: r.played for name, r in rows.items()} == expected
    assert sum(expected.values()) == 3 * (table.hands.count() + table2.hands.count())
