"""Properties of plans, draws and points over random fields, histories and results (hypothesis).

Budgets and field sizes are small so the whole module runs in seconds; the search is compared
with a literal transcription of spec 5.3's pseudo-code, and the checker's ``avoidable`` with a
brute force over every split of the players.
"""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from itertools import combinations

from hypothesis import HealthCheck, event, example, given, settings
from hypothesis import strategies as st

from ledger.tournaments.engine import (
    ERROR,
    FALLBACK,
    FORMATS,
    SEARCH,
    TABLE_SIZES,
    Entry,
    PastRound,
    bye_points,
    check_draw,
    choose_byes,
    draw_round,
    params_for,
    placement_points,
    plan_sizes,
    priority_order,
    round_points,
    table_plan,
)
from ledger.tournaments.engine.search import (
    BudgetExhausted,
    Conflicts,
    ordered_fill,
    repeat_free_exists,
)

from .helpers import reference_fill

GAME_CODES = tuple(TABLE_SIZES)  # every registered game that plays tournaments
FAST = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
CLUBS = ["HjT", "VLK", "FFT", None]


@st.composite
def rounds_to_draw(draw, *, max_players=13, paired_only=False):
    """A round to draw: game, format, entries (some inactive), history, standings, budget."""
    game = draw(st.sampled_from(GAME_CODES))
    format_code = draw(st.sampled_from([f for f, r in FORMATS.items() if r.plays(game)]))
    n = draw(st.integers(min_value=0, max_value=max_players))
    ids = [f"P{i:02d}" for i in range(n)]
    club_apart = draw(st.booleans()) and draw(st.booleans())
    past = draw(st.integers(min_value=0, max_value=4))
    number = past + 1
    entries = [
        Entry(
            p,
            club=draw(st.sampled_from(CLUBS)) if club_apart else None,
            ladder_rank=draw(st.one_of(st.none(), st.integers(min_value=1, max_value=5))),
        )
        for p in ids
    ]
    # Players entered later or withdrawn earlier are entries but not active in this round.
    entries.append(Entry("Late", from_round=number + 1))
    if past:
        entries.append(Entry("Gone", withdrawn_after=past - 1 if past > 1 else None))
    history = []
    for r in range(1, number):
        order = draw(st.permutations(ids + (["Gone"] if r < past else [])))
        plan = table_plan(len(order), game)
        seated, byes = order[: plan.seated], order[plan.seated :]
        tables, start = [], 0
        for size in plan.sizes:
            tables.append(tuple(seated[start : start + size]))
            start += size
        history.append(PastRound(r, tuple(tables), tuple(byes)))
    kinds = ["random", "standings"]
    if not paired_only:
        kinds += ["final"] + (["seeded_groups"] if past == 0 else [])
    kind = draw(st.sampled_from(kinds))
    standings = list(draw(st.permutations([e.id for e in entries])))
    params = params_for(
        format_code,
        {"club_apart": club_apart, "node_budget": draw(st.sampled_from([30, 300, 3000]))},
    )
    seed = draw(st.text(alphabet="abcXYZ019|", min_size=1, max_size=6))
    return dict(
        number=number,
        kind=kind,
        game=game,
        format_code=format_code,
        seed=seed,
        entries=tuple(entries),
        history=tuple(history),
        standings=tuple(standings),
        params=params,
    )


def pairs(tables):
    return {frozenset(p) for t in tables for p in combinations(t, 2)}


@FAST
@given(rounds_to_draw())
def test_every_draw_passes_its_checker_without_an_error(case):
    """Each draw seats every active player once (or gives a bye), at the plan's sizes, and the
    checker, run again from scratch, finds no error-severity violation in it."""
    drawn = draw_round(**case)
    event(f"mode {drawn.mode}")
    event("with warnings" if drawn.warnings else "no warnings")
    assert drawn.errors == ()
    active = [e.id for e in case["entries"] if e.active_in(case["number"])]
    assert sorted(drawn.seated + drawn.byes) == sorted(active)
    plan = table_plan(len(active), case["game"])
    assert tuple(len(t) for t in drawn.tables) == plan.sizes
    again = check_draw(
        game=case["game"],
        format_code=case["format_code"],
        round_number=case["number"],
        kind=case["kind"],
        seed=case["seed"],
        entries=case["entries"],
        tables=drawn.tables,
        byes=drawn.byes,
        history=case["history"],
        params=case["params"],
        mode=drawn.mode,
    )
    assert set(again) == set(drawn.violations)
    assert [v for v in again if v.severity == ERROR] == []


@FAST
@given(rounds_to_draw())
def test_the_same_seed_gives_the_same_draw(case):
    """Drawing twice, with the entries given in reverse order, gives the identical draw."""
    first = draw_round(**case)
    second = draw_round(**{**case, "entries": tuple(reversed(case["entries"]))})
    assert first == second


@FAST
@given(rounds_to_draw(paired_only=True))
def test_the_draw_is_the_pseudo_codes_and_repeat_free_when_it_can_be(case):
    """The draw is the one the literal pseudo-code of 5.3 finds within the same budget: then
    mode ``search`` and no pair meets twice (nor two of a club with club_apart); when the
    pseudo-code finds none or spends its budget, mode ``fallback``."""
    drawn = draw_round(**case)
    params = case["params"]
    players = [e for e in case["entries"] if e.active_in(case["number"])]
    clubs = {e.id: e.club for e in players} if params.club_apart else None
    conflicts = Conflicts(case["history"], clubs)
    seated = [p for p in _order(case, players) if p not in drawn.byes]
    sizes = [len(t) for t in drawn.tables]
    found, nodes = reference_fill(seated, sizes, conflicts.compatible, params.node_budget)
    event("pseudo-code: " + (found if found == "budget" else "none" if found is None else "found"))
    if found in ("budget", None):
        assert drawn.mode == FALLBACK
    else:
        assert drawn.mode == SEARCH
        assert drawn.tables == found
        assert all(conflicts.compatible(a, b) for a, b in map(tuple, pairs(drawn.tables)))
        assert not [v for v in drawn.violations if v.code == "repeat_opponents"]
        if nodes:
            # The budget is counted as the contract counts it: one node fewer is too few.
            try:
                ordered_fill(seated, sizes, conflicts, nodes - 1)
            except BudgetExhausted:
                pass
            else:
                raise AssertionError("the search finished in fewer nodes than the pseudo-code")


def _order(case, players):
    return priority_order(
        kind=case["kind"],
        round_number=case["number"],
        seed=case["seed"],
        players=players,
        standings=case["standings"],
    )


def _splits(players, sizes):
    """Yield every split of ``players`` into tables of the multiset ``sizes`` (brute force)."""
    if not players:
        yield []
        return
    head, rest = players[0], players[1:]
    for size in sorted(set(sizes)):
        left = list(sizes)
        left.remove(size)
        for others in combinations(rest, size - 1):
            remaining = [p for p in rest if p not in others]
            for tail in _splits(remaining, left):
                yield [(head, *others), *tail]


@settings(max_examples=60, deadline=None)
@given(
    st.integers(min_value=6, max_value=10),
    st.sampled_from(GAME_CODES),
    st.lists(st.permutations(list(range(10))), min_size=1, max_size=2),
)
def test_avoidable_agrees_with_a_brute_force(n, game, orders):
    """``avoidable`` (any order of table sizes) is true exactly when some split of the players
    into the plan's sizes repeats no pair of the history."""
    ids = [f"P{i}" for i in range(n)]
    plan = table_plan(n, game)
    history = []
    for r, perm in enumerate(orders, 1):
        order = [ids[i] for i in perm if i < n]
        tables, start = [], 0
        for size in plan.sizes:
            tables.append(tuple(order[start : start + size]))
            start += size
        history.append(PastRound(r, tuple(tables)))
    conflicts = Conflicts(history)
    seated = ids[: plan.seated]
    brute = any(
        all(not conflicts.met(a, b) for t in split for a, b in combinations(t, 2))
        for split in _splits(seated, list(plan.sizes))
    )
    event(f"repeat-free split exists: {brute}")
    assert repeat_free_exists(seated, plan.sizes, conflicts, 10**6) is brute


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(GAME_CODES), st.integers(min_value=0, max_value=400))
@example("toy_high_card", 5)  # tables of 4 or 3 cannot seat 5: one bye
def test_plans_cover_every_player_count(game, n):
    """Every count gets a plan of the game's sizes, base tables first and one exception size
    last, seating the largest m ≤ n that has a plan; fewer than the smallest table: all byes."""
    plan = table_plan(n, game)
    sizes = TABLE_SIZES[game]
    assert plan.seated + plan.byes == n
    assert set(plan.sizes) <= set(sizes.allowed)
    assert len(set(plan.sizes) - {sizes.base}) <= 1
    assert list(plan.sizes) == sorted(plan.sizes, key=lambda s: s != sizes.base)
    assert all(plan_sizes(m, game) is None for m in range(plan.seated + 1, n + 1))
    if n < sizes.smallest:
        assert plan.sizes == () and plan.byes == n
    else:
        assert plan_sizes(plan.seated, game) == plan.sizes
    if game in {"danish_tarok", "slovenian_tarok"} and n >= 3:
        assert plan.byes == 0  # their sizes make every count from 3 (the test game's cannot: 5)
    if game == "hungarian_tarokk":
        assert (plan.byes > 0) == (n in {1, 2, 3, 6, 7, 11})


def test_plans_prefer_the_first_exception_size():
    """A Danish field uses tables of 3 before 5 and a Slovenian one 4 before 5 (section 4): a
    table of 5 appears only when the first exception cannot make the count."""
    for n in range(3, 200):
        danish, slovenian = table_plan(n, "danish_tarok"), table_plan(n, "slovenian_tarok")
        assert (5 in danish.sizes) == (n == 5)
        assert (5 in slovenian.sizes) == (n == 5)


@FAST
@given(
    st.lists(st.integers(min_value=0, max_value=2), min_size=1, max_size=12),
    st.integers(min_value=0, max_value=12),
)
def test_byes_go_to_the_last_among_the_fewest(counts, k):
    """The byes go to the players with the fewest byes so far, the last of the order first;
    nobody with more byes sits out while one with fewer plays."""
    order = [f"P{i}" for i in range(len(counts))]
    k = min(k, len(order))
    so_far = dict(zip(order, counts, strict=True))
    byes = choose_byes(order, k, so_far)
    assert len(byes) == k and list(byes) == [p for p in order if p in byes]
    playing = [p for p in order if p not in byes]
    if byes and playing:
        assert max(so_far[p] for p in byes) <= min(so_far[p] for p in playing)
        worst = max(so_far[p] for p in byes)
        same = [p for p in order if so_far[p] == worst]
        taken = [p for p in same if p in byes]
        assert taken == same[len(same) - len(taken) :]


@FAST
@given(
    st.sampled_from(list(FORMATS)),
    st.lists(
        st.lists(st.integers(min_value=-60, max_value=60), min_size=3, max_size=5),
        min_size=1,
        max_size=4,
    ),
    st.integers(min_value=0, max_value=2),
)
def test_points_per_table_sum_as_the_format_says(format_code, tables_scores, byes):
    """Placement: a table's points are the sum of its places' points whatever the ties, each
    tied group shares equally and the top group counts firsts; sum: points are the scores.
    A bye scores the base table's mean (placement) or 0 (sum)."""
    game = next(g for g in TABLE_SIZES if FORMATS[format_code].plays(g))
    tables: list[list[str]] = []
    scores: dict[str, int] = {}
    for t, row in enumerate(tables_scores):
        seats = [f"T{t}S{s}" for s in range(len(row))]
        tables.append(seats)
        scores.update(zip(seats, row, strict=True))
    bye_ids = [f"B{i}" for i in range(byes)]
    result = round_points(format_code, game, tables, scores, byes=bye_ids)
    points = result.points
    placement = FORMATS[format_code].scoring == "placement"
    for seats in tables:
        total = sum((points[p] for p in seats), Fraction(0))
        if placement:
            assert total == sum(placement_points(format_code, len(seats)), Fraction(0))
        else:
            assert total == sum(scores[p] for p in seats)
        top = max(scores[p] for p in seats)
        assert {p for p in seats if p in result.firsts} == {p for p in seats if scores[p] == top}
        for a in seats:
            for b in seats:
                if scores[a] == scores[b]:
                    assert points[a] == points[b] and result.places[a] == result.places[b]
                elif scores[a] > scores[b]:
                    assert points[a] >= points[b] and result.places[a] < result.places[b]
        place_counts = Counter(result.places[p] for p in seats)
        for place, count in place_counts.items():
            assert all(place + i not in place_counts for i in range(1, count))
    for b in bye_ids:
        assert points[b] == bye_points(format_code, game)
        assert b not in result.places
