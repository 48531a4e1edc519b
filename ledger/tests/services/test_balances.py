"""The account balance summary: written with the transfers, re-checked by verify_ledger,
rebuilt after a restore or a demo load and by ``rebuild_balances``."""

from __future__ import annotations

import datetime
import io
import json

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db.models import F

from ledger import selectors, services
from ledger.models import AccountBalance, Club, Posting, Table, Transfer
from ledger.selectors.verify import verify_ledger
from ledger.services import balances
from ledger.tests.factories import evening_e, make_club, random_table_hands
from ledger.tests.helpers import wipe

pytestmark = pytest.mark.django_db


def summary_matches_transfers() -> bool:
    for table in Table.objects.all():
        stored = {
            pk: [b, n]
            for pk, b, n in AccountBalance.objects.filter(account__table=table).values_list(
                "account_id", "balance", "transfers"
            )
        }
        derived = dict(balances.derive(Transfer.objects.filter(table=table)))
        if stored != derived:
            return False
    return True


@pytest.fixture
def played():
    club = make_club()
    evening, table, hands = evening_e(club)
    random_table_hands(table, 6, seed=3)
    return club, evening, table, hands


def test_every_service_keeps_the_summary_equal_to_the_transfers(played):
    club, evening, table, hands = played
    assert AccountBalance.objects.filter(account__table=table).exists()
    services.hand_correct(hand=hands[0], record=hands[1].record, reason="mixed up")
    services.hand_void(hand=hands[2], reason="dealt twice")
    services.evening_close(evening=evening)
    services.evening_reopen(evening=evening, reason="a late count")
    assert summary_matches_transfers()
    assert selectors.account_balances(table.pk) == selectors.account_balances_from_transfers(
        table.pk
    )
    assert verify_ledger().ok


def test_a_refused_write_leaves_the_summary_as_it_was(played):
    _, _, table, hands = played
    before = list(AccountBalance.objects.order_by("pk").values_list("pk", "balance", "transfers"))
    with pytest.raises(Exception):  # noqa: B017 - any refusal
        services.hand_correct(hand=hands[0], record={"nonsense": True}, reason="bad")
    after = list(AccountBalance.objects.order_by("pk").values_list("pk", "balance", "transfers"))
    assert after == before


@pytest.mark.parametrize("field", ["balance", "transfers"])
def test_a_tampered_summary_row_fails_verify(played, field):
    _, _, table, _ = played
    row = AccountBalance.objects.filter(account__table=table, account__kind="member").first()
    assert row is not None
    AccountBalance.objects.filter(pk=row.pk).update(**{field: F(field) + 1})
    report = verify_ledger()
    assert not report.ok
    assert any("balance summary of" in p for p in report.problems), report.problems


def test_a_missing_summary_row_fails_verify(played):
    _, _, table, _ = played
    AccountBalance.objects.filter(account__table=table, account__kind="pool").delete()
    assert not verify_ledger().ok


def test_rebuild_balances_repairs_the_summary(played):
    club, _, table, _ = played
    other = make_club(slug="other", name="Other")
    _, other_table, _ = evening_e(other)
    AccountBalance.objects.update(balance=F("balance") + 5)
    out = io.StringIO()
    call_command("rebuild_balances", "--club", club.slug, stdout=out)
    assert "rebuilt the balance summary" in out.getvalue()
    report = verify_ledger(Table.objects.filter(pk=table.pk))
    assert report.ok, report.problems
    assert not verify_ledger(Table.objects.filter(pk=other_table.pk)).ok
    call_command("rebuild_balances", stdout=io.StringIO())
    assert verify_ledger().ok
    assert summary_matches_transfers()


def test_rebuild_balances_refuses_an_unknown_club(db):
    with pytest.raises(CommandError):
        call_command("rebuild_balances", "--club", "nowhere", stdout=io.StringIO())


def test_backup_leaves_the_summary_out_and_restore_rebuilds_it(played, tmp_path):
    club, evening, table, _ = played
    services.evening_close(evening=evening)
    evening_e(club, date=datetime.date(2026, 11, 12))
    before = {t.pk: selectors.account_balances(t.pk) for t in Table.objects.all()}
    dump = tmp_path / "backup.json"
    call_command("backup", str(dump), stdout=io.StringIO())
    assert not any(o["model"] == "ledger.accountbalance" for o in json.loads(dump.read_text()))
    wipe()
    call_command("restore", str(dump), stdout=io.StringIO())
    assert {t.pk: selectors.account_balances(t.pk) for t in Table.objects.all()} == before
    assert summary_matches_transfers()


@pytest.mark.slow
@pytest.mark.once  # on PostgreSQL test_seed_demo.TestLoadedDemo's verify_ledger checks the summary
def test_seed_demo_builds_the_summary_of_the_fixtures(db, settings):
    settings.DEBUG = True
    call_command("seed_demo", stdout=io.StringIO(), stderr=io.StringIO())
    assert Club.objects.exists()
    assert Posting.objects.exists()
    assert summary_matches_transfers()
    assert verify_ledger().ok
