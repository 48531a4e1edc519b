"""Points (section 7), standings and the ranking (8), entries and withdrawals (9), corrections
(11), through the API and through tournament files."""

from __future__ import annotations

from fractions import Fraction as F
from typing import Any

import pytest

from ledger.tournaments.engine import (
    MANUAL,
    Entry,
    RoundInput,
    Tournament,
    TournamentError,
    bye_points,
    lot_decided,
    params_for,
    placement_points,
    read_tournament,
    round_points,
    run_file,
    run_tournament,
    standings,
    table_points,
)

from .helpers import example, without_expected


def points_of(format_code, seats, scores, **kw):
    return [
        (r.player, r.place, r.points, r.first)
        for r in table_points(format_code, seats, scores, **kw)
    ]


def test_dp_points_at_three_four_and_five_seats():
    """sl_dp: 2, 1, 1/2 at three seats; 2, 3/2, 1, 1/2 at four; 2, 3/2, 1, 1/2, 0 at five."""
    assert placement_points("sl_dp", 3) == (F(2), F(1), F(1, 2))
    assert placement_points("sl_dp", 4) == (F(2), F(3, 2), F(1), F(1, 2))
    assert placement_points("sl_dp", 5) == (F(2), F(3, 2), F(1), F(1, 2), F(0))
    assert placement_points("generic_placement", 4) == (F(3), F(2), F(1), F(0))


def test_ties_at_a_table_of_three_share_places():
    """Two tied first get 3/2 each (both a first), the third 1/2; all three tied 7/6 each."""
    assert points_of("sl_dp", ["A", "B", "C"], {"A": 10, "B": 10, "C": -20}) == [
        ("A", 1, F(3, 2), True),
        ("B", 1, F(3, 2), True),
        ("C", 3, F(1, 2), False),
    ]
    assert points_of("sl_dp", ["A", "B", "C"], {"A": 0, "B": 0, "C": 0}) == [
        ("A", 1, F(7, 6), True),
        ("B", 1, F(7, 6), True),
        ("C", 1, F(7, 6), True),
    ]


def test_a_tie_for_second_at_four_seats():
    """Four seats, two tied second: (3/2 + 1) / 2 = 5/4 each, place 2."""
    got = points_of("sl_dp", ["A", "B", "C", "D"], {"A": 5, "B": 9, "C": 5, "D": 1})
    assert got == [
        ("A", 2, F(5, 4), False),
        ("B", 1, F(2), True),
        ("C", 2, F(5, 4), False),
        ("D", 4, F(1, 2), False),
    ]


def test_a_leaver_takes_the_last_place():
    """One who left takes the last place and its points even with the best score; the others
    keep their order above him (section 9); in a sum format his points are his score."""
    scores = {"A": 50, "B": 10, "C": -60}
    assert points_of("sl_dp", ["A", "B", "C"], scores, leavers={"A"}) == [
        ("A", 3, F(1, 2), False),
        ("B", 1, F(2), True),
        ("C", 2, F(1), False),
    ]
    assert points_of("dk_dm", ["A", "B", "C"], scores, leavers={"A"})[0] == ("A", 3, F(50), False)


def test_bye_points():
    """A bye scores the base table's mean: 7/6 in sl_dp, 3/2 in generic placement at a Danish
    base table of 4, 0 in the sum formats."""
    assert bye_points("sl_dp", "slovenian_tarok") == F(7, 6)
    assert bye_points("generic_placement", "danish_tarok") == F(3, 2)
    assert bye_points("dk_dm", "danish_tarok") == 0
    result = round_points(
        "sl_dp", "slovenian_tarok", [["A", "B", "C"]], {"A": 1, "B": 2, "C": 3}, byes=["D"]
    )
    assert result.points["D"] == F(7, 6) and "D" not in result.places


def test_round_points_name_a_missing_or_extra_score():
    """Scores must cover exactly the seated players: the problem names scores.<id>."""
    with pytest.raises(TournamentError) as caught:
        round_points("sl_dp", "slovenian_tarok", [["A", "B", "C"]], {"A": 1, "B": 2, "Z": 3})
    assert [(p.field, p.message) for p in caught.value.problems] == [
        ("scores.C", "C is seated but has no table score"),
        ("scores.Z", "Z is not seated in this round"),
    ]


def six_player_tournament(format_code="generic_placement", game="slovenian_tarok", **params):
    ids = ["A", "B", "C", "D", "E", "F"]
    return Tournament(
        game,
        format_code,
        "T6",
        params_for(format_code, {"rounds": 3, **params}),
        tuple(Entry(p) for p in ids),
    )


def seated_in(tournament, rounds, given):
    """Return the players seated, in seat order, by the draw of the round ``given`` opens."""
    try:
        run_tournament(tournament, [*rounds, given])
    except TournamentError as error:
        return [p.field.rsplit(".", 1)[1] for p in error.problems]
    return []  # pragma: no cover - a round with seated players always needs results


def results_for(tournament, rounds, scores, **extra):
    """Return the next round's RoundInput with ``scores`` given in the seat order of its draw."""
    number = len(rounds) + 1
    seated = seated_in(tournament, rounds, RoundInput(number, {}, **extra))
    return RoundInput(number, dict(zip(seated, scores, strict=True)), **extra)


def test_late_entrant_and_withdrawal_are_ranked_with_their_status():
    """A latecomer (from round 2) scores 0 for round 1 and is marked entered_round_2; a player
    withdrawn before round 3 is not drawn, keeps his points and is marked
    withdrawn_after_round_2; both stay in the ranking."""
    base = six_player_tournament()
    tournament = Tournament(
        base.game,
        base.format_code,
        base.seed,
        base.params,
        (*base.entries, Entry("G", from_round=2)),
    )
    one = results_for(tournament, [], [30, 20, 10, 3, 2, 1])
    assert "G" not in one.results
    two = results_for(tournament, [one], [7, 6, 5, 4, 3, 2, 1])
    assert "G" in two.results
    three = results_for(tournament, [one, two], [1, 2, 3, 4, 5, 6], withdraw_before=("A",))
    assert "A" not in three.results
    run = run_tournament(tournament, [one, two, three])
    by_id = {r.id: r for r in run.ranking}
    assert by_id["G"].status == "entered_round_2"
    assert by_id["G"].round_points[0] == 0 and by_id["G"].rounds_played == 2
    assert by_id["A"].status == "withdrawn_after_round_2"
    assert by_id["A"].rounds_played == 2 and by_id["A"].round_points[2] == 0
    assert by_id["A"].points == sum(by_id["A"].round_points)
    assert len(run.ranking) == 7


def test_withdrawals_that_cannot_be_are_refused():
    """Nobody withdraws before round 1, nor twice, nor without an entry: each names its item."""
    tournament = six_player_tournament()
    one = results_for(tournament, [], [1, 2, 3, 4, 5, 6])
    cases = [
        (
            [RoundInput(1, {}, withdraw_before=("A",))],
            "rounds[0].withdraw_before[0]",
            "nobody withdraws before round 1: leave A out of the entries",
        ),
        (
            [one, RoundInput(2, {}, withdraw_before=("Q",))],
            "rounds[1].withdraw_before[0]",
            "Q has no entry",
        ),
        (
            [one, RoundInput(2, {}, withdraw_before=("A", "A"))],
            "rounds[1].withdraw_before[1]",
            "A is withdrawn twice",
        ),
    ]
    for rounds, field, message in cases:
        with pytest.raises(TournamentError) as caught:
            run_tournament(tournament, rounds)
        assert (caught.value.problems[0].field, caught.value.problems[0].message) == (
            field,
            message,
        )


def test_a_correction_changes_points_and_later_draws_but_not_the_published_draw():
    """01 with round 1's Lara corrected to 90 after round 2 was drawn: round 2's tables stay the
    spec's, round 1's points become Lara 2, Dana and Franc 3/4 each, and round 3 is drawn from
    the corrected standings."""
    data = without_expected(example("01_sl12_dp"))
    data["rounds"][1]["corrections_after_draw"] = [
        {"round": 1, "scores": {"Lara": 90}, "reason": "hand 7 entered for the wrong player"}
    ]
    out = run_file(data)
    spec = example("01_sl12_dp")["expected"]["rounds"]
    assert out["rounds"][1]["tables"] == spec[1]["tables"]
    assert {p: out["rounds"][0]["points"][p] for p in ("Dana", "Franc", "Lara")} == {
        "Dana": "3/4",
        "Franc": "3/4",
        "Lara": "2",
    }
    assert out["rounds"][2]["tables"] == [
        ["Gal", "Jana", "Lara"],
        ["Ivo", "Eva", "Klemen"],
        ["Ana", "Hana", "Dana"],
        ["Bor", "Franc", "Cene"],
    ]
    assert out["rounds"][2]["tables"] != spec[2]["tables"]


def test_a_correction_of_the_same_or_a_later_round_is_refused():
    """corrections_after_draw in round 2 may correct round 1 only: the field names .round."""
    data = without_expected(example("01_sl12_dp"))
    data["rounds"][1]["corrections_after_draw"] = [
        {"round": 2, "scores": {"Lara": 90}, "reason": "typo"}
    ]
    with pytest.raises(TournamentError) as caught:
        run_file(data)
    assert [(p.field, p.message) for p in caught.value.problems] == [
        (
            "rounds[1].corrections_after_draw[0].round",
            "a correction after the draw of round 2 is of an earlier round (1 to 1)",
        )
    ]


def test_a_manual_draw_is_used_and_checked():
    """A given draw replaces the computed one (mode manual); an avoidable repeat in it stays on
    the draw as an error finding, it does not stop the tournament."""
    data = without_expected(example("01_sl12_dp"))
    data["rounds"] = data["rounds"][:2]
    tables = [
        ["Ana", "Eva", "Bor"],
        ["Jana", "Gal", "Klemen"],
        ["Cene", "Hana", "Ivo"],
        ["Dana", "Franc", "Lara"],
    ]
    data["rounds"][1]["draw"] = {"tables": tables, "byes": []}
    tournament, rounds = read_tournament(data)
    run = run_tournament(tournament, rounds)
    draw = run.rounds[1].draw
    assert draw.mode == MANUAL and [list(t) for t in draw.tables] == tables
    assert {v.code for v in draw.errors} == {"repeat_opponents"}
    assert ("Ana", "Eva") in {v.get("pair") for v in draw.errors}


def test_hu_kupa_ranks_one_withdrawn_before_the_final_after_its_groups():
    """04 with Béla withdrawn before the final: the final seats the other 10 at two tables of 5
    with no bye (Dóra plays), and Béla is ranked last, after every final group, marked
    withdrawn_after_round_2 with no final score."""
    data = without_expected(example("04_hu11_byes"))
    final = data["rounds"][2]
    final["withdraw_before"] = ["Béla"]
    del final["results"]["Béla"]
    final["results"]["Dóra"] = 2
    out = run_file(data)
    assert out["rounds"][2]["byes"] == []
    assert out["rounds"][2]["tables"][1] == ["Hajni", "Gábor", "Ede", "Feri", "Dóra"]
    last = out["ranking"][-1]
    assert (last["id"], last["status"], last["final_score"]) == (
        "Béla",
        "withdrawn_after_round_2",
        None,
    )
    assert [r["id"] for r in out["ranking"][5:7]] == ["Dóra", "Hajni"]


def test_standings_break_ties_in_the_formats_order():
    """Sum formats: points, then firsts, then best round (none last), then the lot; placement
    formats: points, then score_sum, then firsts, then the lot."""
    tournament = six_player_tournament("generic_sum")
    one = results_for(tournament, [], [10, 0, -10, 10, 0, -10])
    run = run_tournament(tournament, [one])
    rows = standings(
        format_code="generic_sum", seed="T6", entries=tournament.entries, rounds=run.rounds
    )
    assert [r.points for r in rows] == [F(10), F(10), F(0), F(0), F(-10), F(-10)]
    assert rows[0].lot < rows[1].lot and rows[2].lot < rows[3].lot
    never = standings(format_code="generic_sum", seed="T6", entries=tournament.entries, rounds=())
    assert all(r.best_round is None and r.points == 0 for r in never)
    assert [r.id for r in never] == sorted(
        (e.id for e in tournament.entries), key=lambda p: next(x.lot for x in never if x.id == p)
    )


def test_a_leaver_is_placed_last_and_withdrawn_from_later_rounds():
    """One who leaves during round 1 takes his table's last place (1/2 at a DP table of three)
    whatever his score, is not drawn in round 2 and is ranked as withdrawn_after_round_1."""
    tournament = six_player_tournament("sl_dp")
    first = results_for(tournament, [], [90, 10, -100, 5, 4, 3])
    leaver = next(iter(first.results))
    one = RoundInput(1, first.results, leavers=frozenset({leaver}))
    two = results_for(tournament, [one], [1, 2, 3, 4, 5])
    assert leaver not in two.results
    run = run_tournament(tournament, [one, two])
    seat = next(s for s in run.rounds[0].result.seats if s.player == leaver)
    assert (seat.place, seat.points, seat.first, seat.left) == (3, F(1, 2), False, True)
    row = next(r for r in run.ranking if r.id == leaver)
    assert row.status == "withdrawn_after_round_1" and row.rounds_played == 1


def test_the_api_names_a_result_that_is_no_whole_number():
    """run_tournament refuses a table score of "5" or true by its result's path."""
    tournament = six_player_tournament()
    first = results_for(tournament, [], [1, 2, 3, 4, 5, 6])
    a, b = list(first.results)[:2]
    # Results of the wrong type on purpose: the engine must refuse them by their path.
    results: dict[str, Any] = {**first.results, a: "5", b: True}
    bad = RoundInput(1, results)
    with pytest.raises(TournamentError) as caught:
        run_tournament(tournament, [bad])
    assert [(p.field, p.message) for p in caught.value.problems] == [
        (f"rounds[0].results.{a}", "a table score must be a whole number"),
        (f"rounds[0].results.{b}", "a table score must be a whole number"),
    ]


def test_a_blank_club_is_no_club():
    """An entry's empty club means none (club_apart does not pair blanks); a club that is no
    text is refused."""
    data = without_expected(example("02_dk25_dm"))
    data["entries"][0]["club"] = ""
    tournament, _ = read_tournament(data)
    assert tournament.entries[0].club is None
    data["entries"][0]["club"] = 7
    with pytest.raises(TournamentError) as caught:
        read_tournament(data)
    assert caught.value.problems[0].field == "entries[0].club"


def test_the_lot_decides_only_neighbours_equal_on_every_other_criterion():
    """Example 01: after round 1 Dana and Franc (3/2, score sum 80, a first each) are ordered
    by the lot alone, after round 3 Eva and Hana (7/2, 65, one first); Ivo and Jana (5 each)
    are not, the score sum decides."""
    data = example("01_sl12_dp")
    tournament, rounds = read_tournament(without_expected(data))
    run = run_tournament(tournament, rounds)

    def decided(played):
        rows = standings(format_code="sl_dp", seed=data["seed"], entries=run.entries, rounds=played)
        return lot_decided(format_code="sl_dp", rows=rows, rounds=played)

    assert decided(run.rounds[:1]) == (("Dana", "Franc"),)
    assert decided(run.rounds) == (("Eva", "Hana"),)


def test_in_a_hu_kupa_final_the_lot_decides_only_inside_a_group_at_an_equal_final_score():
    """hu_kupa, eight players level after one round (every table score 0): the preliminary
    standing is the lot's. In the final two of group 1 with equal final scores are ordered by
    the lot; two of group 2 with different final scores are not, nor the last of group 1 and
    the first of group 2."""
    tournament = Tournament(
        "hungarian_tarokk",
        "hu_kupa",
        "K8",
        params_for("hu_kupa", {"rounds": 1}),
        tuple(Entry(p) for p in "ABCDEFGH"),
    )
    one = results_for(tournament, [], [0] * 8)
    final = results_for(tournament, [one], [5, 5, -5, -5, 9, 3, -3, -9])
    run = run_tournament(tournament, [one, final])
    assert lot_decided(format_code="hu_kupa", rows=run.ranking, rounds=run.rounds) == (
        (run.ranking[0].id, run.ranking[1].id),
        (run.ranking[2].id, run.ranking[3].id),
    )
    assert [r.final_score for r in run.ranking] == [5, 5, -5, -5, 9, 3, -3, -9]
