"""Upload tokens and the results files' POST (issue 30, part 5; ``federation.md`` section 5): a
token is stored only as its SHA-256 and shown once; a revoked, unknown or another federation's
token is 401 with nothing written and a warning that names the token's prefix, never the
token; the POST answers 413, 400, 201 and 200 as documented, idempotent and replaced by a
higher revision; GET is 405."""

from __future__ import annotations

import copy
import json
import logging

import pytest
from django.db import connection
from django.test import Client
from django.urls import reverse

from ledger.models import FederationLog, ImportedEvent, ImportedPlacing, Player, UploadToken
from ledger.services.errors import LedgerError
from ledger.services.federation import tokens
from ledger.tests.helpers import federation_world, results_file_doc

pytestmark = pytest.mark.django_db


@pytest.fixture
def world():
    return federation_world()


def url(slug: str = "tzs") -> str:
    return reverse("results_api", kwargs={"federation": slug})


def post(body, token: str | None, slug: str = "tzs"):
    data = body if isinstance(body, bytes) else json.dumps(body).encode()
    headers = {"Authorization": f"Bearer {token}"} if token is not None else {}
    return Client().post(url(slug), data=data, content_type="application/json", headers=headers)


def written() -> tuple[int, int, int]:
    return (ImportedEvent.objects.count(), ImportedPlacing.objects.count(), Player.objects.count())


def test_a_token_is_stored_hashed_shown_once_and_logged_without_it(world):
    token, plain = tokens.upload_token_create(
        federation=world["federation"], label="Tarok Kranj", by=world["officer"]
    )
    assert len(plain) == 43 and token.prefix == plain[:8]
    assert token.digest == tokens.token_digest(plain) != plain
    with connection.cursor() as cursor:
        cursor.execute("SELECT * FROM ledger_uploadtoken")
        rows = cursor.fetchall()
    assert plain not in repr(rows)
    assert plain not in json.dumps(list(FederationLog.objects.values("details")))
    assert FederationLog.objects.filter(action="token_create").count() == 1
    assert tokens.upload_token_federation(plain) == world["federation"]
    assert tokens.upload_token_federation(plain[:-1] + "x") is None
    assert tokens.upload_token_federation("x" * 10_000) is None


def test_a_label_is_required_and_a_revoked_token_refused(world):
    with pytest.raises(LedgerError) as refused:
        tokens.upload_token_create(federation=world["federation"], label="  ")
    assert refused.value.field == "label"
    token, plain = tokens.upload_token_create(federation=world["federation"], label="Kranj")
    tokens.upload_token_revoke(token=token, by=world["officer"])
    assert tokens.upload_token_federation(plain) is None
    with pytest.raises(LedgerError) as again:
        tokens.upload_token_revoke(token=token)
    assert again.value.field == "token"
    assert FederationLog.objects.filter(action="token_revoke").count() == 1


@pytest.mark.parametrize("case", ["missing", "wrong", "revoked", "other federation", "basic"])
def test_a_bad_token_is_401_with_nothing_written_and_a_warning(world, case, caplog):
    _row, plain = tokens.upload_token_create(federation=world["federation"], label="Kranj")
    _b, other = tokens.upload_token_create(federation=world["other"], label="Other")
    presented = {
        "missing": None,
        "wrong": "A" * 43,
        "revoked": plain,
        "other federation": other,
        "basic": plain,
    }[case]
    if case == "revoked":
        tokens.upload_token_revoke(token=_row)
    before = written()
    with caplog.at_level(logging.WARNING, logger="ledger.views.results_api"):
        if case == "basic":
            answer = Client().post(
                url(),
                data=json.dumps(results_file_doc()),
                content_type="application/json",
                HTTP_AUTHORIZATION=f"Basic {plain}",
            )
        else:
            answer = post(results_file_doc(), presented)
    assert answer.status_code == 401
    assert answer.json()["errors"][0]["field"] == "token"
    assert written() == before
    assert UploadToken.objects.exclude(last_used_at=None).count() == 0
    record = next(r for r in caplog.records if r.name == "ledger.views.results_api")
    assert record.federation == "tzs"
    assert record.token_prefix == (presented[:8] if presented and case != "basic" else None)
    for r in caplog.records:
        assert plain not in r.getMessage() and plain not in repr(r.__dict__)


def test_the_post_creates_then_is_unchanged_then_replaced(world):
    _row, plain = tokens.upload_token_create(federation=world["federation"], label="Kranj")
    document = results_file_doc()
    created = post(document, plain)
    assert created.status_code == 201, created.content
    body = created.json()
    event = ImportedEvent.objects.get()
    assert body == {
        "event": event.pk,
        "id": document["id"],
        "revision": 1,
        "action": "created",
        "new_players": 7,
        "message": body["message"],
    }
    assert UploadToken.objects.get().last_used_at is not None
    before = written()
    again = post(document, plain)
    assert again.status_code == 200
    assert again.json()["action"] == "unchanged" and again.json()["message"]
    assert written() == before
    newer = copy.deepcopy(document)
    newer["revision"] = 2
    replaced = post(newer, plain)
    assert replaced.status_code == 200
    assert (replaced.json()["action"], replaced.json()["revision"]) == ("replaced", 2)
    assert ImportedEvent.objects.get().revision == 2
    older = post(document, plain)
    assert older.status_code == 400 and older.json()["errors"][0]["field"] == "revision"


def test_the_post_refuses_bad_files_with_400_and_big_ones_with_413(world):
    _row, plain = tokens.upload_token_create(federation=world["federation"], label="Kranj")
    before = written()
    cases = {
        b"{not json": "file",
        b"[" * 100 + b"]" * 100: "file",
        b'{"revision": 1' + b"1" * 40 + b"}": "file",
        b"\xff\xfe{}": "file",
        json.dumps({**results_file_doc(), "revision": "one"}).encode(): "revision",
    }
    for body, field in cases.items():
        answer = post(body, plain)
        assert answer.status_code == 400, body[:40]
        assert answer.json()["errors"][0]["field"] == field, answer.json()
    wrong = results_file_doc()
    wrong["ranking"][0]["points"] = "99"
    answer = post(wrong, plain)
    assert answer.status_code == 400
    assert answer.json()["errors"][0]["field"].startswith("ranking[0]")
    other = post(results_file_doc("other"), plain)
    assert other.status_code == 400 and other.json()["errors"][0]["field"] == "federation"
    huge = b'{"a": "' + b"x" * (3 * 1024 * 1024) + b'"}'
    assert post(huge, plain).status_code == 413
    assert written() == before


def test_get_is_405(world):
    _row, plain = tokens.upload_token_create(federation=world["federation"], label="Kranj")
    answer = Client().get(url(), HTTP_AUTHORIZATION=f"Bearer {plain}")
    assert answer.status_code == 405
