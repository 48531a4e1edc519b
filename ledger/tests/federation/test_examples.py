"""The worked examples of federation.md section 4, to the last rational (ratings within 10^-6),
through the engine and through ``manage.py series_run`` / ``rating_run``."""

from __future__ import annotations

import datetime
import json
import subprocess
import sys
from fractions import Fraction as F

import pytest

from ledger.federation.engine import (
    RatingParams,
    Standing,
    rate_tables,
    read_rating,
    read_series,
    run_rating_file,
    run_series_file,
    series_standings,
)
from ledger.tests.conftest import ROOT

from .helpers import (
    COPY_FOLDER,
    RATINGS,
    SERIES,
    SPEC_FOLDER,
    example,
    needs_spec,
    run_doc,
    without_expected,
)

CLOSE = 1e-6


def standings_of(name):
    seed, rule, events, as_of = read_series(without_expected(example(name)))
    return {row.player: row for row in series_standings(seed, rule, events, as_of)}


def rated(name):
    params, start, tables = read_rating(without_expected(example(name)))
    return rate_tables(tables, params, start)


@needs_spec
def test_shipped_federation_examples_equal_the_spec():
    """ledger/tests/examples/federation holds every federation example of the spec, unchanged."""
    spec = {p.name: p.read_bytes() for p in SPEC_FOLDER.glob("*.json")}
    copy = {p.name: p.read_bytes() for p in COPY_FOLDER.glob("*.json")}
    assert spec == copy
    assert len(spec) == 6


@pytest.mark.parametrize("name", SERIES)
def test_every_series_row_is_the_spec_s(name):
    """Each series example's standings, row by row and key by key, are the spec's."""
    data = example(name)
    assert run_series_file(without_expected(data)) == data["expected"]


def test_dp_ladder_best_three_of_four_and_four_qualify():
    """best_of 3 (01): p11 keeps 17/3 + 19/4 + 43/6 = 211/12 and strikes e1's 23/6; p07 played
    three events, so none is struck; the first four qualify for the Masters."""
    rows = standings_of("01_dp_ladder_best_of")
    p11 = rows["p11"]
    assert (p11.position, p11.total, p11.best, p11.wins) == (1, F(211, 12), F(43, 6), 2)
    assert (p11.counted, p11.struck, p11.events) == (("e2", "e3", "e4"), ("e1",), 4)
    assert F(17, 3) + F(19, 4) + F(43, 6) == F(211, 12)
    assert (rows["p07"].counted, rows["p07"].struck) == (("e1", "e2", "e3"), ())
    # p04: 13/2 + 31/6 + 31/6 = 101/6; e4's 59/12 is his lowest, so struck.
    assert (rows["p04"].total, rows["p04"].struck) == (F(101, 6), ("e4",))
    qualified = sorted((r.position, p) for p, r in rows.items() if r.qualified)
    assert qualified == [(1, "p11"), (2, "p04"), (3, "p07"), (4, "p08")]
    assert rows["p12"].qualified is False


def test_league_field_scale_and_a_double_event():
    """field scale (02): 15 entrants give the winner 115, 2nd 94, 10th 36, 11th min(35, 5) = 5
    and the last 1; the second event (13 entrants) counts double: p15 won it, 2 × 113 = 226."""
    rows = standings_of("02_league_field")
    assert rows["p07"].best == F(115)  # e1's winner; 7th of e2: 2 × (113 − 61) = 104
    assert rows["p07"].total == F(115 + 104)
    assert rows["p05"].total == F(94) + 2 * F(113 - 79)  # 2nd of e1, 10th of e2
    assert rows["p12"].total == F(5)
    assert rows["p15"].total == F(3 + 226)
    assert rows["p06"].total == F(1) + 2 * F(113 - 49)


def test_cup_strike_two_worst_missed_first_as_of():
    """strike_worst 2 (03) as of 2027-02-01: e5 (20 Feb) does not count; p14 missed e3, which
    is struck first as a 0, then his worst attended (e1's 6); a player who attended one event
    keeps it and strikes two missed ones."""
    rows = standings_of("03_cup_strike_worst")
    p14 = rows["p14"]
    assert (p14.total, p14.counted, p14.struck, p14.events) == (F(40), ("e2", "e4"), ("e1",), 3)
    p04 = rows["p04"]
    assert (p04.total, p04.counted, p04.struck, p04.events) == (F(7), ("e2",), (), 1)
    assert all("e5" not in r.counted + r.struck for r in rows.values())
    # p07 and p02 both have 20 and no win: p07's best (16) puts him ahead of p02 (11).
    assert (rows["p07"].position, rows["p02"].position) == (9, 10)


def test_linear_scale_with_a_championship_worth_three_halves():
    """linear (04): 4th of 8 gets 5; 1st of 3 at a factor of 3/2 gets 9/2: p06 has 19/2."""
    rows = standings_of("04_cup_linear_factor")
    assert rows["p06"].total == F(5) + F(3) * F(3, 2) == F(19, 2)
    assert rows["p06"].best == F(5)
    assert rows["p07"].total == F(7) + F(1) * F(3, 2) == F(17, 2)
    # p01 and p02 have 4 each, no win; p01's best 4 beats p02's 3.
    assert (rows["p01"].position, rows["p02"].position) == (5, 6)


@pytest.mark.parametrize("name", RATINGS)
def test_every_rating_and_delta_is_the_spec_s(name):
    """Each rating example's final ratings and every table's deltas are the spec's (10^-6)."""
    data = example(name)
    got = run_rating_file(without_expected(data))
    want = data["expected"]
    assert sorted(got["ratings"]) == sorted(want["ratings"])
    for player, rating in want["ratings"].items():
        assert abs(got["ratings"][player] - rating) <= CLOSE, player
    assert [t["id"] for t in got["tables"]] == [t["id"] for t in want["tables"]]
    for mine, theirs in zip(got["tables"], want["tables"], strict=True):
        assert list(mine["delta"]) == list(theirs["delta"])  # seat order
        for player, delta in theirs["delta"].items():
            assert abs(mine["delta"][player] - delta) <= CLOSE, (theirs["id"], player)


def test_first_table_of_new_players_by_hand():
    """t1 of 10 (all 1500, K 40): r06 and r04 tie on -35, r02 is last, r08 first; E is ½ for
    all, S is ½, ½, 0, 1, so the changes are 0, 0, -20, +20."""
    table = rated("10_rating_tables").tables[0]
    assert [(s.player, s.before, s.expected, s.actual, s.k) for s in table.seats] == [
        ("r06", 1500.0, 0.5, 0.5, 40.0),
        ("r04", 1500.0, 0.5, 0.5, 40.0),
        ("r02", 1500.0, 0.5, 0.0, 40.0),
        ("r08", 1500.0, 0.5, 1.0, 40.0),
    ]
    assert [s.delta for s in table.seats] == [0.0, 0.0, -20.0, 20.0]


def test_an_established_player_starts_from_his_rating_with_k_20():
    """r01 starts at 1620 after 40 tables: at t4 his K is 20, the new players' 40."""
    run = rated("10_rating_tables")
    t4 = {s.player: s for s in run.tables[3].seats}
    assert t4["r01"].before == 1620.0
    assert (t4["r01"].k, t4["r02"].k) == (20.0, 40.0)
    assert run.players["r01"].tables == 40 + 7
    assert run.players["r03"].tables == 3


def test_k_falls_after_the_new_tables_threshold():
    """new_tables 3 (11): a player's first three tables are rated at K 40, the rest at 20."""
    run = rated("11_rating_threshold")
    played: dict[str, int] = {}
    for table in run.tables:
        for seat in table.seats:
            assert seat.k == (40.0 if played.get(seat.player, 0) < 3 else 20.0)
            played[seat.player] = played.get(seat.player, 0) + 1
    t5 = {s.player: s.k for s in run.tables[4].seats}
    assert t5 == {"r01": 20.0, "r05": 40.0, "r03": 20.0, "r02": 20.0}


def test_a_rating_is_a_pure_function_of_its_tables():
    """Rating the same tables twice from the same start gives the same list."""
    params, start, tables = read_rating(without_expected(example("10_rating_tables")))
    assert rate_tables(tables, params, start) == rate_tables(tables, params, start)
    assert RatingParams() == RatingParams(1500.0, 400.0, 40.0, 20.0, 20)
    assert start == {"r01": Standing(1620.0, 40)}


@pytest.mark.parametrize("name", SERIES + RATINGS)
def test_the_commands_print_what_the_checker_compares(name, tmp_path):
    """``series_run`` / ``rating_run`` in-process: exit 0 and the engine's document."""
    data = example(name)
    command = "series_run" if name in SERIES else "rating_run"
    code, printed = run_doc(command, without_expected(data), tmp_path)
    assert code == 0
    if command == "series_run":
        assert printed == data["expected"]
    else:
        assert printed == json.loads(json.dumps(run_rating_file(without_expected(data))))
        assert set(printed["tables"][0]) == {"id", "expected", "actual", "delta"}


def test_the_commands_ignore_expected_notes_and_description(tmp_path):
    """A file with its ``expected``, ``notes`` and ``description`` left in is read the same."""
    data = example("03_cup_strike_worst")
    data["notes"] = ["read past"]
    code, printed = run_doc("series_run", data, tmp_path)
    assert (code, printed) == (0, data["expected"])


def test_as_of_counts_only_events_dated_before_it():
    """An event dated on the ``as_of`` day itself does not count (before, not on)."""
    data = without_expected(example("03_cup_strike_worst"))
    data["as_of"] = "2027-01-16"  # e4's date
    seed, rule, events, as_of = read_series(data)
    assert as_of == datetime.date(2027, 1, 16)
    rows = series_standings(seed, rule, events, as_of)
    assert all("e4" not in r.counted + r.struck for r in rows)
    assert {r.player: r.events for r in rows}["p01"] == 3


def test_manage_py_subprocess_reads_a_file(tmp_path):
    """``python manage.py series_run FILE`` as a process: exit 0, the spec's standings."""
    data = example("01_dp_ladder_best_of")
    path = tmp_path / "series.json"
    path.write_text(json.dumps(without_expected(data)), encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "manage.py", "series_run", str(path)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        encoding="utf-8",
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == data["expected"]
