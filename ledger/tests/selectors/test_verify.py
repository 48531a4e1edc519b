"""The ledger's hardening: restore, verify_ledger against tampering, reserved names, renames,
all-or-nothing imports, hand slots, stale corrections, one open evening per date, one open
table per member, and bounds. Each test fails without its fix."""

from __future__ import annotations

import contextlib
import copy
import datetime
import io
import json
import uuid
from typing import Any

import pytest
from django.apps import apps
from django.core.exceptions import ValidationError
from django.core.management import call_command
from django.db import IntegrityError, connection, transaction

from ledger import selectors, services
from ledger.db import ledger_unlocked
from ledger.games.errors import RateCardError
from ledger.models import (
    Account,
    Club,
    Evening,
    Hand,
    Member,
    Posting,
    Table,
    Transfer,
)
from ledger.selectors.verify import verify_ledger
from ledger.services.errors import LedgerError, SeatingError, StaleFormError
from ledger.tests.conftest import EXAMPLES, load_example
from ledger.tests.factories import evening_e, make_club, make_member, new_member
from ledger.tests.helpers import restore_refused, wipe

pytestmark = pytest.mark.django_db

HANDS = load_example("EVENING_E.evening.json")["hands"]
DAY = datetime.date(2026, 11, 5)


def snapshot():
    """Return every row of every ledger model (and users), to prove nothing was written."""
    from django.contrib.auth import get_user_model

    models = [*list(apps.get_app_config("ledger").get_models()), get_user_model()]
    return {m.__name__: list(m._default_manager.order_by("pk").values()) for m in models}


@contextlib.contextmanager
def tampering():
    """Yield a cursor that may rewrite ledger rows, bypassing the append-only guards.

    SQLite: the guards ask ``ledger_locked()`` (lifted here) and the same-table insert
    trigger is dropped; PostgreSQL: the user triggers of transfers and postings are disabled.
    Both are undone when the test's transaction rolls back.
    """
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")
            cursor.execute("ALTER TABLE ledger_transfer DISABLE TRIGGER USER")
            cursor.execute("ALTER TABLE ledger_posting DISABLE TRIGGER USER")
        else:
            cursor.execute("DROP TRIGGER IF EXISTS ledger_transfer_same_table")
        with ledger_unlocked():
            yield cursor


@pytest.fixture
def club():
    return make_club()


@pytest.fixture
def played(club):
    """Evening E at one table: (evening, table, hands)."""
    return evening_e(club)


def problems_about(*words):
    problems = verify_ledger().problems
    assert problems, "the tampered ledger verified OK"
    return [p for p in problems if all(w in p for w in words)]


# --- 1. restore ----------------------------------------------------------------------------


def test_restore_of_a_backup_that_does_not_verify_restores_nothing(played, tmp_path):
    """A backup with one transfer's points edited is refused by restore, the database stays
    empty (no club, no transfer), and a good backup then restores."""
    _, table, _ = played
    services.adjustment_post(
        table=table, source="Bo", target="Carl", points=5, reason="pagat home not booked"
    )
    good = tmp_path / "good.json"
    call_command("backup", str(good))
    rows = json.loads(good.read_text(encoding="utf-8"))
    transfer = next(
        r for r in rows if r["model"] == "ledger.transfer" and r["fields"]["reason"] == "count"
    )
    transfer["fields"]["points"] += 5
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(rows), encoding="utf-8")
    wipe()
    assert any("does not verify" in m for m in restore_refused(bad))
    assert not Club.objects.exists()
    assert not Transfer.objects.exists()
    assert not Member.objects.exists()
    out = io.StringIO()
    call_command("restore", str(good), stdout=out)
    assert "ledger OK" in out.getvalue()
    assert Transfer.objects.count() == len([r for r in rows if r["model"] == "ledger.transfer"])
    assert verify_ledger().ok


# --- 2. verify_ledger catches tampering ----------------------------------------------------


def test_a_clean_ledger_verifies(played):
    """Evening E, a correction, a void, an adjustment, a close and a reopen verify OK."""
    evening, table, hands = played
    unwaived = copy.deepcopy(HANDS[0])
    unwaived["fines"][0]["waived"] = False
    services.hand_correct(hand=hands[0], record=unwaived, reason="fine not waived")
    services.hand_void(hand=hands[1], reason="entered twice")
    services.adjustment_post(table=table, source="Anna", target="Bo", points=5, reason="chips")
    services.evening_close(evening=evening)
    services.evening_reopen(evening=evening, reason="a fine was forgotten")
    report = verify_ledger()
    assert report.ok, report.problems
    assert report.hands >= 3


@pytest.fixture
def adjusted(played):
    _, table, _ = played
    posting = services.adjustment_post(
        table=table, source="Bo", target="Carl", points=5, reason="chips"
    )
    assert verify_ledger().ok
    return posting


def test_verify_reports_an_adjustments_points_changed(adjusted):
    """An adjustment whose transfer moves other points than it asked is reported."""
    with tampering() as cursor:
        cursor.execute(
            "UPDATE ledger_transfer SET points = 50 WHERE posting_id = %s", [adjusted.pk]
        )
    assert problems_about(f"posting {adjusted.pk} (adjustment)", "other than the adjustment")


@pytest.mark.parametrize("column", ["source_id", "target_id"])
def test_verify_reports_an_adjustments_account_changed(adjusted, column):
    """An adjustment whose source or target was changed to another account is reported."""
    anna = Account.objects.get(table=adjusted.table, code="Anna")
    with tampering() as cursor:
        cursor.execute(
            f"UPDATE ledger_transfer SET {column} = %s WHERE posting_id = %s",
            [anna.pk, adjusted.pk],
        )
    assert problems_about(f"posting {adjusted.pk} (adjustment)", "other than the adjustment")


def test_verify_reports_a_recorded_hand_without_its_posting(played):
    """The last hand's posting and its transfers deleted while the hand stays recorded."""
    _, table, hands = played
    posting = Posting.objects.get(hand=hands[-1], kind=Posting.Kind.HAND)
    with tampering() as cursor:
        cursor.execute("DELETE FROM ledger_transfer WHERE posting_id = %s", [posting.pk])
        cursor.execute("DELETE FROM ledger_postingseat WHERE posting_id = %s", [posting.pk])
        cursor.execute("DELETE FROM ledger_posting WHERE id = %s", [posting.pk])
    assert Hand.objects.get(pk=hands[-1].pk).status == Hand.Status.RECORDED
    assert problems_about("hand 3", "recorded, but has 0 live postings")


def test_verify_reports_a_hand_record_edited_away_from_its_revision(played):
    """Hand.record changed so it differs from its latest revision is reported."""
    _, _, hands = played
    record = dict(hands[0].record, count={"Anna": 25, "Carl": 30})
    Hand.objects.filter(pk=hands[0].pk).update(record=record)
    assert problems_about("hand 1", "differs from its latest revision")


def test_verify_reports_a_transfers_reason_changed(played):
    """A hand transfer whose reason was rewritten no longer matches its settlement."""
    _, table, hands = played
    transfer = Transfer.objects.filter(posting__hand=hands[1], reason="count").first()
    with tampering() as cursor:
        assert transfer is not None
        cursor.execute("UPDATE ledger_transfer SET reason = 'gift' WHERE id = %s", [transfer.pk])
    assert problems_about("hand 2", "stored transfers differ")


def test_verify_reports_a_transfer_to_another_tables_account(played, club):
    """A transfer naming another table's account is a problem, never an exception."""
    _, table, hands = played
    _, other, _ = evening_e(make_club(slug="other"), date=DAY)
    foreign = Account.objects.get(table=other, code="Bo")
    posting = Posting.objects.get(hand=hands[0], kind=Posting.Kind.HAND)
    anna = Account.objects.get(table=table, code="Anna")
    with tampering() as cursor:
        cursor.execute(
            "INSERT INTO ledger_transfer (posting_id, table_id, source_id, target_id, points,"
            " reason) VALUES (%s, %s, %s, %s, 5, 'x')",
            [posting.pk, table.pk, anna.pk, foreign.pk],
        )
    report = verify_ledger()  # must not raise
    assert any(
        f"posting {posting.pk}" in p and f"account {foreign.pk}" in p and "not this table's" in p
        for p in report.problems
    ), report.problems


# --- 3. reserved names ---------------------------------------------------------------------


@pytest.mark.parametrize("name", ["kongekop", "pagatkop", "pool"])
def test_settle_hand_refuses_a_seat_named_like_an_account(name, tmp_path):
    """settle_hand exits 2 with a ``seats`` error for a seat named kongekop, pagatkop, pool."""
    text = (EXAMPLES / "X1.hand.json").read_text(encoding="utf-8")
    data = json.loads(text)
    data["seats"] = [name if s == "Bo" else s for s in data["seats"]]
    path = tmp_path / "hand.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    out = io.StringIO()
    with pytest.raises(SystemExit) as exited:
        call_command("settle_hand", str(path), stdout=out)
    assert exited.value.code == 2
    errors = json.loads(out.getvalue())["errors"]
    assert any(e["field"].startswith("seats") and name in e["message"] for e in errors), errors


@pytest.mark.parametrize("name", ["kongekop", "pagatkop", "pool", " pool "])
def test_a_member_cannot_be_named_like_an_account(club, name):
    """Member.full_clean() refuses a pool's name on ``name``."""
    with pytest.raises(ValidationError) as refused:
        Member(club=club, name=name).full_clean()
    assert "name" in refused.value.message_dict


def run_import(*args):
    out = io.StringIO()
    try:
        call_command("import_hands", *[str(a) for a in args], stdout=out)
    except SystemExit as exit_:
        return exit_.code, out.getvalue()
    return 0, out.getvalue()


def renamed_evening(tmp_path, old: str, new: str):
    """Write Evening E with ``old`` renamed ``new`` everywhere; return the file."""
    text = json.dumps(load_example("EVENING_E.evening.json"), ensure_ascii=False)
    path = tmp_path / "evening.json"
    path.write_text(text.replace(f'"{old}"', json.dumps(new)), encoding="utf-8")
    return path


def test_import_refuses_a_seat_named_pool(club, tmp_path):
    """import_hands --create-members of a file seating ``pool`` exits 2 and writes nothing."""
    for name in ("Anna", "Carl"):
        make_member(club, name)
    before = snapshot()
    status, out = run_import(
        renamed_evening(tmp_path, "Bo", "pool"), "--club", club.slug, "--create-members"
    )
    assert status == 2, out
    assert "pool" in out
    assert snapshot() == before
    assert not Member.objects.filter(name="pool").exists()
    assert not Evening.objects.exists()


def test_a_member_named_pool_cannot_be_seated(club):
    """A member already named ``pool`` (from before the rule) is refused by table_open."""
    members = [make_member(club, n) for n in ("Anna", "Bo")]
    members.append(new_member(club=club, name="pool"))  # bypasses full_clean
    evening = services.evening_open(club=club, date=DAY)
    with pytest.raises(SeatingError) as refused:
        services.table_open(evening=evening, members=members)
    assert "pool" in str(refused.value)
    assert not Table.objects.exists()


def test_a_member_named_kongekop_cannot_be_seated_late(played, club):
    """table_seat refuses a late arrival named like a pool too."""
    _, table, _ = played
    late = new_member(club=club, name="kongekop")
    with pytest.raises(SeatingError):
        services.table_seat(table=table, member=late)


# --- 4. renames never change the past ------------------------------------------------------


def test_renaming_a_member_changes_no_past_hand(played):
    """After Bo is renamed, the ledger verifies, hand 1 can be corrected and voided, and a
    new hand still records (the seat keeps the name ``Bo``)."""
    _, table, hands = played
    before = selectors.account_balances(table.pk)
    services.member_update(member=Member.objects.get(name="Bo"), name="Bodil")
    assert verify_ledger().ok
    assert selectors.account_balances(table.pk) == before
    # Correcting hand 1 with its own record re-settles every hand to what it was.
    changed = services.hand_correct(hand=hands[0], record=HANDS[0], reason="recheck")
    assert len(changed) == 3
    assert selectors.account_balances(table.pk) == before
    assert verify_ledger().ok
    services.hand_void(hand=hands[0], reason="dealt twice")
    assert verify_ledger().ok
    hand = services.hand_record(table=table, record=HANDS[0])
    assert hand.number == 4
    assert hand.record["seats"] == ["Anna", "Bo", "Carl"]
    assert verify_ledger().ok


def test_renaming_through_the_admin_changes_no_past_hand(played, client):
    """A rename through the admin's change form leaves the ledger verifying."""
    from django.contrib.auth import get_user_model
    from django.urls import reverse

    _, table, hands = played
    before = selectors.account_balances(table.pk)
    admin = get_user_model().objects.create_superuser("root", "root@example.org", "pw-root-1")
    client.force_login(admin)
    bo = Member.objects.get(name="Bo")
    change = reverse("admin:ledger_member_change", args=[bo.pk])
    page = client.get(change)
    assert page.status_code == 200, "the member admin's change form must open"
    form = page.context["adminform"].form
    data = {k: v for k, v in form.initial.items() if v is not None}
    data.update(name="Bodil", club=bo.club_id, role=bo.role, active="on")
    data = {k: (v.pk if hasattr(v, "pk") else v) for k, v in data.items()}
    response = client.post(change, data)
    assert response.status_code == 302, response.content.decode()[:2000]
    assert Member.objects.get(pk=bo.pk).name == "Bodil"
    assert verify_ledger().ok
    assert selectors.account_balances(table.pk) == before
    services.hand_correct(hand=hands[0], record=HANDS[0], reason="recheck")
    assert selectors.account_balances(table.pk) == before


# --- 5. import_hands all or nothing --------------------------------------------------------


def test_import_with_a_100_character_name_writes_nothing(club, tmp_path):
    """A 100-character name with --create-members exits 2: no member, no evening (SQLite and
    PostgreSQL, where the name would not even fit the column)."""
    for name in ("Anna", "Carl"):
        make_member(club, name)
    before = snapshot()
    long_name = "B" * 100
    status, out = run_import(
        renamed_evening(tmp_path, "Bo", long_name), "--club", club.slug, "--create-members"
    )
    assert status == 2, out
    assert json.loads(out)["errors"]
    assert snapshot() == before
    assert not Member.objects.filter(name=long_name).exists()
    assert not Evening.objects.exists()


def test_import_on_a_date_with_an_open_evening_is_refused_before_writing(club, tmp_path):
    """A file whose date already has an open evening is refused; nothing is written."""
    services.evening_open(club=club, date=DAY)
    before = snapshot()
    status, out = run_import(
        EXAMPLES / "EVENING_E.evening.json",
        "--club",
        club.slug,
        "--date",
        DAY.isoformat(),
        "--create-members",
    )
    assert status == 2, out
    errors = json.loads(out)["errors"]
    assert any(e["field"] == "date" for e in errors), errors
    assert snapshot() == before
    assert Evening.objects.count() == 1
    assert not Member.objects.exists()


# --- 6. the hand slot ----------------------------------------------------------------------


def test_two_tablets_saving_the_same_slot(played):
    """Two tablets preview hand 4 at one version: the first saves; the second (another token)
    is refused on ``number`` and writes nothing; a retry of the first returns its hand."""
    _, table, _ = played
    number, version = services.next_hand_number(table.pk), services.table_version(table.pk)
    assert number == 4
    first = services.hand_record(
        table=table, record=HANDS[0], token="tablet-1", number=number, version=version
    )
    assert first.number == 4
    before = snapshot()
    with pytest.raises(StaleFormError) as refused:
        services.hand_record(
            table=table, record=HANDS[1], token="tablet-2", number=number, version=version
        )
    assert refused.value.field == "number"
    assert refused.value.hand_number == 4
    assert str(refused.value.message) == "Hand 4 has already been saved from another device"
    assert snapshot() == before
    again = services.hand_record(
        table=table, record=HANDS[0], token="tablet-1", number=number, version=version
    )
    assert again.pk == first.pk
    assert snapshot() == before


def test_a_table_changed_since_the_preview_is_refused_on_version(played):
    """An adjustment posted between preview and save refuses the save on ``version``."""
    _, table, _ = played
    number, version = services.next_hand_number(table.pk), services.table_version(table.pk)
    services.adjustment_post(table=table, source="Bo", target="Carl", points=5, reason="chips")
    before = snapshot()
    with pytest.raises(StaleFormError) as refused:
        services.hand_record(
            table=table, record=HANDS[0], token="late", number=number, version=version
        )
    assert refused.value.field == "version"
    assert snapshot() == before
    fresh = services.hand_record(
        table=table,
        record=HANDS[0],
        token="late",
        number=number,
        version=services.table_version(table.pk),
    )
    assert fresh.number == number


def test_the_hand_form_refuses_a_taken_slot_in_danish(played, client, club):
    """The tablet's POST with a taken number gets 422 and 'Spil 4 er allerede gemt fra en
    anden enhed' (Danish by default); nothing is written."""
    from django.urls import reverse

    from ledger.tests.factories import PASSWORD

    _, table, _ = played
    keeper = make_member(club, "Sofie", Member.Role.SCOREKEEPER, login=True)
    assert keeper.user is not None
    assert client.login(username=keeper.user.username, password=PASSWORD)
    number, version = services.next_hand_number(table.pk), services.table_version(table.pk)
    services.hand_record(table=table, record=HANDS[0], token="other-tablet", number=number)
    before = snapshot()
    response = client.post(
        reverse("hand_new", kwargs={"club": club.slug, "pk": table.pk}),
        {
            "record": json.dumps(HANDS[1]),
            "token": str(uuid.uuid4()),
            "number": number,
            "version": version,
        },
    )
    assert response.status_code == 422
    assert "Spil 4 er allerede gemt fra en anden enhed" in response.content.decode()
    assert snapshot() == before


# --- 7. stale corrections ------------------------------------------------------------------


def test_a_correction_from_an_older_revision(played):
    """hand_correct(based_on=1) after revision 2: another record is refused as stale; the
    record of revision 2 (a resend) returns [] ; neither writes anything."""
    _, _, hands = played
    unwaived = copy.deepcopy(HANDS[0])
    unwaived["fines"][0]["waived"] = False
    services.hand_correct(hand=hands[0], record=unwaived, reason="fine", based_on=1)
    assert hands[0].revisions.count() == 2
    before = snapshot()
    other = dict(HANDS[0], count={"Anna": 25, "Carl": 30})
    with pytest.raises(StaleFormError) as refused:
        services.hand_correct(hand=hands[0], record=other, reason="other", based_on=1)
    assert refused.value.field == "based_on"
    assert refused.value.hand_number == 1
    assert snapshot() == before
    assert services.hand_correct(hand=hands[0], record=unwaived, reason="resend", based_on=1) == []
    assert snapshot() == before


# --- 8. one open evening per date ----------------------------------------------------------


def test_one_open_evening_per_date(club):
    """A second evening_open of the date is refused on ``date``; the database refuses one
    created bypassing the service; a closed evening does not count."""
    evening = services.evening_open(club=club, date=DAY)
    with pytest.raises(LedgerError) as refused:
        services.evening_open(club=club, date=DAY)
    assert refused.value.field == "date"
    with pytest.raises(IntegrityError), transaction.atomic():
        Evening.objects.create(
            club=club, date=DAY, game=evening.game, rate_card={}, price_per_point=1
        )
    assert Evening.objects.count() == 1
    services.evening_close(evening=evening)
    services.evening_open(club=club, date=DAY)
    assert Evening.objects.filter(status=Evening.Status.OPEN).count() == 1
    # The closed one cannot be reopened while another of its date is open.
    with pytest.raises(LedgerError):
        services.evening_reopen(evening=evening, reason="again")


# --- 9. one open table per member ----------------------------------------------------------


def test_one_open_table_per_member(club):
    """table_open and table_seat refuse a member seated at another open table of the
    evening, naming him; once that table is closed he can be seated again."""
    names = ["Anna", "Bo", "Carl", "Dorte", "Erik", "Finn"]
    m = {n: make_member(club, n) for n in names}
    evening = services.evening_open(club=club, date=DAY)
    first = services.table_open(evening=evening, members=[m["Anna"], m["Bo"], m["Carl"]])
    before = snapshot()
    with pytest.raises(SeatingError) as refused:
        services.table_open(evening=evening, members=[m["Bo"], m["Dorte"], m["Erik"]])
    assert "Bo" in str(refused.value)
    assert snapshot() == before
    second = services.table_open(evening=evening, members=[m["Dorte"], m["Erik"], m["Finn"]])
    with pytest.raises(SeatingError) as refused:
        services.table_seat(table=second, member=m["Carl"])
    assert "Carl" in str(refused.value)
    services.table_close(table=first)
    services.table_seat(table=second, member=m["Carl"])
    third = services.table_open(evening=evening, members=[m["Anna"], m["Bo"], _new(club)])
    assert third.seats.count() == 3
    assert verify_ledger().ok


def _new(club):
    return make_member(club, "Gitte")


# --- 11. bounds ----------------------------------------------------------------------------


def test_an_adjustment_of_too_many_points_is_refused(played):
    """adjustment_post with 10**11 points is refused on ``points``; nothing is written."""
    _, table, _ = played
    before = snapshot()
    # Values of the wrong type on purpose: the service must refuse them, not the type checker.
    refused_points: tuple[Any, ...] = (10**11, 0, True, 2.5)
    for points in refused_points:
        with pytest.raises(LedgerError) as refused:
            services.adjustment_post(
                table=table, source="Bo", target="Carl", points=points, reason="x"
            )
        assert refused.value.field == "points"
    assert snapshot() == before


def test_a_count_of_2_to_the_63_is_refused(played):
    """jetons_count with 2**63 (beyond a 64-bit column) is a LedgerError, nothing written."""
    _, table, _ = played
    before = snapshot()
    for points in (2**63, 10**11, -1):
        with pytest.raises(LedgerError) as refused:
            services.jetons_count(table=table, counts={"Anna": 520, "Bo": points})
        assert refused.value.field == "Bo"
    assert snapshot() == before


def test_a_rate_card_amount_too_large_is_refused():
    """A rate card with dealer_fee_per_cup 10**20 is refused naming the field."""
    from ledger.games.danish.engine.ratecard import RateCard

    with pytest.raises(RateCardError) as refused:
        RateCard.from_dict({"format": "tarokclub.rates/1", "dealer_fee_per_cup": 10**20})
    assert any("dealer_fee_per_cup" in p.field for p in refused.value.problems)


def test_treasurer_forms_refuse_huge_numbers(played, client, club):
    """The adjustment and count forms with 10**11 answer with a form error, not a 500."""
    from django.conf import settings
    from django.urls import reverse

    from ledger.tests.factories import PASSWORD

    evening, table, _ = played
    treasurer = make_member(club, "Tove", Member.Role.TREASURER, login=True)
    assert treasurer.user is not None
    assert client.login(username=treasurer.user.username, password=PASSWORD)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    kwargs = {"club": club.slug, "pk": evening.pk, "table": table.pk}
    before = snapshot()
    response = client.post(
        reverse("treasury_adjust", kwargs=kwargs),
        {
            f"a{table.pk}-source": "Bo",
            f"a{table.pk}-target": "Carl",
            f"a{table.pk}-points": str(10**11),
            f"a{table.pk}-reason": "huge",
        },
    )
    assert response.status_code in (200, 422)
    assert "10000000" in response.content.decode().replace(",", "").replace(".", "")
    bo = Account.objects.get(table=table, code="Bo")
    response = client.post(
        reverse("treasury_count", kwargs=kwargs), {f"t{table.pk}-count_{bo.pk}": str(10**11)}
    )
    assert response.status_code in (200, 422)
    assert snapshot() == before


def test_a_club_cannot_start_with_more_than_ten_million_jetons(club):
    """Club.starting_jetons above 10,000,000 fails full_clean."""
    club.starting_jetons = 10_000_001
    with pytest.raises(ValidationError) as refused:
        club.full_clean()
    assert "starting_jetons" in refused.value.message_dict
    club.starting_jetons = 10_000_000
    club.full_clean()
