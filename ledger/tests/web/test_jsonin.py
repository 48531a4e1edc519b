"""Hostile JSON (deep nesting, invalid UTF-8, huge numbers, ...) is refused, never a traceback.

The engine commands answer ``{"errors": [...]}`` with exit status 2; the tablet's hand views
answer 4xx and write nothing.
"""

from __future__ import annotations

import io
import json
import math
import sys
import uuid
from typing import Any

import pytest
from django.core.management import call_command
from django.urls import reverse

from ledger import services
from ledger.games.errors import RulesError
from ledger.models import Hand, Transfer
from ledger.tests import factories
from ledger.tests.conftest import EXAMPLES, ROOT
from ledger.web.jsonin import MAX_BYTES, MAX_DEPTH, MAX_INT_DIGITS, load_json_safely

DEEP = b"[" * 50_000 + b"]" * 50_000
HOSTILE = {
    "deep": (DEEP, "deeper"),
    "deep_objects": (b'{"a":' * 50_000 + b"1" + b"}" * 50_000, "deeper"),
    "invalid_utf8": (b'{"seats": ["\xff\xfe"]}', "UTF-8"),
    "huge_int": (b'{"count": ' + b"9" * 5000 + b"}", "digits"),
    "lone_surrogate": (b'{"seats": ["\\ud800"]}', "surrogate"),
    "nan": (b'{"count": NaN}', "finite"),
    "infinite_float": (b'{"count": 1e999}', "finite"),
    "too_big": (b'"' + b"a" * (MAX_BYTES + 10) + b'"', "larger"),
}


# --- the function ---------------------------------------------------------------------------


@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_load_json_safely_refuses_hostile_input(name):
    """Each hostile input raises RulesError naming the field and what is wrong."""
    data, words = HOSTILE[name]
    with pytest.raises(RulesError) as caught:
        load_json_safely(data, "file")
    (problem,) = caught.value.problems
    assert problem.field == "file"
    assert words in problem.message


def test_load_json_safely_accepts_ordinary_json_within_the_limits():
    """Valid JSON at the limits (depth, digits, text or bytes, a BOM) loads as json.loads does."""
    nested = "[" * MAX_DEPTH + "]" * MAX_DEPTH
    assert load_json_safely(nested, "f") == json.loads(nested)
    big = int("9" * MAX_INT_DIGITS)
    assert load_json_safely(f'{{"n": {big}, "m": -{big}, "x": 1.5}}', "f") == {
        "n": big,
        "m": -big,
        "x": 1.5,
    }
    assert load_json_safely('"[[[{{ \\" ]]"', "f") == '[[[{{ " ]]'  # brackets in strings
    assert load_json_safely("\ufeff{}".encode(), "f") == {}
    assert load_json_safely('{"a": "\\ud83c\\udca1 \u00e6"}', "f") == {"a": "\U0001f0a1 æ"}
    assert math.isclose(load_json_safely("1e308", "f"), 1e308)


def test_load_json_safely_is_pure():
    """ledger.web.jsonin imports nothing of Django."""
    import importlib

    sys.modules.pop("ledger.web.jsonin", None)
    before = {m for m in sys.modules if m.startswith("django")}
    importlib.import_module("ledger.web.jsonin")
    assert {m for m in sys.modules if m.startswith("django")} == before
    source = (ROOT / "ledger" / "web" / "jsonin.py").read_text()
    assert "django" not in source


# --- the commands ---------------------------------------------------------------------------


def run(command, path, *args):
    out = io.StringIO()
    with pytest.raises(SystemExit) as caught:
        call_command(command, str(path), *args, stdout=out)
    return caught.value.code, json.loads(out.getvalue())


@pytest.mark.parametrize("name", ["deep", "invalid_utf8", "huge_int", "lone_surrogate", "nan"])
@pytest.mark.parametrize("command", ["settle_hand", "settle_evening"])
def test_engine_commands_refuse_hostile_json(command, name, tmp_path):
    """settle_hand and settle_evening print {"errors": [...]} naming the file, exit 2."""
    data, words = HOSTILE[name]
    path = tmp_path / "in.json"
    path.write_bytes(data)
    code, answer = run(command, path)
    assert code == 2
    (error,) = answer["errors"]
    assert error["field"] == "file"
    assert words in error["message"]


@pytest.mark.parametrize("name", ["deep", "invalid_utf8", "huge_int"])
def test_rates_option_refuses_hostile_json(name, tmp_path):
    """A hostile --rates file is refused the same way, naming --rates."""
    data, words = HOSTILE[name]
    rates = tmp_path / "rates.json"
    rates.write_bytes(data)
    code, answer = run("settle_hand", EXAMPLES / "X1.hand.json", "--rates", str(rates))
    assert code == 2
    assert answer["errors"][0]["field"] == "--rates"
    assert words in answer["errors"][0]["message"]


def test_engine_command_refuses_hostile_standard_input(monkeypatch):
    """Deep JSON on standard input (file -) is refused with exit 2, not a RecursionError."""
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(DEEP), encoding="utf-8"))
    code, answer = run("settle_hand", "-")
    assert code == 2
    assert "deeper" in answer["errors"][0]["message"]


@pytest.mark.django_db
@pytest.mark.parametrize("name", ["deep", "invalid_utf8", "huge_int", "lone_surrogate"])
def test_import_hands_refuses_hostile_json(name, tmp_path):
    """import_hands answers {"errors": [...]} with exit 2 and writes nothing."""
    factories.make_club(slug="test")
    data, words = HOSTILE[name]
    path = tmp_path / "evening.json"
    path.write_bytes(data)
    before = (Hand.objects.count(), Transfer.objects.count())
    code, answer = run("import_hands", path, "--club", "test")
    assert code == 2
    assert answer["errors"][0]["field"] == "file"
    assert words in answer["errors"][0]["message"]
    assert (Hand.objects.count(), Transfer.objects.count()) == before


# --- the hand views -------------------------------------------------------------------------

VIEW_INPUTS = {
    "deep": "[" * 50_000 + "]" * 50_000,
    "deep_in_a_hand": '{"seats": ' + "[" * 50_000 + "]" * 50_000 + "}",
    "huge_int": '{"dealer": ' + "9" * 5000 + "}",
    "lone_surrogate": '{"seats": ["\\ud800", "Bo", "Carl"]}',
    "nan": '{"count": NaN}',
}


@pytest.fixture
def scorekeeper_table(client):
    from ledger import services

    club = factories.make_club(slug="test")
    anna = factories.make_member(club, "Anna", "scorekeeper", login=True)
    bo = factories.make_member(club, "Bo")
    carl = factories.make_member(club, "Carl")
    assert anna.user is not None
    assert client.login(username=anna.user.username, password=factories.PASSWORD)
    import datetime

    evening = services.evening_open(club=club, date=datetime.date(2026, 11, 5))
    table = services.table_open(evening=evening, members=[anna, bo, carl])
    hand = services.hand_record(
        table=table, record=json.loads((EXAMPLES / "X1.hand.json").read_text())
    )
    return client, table, hand


def _urls(table, hand):
    def url(name, pk):
        return reverse(name, kwargs={"club": "test", "pk": pk})

    return {
        "hand_new": url("hand_new", table.pk),
        "hand_preview": url("hand_preview", table.pk),
        "hand_correct": url("hand_correct", hand.pk),
        "hand_correct_preview": url("hand_correct_preview", hand.pk),
    }


@pytest.mark.django_db(transaction=False)
@pytest.mark.parametrize(
    "view", ["hand_new", "hand_preview", "hand_correct", "hand_correct_preview"]
)
@pytest.mark.parametrize("name", sorted(VIEW_INPUTS))
@pytest.mark.parametrize("draft", [False, True])
def test_hand_views_refuse_hostile_json(scorekeeper_table, view, name, draft):
    """Each hostile record is answered 4xx (no 500) naming the problem; nothing is written."""
    client, table, hand = scorekeeper_table
    data: dict[str, Any] = {"record": VIEW_INPUTS[name], "token": str(uuid.uuid4())}
    if view == "hand_correct":
        data.update(reason="test", base_revision=1)
    headers = {"X-Hand-Submit": "1"} if draft else {}
    before = (Hand.objects.count(), Transfer.objects.count())
    response = client.post(_urls(table, hand)[view], data, headers=headers)
    assert 400 <= response.status_code < 500
    assert (Hand.objects.count(), Transfer.objects.count()) == before
    if name.startswith("deep"):
        assert f"{MAX_DEPTH}".encode() in response.content  # the problem is named


@pytest.mark.django_db
def test_hand_view_refuses_invalid_utf8_bytes(scorekeeper_table):
    """A form body with invalid UTF-8 bytes in the record is refused 4xx, nothing written."""
    client, table, hand = scorekeeper_table
    before = (Hand.objects.count(), Transfer.objects.count())
    body = b"record=%7B%22seats%22%3A%5B%22%FF%FE%22%5D%7D&token=" + str(uuid.uuid4()).encode()
    body += f"&number={services.next_hand_number(table.pk)}".encode()
    body += f"&version={services.table_version(table.pk)}".encode()
    response = client.post(
        _urls(table, hand)["hand_new"], body, content_type="application/x-www-form-urlencoded"
    )
    assert 400 <= response.status_code < 500
    assert (Hand.objects.count(), Transfer.objects.count()) == before
