"""The officer's results-file pages (issue 30, part 5): the upload (created, unchanged,
replaced, new players; refusals naming the field; hostile files; added to a series with a
factor), the imported events and one event (source, log, ranking, file again), the tokens
page (made and shown once, revoked), and the round trip of a results file."""

from __future__ import annotations

import copy
import datetime
import io
import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from django.utils import timezone

from ledger.models import (
    FederationLog,
    ImportedEvent,
    ImportedPlacing,
    Player,
    SeriesEvent,
    Tournament,
    UploadToken,
)
from ledger.selectors.results_file import imported_document
from ledger.services import federation as fed
from ledger.services.federation.results import CREATED, UNCHANGED, results_import
from ledger.services.federation.tokens import upload_token_create
from ledger.tests.federation.helpers import example, run
from ledger.tests.helpers import client_for, federation_world, imported_results, results_file_doc

pytestmark = pytest.mark.django_db


@pytest.fixture
def world():
    return federation_world()


def page(name: str, **kwargs) -> str:
    return reverse(name, kwargs={"federation": "tzs", **kwargs})


def upload(client, body: bytes | dict, **fields):
    data = body if isinstance(body, bytes) else json.dumps(body).encode()
    return client.post(
        page("federation_import_upload"),
        {"file": SimpleUploadedFile("results.json", data, "application/json"), **fields},
    )


def a_series(federation):
    rule = example("01_dp_ladder_best_of")["rule"]
    return fed.series_create(
        name="Liga 2026",
        seed="liga",
        starts_on=datetime.date(2026, 1, 1),
        ends_on=datetime.date(2026, 12, 31),
        rule=rule,
        federation=federation,
    )


def test_the_upload_imports_then_says_unchanged_then_replaced(world):
    client = client_for(world["officer"])
    answer = upload(client, results_file_doc())
    text = answer.content.decode()
    assert answer.status_code == 200
    assert 'id="import-outcome"' in text
    event = ImportedEvent.objects.get()
    assert event.federation == world["federation"] and event.source == "kranj.example"
    assert FederationLog.objects.get(action="import").by == world["officer"]
    again = upload(client, results_file_doc()).content.decode()
    assert "Ni sprememb" in again or "Nothing changed" in again
    assert ImportedEvent.objects.count() == 1
    newer = results_file_doc()
    newer["revision"] = 2
    upload(client, newer)
    assert ImportedEvent.objects.get().revision == 2


@pytest.mark.parametrize(
    "body, field",
    [
        (b"[" * 65 + b"]" * 65, "file"),
        (b'{"revision": ' + b"9" * 30 + b"}", "file"),
        (b"\xc3\x28", "file"),
        (b'{"revision": 1e999}', "file"),
        (b"x" * (3 * 1024 * 1024), "file"),
    ],
    ids=["deep", "huge number", "bad bytes", "infinite", "3 MB"],
)
def test_a_hostile_file_is_refused_on_the_file_field_and_nothing_written(world, body, field):
    before = (ImportedEvent.objects.count(), Player.objects.count())
    answer = upload(client_for(world["officer"]), body)
    assert answer.status_code == 200
    form = answer.context["form"]
    assert form.errors and field in form.errors, form.errors
    assert (ImportedEvent.objects.count(), Player.objects.count()) == before


def test_a_file_that_recomputes_differently_names_its_first_row(world):
    document = results_file_doc()
    document["ranking"][1]["points"] = "99"
    form = upload(client_for(world["officer"]), document).context["form"]
    assert "ranking[1]" in form.errors["file"][0]
    assert ImportedEvent.objects.count() == 0
    broken = results_file_doc()
    del broken["seed"]
    form = upload(client_for(world["officer"]), broken).context["form"]
    assert form.errors["file"][0].startswith("seed:")


def test_the_uploaded_event_joins_a_series_with_its_factor(world):
    series = a_series(world["federation"])
    client = client_for(world["officer"])
    form = upload(client, results_file_doc(), series=series.pk, factor="x").context["form"]
    assert "factor" in form.errors and ImportedEvent.objects.count() == 0
    text = upload(client, results_file_doc(), series=series.pk, factor="3/2").content.decode()
    added = SeriesEvent.objects.get()
    assert (added.series, added.imported, added.factor) == (
        series,
        ImportedEvent.objects.get(),
        "3/2",
    )
    assert series.name in text
    again = upload(client, results_file_doc(), series=series.pk, factor="2").content.decode()
    assert SeriesEvent.objects.count() == 1 and series.name in again


def test_another_federations_series_cannot_be_chosen(world):
    theirs = a_series(world["other"])
    form = upload(client_for(world["officer"]), results_file_doc(), series=theirs.pk)
    assert "series" in form.context["form"].errors
    assert ImportedEvent.objects.count() == 0


def test_the_events_and_one_event_show_source_log_ranking_and_file(world):
    event = imported_results(world["federation"])
    newer = results_file_doc()
    newer["revision"] = 2
    newer["corrections"] = [
        {
            "round": 1,
            "table": 1,
            "reason": "a score misread",
            "at": "2026-11-14T18:00:00+00:00",
            "after_period": True,
        }
    ]
    results_import(document=newer, federation=world["federation"])
    client = client_for(world["officer"])
    listing = client.get(page("federation_imports")).content.decode()
    assert page("federation_import", pk=event.pk) in listing and "kranj.example" in listing
    detail = client.get(page("federation_import", pk=event.pk)).content.decode()
    assert "kranj.example" in detail and "a score misread" in detail
    for name in ("Ana", "Bor", "Dan"):
        assert name in detail
    assert "3.50" in detail  # 7/2 points of the winner, two decimals
    file = client.get(page("federation_import_file", pk=event.pk))
    assert "attachment" in file["Content-Disposition"]
    assert file.json()["revision"] == 2 and file.json()["id"] == newer["id"]


def test_another_federations_event_is_404(world):
    theirs = results_import(document=results_file_doc("other"), federation=world["other"]).event
    client = client_for(world["officer"])
    for name in ("federation_import", "federation_import_file"):
        assert client.get(page(name, pk=theirs.pk)).status_code == 404


def test_the_tokens_page_makes_a_token_shown_once_and_revokes_it(world):
    client = client_for(world["officer"])
    made = client.post(page("federation_tokens"), {"action": "create", "label": "Tarok Kranj"})
    plain = made.context["plain"]
    assert plain in made.content.decode() and made["Cache-Control"] == "no-store"
    token = UploadToken.objects.get()
    assert token.created_by == world["officer"]
    listing = client.get(page("federation_tokens")).content.decode()
    assert plain not in listing and token.prefix in listing
    refused = client.post(page("federation_tokens"), {"action": "create", "label": ""})
    assert "label" in refused.context["form"].errors
    client.post(page("federation_tokens"), {"action": "revoke", "token": str(token.pk)})
    token.refresh_from_db()
    assert token.revoked_at is not None
    _b, _other = upload_token_create(federation=world["other"], label="Theirs")
    theirs = UploadToken.objects.get(label="Theirs")
    answer = client.post(page("federation_tokens"), {"action": "revoke", "token": str(theirs.pk)})
    assert answer.status_code == 404
    theirs.refresh_from_db()
    assert theirs.revoked_at is None


def test_the_round_trip_keeps_players_rounds_ranking_id_revision_and_seed(tmp_path):
    """A tournament exported on another installation (``results_tzs.json``: made by
    ``results_document`` from a final tournament) is imported into this empty one, imported
    again (unchanged), and its imported event exported: the same players, rounds, ranking,
    id, revision and seed; one event."""
    assert not Tournament.objects.exists() and not Player.objects.exists()
    source = results_file_doc()
    first = results_import(document=copy.deepcopy(source))
    again = results_import(document=copy.deepcopy(source))
    assert (first.action, again.action) == (CREATED, UNCHANGED)
    event = ImportedEvent.objects.get()
    exported = imported_document(event, exported_at=timezone.now())
    for key in ("players", "rounds", "ranking", "id", "revision", "seed"):
        assert exported[key] == source[key], key
    assert ImportedPlacing.objects.filter(event=event).count() == len(source["ranking"])
    path = tmp_path / "again.json"
    code, printed = run_export(event.pk)
    assert code == 0 and printed["id"] == source["id"] and printed["ranking"] == source["ranking"]
    path.write_text(json.dumps(printed), encoding="utf-8")
    code, result = run("results_import", path)
    assert (code, result["action"]) == (0, "unchanged")
    assert ImportedEvent.objects.count() == 1


def run_export(*args) -> tuple[int, dict]:
    from django.core.management import call_command

    out = io.StringIO()
    try:
        call_command("results_export", "--imported", *[str(a) for a in args], stdout=out)
        code = 0
    except SystemExit as stop:
        assert isinstance(stop.code, int), stop.code  # the command exits with a number
        code = stop.code
    return code, json.loads(out.getvalue())


def test_results_export_imported_refuses_an_unknown_id():
    code, printed = run_export("12345")
    assert code == 2 and printed["errors"][0]["field"] == "imported"
