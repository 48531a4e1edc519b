"""The draw checker of spec section 13: every rule a proposed draw of one round may break.

The checker reads what the director would see on the draw sheet: the entries, who is active, the
earlier rounds' tables, the byes so far and the proposed tables and byes. It returns the set of
violations as a tuple in a fixed order (the order of section 13's table, then table by table),
so two runs print the same list.

Choices the spec leaves open, made here:

- ``repeat_opponents`` and ``club_together`` are checked in ``random`` and ``standings`` rounds
  only: round 1 of ``sl_dp`` has no history and no club rule (5.2), the ``hu_kupa`` final has no
  repeat rule (5.4).
- ``seeding_groups`` is checked only when every seated player is a known, active entry seated
  once (else the groups have no meaning); a seated player who is in no group (he should have had
  a bye) shows as ``-``.
- The ``avoidable`` search seats the draw's players in their seat order; it is asked only when
  the draw repeats a pair.
- Without ``byes_so_far`` the byes are counted from the history's byes.
- A draw the engine made in mode ``fallback`` has its repeats reported as warnings, as 5.3
  says, even when ``avoidable`` is true. The two rules of the spec meet here: the fallback
  follows a search limited to the plan's order of table sizes, its node budget and (with
  ``club_apart``) the club rule, while ``avoidable`` asks about any order of sizes and repeats
  only; in a few late rounds of small fields the second finds a repeat-free draw the first
  cannot. The draw is still the rule's draw; ``avoidable: true`` tells the director that a
  hand-made draw without repeats exists. Every other draw (``manual``, or no mode) follows the
  table of section 13: an avoidable repeat is an error.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from itertools import combinations

from .model import ERROR, FALLBACK, WARNING, Entry, PastRound, Violation
from .plan import choose_byes, table_plan
from .rules import RANDOM, SEEDED_GROUPS, STANDINGS, Params, default_params
from .search import Conflicts, repeat_free_exists
from .seeding import EXTRA, GROUP_LETTERS, ladder, letters, seeding_groups

NO_GROUP = "-"
_PAIRED_KINDS = (RANDOM, STANDINGS)


def count_byes(history: Sequence[PastRound]) -> dict[str, int]:
    """Return each player's number of byes in ``history``."""
    return dict(Counter(p for past in history for p in past.byes))


def check_draw(
    *,
    game: str,
    format_code: str,
    round_number: int,
    kind: str,
    seed: str,
    entries: Sequence[Entry],
    tables: Sequence[Sequence[str]],
    byes: Sequence[str],
    history: Sequence[PastRound] = (),
    byes_so_far: Mapping[str, int] | None = None,
    active: Sequence[str] | None = None,
    params: Params | None = None,
    mode: str | None = None,
) -> tuple[Violation, ...]:
    """Return the violations of the proposed draw ``tables`` and ``byes`` of one round.

    ``active`` defaults to the entries active in ``round_number``; ``params`` to the format's.
    ``mode`` is the draw's mode when the engine made it (``fallback`` makes repeats warnings).
    """
    params = params or default_params(format_code)
    by_id = {e.id: e for e in entries}
    active = tuple(
        active if active is not None else (e.id for e in entries if e.active_in(round_number))
    )
    active_set = set(active)
    if byes_so_far is None:
        byes_so_far = count_byes(history)
    tables = tuple(tuple(t) for t in tables)
    byes = tuple(byes)
    seen = [p for table in tables for p in table] + list(byes)
    counts = Counter(seen)
    first_seen = list(dict.fromkeys(seen))

    found: list[Violation] = []
    for p in first_seen:
        if p not in by_id:
            found.append(Violation("unknown_player", ERROR, (("id", p),)))
    for p in first_seen:
        if p in by_id and p not in active_set:
            found.append(Violation("inactive_player", ERROR, (("id", p),)))
    for p in first_seen:
        if counts[p] > 1:
            found.append(Violation("duplicate_player", ERROR, (("id", p),)))
    for p in active:
        if p not in counts:
            found.append(Violation("missing_player", ERROR, (("id", p),)))
    players_ok = not found

    plan = table_plan(len(active), game)
    expected, got = tuple(sorted(plan.sizes)), tuple(sorted(len(t) for t in tables))
    if expected != got:
        found.append(Violation("table_sizes", ERROR, (("expected", expected), ("got", got))))
    if plan.byes != len(byes):
        found.append(Violation("bye_count", ERROR, (("expected", plan.byes), ("got", len(byes)))))
    structural = bool(found)

    if kind == SEEDED_GROUPS and players_ok:
        found.extend(_seeding(seed, [by_id[p] for p in active], tables, plan, byes_so_far))

    if kind in _PAIRED_KINDS:
        clubs = {e.id: e.club for e in entries} if params.club_apart else None
        conflicts = Conflicts(history, clubs)
        found.extend(_repeats(tables, conflicts, structural, params.node_budget, mode == FALLBACK))
        if params.club_apart:
            found.extend(_clubs(tables, conflicts))

    seated = {p for table in tables for p in table if p in by_id}
    fewest_seated = min((byes_so_far.get(p, 0) for p in seated), default=None)
    for p in dict.fromkeys(byes):
        if fewest_seated is not None and fewest_seated < byes_so_far.get(p, 0):
            found.append(Violation("second_bye", WARNING, (("id", p),)))
    return tuple(found)


def _seeding(seed, active_entries, tables, plan, byes_so_far) -> list[Violation]:
    order = ladder(seed, active_entries)
    rule_byes = set(choose_byes(order, plan.byes, byes_so_far))
    seated = [p for p in order if p not in rule_byes]
    letter = letters(seeding_groups(seed, seated, len(plan.sizes)))
    found = []
    for number, table in enumerate(tables, 1):
        groups = sorted(letter.get(p, NO_GROUP) for p in table)
        wanted = sorted([*GROUP_LETTERS, *[EXTRA] * (len(table) - len(GROUP_LETTERS))])
        if groups != wanted:
            found.append(
                Violation("seeding_groups", ERROR, (("table", number), ("groups", tuple(groups))))
            )
    return found


def _repeats(
    tables, conflicts: Conflicts, structural: bool, budget: int, fallback: bool
) -> list[Violation]:
    repeats = []
    for number, table in enumerate(tables, 1):
        pairs = {tuple(sorted(pair)) for pair in combinations(table, 2) if pair[0] != pair[1]}
        for a, b in sorted(pairs):
            rounds = conflicts.met(a, b)
            if rounds:
                repeats.append((number, (a, b), rounds))
    if not repeats:
        return []
    if structural:
        avoidable = None
    else:
        players = [p for table in tables for p in table]
        avoidable = repeat_free_exists(players, [len(t) for t in tables], conflicts, budget)
    severity = ERROR if avoidable is True and not fallback else WARNING
    return [
        Violation(
            "repeat_opponents",
            severity,
            (("table", number), ("pair", pair), ("rounds", rounds), ("avoidable", avoidable)),
        )
        for number, pair, rounds in repeats
    ]


def _clubs(tables, conflicts: Conflicts) -> list[Violation]:
    found = []
    for number, table in enumerate(tables, 1):
        pairs = {tuple(sorted(pair)) for pair in combinations(table, 2) if pair[0] != pair[1]}
        for a, b in sorted(pairs):
            club = conflicts.same_club(a, b)
            if club:
                found.append(
                    Violation(
                        "club_together",
                        WARNING,
                        (("table", number), ("pair", (a, b)), ("club", club)),
                    )
                )
    return found
