"""Results files (issue: federation, part 5; ``federation.md`` section 5): a final tournament
exported as ``tarokclub.results/1``, valid against the shipped JSON Schema and recomputed by
the tournament engine to the same points, places and ranking; a file that disagrees, breaks
the schema or names a stranger refused by field path; the command's refusals exit 2."""

from __future__ import annotations

import copy
import datetime
import json
import uuid

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone
from jsonschema import Draft202012Validator

from ledger.federation.engine import results as results_file
from ledger.federation.engine.errors import FederationError
from ledger.models import Member
from ledger.selectors.results_file import results_document, results_id
from ledger.services import federation as fed
from ledger.services import tournaments as tour
from ledger.services.errors import LedgerError
from ledger.tests.factories import make_club, make_member
from ledger.tests.helpers import client_for, run_command, score_table

pytestmark = pytest.mark.django_db

NAMES = ("Ana", "Bor", "Cene", "Dan", "Eva", "Fran", "Gal")
SCORES = (
    {"Ana": 150, "Bor": -40, "Cene": 60, "Dan": 35, "Eva": 90, "Fran": -120, "Gal": -30},
    {"Ana": -20, "Bor": 100, "Cene": -70, "Dan": 130, "Eva": 25, "Fran": 60, "Gal": -15},
)


def final_tournament(*, federation: bool = True, rounds: int = 2):
    """A 7-player sl_dp of two rounds (a table of 4 and one of 3), played and made final."""
    club = make_club(slug="kranj", name="Tarok Kranj", game="slovenian_tarok")
    if federation:
        tzs = fed.federation_create(
            name="Tarok zveza Slovenije", slug="tzs", game="slovenian_tarok", language="sl"
        )
        fed.club_join(federation=tzs, club=club)
    members = [make_member(club, n) for n in NAMES]
    t = tour.tournament_create(
        club=club,
        name="DP Kranj",
        date=datetime.date(2026, 11, 14),
        game="slovenian_tarok",
        tournament_format="sl_dp",
        params={"rounds": rounds},
        seed="DP Kranj 2026",
    )
    tour.entries_add(tournament=t, members=members)
    codes = {e.name: e.code for e in t.entries.all()}
    for number in range(rounds):
        r = tour.round_start(round_=tour.round_publish(round_=tour.round_draw(tournament=t)))
        for rt in r.round_tables.select_related("table", "round__tournament"):
            score_table(rt, {codes[n]: s for n, s in SCORES[number].items()})
        tour.round_close(round_=r)
    tour.tournament_finish(tournament=t)
    t.refresh_from_db()
    return t


def exported(t) -> dict:
    return results_document(t, exported_at=timezone.now())


def test_a_final_tournament_exports_a_valid_file_that_recomputes_to_its_ranking():
    """The document validates against the shipped schema (itself a valid 2020-12 schema), the
    engine recomputes its rounds to the same places, points and ranking, and its ranking is
    the tournament's (rank order, ids, points as exact rationals)."""
    t = final_tournament()
    document = exported(t)
    Draft202012Validator.check_schema(results_file.schema())
    assert results_file.read_results(document) is document
    _played, ranking = results_file.recompute(document)
    assert [row.as_dict() for row in ranking] == document["ranking"]
    assert [r["id"] for r in document["ranking"]] == [row.id for row in tour.current_standings(t)]
    assert document["format"] == "tarokclub.results/1"
    assert (document["federation"], document["game"], document["revision"]) == (
        "tzs",
        "slovenian_tarok",
        1,
    )
    assert document["dates"] == ["2026-11-14"] and document["seed"] == "DP Kranj 2026"
    assert sorted(p["name"] for p in document["players"]) == sorted(NAMES)
    assert sorted(len(table["seats"]) for table in document["rounds"][0]["tables"]) == [3, 4]
    assert str(uuid.UUID(document["id"])) == document["id"]


def test_two_exports_without_a_change_differ_only_in_exported_at():
    """The id is fixed (derived from the ledger's secret and the tournament) and nothing else
    moves between two exports; a reopened and again final tournament is revision 2."""
    t = final_tournament()
    first = results_document(t, exported_at=timezone.now())
    second = results_document(t, exported_at=timezone.now() + datetime.timedelta(hours=1))
    assert first["exported_at"] != second["exported_at"]
    assert {**first, "exported_at": ""} == {**second, "exported_at": ""}
    assert first["id"] == results_id(t)
    tour.tournament_reopen(tournament=t, reason="a score was misread")
    tour.tournament_finish(tournament=t)
    t.refresh_from_db()
    again = exported(t)
    assert (again["id"], again["revision"]) == (first["id"], 2)


def test_the_command_prints_the_file_and_refuses_by_field():
    """``results_export`` prints the document; an unknown id, a tournament not final and a
    club of no federation exit 2 with ``{"errors": [...]}`` naming the field."""
    t = final_tournament()
    code, out = run_command("results_export", str(t.pk))
    assert code == 0
    printed = json.loads(out)
    assert printed["ranking"] == exported(t)["ranking"]
    code, out = run_command("results_export", "99999")
    assert code == 2 and json.loads(out)["errors"][0]["field"] == "tournament"
    code, out = run_command("results_export", "x" * 500)
    assert code == 2 and json.loads(out)["errors"][0]["field"] == "tournament"
    tour.tournament_reopen(tournament=t, reason="check")
    code, out = run_command("results_export", str(t.pk))
    assert code == 2 and json.loads(out)["errors"][0]["field"] == "tournament"


def test_a_club_of_no_federation_has_no_results_file():
    t = final_tournament(federation=False)
    with pytest.raises(LedgerError) as refused:
        exported(t)
    assert refused.value.field == "federation"


def fields_of(call, document) -> list[str]:
    with pytest.raises(FederationError) as refused:
        call(document)
    return [p.field for p in refused.value.problems]


def test_a_file_that_disagrees_with_its_rounds_is_refused_at_the_first_row():
    """A seat's points, a place, a ranking row's points or order changed: the recompute names
    the first field that differs, with both figures."""
    document = exported(final_tournament())
    changed = copy.deepcopy(document)
    changed["rounds"][1]["tables"][0]["seats"][1]["points"] = "9"
    assert fields_of(results_file.recompute, changed) == ["rounds[1].tables[0].seats[1].points"]
    changed = copy.deepcopy(document)
    changed["rounds"][0]["tables"][1]["seats"][0]["place"] = 3
    assert fields_of(results_file.recompute, changed)[0].startswith("rounds[0].tables[1].seats[0]")
    changed = copy.deepcopy(document)
    changed["ranking"][0], changed["ranking"][1] = changed["ranking"][1], changed["ranking"][0]
    assert fields_of(results_file.recompute, changed)[0].startswith("ranking[0].")
    changed = copy.deepcopy(document)
    changed["rounds"][0]["tables"][0]["seats"][0]["score"] += 1000
    with pytest.raises(FederationError) as refused:
        results_file.recompute(changed)
    problem = refused.value.problems[0]
    assert problem.field.startswith(("rounds[0].tables[0].seats", "ranking["))
    assert "in the file, but the rounds give" in problem.message


def test_the_schema_and_the_references_are_checked_by_field():
    """A missing field, a field the format does not have, a wrong type, a stranger seated,
    a player twice in a round and a player left out of the ranking are each named."""
    document = exported(final_tournament())
    changed = copy.deepcopy(document)
    del changed["seed"]
    changed["extra"] = 1
    changed["revision"] = "2"
    assert fields_of(results_file.read_results, changed) == ["extra", "revision", "seed"]
    changed = copy.deepcopy(document)
    changed["rounds"][0]["tables"][0]["seats"][0]["player"] = "Zed"
    changed["rounds"][1]["tables"][1]["seats"][0]["player"] = changed["rounds"][1]["tables"][0][
        "seats"
    ][0]["player"]
    changed["ranking"].pop()
    assert fields_of(results_file.read_results, changed) == [
        "rounds[0].tables[0].seats[0].player",
        "rounds[1].tables[1].seats[0].player",
        "ranking",
    ]


@pytest.mark.parametrize(
    "hostile",
    [
        [],
        "tarokclub.results/1",
        {"format": "tarokclub.results/1", "players": [{"id": "a" * 10_000}]},
        {"format": "x\u0000y"},
    ],
)
def test_hostile_documents_are_refused_with_problems_not_crashes(hostile):
    with pytest.raises(FederationError) as refused:
        results_file.read_results(hostile)
    assert refused.value.problems


@pytest.mark.parametrize("rounds", [1, 2])
def test_the_director_downloads_the_file_in_a_fixed_number_of_queries(rounds):
    """The final tournament's page offers the file; the club's admin downloads it (JSON, an
    attachment named by its revision) in 12 queries whatever the rounds (its rounds read once,
    with their tables and byes); a member may not."""
    t = final_tournament(rounds=rounds)
    director = make_member(t.club, "Direktor", Member.Role.ADMIN, login=True)
    member = make_member(t.club, "Zala", login=True)
    client = client_for(director.user)
    page = client.get(t.get_absolute_url())
    url = reverse("tournament_results_file", kwargs={"club": t.club.slug, "pk": t.pk})
    assert url in page.content.decode()
    with CaptureQueriesContext(connection) as captured:
        response = client.get(url)
    assert response.status_code == 200
    assert response["Content-Disposition"] == f'attachment; filename="results-{t.pk}-r1.json"'
    document = json.loads(response.content)
    assert document["ranking"] == exported(t)["ranking"]
    assert len(captured.captured_queries) == 12
    assert client_for(member.user).get(url).status_code == 403


def test_a_club_of_no_federation_is_told_why_on_the_page():
    t = final_tournament(federation=False)
    director = make_member(t.club, "Direktor", Member.Role.ADMIN, login=True)
    client = client_for(director.user)
    url = reverse("tournament_results_file", kwargs={"club": t.club.slug, "pk": t.pk})
    response = client.get(url, follow=True)
    assert response.redirect_chain[-1][0] == t.get_absolute_url()
    assert "klubben hører ikke til noget forbund" in response.content.decode()
