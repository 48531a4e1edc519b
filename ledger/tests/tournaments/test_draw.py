"""The draw of spec section 5 and the checker of section 13, case by case."""

from __future__ import annotations

import pytest

from ledger.tournaments.engine import (
    DIRECT,
    ERROR,
    FALLBACK,
    MANUAL,
    SEARCH,
    WARNING,
    Entry,
    PastRound,
    check_draw,
    draw_round,
    h,
    ladder,
    manual_draw,
    params_for,
    priority_order,
    random_order,
    round_kind,
    seeding_groups,
    table_plan,
)
from ledger.tournaments.engine.search import Conflicts, fallback_fill

SIX = ["Anja", "Blaž", "Cvetka", "Darko", "Emil", "Fani"]


def entries(ids, **extra):
    return tuple(Entry(p, **extra) for p in ids)


def test_the_hash_is_sha256_of_the_parts_joined_by_bars():
    """h(seed, p1, p2, …) is the SHA-256 hex of 'seed|p1|p2|…', integers in decimal."""
    import hashlib

    assert h("S", "order", 2, "Ana") == hashlib.sha256(b"S|order|2|Ana").hexdigest()
    assert random_order("S", 1, ["b", "a", "c"]) == tuple(
        sorted("abc", key=lambda p: hashlib.sha256(f"S|order|1|{p}".encode()).hexdigest())
    )


def test_the_ladder_puts_ranked_players_first_and_breaks_equal_ranks_by_hash():
    """Ranks ascend; two players of rank 2 go by h(seed, 'unranked', id); the unranked follow,
    by the same hash (newcomers at the bottom)."""
    people = [
        Entry("Zala", ladder_rank=2),
        Entry("Ana", ladder_rank=2),
        Entry("Boris", ladder_rank=1),
        Entry("Nov", ladder_rank=None),
        Entry("Mia", ladder_rank=None),
    ]
    order = ladder("S", people)
    assert order[0] == "Boris"
    tied = sorted(["Zala", "Ana"], key=lambda p: h("S", "unranked", p))
    new = sorted(["Nov", "Mia"], key=lambda p: h("S", "unranked", p))
    assert order[1:] == (*tied, *new)


def test_seeded_groups_with_an_exception_table_take_x_at_the_bigger_table():
    """Slovenian 7 = 3 + 4: A = ladder 1-2, B 3-4, C 5-6 and X = 7 goes to table 2 (size 4)."""
    people = tuple(Entry(f"P{i}", ladder_rank=i) for i in range(1, 8))
    drawn = draw_round(
        number=1,
        kind="seeded_groups",
        game="slovenian_tarok",
        format_code="sl_dp",
        seed="S",
        entries=people,
    )
    assert [len(t) for t in drawn.tables] == [3, 4]
    assert [t[0] for t in drawn.tables] == ["P1", "P2"]
    assert drawn.tables[1][3] == "P7" and drawn.groups["P7"] == "X"
    groups = seeding_groups("S", ["P1", "P2", "P3", "P4", "P5", "P6", "P7"], 2)
    assert set(groups["B"]) == {"P3", "P4"} and groups["X"] == ("P7",)
    assert drawn.mode == DIRECT and drawn.violations == ()


def test_a_latecomer_and_a_withdrawn_player_are_not_drawn():
    """Only active players are drawn: one entered for round 3 and one withdrawn after round 1
    sit neither at a table nor on a bye in round 2."""
    people = (
        *entries(["A", "B", "C", "D", "E", "F"]),
        Entry("Late", from_round=3),
        Entry("Gone", withdrawn_after=1),
    )
    drawn = draw_round(
        number=2,
        kind="random",
        game="slovenian_tarok",
        format_code="generic_sum",
        seed="S",
        entries=people,
    )
    assert sorted(drawn.seated) == ["A", "B", "C", "D", "E", "F"] and drawn.byes == ()
    assert Entry("Late", from_round=3).status == "entered_round_3"
    assert Entry("Gone", withdrawn_after=1).status == "withdrawn_after_round_1"


def test_byes_in_a_hungarian_field_of_seven():
    """Hungarian 7 has one table of 5 and two byes: the last two of the random order."""
    people = entries(["A", "B", "C", "D", "E", "F", "G"])
    drawn = draw_round(
        number=1,
        kind="random",
        game="hungarian_tarokk",
        format_code="hu_kupa",
        seed="S",
        entries=people,
    )
    order = random_order("S", 1, "ABCDEFG")
    assert drawn.byes == order[-2:]
    assert drawn.tables == (order[:5],)
    assert drawn.first_dealers == (order[0],)


def test_the_fallback_seats_by_smallest_added_conflict_and_warns():
    """Six players at two tables of 3 after a round: no repeat-free draw; the fallback seats
    seat by seat by the least conflict, earliest in the order among equals, and the repeats
    are warnings with avoidable false."""
    history = [PastRound(1, (("Anja", "Cvetka", "Emil"), ("Blaž", "Darko", "Fani")))]
    drawn = draw_round(
        number=2,
        kind="standings",
        game="slovenian_tarok",
        format_code="sl_dp",
        seed="S",
        entries=entries(SIX),
        history=history,
        standings=SIX,
    )
    assert drawn.mode == FALLBACK
    # Anja heads table 1; Blaž (no conflict) joins; then Cvetka, Darko … all cost 1: Cvetka.
    assert drawn.tables == (("Anja", "Blaž", "Cvetka"), ("Darko", "Emil", "Fani"))
    assert fallback_fill(SIX, [3, 3], Conflicts(history)) == drawn.tables
    assert {(v.code, v.severity, v.get("avoidable")) for v in drawn.violations} == {
        ("repeat_opponents", WARNING, False)
    }


def test_a_tiny_budget_forces_the_fallback_and_null_avoidable_is_a_warning():
    """Round 3 of 9 players after two rounds: with node_budget 5 the search gives up, the
    fallback (seat by seat, least added conflict, earliest among equals) repeats two pairs, and
    the checker, on the same budget, leaves avoidable null: warnings. With the default budget
    the search finds a repeat-free draw."""
    ids = [f"P{i}" for i in range(9)]
    history = [
        PastRound(1, (tuple(ids[0:3]), tuple(ids[3:6]), tuple(ids[6:9]))),
        PastRound(2, (("P0", "P3", "P6"), ("P1", "P4", "P7"), ("P2", "P5", "P8"))),
    ]
    common = dict(
        number=3,
        kind="standings",
        game="slovenian_tarok",
        format_code="sl_dp",
        seed="S",
        entries=entries(ids),
        history=history,
        standings=ids,
    )
    drawn = draw_round(**common, params=params_for("sl_dp", {"node_budget": 5}))
    assert drawn.mode == FALLBACK
    # P1 heads table 2, P3 joins free; then P2, P5, P6, P7 each cost 1: P2, the earliest.
    assert drawn.tables == (("P0", "P4", "P8"), ("P1", "P3", "P2"), ("P5", "P6", "P7"))
    assert [(v.get("pair"), v.get("avoidable"), v.severity) for v in drawn.violations] == [
        (("P1", "P2"), None, WARNING),
        (("P6", "P7"), None, WARNING),
    ]
    roomy = draw_round(**common)
    assert roomy.mode == SEARCH and roomy.violations == ()
    assert roomy.tables == (("P0", "P4", "P8"), ("P1", "P5", "P6"), ("P2", "P3", "P7"))


def test_club_apart_keeps_clubs_apart_when_it_can():
    """With club_apart, two of a club are a conflict for the fill: eight players of four clubs
    of two at two tables of 4 sit with no club-mate, and the checker finds nothing."""
    people = tuple(Entry(f"P{i}", club=f"K{i // 2}") for i in range(8))
    drawn = draw_round(
        number=1,
        kind="random",
        game="danish_tarok",
        format_code="dk_dm",
        seed="S",
        entries=people,
        params=params_for("dk_dm", {"club_apart": True}),
    )
    assert drawn.mode == SEARCH and drawn.violations == ()
    for table in drawn.tables:
        assert len({p.club for p in people if p.id in table}) == 4


def test_the_final_cuts_the_standings_by_the_plan():
    """The final of 13 Hungarian players: groups 1-4, 5-8, 9-13 (the group of 5 last), direct."""
    ids = [f"P{i:02d}" for i in range(13)]
    drawn = draw_round(
        number=5,
        kind="final",
        game="hungarian_tarokk",
        format_code="hu_kupa",
        seed="S",
        entries=entries(ids),
        standings=ids,
        history=[PastRound(1, (tuple(ids[:4]),))],
    )
    assert drawn.tables == (tuple(ids[0:4]), tuple(ids[4:8]), tuple(ids[8:13]))
    assert drawn.mode == DIRECT and drawn.violations == ()


def test_round_kinds_by_format():
    """sl_dp: seeded groups then standings; dk_dm random; hu_kupa random then the final after
    the preliminary rounds; generic: random then standings."""
    assert [round_kind("sl_dp", r) for r in (1, 2, 4)] == [
        "seeded_groups",
        "standings",
        "standings",
    ]
    assert [round_kind("hu_kupa", r) for r in (1, 4, 5)] == ["random", "random", "final"]
    assert round_kind("generic_placement", 2) == "standings"
    with pytest.raises(ValueError):
        round_kind("dk_dm", 3)


def test_priority_order_needs_every_active_player_in_the_standings():
    """A standings round refuses standings that leave out an active player."""
    with pytest.raises(ValueError, match="leave out"):
        priority_order(
            kind="standings", round_number=2, seed="S", players=entries("AB"), standings=["A"]
        )


# The checker (section 13).


def test_checker_reports_every_structural_error_at_once():
    """Unknown, inactive, duplicate and missing players, wrong table sizes and bye count are
    all reported, each player once."""
    people = (*entries(["A", "B", "C", "D", "E", "F", "G"]), Entry("H", withdrawn_after=1))
    found = check_draw(
        game="danish_tarok",
        format_code="dk_dm",
        round_number=2,
        kind="random",
        seed="S",
        entries=people,
        tables=[["A", "B", "C", "X"], ["D", "E", "E"], ["H", "F"]],
        byes=["X"],
    )
    assert [v.as_dict() for v in found] == [
        {"code": "unknown_player", "id": "X", "severity": "error"},
        {"code": "inactive_player", "id": "H", "severity": "error"},
        {"code": "duplicate_player", "id": "X", "severity": "error"},
        {"code": "duplicate_player", "id": "E", "severity": "error"},
        {"code": "missing_player", "id": "G", "severity": "error"},
        {"code": "table_sizes", "expected": [3, 4], "got": [2, 3, 4], "severity": "error"},
        {"code": "bye_count", "expected": 0, "got": 1, "severity": "error"},
    ]


def test_an_avoidable_repeat_is_an_error_in_a_manual_draw_but_not_in_a_fallback():
    """The same repeat is an error in a hand-made draw (a repeat-free draw exists) and a
    warning, still marked avoidable, when the engine's fallback made the draw (5.3)."""
    ids = [f"P{i}" for i in range(9)]
    history = [PastRound(1, (tuple(ids[0:3]), tuple(ids[3:6]), tuple(ids[6:9])))]
    tables = [["P0", "P1", "P3"], ["P2", "P4", "P6"], ["P5", "P7", "P8"]]
    common = dict(
        game="slovenian_tarok",
        format_code="sl_dp",
        round_number=2,
        kind="standings",
        seed="S",
        entries=entries(ids),
        tables=tables,
        byes=[],
        history=history,
    )
    manual = check_draw(**common)
    fallback = check_draw(**common, mode=FALLBACK)
    assert [(v.get("pair"), v.severity, v.get("avoidable")) for v in manual] == [
        (("P0", "P1"), ERROR, True),
        (("P7", "P8"), ERROR, True),
    ]
    assert [(v.get("pair"), v.severity, v.get("avoidable")) for v in fallback] == [
        (("P0", "P1"), WARNING, True),
        (("P7", "P8"), WARNING, True),
    ]
    hand_made = manual_draw(
        number=2,
        kind="standings",
        game="slovenian_tarok",
        format_code="sl_dp",
        seed="S",
        entries=entries(ids),
        tables=tables,
        history=history,
    )
    assert hand_made.mode == MANUAL and hand_made.violations == manual


def test_repeats_carry_every_round_the_pair_met():
    """A pair that met in rounds 1 and 3 is reported with rounds [1, 3]."""
    history = [
        PastRound(1, (("A", "B", "C"),)),
        PastRound(2, (("A", "C", "B"),)),
        PastRound(3, (("B", "A", "C"),)),
    ]
    found = check_draw(
        game="slovenian_tarok",
        format_code="generic_sum",
        round_number=4,
        kind="standings",
        seed="S",
        entries=entries("ABC"),
        tables=[["A", "B", "C"]],
        byes=[],
        history=history,
    )
    assert found[0].as_dict() == {
        "code": "repeat_opponents",
        "table": 1,
        "pair": ["A", "B"],
        "rounds": [1, 2, 3],
        "avoidable": False,
        "severity": "warning",
    }


def test_byes_so_far_default_to_the_history_byes():
    """Without byes_so_far the checker counts the history's byes: a second bye to Feri while
    the others have none is a warning."""
    six = ["Anna", "Béla", "Csaba", "Dóra", "Ede", "Feri"]
    found = check_draw(
        game="hungarian_tarokk",
        format_code="hu_kupa",
        round_number=2,
        kind="final",
        seed="S",
        entries=entries(six),
        tables=[six[:5]],
        byes=["Feri"],
        history=[PastRound(1, (tuple(six[:5]),), ("Feri",))],
    )
    assert [v.as_dict() for v in found] == [
        {"code": "second_bye", "id": "Feri", "severity": "warning"}
    ]
    assert table_plan(6, "hungarian_tarokk").byes == 1
