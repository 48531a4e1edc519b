"""Importing results files (issue: federation, part 5; ``federation.md`` section 5): a file
becomes a read-only event of its federation with its players matched, idempotent by id and
revision, replaced by a higher revision, refused when older, of another federation or game,
ambiguous or recomputing differently; an imported event counts in a series' ladder and
follows a merge of its players."""

from __future__ import annotations

import copy
import datetime
import json

import pytest
from django.utils import timezone

from ledger.models import Federation, FederationLog, ImportedEvent, ImportedPlacing, Player
from ledger.selectors.federation import ladder_lines
from ledger.selectors.results_file import results_document
from ledger.services import federation as fed
from ledger.services.errors import LedgerError
from ledger.services.federation.results import CREATED, REPLACED, UNCHANGED, results_import
from ledger.tests.federation.test_results_file import final_tournament
from ledger.tests.helpers import run_command

pytestmark = pytest.mark.django_db


def a_file():
    t = final_tournament()
    return t, results_document(t, exported_at=timezone.now())


def test_a_file_becomes_an_event_of_its_federation_with_its_players_matched():
    """The members' players are found by name and club (no new player); the placings are the
    file's ranking; the import is logged."""
    t, document = a_file()
    players = Player.objects.count()
    result = results_import(document=document)
    assert result.action == CREATED and result.new_players == 0
    event = result.event
    assert (event.uid, event.revision, event.federation.slug, event.name) == (
        document["id"],
        1,
        "tzs",
        "DP Kranj",
    )
    assert Player.objects.count() == players
    entries = dict(t.entries.values_list("code", "player_id"))
    assert [(p.rank, p.player_id, p.points) for p in event.placings.order_by("rank")] == [
        (row["rank"], entries[row["id"]], row["points"]) for row in document["ranking"]
    ]
    assert FederationLog.objects.filter(action="import").count() == 1


def test_the_same_revision_again_changes_nothing_and_a_higher_one_replaces_it():
    _t, document = a_file()
    first = results_import(document=document)
    again = results_import(document=copy.deepcopy(document))
    assert (again.action, again.event.pk) == (UNCHANGED, first.event.pk)
    assert FederationLog.objects.filter(action="import").count() == 1
    newer = copy.deepcopy(document)
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
    replaced = results_import(document=newer)
    assert (replaced.action, replaced.event.pk, replaced.event.revision) == (
        REPLACED,
        first.event.pk,
        2,
    )
    assert [entry["action"] for entry in replaced.event.log] == ["import", "replace"]
    assert replaced.event.log[1]["corrections"][0]["reason"] == "a score misread"
    assert ImportedPlacing.objects.filter(event=replaced.event).count() == len(document["ranking"])
    with pytest.raises(LedgerError) as refused:
        results_import(document=document)
    assert refused.value.field == "revision"


def test_a_file_of_another_game_or_federation_is_refused():
    _t, document = a_file()
    other = fed.federation_create(
        name="Dansk Tarokforbund", slug="dtf", game="danish_tarok", language="da"
    )
    wrong_game = {**copy.deepcopy(document), "federation": "dtf"}
    with pytest.raises(LedgerError) as refused:
        results_import(document=wrong_game)
    assert refused.value.field == "game"
    with pytest.raises(LedgerError) as refused:
        results_import(document=document, federation=other)
    assert refused.value.field == "federation"
    assert not ImportedEvent.objects.exists()


def test_a_federation_none_has_is_created_with_the_games_language():
    _t, document = a_file()
    results_import(document={**document, "federation": "mtl"})
    created = Federation.objects.get(slug="mtl")
    assert (created.game, created.language) == ("slovenian_tarok", "sl")


def test_a_name_that_matches_two_players_is_refused_naming_both():
    _t, document = a_file()
    row = document["players"][0]
    Player.objects.create(name=row["name"], club_name=row["club"])
    Player.objects.create(name=row["name"], club_name=row["club"])
    document = copy.deepcopy(document)
    document["players"][0]["club"] = row["club"] or "X"
    for p in document["players"]:
        p["club"] = row["club"]
    with pytest.raises(LedgerError) as refused:
        results_import(document=document)
    assert refused.value.field.startswith("players[")
    assert "matches two players" in str(refused.value.message)
    assert not ImportedEvent.objects.exists()


def test_a_file_that_recomputes_differently_is_refused_and_nothing_written():
    _t, document = a_file()
    document = copy.deepcopy(document)
    document["ranking"][0]["points"] = "99"
    with pytest.raises(LedgerError) as refused:
        results_import(document=document)
    assert refused.value.field == "ranking[0].points"
    assert not ImportedEvent.objects.exists() and not FederationLog.objects.filter(action="import")


def test_the_command_imports_and_refuses_with_exit_2(tmp_path):
    _t, document = a_file()
    path = tmp_path / "results.json"
    path.write_text(json.dumps(document), encoding="utf-8")
    code, out = run_command("results_import", str(path))
    assert code == 0 and json.loads(out)["action"] == CREATED
    code, out = run_command("results_import", str(path))
    assert code == 0 and json.loads(out)["action"] == UNCHANGED
    path.write_text('{"format": "tarokclub.results/1"}', encoding="utf-8")
    code, out = run_command("results_import", str(path))
    assert code == 2 and {e["field"] for e in json.loads(out)["errors"]} >= {"id", "players"}
    path.write_bytes(b"[" * 100_000)
    code, out = run_command("results_import", str(path))
    assert code == 2 and json.loads(out)["errors"][0]["field"] == "file"


def test_an_imported_event_counts_in_a_series_ladder():
    t, document = a_file()
    imported = results_import(document={**document, "id": "0" * 8 + document["id"][8:]}).event
    tzs = Federation.objects.get(slug="tzs")
    series = fed.series_create(
        federation=tzs,
        name="Pokal",
        seed="Pokal",
        starts_on=datetime.date(2026, 9, 1),
        ends_on=datetime.date(2027, 6, 30),
        rule={"source": "placement", "scale": {"kind": "linear"}},
        events=[(t, 1)],
    )
    fed.series_event_add(series=series, imported=imported, factor="3/2")
    assert series.events.get(imported=imported).factor == "3/2"
    assert FederationLog.objects.filter(action="series_event", federation=tzs).count() == 1
    lines = ladder_lines(series)
    winner = lines[0]
    assert winner.events == 2
    assert set(winner.counted) == {"DP Kranj"}
    assert len(winner.counted) == 2


def test_a_merge_of_two_records_takes_the_imported_placings_along():
    _t, document = a_file()
    event = results_import(document=document).event
    placing = event.placings.order_by("rank").first()
    assert placing is not None
    twin = Player.objects.create(name=placing.player.name + " Jr", club_name="Elsewhere")
    fed.player_merge(kept=twin, merged=placing.player)
    placing.refresh_from_db()
    assert placing.player_id == twin.pk
    log = FederationLog.objects.filter(action="merge").latest("pk")
    assert log.details["placings"] == [placing.pk]


def test_an_event_is_added_once_of_the_series_federation_and_game():
    """``series_event_add`` refuses a second copy of an event, an event of another federation,
    a factor that is no positive rational and a call naming no event (or two), writing
    nothing."""
    t, document = a_file()
    imported = results_import(document={**document, "id": "0" * 8 + document["id"][8:]}).event
    tzs = Federation.objects.get(slug="tzs")
    series = fed.series_create(
        federation=tzs,
        name="Pokal",
        seed="Pokal",
        starts_on=datetime.date(2026, 9, 1),
        ends_on=datetime.date(2027, 6, 30),
        rule={"source": "placement", "scale": {"kind": "linear"}},
        events=[(t, 1)],
    )
    other = fed.federation_create(name="Other", slug="oth", game="slovenian_tarok", language="sl")
    cup = fed.series_create(
        federation=other,
        name="Cup",
        seed="Cup",
        starts_on=datetime.date(2026, 9, 1),
        ends_on=datetime.date(2027, 6, 30),
        rule={"source": "placement", "scale": {"kind": "linear"}},
    )
    refusals = [
        (dict(series=series, tournament=t), "tournament"),
        (dict(series=cup, imported=imported), "imported"),
        (dict(series=series, imported=imported, factor="-1"), "factor"),
        (dict(series=series, imported=imported, factor="0.5x"), "factor"),
        (dict(series=series), "event"),
        (dict(series=series, tournament=t, imported=imported), "event"),
    ]
    for kwargs, field in refusals:
        with pytest.raises(LedgerError) as refused:
            fed.series_event_add(**kwargs)
        assert refused.value.field == field, kwargs
    assert series.events.count() == 1 and cup.events.count() == 0
    fed.series_event_add(series=series, imported=imported)
    with pytest.raises(LedgerError) as twice:
        fed.series_event_add(series=series, imported=imported)
    assert twice.value.field == "imported"
