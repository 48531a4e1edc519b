"""The worked examples of tournament.md section 14, to the last rational, through the API and
through ``manage.py tournament_run`` / ``tournament_check``."""

from __future__ import annotations

import json
import subprocess
import sys
from fractions import Fraction as F

import pytest

from ledger.tests.conftest import ROOT
from ledger.tests.helpers import run_command
from ledger.tournaments.engine import (
    DIRECT,
    FALLBACK,
    SEARCH,
    WARNING,
    check_file,
    read_tournament,
    run_file,
    run_tournament,
    standings,
)
from ledger.tournaments.engine.search import BudgetExhausted, Conflicts, ordered_fill

from .helpers import (
    CHECKER,
    COPY_FOLDER,
    PLAYED,
    SPEC_FOLDER,
    example,
    reference_fill,
    without_expected,
)


def played(name):
    tournament, rounds = read_tournament(without_expected(example(name)))
    return tournament, run_tournament(tournament, rounds)


def call(command, data):
    """Run a command on ``data`` (through standard input); return (exit code, parsed output)."""
    code, out = run_command(command, "-", stdin=json.dumps(data, ensure_ascii=False))
    return code, json.loads(out)


@pytest.mark.skipif(
    not SPEC_FOLDER.is_dir(), reason="the spec's folder is not beside this checkout"
)
def test_shipped_tournament_examples_equal_the_spec():
    """ledger/tests/examples/tournament holds every tournament example of the spec, unchanged."""
    spec = {p.name: p.read_bytes() for p in SPEC_FOLDER.glob("*.json")}
    copy = {p.name: p.read_bytes() for p in COPY_FOLDER.glob("*.json")}
    assert spec == copy
    assert len(spec) == 4


@pytest.mark.parametrize("name", PLAYED)
def test_every_round_and_the_ranking_match_the_spec(name):
    """Each tournament example's tables, byes, points, places and ranking rows are the spec's."""
    data = example(name)
    got = run_file(without_expected(data))
    by_number = {r["number"]: r for r in got["rounds"]}
    for want in data["expected"]["rounds"]:
        for key in ("tables", "byes", "points", "places"):
            if key in want:
                assert by_number[want["number"]][key] == want[key], (want["number"], key)
    assert len(got["ranking"]) == len(data["expected"]["ranking"])
    for want, row in zip(data["expected"]["ranking"], got["ranking"], strict=True):
        assert {k: row[k] for k in want} == want


def test_sl12_round_1_is_seeded_groups_in_ladder_order():
    """01 round 1: A = ladder 1-4 to tables 1-4; B Eva, Gal, Hana, Franc and C Jana, Klemen,
    Ivo, Lara by the group hash; seat 1 (A) deals first; mode direct, no finding."""
    _, run = played("01_sl12_dp")
    draw = run.rounds[0].draw
    assert draw.kind == "seeded_groups" and draw.mode == DIRECT
    assert draw.tables == (
        ("Ana", "Eva", "Jana"),
        ("Bor", "Gal", "Klemen"),
        ("Cene", "Hana", "Ivo"),
        ("Dana", "Franc", "Lara"),
    )
    assert draw.first_dealers == ("Ana", "Bor", "Cene", "Dana")
    assert [draw.groups[p] for p in ("Ana", "Eva", "Jana", "Dana", "Franc", "Lara")] == list(
        "ABCABC"
    )
    assert draw.violations == ()


def test_sl12_shared_places_average_their_points():
    """01: Dana and Franc tie first at 80 (3/2 each, both place 1 and a first); in round 2 Cene
    and Lara tie second at 40 (3/4 each, place 2)."""
    _, run = played("01_sl12_dp")
    one, two = run.rounds[0].result, run.rounds[1].result
    assert one.points["Dana"] == one.points["Franc"] == F(3, 2)
    assert one.places["Dana"] == one.places["Franc"] == 1
    assert {"Dana", "Franc"} <= one.firsts
    assert one.points["Lara"] == F(1, 2) and one.places["Lara"] == 3
    assert two.points["Cene"] == two.points["Lara"] == F(3, 4)
    assert two.places["Cene"] == two.places["Lara"] == 2
    assert sum(one.points.values()) == 4 * F(7, 2)


def test_sl12_round_2_order_is_the_standings_with_the_lot():
    """01: the order for round 2 is Ivo, Ana, Gal (by score_sum), Dana before Franc by the lot
    (3335… < fb16…), Jana, Bor, Hana, Cene, Eva, Lara, Klemen."""
    tournament, run = played("01_sl12_dp")
    rows = standings(
        format_code="sl_dp", seed=tournament.seed, entries=tournament.entries, rounds=run.rounds[:1]
    )
    assert [r.id for r in rows] == [
        "Ivo",
        "Ana",
        "Gal",
        "Dana",
        "Franc",
        "Jana",
        "Bor",
        "Hana",
        "Cene",
        "Eva",
        "Lara",
        "Klemen",
    ]
    dana, franc = rows[3], rows[4]
    assert (dana.points, dana.score_sum, dana.firsts) == (franc.points, franc.score_sum, 1)
    assert dana.lot.startswith("3335") and franc.lot.startswith("fb16")


def test_sl12_round_3_needs_backtracking():
    """01 round 3: taking the first compatible candidates leaves Dana and Cene with no third
    (Lara met Dana); the search backs off after exactly 24 candidate tests, as the pseudo-code
    counts them, and finds the spec's tables."""
    tournament, run = played("01_sl12_dp")
    rows = standings(
        format_code="sl_dp", seed=tournament.seed, entries=tournament.entries, rounds=run.rounds[:2]
    )
    order = [r.id for r in rows]
    conflicts = Conflicts([r.draw.as_past() for r in run.rounds[:2]])
    want = (
        ("Gal", "Jana", "Franc"),
        ("Ivo", "Eva", "Klemen"),
        ("Ana", "Dana", "Cene"),
        ("Bor", "Hana", "Lara"),
    )
    assert run.rounds[2].draw.tables == want and run.rounds[2].draw.mode == SEARCH
    assert ordered_fill(order, [3, 3, 3, 3], conflicts, 24) == want
    with pytest.raises(BudgetExhausted):
        ordered_fill(order, [3, 3, 3, 3], conflicts, 23)
    assert reference_fill(order, [3, 3, 3, 3], conflicts.compatible, 10**6) == (want, 24)
    assert not conflicts.compatible("Dana", "Lara")


def test_sl12_ranking_rows_in_full():
    """01: the whole ranking, every field; Eva before Hana by the lot (7b02… < f377…)."""
    _, run = played("01_sl12_dp")
    rows = [
        (r.rank, r.id, r.points, r.score_sum, r.firsts, r.best_round, r.byes, r.status)
        for r in run.ranking
    ]
    assert rows == [
        (1, "Ivo", F(5), 320, 2, 210, 0, "active"),
        (2, "Jana", F(5), 245, 2, 130, 0, "active"),
        (3, "Ana", F(9, 2), 240, 2, 150, 0, "active"),
        (4, "Gal", F(9, 2), 155, 2, 100, 0, "active"),
        (5, "Franc", F(7, 2), 160, 1, 80, 0, "active"),
        (6, "Eva", F(7, 2), 65, 1, 95, 0, "active"),
        (7, "Hana", F(7, 2), 65, 1, 85, 0, "active"),
        (8, "Bor", F(3), 100, 0, 40, 0, "active"),
        (9, "Klemen", F(3), -95, 1, 75, 0, "active"),
        (10, "Dana", F(5, 2), -15, 1, 80, 0, "active"),
        (11, "Cene", F(9, 4), 40, 0, 40, 0, "active"),
        (12, "Lara", F(7, 4), -30, 0, 40, 0, "active"),
    ]
    assert run.ranking[5].lot < run.ranking[6].lot
    assert [r.round_points for r in run.ranking[:1]] == [(F(2), F(1), F(2))]


def test_dk25_plan_and_new_opponents():
    """02: 25 Danish players at 4,4,4,4,3,3,3 in both rounds; round 2 repeats no round-1 pair
    and is found by the search."""
    _, run = played("02_dk25_dm")
    for r in run.rounds:
        assert [len(t) for t in r.draw.tables] == [4, 4, 4, 4, 3, 3, 3]
        assert r.draw.byes == () and r.draw.mode == SEARCH and r.draw.violations == ()
    first = {frozenset((a, b)) for t in run.rounds[0].draw.tables for a in t for b in t if a != b}
    second = {frozenset((a, b)) for t in run.rounds[1].draw.tables for a in t for b in t if a != b}
    assert first.isdisjoint(second)


def test_dk25_sum_points_and_ties():
    """02: points are the sum of final scores; Frode and Christian both +30 at round 2 table 4
    count a first; Søren before Helle on best round (95 > 45), Villy, Kaj, Erik by firsts then
    best round."""
    _, run = played("02_dk25_dm")
    second = run.rounds[1].result
    assert {"Frode", "Christian"} <= second.firsts
    assert second.places["Frode"] == second.places["Christian"] == 1
    assert second.points["Frode"] == F(30)
    by_id = {r.id: r for r in run.ranking}
    assert by_id["Ole"].points == F(105) and by_id["Ole"].rank == 1
    assert by_id["Søren"].rank == 6 and by_id["Helle"].rank == 7
    assert [by_id[p].rank for p in ("Villy", "Kaj", "Erik")] == [9, 10, 11]
    for r in run.rounds:
        assert sum(r.result.points.values()) == 0


def test_hu11_byes_fallback_and_final():
    """04: one bye a round (Judit, Anna, then Dóra in the final); round 2 is a fallback draw
    with the minimum 6 repeated pairs, all warnings (unavoidable); the final cuts the
    preliminary standing into 1-5 and 6-10 and ranks by final score, Dóra last."""
    _, run = played("04_hu11_byes")
    assert [r.draw.byes for r in run.rounds] == [("Judit",), ("Anna",), ("Dóra",)]
    assert run.rounds[0].result.points["Judit"] == 0
    second = run.rounds[1].draw
    assert second.mode == FALLBACK
    repeats = [v for v in second.violations if v.code == "repeat_opponents"]
    assert len(repeats) == 6
    assert all(v.severity == WARNING and v.get("avoidable") is False for v in repeats)
    final = run.rounds[2].draw
    assert final.kind == "final" and final.mode == DIRECT
    assert final.tables == (
        ("Judit", "Csaba", "Anna", "Kata", "Imre"),
        ("Hajni", "Béla", "Gábor", "Ede", "Feri"),
    )
    rows = [(r.rank, r.id, r.final_group, r.final_score, r.points) for r in run.ranking]
    assert rows[:3] == [(1, "Kata", 1, 6, F(0)), (2, "Csaba", 1, 4, F(6)), (3, "Anna", 1, 4, F(3))]
    assert rows[8:] == [
        (9, "Gábor", 2, -3, F(-2)),
        (10, "Feri", 2, -3, F(-6)),
        (11, "Dóra", None, None, F(-8)),
    ]


def test_checker_example_through_the_api():
    """07: every check gives exactly the spec's set of violations, every plan its sizes/byes."""
    data = example(CHECKER)
    got = check_file(data)
    for case, violations in zip(data["checks"], got["checks"], strict=True):
        canon = sorted(json.dumps(v, sort_keys=True) for v in violations)
        assert canon == sorted(json.dumps(v, sort_keys=True) for v in case["expected_violations"])
    for case, plan in zip(data["plans"], got["plans"], strict=True):
        assert plan == {"sizes": case["sizes"], "byes": case["byes"]}, case


@pytest.mark.parametrize("name", PLAYED)
def test_tournament_run_command_prints_the_spec(name):
    """``tournament_run -`` prints the rounds with exactly the keys of section 14, exit 0."""
    data = example(name)
    code, out = call("tournament_run", without_expected(data))
    assert code == 0
    assert out == run_file(without_expected(data))
    assert list(out) == ["rounds", "ranking"]
    assert all(list(r) == ["number", "tables", "byes", "points", "places"] for r in out["rounds"])
    assert list(out["ranking"][0]) == [
        "rank",
        "id",
        "points",
        "score_sum",
        "firsts",
        "best_round",
        "rounds_played",
        "byes",
        "status",
        "final_score",
    ]


def test_tournament_check_command_prints_the_checks_and_plans():
    """``tournament_check`` prints one list per check and one plan per plan, exit 0."""
    data = example(CHECKER)
    code, out = call("tournament_check", data)
    assert code == 0
    assert out == check_file(data)
    assert len(out["checks"]) == 8 and len(out["plans"]) == 26
    assert out["checks"][5] == [{"code": "second_bye", "id": "Feri", "severity": "warning"}]


def test_manage_py_subprocess_reads_a_file_and_keeps_unicode(tmp_path):
    """``python manage.py tournament_run FILE`` as a process: exit 0, UTF-8 names unescaped."""
    path = tmp_path / "hu.json"
    path.write_text(json.dumps(example("04_hu11_byes"), ensure_ascii=False), encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "manage.py", "tournament_run", str(path)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        encoding="utf-8",
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert '"Dóra"' in done.stdout
    assert json.loads(done.stdout)["rounds"][0]["byes"] == ["Judit"]
