"""Bad and hostile files: ``tournament_run`` and ``tournament_check`` exit 2 and name the field,
never a traceback (spec section 14)."""

from __future__ import annotations

import io
import json
import os

import pytest
from django.core.management import call_command
from hypothesis import given, settings
from hypothesis import strategies as st

from ledger.games.errors import RulesError
from ledger.tournaments.engine import check_file, run_file

from .helpers import CHECKER, PLAYED, example, without_expected


def refused(command, path):
    """Run ``command`` on the file ``path``; return the printed errors as (field, message)."""
    out = io.StringIO()
    with pytest.raises(SystemExit) as stop:
        call_command(command, str(path), stdout=out)
    assert stop.value.code == 2
    return [(e["field"], e["message"]) for e in json.loads(out.getvalue())["errors"]]


def refused_doc(command, doc, tmp_path):
    path = tmp_path / "doc.json"
    path.write_text(json.dumps(doc, ensure_ascii=False), encoding="utf-8")
    return refused(command, path)


def sl12():
    return without_expected(example("01_sl12_dp"))


def test_unreadable_files_name_the_file(tmp_path):
    """A missing file, bad UTF-8, broken JSON, deep nesting and a huge number: field ``file``."""
    assert refused("tournament_run", tmp_path / "nope.json")[0][0] == "file"
    bad = tmp_path / "bad.json"
    bad.write_bytes(b'{"game": "\xff"}')
    assert refused("tournament_run", bad) == [("file", "the JSON is not valid UTF-8 (byte 10)")]
    bad.write_text('{"game": ', encoding="utf-8")
    assert refused("tournament_check", bad)[0][0] == "file"
    bad.write_text("[" * 100 + "]" * 100, encoding="utf-8")
    assert refused("tournament_run", bad) == [("file", "the JSON nests deeper than 64 levels")]
    bad.write_text('{"seed": 1' + "0" * 30 + "}", encoding="utf-8")
    assert refused("tournament_run", bad) == [
        ("file", "the JSON has a number of more than 18 digits")
    ]
    bad.write_text("[1, 2]", encoding="utf-8")
    assert refused("tournament_run", bad) == [("file", "the file must hold a JSON object")]


def test_wrong_types_and_unknown_keys_are_named(tmp_path):
    """Each wrong field is reported with its path, all at once."""
    doc = sl12()
    doc["game"] = 5
    doc["seed"] = ""
    doc["params"] = {"rounds": "3", "speed": 2, "node_budget": 10**12}
    doc["entries"][1]["ladder_rank"] = "x"
    doc["entries"][2]["from_round"] = 0
    doc["entries"][3]["nickname"] = "D"
    doc["rounds"][0]["results"]["Ana"] = True
    doc["surprise"] = 1
    errors = dict(refused_doc("tournament_run", doc, tmp_path))
    assert errors["game"].startswith("unknown game 5; choose one of danish_tarok")
    assert errors["seed"] == "seed must be a non-empty text"
    assert errors["params.rounds"] == "rounds must be a whole number"
    assert errors["params.speed"] == "unknown key speed: params has no such setting"
    assert errors["params.node_budget"] == "node_budget must be from 1 to 2000000"
    assert errors["entries[1].ladder_rank"] == "entries[1].ladder_rank must be a whole number"
    # The refused rounds keeps sl_dp's default of 4.
    assert errors["entries[2].from_round"] == "entries[2].from_round must be from 1 to 4"
    assert errors["entries[3].nickname"] == "unknown key nickname"
    assert errors["rounds[0].results.Ana"] == "rounds[0].results.Ana must be a whole number"
    assert errors["surprise"] == "unknown key surprise"


def test_a_player_entered_twice(tmp_path):
    """Two entries with one id: the second is named."""
    doc = sl12()
    doc["entries"][5]["id"] = "Ana"
    assert ("entries[5].id", "Ana is entered twice") in refused_doc("tournament_run", doc, tmp_path)


def test_missing_unknown_and_bye_players_in_results(tmp_path):
    """A seated player without a result, an unknown id and a player with a bye are named by
    their result's path."""
    doc = sl12()
    del doc["rounds"][0]["results"]["Eva"]
    doc["rounds"][0]["results"]["Xenia"] = 5
    assert refused_doc("tournament_run", doc, tmp_path) == [
        ("rounds[0].results.Eva", "Eva is seated in round 1 but has no result"),
        ("rounds[0].results.Xenia", "Xenia has no entry"),
    ]
    hu = without_expected(example("04_hu11_byes"))
    hu["rounds"][0]["results"]["Judit"] = 0
    assert refused_doc("tournament_run", hu, tmp_path) == [
        ("rounds[0].results.Judit", "Judit has a bye in round 1, so no table score")
    ]


def test_rounds_out_of_order_or_beyond_the_format(tmp_path):
    """Round numbers must run 1, 2, …; a fourth round of a three-round sl_dp is refused."""
    doc = sl12()
    doc["rounds"][1]["number"] = 3
    assert refused_doc("tournament_run", doc, tmp_path) == [
        (
            "rounds[1].number",
            "the rounds are numbered 1, 2, … in order: this one is round 2",
        )
    ]
    doc = sl12()
    doc["rounds"].append({"number": 4, "results": {}})
    assert refused_doc("tournament_run", doc, tmp_path) == [
        ("rounds[3].number", "the tournament has 3 rounds, not 4")
    ]


def test_a_format_of_another_game(tmp_path):
    """sl_dp is Slovenian: a Danish sl_dp names tournament_format."""
    doc = sl12()
    doc["game"] = "danish_tarok"
    assert refused_doc("tournament_run", doc, tmp_path) == [
        ("tournament_format", "the format sl_dp is not played at danish_tarok")
    ]


def test_a_manual_draw_with_an_unknown_player_or_an_unplayable_table(tmp_path):
    """A given draw that seats Xenia, leaves out Lara and has a table of 2 is refused."""
    doc = sl12()
    doc["rounds"] = doc["rounds"][:1]
    doc["rounds"][0]["draw"] = {
        "tables": [
            ["Ana", "Eva", "Jana"],
            ["Bor", "Gal", "Klemen"],
            ["Cene", "Hana", "Ivo"],
            ["Dana", "Xenia"],
            ["Franc"],
        ]
    }
    errors = refused_doc("tournament_run", doc, tmp_path)
    assert ("rounds[0].draw", "Xenia is in the draw but has no entry") in errors
    assert ("rounds[0].draw", "the draw leaves out Lara, who plays round 1") in errors
    assert (
        "rounds[0].draw.tables[3]",
        "a table of slovenian_tarok has 3 or 4 or 5 seats, not 2",
    ) in errors


def test_checker_files_name_their_fields(tmp_path):
    """Checker files: a proposed draw that is no object, an active player without an entry, an
    unknown kind, a negative plan and an unknown game are each named."""
    doc = example(CHECKER)
    doc["checks"][0]["proposed"] = [1]
    doc["checks"][1]["active"][0] = "Nobody"
    doc["checks"][2]["kind"] = "swiss"
    doc["plans"][0]["players"] = -1
    doc["plans"][1]["game"] = "skat"
    errors = dict(refused_doc("tournament_check", doc, tmp_path))
    assert errors["checks[0].proposed"] == "checks[0].proposed must be an object"
    assert errors["checks[1].active[0]"] == "Nobody has no entry"
    assert errors["checks[2].kind"].startswith("unknown kind of round swiss")
    assert errors["plans[0].players"] == "plans[0].players must be from 0 to 10000"
    assert errors["plans[1].game"].startswith("unknown game skat")


def test_a_tournament_file_is_not_a_checker_file(tmp_path):
    """Each command says what its file lacks."""
    assert refused_doc("tournament_check", {"seed": "S"}, tmp_path) == [
        ("checks", "a checker file lists checks, plans or both")
    ]
    assert ("rounds", "a tournament file lists its rounds") in refused_doc(
        "tournament_run", {"checks": []}, tmp_path
    )


DELETE = object()
JUNK = st.sampled_from(
    [
        None,
        True,
        -1,
        0,
        3,
        10**17,
        -(10**17),
        1.5,
        "",
        "x",
        "Ana",
        "Béla",
        "\x07",
        [],
        [1],
        ["Ana"],
        {},
        {"a": 1},
        {"Ana": 1},
        [["Ana", "Bor", "Cene"]],
        DELETE,
    ]
)


def paths(value, prefix=()):
    """Yield the path of every value inside a JSON document."""
    yield prefix
    if isinstance(value, dict):
        for key, item in value.items():
            yield from paths(item, (*prefix, key))
    elif isinstance(value, list):
        for i, item in enumerate(value):
            yield from paths(item, (*prefix, i))


def replaced(doc, path, junk):
    """Return ``doc`` with the value at ``path`` replaced by ``junk`` (or deleted)."""
    if not path:
        return {} if junk is DELETE else junk
    copy = json.loads(json.dumps(doc))
    target = copy
    for step in path[:-1]:
        target = target[step]
    if junk is DELETE:
        del target[path[-1]]
    else:
        target[path[-1]] = junk
    return copy


DOCS = [without_expected(example(name)) for name in PLAYED] + [example(CHECKER)]


@settings(max_examples=int(os.environ.get("TOURNAMENT_FUZZ_EXAMPLES", "60")), deadline=None)
@given(st.sampled_from(range(len(DOCS))), st.data(), st.lists(JUNK, min_size=1, max_size=3))
def test_any_junk_anywhere_is_answered_or_refused_with_fields(index, data, junks):
    """Replacing or deleting up to three values anywhere in an example either still plays or
    is refused with named fields; no other exception escapes."""
    doc = DOCS[index]
    every = list(paths(doc))
    for junk in junks:
        doc = replaced(doc, data.draw(st.sampled_from(every)), junk)
        every = list(paths(doc))
    run = check_file if "checks" in DOCS[index] else run_file
    try:
        out = run(doc)
    except RulesError as error:
        assert error.problems
        assert all(isinstance(p.field, str) and p.message for p in error.problems)
    else:
        json.dumps(out, ensure_ascii=False)
