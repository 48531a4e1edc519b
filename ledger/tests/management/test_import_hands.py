"""import_hands: a paper score sheet becomes an evening, through the services, all or nothing."""

import copy
import datetime
import io
import json

import pytest
from django.apps import apps
from django.contrib.auth import get_user_model
from django.core.management import call_command

from ledger import selectors
from ledger.models import Evening, EveningLog, EveningResult, Hand, Member, Table
from ledger.selectors.verify import verify_ledger
from ledger.tests.conftest import EXAMPLES, load_example
from ledger.tests.factories import make_club, make_member

pytestmark = pytest.mark.django_db

EVENING_E = EXAMPLES / "EVENING_E.evening.json"


@pytest.fixture
def club():
    club = make_club(slug="hjoerring", name="Hjørring Tarokklub")
    for name in ("Anna", "Bo", "Carl"):
        make_member(club, name)
    return club


def run_import(*args):
    """Run import_hands; return (exit status, standard output)."""
    out = io.StringIO()
    try:
        call_command("import_hands", *[str(a) for a in args], stdout=out)
    except SystemExit as exit_:
        return exit_.code, out.getvalue()
    return 0, out.getvalue()


def row_counts():
    """Return the number of rows of every ledger model and of users."""
    models = [*list(apps.get_app_config("ledger").get_models()), get_user_model()]
    return {model.__name__: model._default_manager.count() for model in models}


def write_evening(tmp_path, data, name="evening.json"):
    path = tmp_path / name
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    return path


def test_evening_e_imports_to_the_spec_balances(club):
    """Evening E imported leaves the table at Anna +20, Bo -75, Carl -85, cups 65/75, open."""
    status, out = run_import(EVENING_E, "--club", "hjoerring", "--date", "2026-11-05")
    assert status == 0, out
    evening = Evening.objects.get()
    table = Table.objects.get()
    assert evening.date == datetime.date(2026, 11, 5)
    assert evening.is_open
    assert selectors.table_balances(table.pk) == {
        "Anna": 20,
        "Bo": -75,
        "Carl": -85,
        "kongekop": 65,
        "pagatkop": 75,
    }
    hands = list(Hand.objects.filter(table=table).order_by("number"))
    assert [h.number for h in hands] == [1, 2, 3]
    assert [h.dealer.name for h in hands] == ["Anna", "Bo", "Carl"]
    assert table.first_dealer is not None and table.first_dealer.name == "Anna"
    assert f"Imported evening {evening.pk} (2026-11-05" in out
    assert "Anna +20, Bo −75, Carl −85" in out
    assert "kongekop 65, pagatkop 75" in out
    assert verify_ledger().ok


def test_close_splits_to_the_spec_results(club):
    """With --close the evening is closed and the results are Anna +65, Bo -30, Carl -35."""
    status, out = run_import(EVENING_E, "--club", "hjoerring", "--date", "2026-11-05", "--close")
    assert status == 0, out
    evening = Evening.objects.get()
    assert evening.status == Evening.Status.CLOSED
    results = {
        r.member.name: (r.points, str(r.money))
        for r in EveningResult.objects.filter(evening=evening).select_related("member")
    }
    assert results == {"Anna": (65, "16.25"), "Bo": (-30, "-7.50"), "Carl": (-35, "-8.75")}
    assert selectors.pool_balances(Table.objects.get().pk) == {"kongekop": 0, "pagatkop": 0}
    assert "Anna +65, Bo −30, Carl −35" in out
    assert verify_ledger().ok


def test_one_bad_hand_writes_nothing(club, tmp_path):
    """A file whose second hand is refused writes no row at all and lists the hand's fields."""
    data = load_example("EVENING_E.evening.json")
    data["hands"][1]["nolo"] = ["Anna"]  # Anna wins the last trick of hand 2
    path = write_evening(tmp_path, data)
    before = row_counts()
    status, out = run_import(
        path, "--club", "hjoerring", "--date", "2026-11-05", "--close", "--create-members"
    )
    assert status == 2
    errors = json.loads(out)["errors"]
    fields = {e["field"] for e in errors}
    assert "hands[1].last_trick.winner" in fields
    assert all(e["field"].startswith("hands[1].") for e in errors)
    assert any("Anna won no trick (nolo)" in e["message"] for e in errors)
    assert row_counts() == before


def test_every_problem_is_listed_at_once(club, tmp_path):
    """Problems in several hands and unknown names are all reported together."""
    data = load_example("EVENING_E.evening.json")
    data["seats"] = ["Anna", "Bo", "Dorte"]
    for hand in data["hands"]:
        text = json.dumps(hand).replace('"Carl"', '"Dorte"')
        hand.clear()
        hand.update(json.loads(text))
    data["hands"][0]["count"] = {"Anna": 20, "Dorte": 90}
    data["hands"][2]["melds"] = [{"player": "Bo", "type": "tarok", "count": 9}]
    path = write_evening(tmp_path, data)
    before = row_counts()
    status, out = run_import(path, "--club", "hjoerring", "--date", "2026-11-05")
    assert status == 2
    errors = json.loads(out)["errors"]
    fields = [e["field"] for e in errors]
    assert "hands[0].count.Dorte" in fields or "hands[0].count" in fields
    assert "hands[2].melds[0].count" in fields
    seats = [e for e in errors if e["field"] == "seats"]
    assert seats == [
        {
            "field": "seats",
            "message": "Dorte is not a member of Hjørring Tarokklub; "
            "add them first or use --create-members",
        }
    ]
    assert row_counts() == before


def test_unknown_members_are_refused_by_name(tmp_path):
    """Names that are not members of the club are refused, naming each, and nothing is written."""
    make_club(slug="hjoerring", name="Hjørring Tarokklub")
    before = row_counts()
    status, out = run_import(EVENING_E, "--club", "hjoerring", "--date", "2026-11-05")
    assert status == 2
    assert json.loads(out) == {
        "errors": [
            {
                "field": "seats",
                "message": "Anna, Bo, Carl are not members of Hjørring Tarokklub; "
                "add them first or use --create-members",
            }
        ]
    }
    assert row_counts() == before


def test_create_members_adds_the_missing_names():
    """--create-members adds the names the club lacks, keeping the members it has."""
    club = make_club(slug="hjoerring", name="Hjørring Tarokklub")
    anna = make_member(club, "Anna")
    status, out = run_import(
        EVENING_E, "--club", "hjoerring", "--date", "2026-11-05", "--create-members"
    )
    assert status == 0, out
    assert sorted(Member.objects.filter(club=club).values_list("name", flat=True)) == [
        "Anna",
        "Bo",
        "Carl",
    ]
    assert Member.objects.get(club=club, name="Anna") == anna
    table = Table.objects.get()
    assert [s.member.name for s in selectors.current_seats(table.pk)] == ["Anna", "Bo", "Carl"]


def test_members_of_another_club_are_not_used(club):
    """A name is looked up in the importing club only."""
    other = make_club(slug="other", name="Other")
    for name in ("Anna", "Bo", "Carl"):
        make_member(other, name)
    status, out = run_import(EVENING_E, "--club", "other", "--date", "2026-11-05")
    assert status == 0, out
    seats = selectors.current_seats(Table.objects.get().pk)
    assert {s.member.club_id for s in seats} == {other.pk}


def test_bad_arguments_are_refused_together(tmp_path):
    """An unknown club, a bad date and an unknown user are each named; exit status 2."""
    status, out = run_import(EVENING_E, "--club", "nowhere", "--date", "2026-13-01", "--by", "x")
    assert status == 2
    assert [e["field"] for e in json.loads(out)["errors"]] == ["club", "date", "by"]


def test_unreadable_file_is_refused(club, tmp_path):
    """A file that is not JSON is refused with the file named, nothing written."""
    path = tmp_path / "sheet.json"
    path.write_text("{not json", encoding="utf-8")
    before = row_counts()
    status, out = run_import(path, "--club", "hjoerring")
    assert status == 2
    errors = json.loads(out)["errors"]
    assert errors[0]["field"] == "file"
    assert "is not valid JSON" in errors[0]["message"]
    assert row_counts() == before


def test_import_uses_the_clubs_rate_card(tmp_path):
    """The club's house rules apply: with funding 25 per cup the cups start at 75 each."""
    club = make_club(slug="hjoerring", name="Hjørring Tarokklub", rate_card={"funding_per_cup": 25})
    for name in ("Anna", "Bo", "Carl"):
        make_member(club, name)
    data = {"format": "tarokclub.evening/1", "seats": ["Anna", "Bo", "Carl"], "hands": []}
    status, out = run_import(write_evening(tmp_path, data), "--club", "hjoerring")
    assert status == 0, out
    table = Table.objects.get()
    assert selectors.table_balances(table.pk) == {
        "Anna": -50,
        "Bo": -50,
        "Carl": -50,
        "kongekop": 75,
        "pagatkop": 75,
    }


def test_by_records_the_user(club):
    """--by attributes the hands and the closing to that user."""
    user = get_user_model().objects.create_user(username="kasserer", password="x-1234567")
    status, out = run_import(
        EVENING_E, "--club", "hjoerring", "--date", "2026-11-05", "--close", "--by", "kasserer"
    )
    assert status == 0, out
    assert {h.created_by for h in Hand.objects.all()} == {user}
    assert EveningLog.objects.get(action="close").by == user


def test_stored_records_are_the_files_hands(club, tmp_path):
    """The file's hands are recorded as written: the stored records equal the input's."""
    data = load_example("EVENING_E.evening.json")
    original = copy.deepcopy(data)
    status, out = run_import(write_evening(tmp_path, data), "--club", "hjoerring")
    assert status == 0, out
    stored = [h.record for h in Hand.objects.order_by("number")]
    for record, hand in zip(stored, original["hands"], strict=True):
        assert record["dealer"] == hand["dealer"]
        assert record["last_trick"] == hand["last_trick"]
        assert record.get("count") == hand.get("count")
