"""verify_ledger against a tamperer with write access to the database (issue 22.3).

Each test changes the rows the way someone editing the database by hand would, as carefully as
he can: derived rows (the balance summary, the seat rows and statistics) are rebuilt after the
change and the seals of removed rows removed with them, so only what the ledger cannot re-derive
(the seals, the hand numbers, the close's recomputation) is left to tell. Every tampering must be
reported; the probe's 34 tamperings are all here, on the three games.
"""

from __future__ import annotations

import datetime
import io
import json

import pytest
from django.core.management import CommandError, call_command

from ledger import services
from ledger.models import (
    Account,
    AccountBalance,
    AccountStats,
    ChainLink,
    Club,
    Evening,
    EveningLog,
    EveningResult,
    Hand,
    HandRevision,
    Member,
    Posting,
    PostingSeat,
    Seal,
    Seat,
    Table,
    Transfer,
)
from ledger.selectors.verify import verify_ledger
from ledger.services import balances, seals, stats
from ledger.tests.conftest import load_example
from ledger.tests.factories import get_member, make_club, make_member, make_season
from ledger.tests.helpers import restore_refused, wipe
from ledger.tests.selectors.test_verify import tampering

pytestmark = pytest.mark.django_db

DAY = datetime.date(2026, 11, 5)
EXAMPLES = {
    "danish_tarok": "EVENING_E.evening.json",
    "slovenian_tarok": "SL_EVENING.evening.json",
    "hungarian_tarokk": "HU_EVENING.evening.json",
}


def play(game: str, *, close: bool = True, date=DAY):
    """Play the game's example evening at one table, with a correction; close it."""
    example = load_example(EXAMPLES[game])
    club = Club.objects.filter(game=game).first() or make_club(slug=game[:6], game=game)
    members = [get_member(club, n) for n in example["seats"]]
    evening = services.evening_open(club=club, date=date)
    table = services.table_open(evening=evening, members=members)
    hands = [services.hand_record(table=table, record=h, by=None) for h in example["hands"]]
    services.hand_correct(hand=hands[0], record=example["hands"][0], reason="looked again")
    if close:
        services.evening_close(evening=evening)
    return evening, table, hands


@pytest.fixture(params=list(EXAMPLES))
def game(request):
    return request.param


def rebuild_derived():
    """What a careful tamperer does after his change: the summaries made to agree again."""
    balances.rebuild()
    stats.replay()
    stats.rebuild()


def problems() -> list[str]:
    report = verify_ledger()
    assert not report.ok, "the tampering went unnoticed"
    return report.problems


def reported(text: str) -> bool:
    found = problems()
    return any(text in p for p in found) or pytest.fail(f"{text!r} not in {found}")


def cut_hand(hand: Hand) -> None:
    """Remove a hand with its revisions, postings (reversals too), transfers, seat rows and
    seals, as if it was never played."""
    postings = Posting.objects.filter(hand=hand)
    reversals = Posting.objects.filter(reverses__in=postings)
    ids = [*reversals.values_list("pk", flat=True), *postings.values_list("pk", flat=True)]
    revisions = list(hand.revisions.values_list("pk", flat=True))
    with tampering():
        PostingSeat.objects.filter(posting_id__in=ids).delete()
        Transfer.objects.filter(posting_id__in=ids).delete()
        Posting.objects.filter(pk__in=ids, reverses__isnull=False).delete()
        Posting.objects.filter(pk__in=ids).delete()
        HandRevision.objects.filter(pk__in=revisions).delete()
        Hand.objects.filter(pk=hand.pk).delete()
        Seal.objects.filter(kind=Seal.Kind.POSTING, object_id__in=ids).delete()
        Seal.objects.filter(kind=Seal.Kind.REVISION, object_id__in=revisions).delete()
        Seal.objects.filter(kind=Seal.Kind.HAND, object_id=hand.pk).delete()
        rebuild_derived()


def test_every_game_verifies_untouched(game):
    play(game)
    evening, table, hands = play(game, close=False, date=DAY + datetime.timedelta(days=1))
    services.hand_void(hand=hands[1], reason="misdeal")
    report = verify_ledger()
    assert report.ok, report.problems


def test_the_last_hand_cut_off(game):
    """Deleting the last hand (the probe: Danish) with everything it wrote."""
    evening, table, hands = play(game, close=False)
    cut_hand(hands[-1])
    assert reported("the table differs from its seal")


def test_a_middle_hand_cut_out(game):
    """Deleting a middle hand (the probe: Hungarian): the numbers gap and the chain breaks."""
    evening, table, hands = play(game, close=False)
    cut_hand(hands[1])
    assert reported("(missing 2)")
    assert reported("does not follow the one sealed before it")


def test_a_middle_hand_cut_out_and_the_rest_renumbered(game):
    evening, table, hands = play(game, close=False)
    cut_hand(hands[1])
    with tampering():
        for hand in hands[2:]:
            Hand.objects.filter(pk=hand.pk).update(number=hand.number - 1)
    assert reported("does not follow the one sealed before it")


def test_hand_numbers_swapped(game):
    evening, table, hands = play(game)
    with tampering():
        Hand.objects.filter(pk=hands[1].pk).update(number=99)
        Hand.objects.filter(pk=hands[2].pk).update(number=2)
        Hand.objects.filter(pk=hands[1].pk).update(number=3)
    assert reported(f"hand {hands[1].number}: differs from its seal")


def test_an_inserted_adjustment_whose_intent_matches(game):
    evening, table, hands = play(game, close=False)
    accounts = {a.code: a for a in Account.objects.filter(table=table)}
    anna, bo = accounts["Anna"], accounts["Bo"]
    with tampering():
        posting = Posting.objects.create(
            table=table,
            kind=Posting.Kind.ADJUSTMENT,
            intent={"source": anna.pk, "target": bo.pk, "points": 40},
            note="owed",
        )
        Transfer.objects.create(
            posting=posting, table=table, source=anna, target=bo, points=40, reason="adjustment"
        )
        rebuild_derived()
    assert reported(f"posting {posting.pk} (adjustment): has no seal")
    assert reported("the table differs from its seal")


def test_an_inserted_adjustment_with_a_copied_seal(game):
    """A seal cannot be moved onto another row: it covers the row's own content."""
    evening, table, hands = play(game, close=False)
    services.adjustment_post(table=table, source="Anna", target="Bo", points=5, reason="owed")
    accounts = {a.code: a for a in Account.objects.filter(table=table)}
    last = Seal.objects.filter(kind=Seal.Kind.POSTING, scope=table.pk).order_by("-object_id")[0]
    with tampering():
        posting = Posting.objects.create(
            table=table,
            kind=Posting.Kind.ADJUSTMENT,
            intent={"source": accounts["Anna"].pk, "target": accounts["Bo"].pk, "points": 50},
        )
        Transfer.objects.create(
            posting=posting,
            table=table,
            source=accounts["Anna"],
            target=accounts["Bo"],
            points=50,
            reason="adjustment",
        )
        Seal.objects.create(
            kind=Seal.Kind.POSTING, object_id=posting.pk, scope=table.pk, digest=last.digest
        )
        rebuild_derived()
    assert reported(f"posting {posting.pk} (adjustment): differs from its seal")


def test_a_table_moved_to_another_evening(game):
    first, table, _ = play(game)
    other, _, _ = play(game, date=DAY + datetime.timedelta(days=7))
    with tampering():
        Table.objects.filter(pk=table.pk).update(evening=other, number=2)
    found = problems()
    assert any("the table differs from its seal" in p for p in found)
    assert any(f"evening {DAY}" in p and "differs from its seal" in p for p in found)


def test_an_accounts_member_swapped(game):
    evening, table, hands = play(game)
    stranger = make_member(evening.club, "Zeno")
    with tampering():
        Account.objects.filter(table=table, code="Bo").update(member=stranger)
        rebuild_derived()
    assert reported("differs from its seal")


def test_a_seats_member_swapped(game):
    evening, table, hands = play(game)
    anna = Seat.objects.get(table=table, name="Anna")
    bo = Seat.objects.get(table=table, name="Bo")
    with tampering():
        Seat.objects.filter(pk=anna.pk).update(member=make_member(evening.club, "Tmp"))
        Seat.objects.filter(pk=bo.pk).update(member=anna.member)
        Seat.objects.filter(pk=anna.pk).update(member=bo.member)
    assert reported("the table differs from its seal")


def test_a_member_replaced_at_seat_and_account(game):
    evening, table, hands = play(game)
    stranger = make_member(evening.club, "Zeno")
    bo = Member.objects.get(club=evening.club, name="Bo")
    with tampering():
        Seat.objects.filter(table=table, member=bo).update(member=stranger)
        Account.objects.filter(table=table, member=bo).update(member=stranger)
        EveningResult.objects.filter(evening=evening, member=bo).update(member=stranger)
        rebuild_derived()
    assert reported("the table differs from its seal")


def test_a_seats_name_changed(game):
    evening, table, hands = play(game)
    with tampering():
        Seat.objects.filter(table=table, name="Carl").update(name="Karl")
    assert reported("the table differs from its seal")


def test_an_evening_result_edited(game):
    evening, table, hands = play(game)
    result = EveningResult.objects.filter(evening=evening).order_by("pk")[0]
    with tampering():
        EveningResult.objects.filter(pk=result.pk).update(
            points=result.points + 10, money=result.money + 1
        )
    assert reported("the tables' close gives")
    assert reported("the evening differs from its seal")


def test_an_evening_results_money_edited(game):
    evening, table, hands = play(game)
    result = EveningResult.objects.filter(evening=evening).order_by("pk")[0]
    with tampering():
        EveningResult.objects.filter(pk=result.pk).update(money=result.money + 100)
    assert reported("at the evening's price")


def test_an_evening_result_deleted(game):
    evening, table, hands = play(game)
    with tampering():
        EveningResult.objects.filter(evening=evening).order_by("pk")[0].delete()
    assert reported("played but has no result")


def test_all_results_deleted(game):
    evening, table, hands = play(game)
    with tampering():
        EveningResult.objects.filter(evening=evening).delete()
    assert reported("has results of 0 closes, but its log records 1 closes")


def test_an_evenings_status_edited(game):
    evening, table, hands = play(game)
    with tampering():
        Evening.objects.filter(pk=evening.pk).update(status=Evening.Status.OPEN, closed_at=None)
    assert reported("the evening differs from its seal")


def test_an_evenings_price_edited(game):
    evening, table, hands = play(game)
    with tampering():
        Evening.objects.filter(pk=evening.pk).update(price_per_point="9.0")
        for result in EveningResult.objects.filter(evening=evening):
            result.money = result.points * 9
            result.save()
    assert reported("the evening differs from its seal")


@pytest.mark.parametrize(
    "change",
    [
        {"date": DAY - datetime.timedelta(days=1)},
        {"starting_jetons": 1},
        {"rate_card": {}},
        {"season": "another"},
    ],
    ids=["date", "starting_jetons", "rate_card", "season"],
)
def test_an_evenings_fields_edited(game, change):
    evening, table, hands = play(game)
    if change.get("season"):
        change = {"season": make_season(evening.club, 2030)}
    with tampering():
        Evening.objects.filter(pk=evening.pk).update(**change)
    assert reported("differs from its seal")


def test_a_tables_status_edited(game):
    evening, table, hands = play(game)
    with tampering():
        Table.objects.filter(pk=table.pk).update(status=Table.Status.OPEN)
    assert reported("the table differs from its seal")


def test_a_tables_first_dealer_edited(game):
    evening, table, hands = play(game)
    with tampering():
        Table.objects.filter(pk=table.pk).update(
            first_dealer=Member.objects.get(club=evening.club, name="Bo")
        )
    assert reported("the table differs from its seal")


def test_a_whole_table_deleted(game):
    evening, table, hands = play(game, close=False)
    with tampering():
        PostingSeat.objects.filter(posting__table=table).delete()
        Transfer.objects.filter(table=table).delete()
        Posting.objects.filter(table=table, reverses__isnull=False).delete()
        Posting.objects.filter(table=table).delete()
        HandRevision.objects.filter(hand__table=table).delete()
        Hand.objects.filter(table=table).delete()
        Seat.objects.filter(table=table).delete()
        Account.objects.filter(table=table).delete()
        Table.objects.filter(pk=table.pk).delete()
        rebuild_derived()
    assert reported("the evening differs from its seal")
    assert reported(f"table {table.pk} was sealed and is missing")


@pytest.mark.parametrize("action", ["edited", "deleted", "inserted"])
def test_the_evening_log(game, action):
    evening, table, hands = play(game)
    services.evening_reopen(evening=evening, reason="a count was wrong")
    entry = EveningLog.objects.filter(evening=evening, action="close").get()
    with tampering():
        if action == "edited":
            EveningLog.objects.filter(pk=entry.pk).update(reason="nothing to see")
        elif action == "deleted":
            EveningLog.objects.filter(action="reopen").delete()
        else:
            EveningLog.objects.create(evening=evening, action="reopen", reason="nothing")
    assert reported("log")


def test_a_postings_outcome_edited(game):
    """The outcome feeds the statistics; a tamperer rebuilds them from it."""
    evening, table, hands = play(game)
    posting = Posting.objects.filter(table=table, kind=Posting.Kind.HAND).order_by("-pk")[0]
    assert posting.outcome is not None
    outcome = dict(posting.outcome)
    outcome["invented"] = True
    with tampering():
        Posting.objects.filter(pk=posting.pk).update(outcome=outcome)
    assert reported("its outcome differs from the settlement of its record")
    assert reported("differs from its seal")


def test_the_last_postings_state_after_edited(game):
    """The probe: Slovenian, caught only after the next hand; now at once."""
    evening, table, hands = play(game, close=False)
    posting = Posting.objects.filter(table=table, kind=Posting.Kind.HAND).order_by("-pk")[0]
    with tampering():
        Posting.objects.filter(pk=posting.pk).update(state_after={"invented": 1})
    assert reported("its state after differs from the settlement of its record")


@pytest.mark.parametrize("field", ["note", "created_by"])
def test_a_postings_note_or_author_edited(game, field, django_user_model):
    evening, table, hands = play(game)
    posting = Posting.objects.filter(table=table, kind=Posting.Kind.HAND).order_by("pk")[0]
    value = "nothing" if field == "note" else django_user_model.objects.create(username="x")
    with tampering():
        Posting.objects.filter(pk=posting.pk).update(**{field: value})
    assert reported(f"posting {posting.pk} (hand): differs from its seal")


def test_a_dealer_changed(game):
    evening, table, hands = play(game)
    hand = hands[2]
    other = Seat.objects.filter(table=table).exclude(member=hand.dealer)[0].member
    with tampering():
        Hand.objects.filter(pk=hand.pk).update(dealer=other)
    assert reported(f"hand {hand.number}: its dealer is not the one its record names")
    assert reported(f"hand {hand.number}: differs from its seal")


@pytest.mark.parametrize("field", ["by", "reason"])
def test_a_revisions_author_or_reason_edited(game, field, django_user_model):
    evening, table, hands = play(game)
    revision = HandRevision.objects.get(hand=hands[0], number=2)
    value = django_user_model.objects.create(username="x") if field == "by" else "nothing"
    with tampering():
        HandRevision.objects.filter(pk=revision.pk).update(**{field: value})
    assert reported(f"hand {hands[0].number} revision 2: differs from its seal")


def test_a_first_revision_rewritten(game):
    """What a hand was before its correction is history: it cannot be rewritten."""
    evening, table, hands = play(game, close=False)
    revision = HandRevision.objects.get(hand=hands[0], number=1)
    with tampering():
        HandRevision.objects.filter(pk=revision.pk).update(record={**revision.record, "x": 1})
    assert reported(f"hand {hands[0].number} revision 1: differs from its seal")


def test_a_transfers_points_edited_with_its_summary(game):
    evening, table, hands = play(game, close=False)
    transfer = Transfer.objects.filter(table=table).order_by("-pk")[0]
    with tampering():
        Transfer.objects.filter(pk=transfer.pk).update(points=transfer.points + 1)
        rebuild_derived()
    assert reported("differs from its seal")


def test_a_hand_record_rewritten_everywhere(game):
    """Hand, revisions and postings made to agree with a new record: the seals still tell."""
    evening, table, hands = play(game, close=False)
    hand = hands[-1]
    record = dict(hand.record, note="x")
    with tampering():
        Hand.objects.filter(pk=hand.pk).update(record=record)
        HandRevision.objects.filter(hand=hand).update(record=record)
    assert reported(f"hand {hand.number}: differs from its seal")


def test_a_seal_removed(game):
    evening, table, hands = play(game)
    posting = Posting.objects.filter(table=table).order_by("pk")[3]
    Seal.objects.filter(kind=Seal.Kind.POSTING, object_id=posting.pk).delete()
    assert reported(f"posting {posting.pk} ({posting.kind}): has no seal")


def test_seals_forged_with_another_secret(game, settings):
    """Everything resealed by someone without the site's secret is refused."""
    play(game)
    settings.LEDGER_SEAL_SECRET = "not the site's"
    seals.seal_all()
    settings.LEDGER_SEAL_SECRET = None
    assert reported("differs from its seal")


# --- restore refuses a tampered backup -------------------------------------------------------


def _backup(tmp_path):
    path = tmp_path / "backup.json"
    call_command("backup", str(path))
    return json.loads(path.read_text(encoding="utf-8"))


def _restore(tmp_path, rows, *options):
    path = tmp_path / "edited.json"
    path.write_text(json.dumps(rows), encoding="utf-8")
    wipe()
    out = io.StringIO()
    call_command("restore", str(path), *options, stdout=out)
    return out.getvalue()


def _refused(tmp_path, rows, *options) -> str:
    path = tmp_path / "edited.json"
    path.write_text(json.dumps(rows), encoding="utf-8")
    wipe()
    return "\n".join(restore_refused(path, *options))


def test_restore_refuses_a_backup_with_a_result_edited(tmp_path):
    play("hungarian_tarokk")
    rows = _backup(tmp_path)
    result = next(r for r in rows if r["model"] == "ledger.eveningresult")
    result["fields"]["points"] += 10
    assert "does not verify" in _refused(tmp_path, rows)
    assert not Club.objects.exists()


def test_restore_refuses_a_backup_with_the_last_hand_cut(tmp_path):
    evening, table, hands = play("danish_tarok", close=False)
    rows = _backup(tmp_path)
    hand = hands[-1].pk
    postings = {
        r["pk"] for r in rows if r["model"] == "ledger.posting" and r["fields"]["hand"] == hand
    }
    revisions = {
        r["pk"] for r in rows if r["model"] == "ledger.handrevision" and r["fields"]["hand"] == hand
    }
    kept = [
        r
        for r in rows
        if not (r["model"] == "ledger.hand" and r["pk"] == hand)
        and not (r["model"] == "ledger.posting" and r["pk"] in postings)
        and not (r["model"] == "ledger.transfer" and r["fields"]["posting"] in postings)
        and not (r["model"] == "ledger.handrevision" and r["pk"] in revisions)
    ]
    assert "the table differs from its seal" in _refused(tmp_path, kept)
    assert not Club.objects.exists()


def test_restore_reseal_of_another_sites_backup(tmp_path, settings):
    """A backup of a site with another secret restores only with --reseal, which checks
    everything but the seals and seals afresh."""
    play("slovenian_tarok")
    settings.LEDGER_SEAL_SECRET = "the old site's"
    seals.seal_all()
    rows = _backup(tmp_path)
    settings.LEDGER_SEAL_SECRET = None
    assert "differs from its seal" in _refused(tmp_path, rows)
    assert "ledger OK" in _restore(tmp_path, rows, "--reseal")
    assert verify_ledger().ok
    # --reseal still refuses what the ledger can re-derive
    result = next(r for r in rows if r["model"] == "ledger.eveningresult")
    result["fields"]["points"] += 10
    assert "the tables' close gives" in _refused(tmp_path, rows, "--reseal")


# --- the club's chain (issue: a whole evening can vanish) ---------------------------------------


def season_of_evenings(*, open_last: bool = False):
    """Four Danish evenings a week apart, all closed (or the last left open)."""
    evenings = []
    for week in range(4):
        closing = not (open_last and week == 3)
        evening, _, _ = play(
            "danish_tarok", close=closing, date=DAY + datetime.timedelta(days=7 * week)
        )
        evenings.append(evening)
    assert verify_ledger().ok
    return evenings


def cut_evening(evening: Evening) -> None:
    """Remove an evening with everything it holds and every seal of it, as a tamperer with
    write access to the database would: nothing of it is left, its tables' and its own seals
    included, and the summaries agree again."""
    table_ids = list(Table.objects.filter(evening=evening).values_list("pk", flat=True))
    hand_ids = list(Hand.objects.filter(table__in=table_ids).values_list("pk", flat=True))
    accounts = Account.objects.filter(table__in=table_ids)
    with tampering():
        Seal.objects.filter(
            kind__in=[Seal.Kind.POSTING, Seal.Kind.HAND], scope__in=table_ids
        ).delete()
        Seal.objects.filter(kind=Seal.Kind.REVISION, scope__in=hand_ids).delete()
        Seal.objects.filter(kind=Seal.Kind.TABLE, object_id__in=table_ids).delete()
        Seal.objects.filter(kind=Seal.Kind.LOG, scope=evening.pk).delete()
        Seal.objects.filter(kind=Seal.Kind.EVENING, object_id=evening.pk).delete()
        PostingSeat.objects.filter(posting__table__in=table_ids).delete()
        AccountStats.objects.filter(account__in=accounts).delete()
        AccountBalance.objects.filter(account__in=accounts).delete()
        Transfer.objects.filter(table__in=table_ids).delete()
        Posting.objects.filter(table__in=table_ids, reverses__isnull=False).delete()
        Posting.objects.filter(table__in=table_ids).delete()
        HandRevision.objects.filter(hand__in=hand_ids).delete()
        Hand.objects.filter(pk__in=hand_ids).delete()
        Seat.objects.filter(table__in=table_ids).delete()
        accounts.delete()
        Table.objects.filter(pk__in=table_ids).delete()
        EveningLog.objects.filter(evening=evening).delete()
        EveningResult.objects.filter(evening=evening).delete()
        Evening.objects.filter(pk=evening.pk).delete()
        rebuild_derived()


@pytest.mark.parametrize("which", [0, 1, 3], ids=["first", "middle", "last"])
def test_a_closed_evening_deleted_with_all_its_seals(which):
    """The first, a middle or the last closed evening of the season removed with every row and
    seal of it: the club's chain still holds it, and its head no longer matches."""
    evenings = season_of_evenings()
    gone = evenings[which]
    cut_evening(gone)
    found = problems()
    assert any(
        f"the club's chain holds evening {gone.pk} (closed, link" in p and "which is gone" in p
        for p in found
    ), found
    assert verify_ledger(club=gone.club).problems == found


def test_an_open_evening_deleted_with_all_its_seals():
    """The open evening removed with everything it holds: its link names it."""
    evenings = season_of_evenings(open_last=True)
    cut_evening(evenings[3])
    assert reported(f"the club's chain holds evening {evenings[3].pk} (open, link")


def test_the_last_evening_deleted_with_its_link():
    """The last evening removed with its seals and its links too: the club's head covers the
    chain's length and its last link, so a chain cut short does not match it."""
    evenings = season_of_evenings()
    cut_evening(evenings[3])
    with tampering():
        ChainLink.objects.filter(kind=ChainLink.Kind.EVENING, object_id=evenings[3].pk).delete()
    assert reported("the club's chain differs from its head: the chain was cut short")


def test_a_reopened_evening_shown_closed_again():
    """An evening reopened, then its status set back to closed behind the ledger's back (its
    seals restored from before): the chain's last link says it is open."""
    evenings = season_of_evenings()
    services.evening_reopen(evening=evenings[1], reason="a hand was wrong")
    assert verify_ledger().ok
    with tampering():
        Evening.objects.filter(pk=evenings[1].pk).update(status=Evening.Status.CLOSED)
    assert reported(f"evening {evenings[1].date} is closed, but the club's chain last saw it open")


def heads_file(tmp_path, name="heads.json"):
    """Write the heads as ``manage.py ledger_head`` prints them; return the file."""
    out = io.StringIO()
    call_command("ledger_head", stdout=out)
    path = tmp_path / name
    path.write_text(out.getvalue(), encoding="utf-8")
    return path


def verify_command(*args) -> tuple[int, str]:
    out = io.StringIO()
    try:
        call_command("verify_ledger", *args, stdout=out)
    except SystemExit as exit_:
        assert isinstance(exit_.code, int), exit_.code  # the command exits with a number
        return exit_.code, out.getvalue()
    return 0, out.getvalue()


def test_the_witness_refuses_an_older_backup_restored(tmp_path):
    """A backup taken after two evenings, two more evenings played and their head witnessed,
    the old backup restored: the ledger verifies on its own, but not against the witness."""
    evenings = season_of_evenings()
    club = evenings[0].club
    backup = tmp_path / "monday.json"
    call_command("backup", str(backup), stdout=io.StringIO())
    play("danish_tarok", date=DAY + datetime.timedelta(days=28))
    witness = heads_file(tmp_path)
    head = json.loads(witness.read_text())["clubs"][0]
    assert head["links"] == 10 and head["slug"] == club.slug  # five evenings opened and closed
    assert verify_command("--witness", str(witness)) == (0, verify_command()[1])
    wipe()
    call_command("restore", str(backup), stdout=io.StringIO())
    assert verify_ledger().ok
    code, out = verify_command("--witness", str(witness))
    assert code == 1
    assert (
        f"MISMATCH club {club.slug}: the ledger does not extend the witnessed head "
        f"{seals.short_head(10, head['head'])}: its chain has 8 links, not the 10 witnessed"
    ) in out


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("{not json", "the witness is not JSON"),
        ('{"format": "other/1"}', 'the witness is not a "tarokclub.heads/1" file'),
        (
            '{"format": "tarokclub.heads/1", "installation": "0123456789abcdef", "clubs": []}',
            "the witness was written by another installation",
        ),
    ],
    ids=["not-json", "another-format", "another-installation"],
)
def test_a_bad_witness_is_refused_with_exit_2(tmp_path, content, message):
    """A malformed witness, or one of another installation, is refused clearly (exit 2,
    naming the problem), never checked as if it were empty."""
    play("danish_tarok")
    path = tmp_path / "heads.json"
    path.write_text(content, encoding="utf-8")
    with pytest.raises(CommandError) as refused:
        call_command("verify_ledger", "--witness", str(path), stdout=io.StringIO())
    assert refused.value.returncode == 2  # manage.py exits 2 and prints the message
    assert str(refused.value).startswith(f"--witness {path}: {message}")


def test_a_witness_with_a_bad_club_entry_is_refused(tmp_path):
    """A head without its count of links is named by its place in the file."""
    play("danish_tarok")
    data = json.loads(heads_file(tmp_path).read_text())
    del data["clubs"][0]["links"]
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(CommandError) as refused:
        call_command("verify_ledger", "--witness", str(path), stdout=io.StringIO())
    assert refused.value.returncode == 2
    assert 'clubs[0] needs "club" (an id), "links" (a count above 0)' in str(refused.value)
