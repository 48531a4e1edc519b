"""The draw of a round (spec section 5): its priority order, byes, tables, mode and findings.

A draw depends only on its inputs: the same seed, entries, history and standings give the same
draw, so anyone can recompute a published draw [FIDE-C04]. Every draw made here is run through
the checker (section 13) and carries its findings; a hand-made draw (``manual_draw``) is checked
the same way.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from types import MappingProxyType

from .checker import check_draw, count_byes
from .hashing import random_order
from .model import DIRECT, FALLBACK, MANUAL, SEARCH, Draw, Entry, PastRound
from .plan import choose_byes, table_plan
from .rules import FINAL, FORMATS, KINDS, RANDOM, SEEDED_GROUPS, STANDINGS, Params, default_params
from .search import BudgetExhausted, Conflicts, fallback_fill, ordered_fill
from .seeding import ladder, letters, seeded_tables, seeding_groups


def round_kind(format_code: str, round_number: int, params: Params | None = None) -> str:
    """Return the kind of round ``round_number`` in the format (section 5.1)."""
    rules = FORMATS[format_code]
    rounds = (params or default_params(format_code)).rounds
    if round_number < 1 or round_number > rules.last_round(rounds):
        raise ValueError(f"{format_code} with {rounds} rounds has no round {round_number}")
    return rules.kind_of(round_number, rounds)


def priority_order(
    *,
    kind: str,
    round_number: int,
    seed: str,
    players: Sequence[Entry],
    standings: Sequence[str] | None = None,
) -> tuple[str, ...]:
    """Return the round's priority order of ``players`` (the active entries), section 5.1.

    ``standings`` (every player's id in standings order) is needed by ``standings`` and
    ``final`` rounds; the players are taken from it in its order.
    """
    if kind == SEEDED_GROUPS:
        return ladder(seed, players)
    if kind == RANDOM:
        return random_order(seed, round_number, (e.id for e in players))
    if kind in (STANDINGS, FINAL):
        if standings is None:
            raise ValueError(f"a {kind} round is drawn from the standings")
        ids = {e.id for e in players}
        order = tuple(p for p in standings if p in ids)
        if len(order) != len(ids):
            raise ValueError("the standings leave out an active player")
        return order
    raise ValueError(f"unknown kind of round {kind!r}; choose one of {', '.join(KINDS)}")


def draw_round(
    *,
    number: int,
    kind: str,
    game: str,
    format_code: str,
    seed: str,
    entries: Sequence[Entry],
    history: Sequence[PastRound] = (),
    standings: Sequence[str] | None = None,
    params: Params | None = None,
    byes_so_far: Mapping[str, int] | None = None,
) -> Draw:
    """Return the draw of round ``number`` for the entries active in it.

    ``history`` holds the earlier rounds' draws (their tables give the repeat rule, their byes
    the bye counts unless ``byes_so_far`` is given); ``standings`` orders ``standings`` and
    ``final`` rounds. The mode is ``direct`` for seeded groups and finals, ``search`` when the
    ordered fill finds a draw within the node budget, else ``fallback``.
    """
    params = params or default_params(format_code)
    if byes_so_far is None:
        byes_so_far = count_byes(history)
    players = [e for e in entries if e.active_in(number)]
    order = priority_order(
        kind=kind, round_number=number, seed=seed, players=players, standings=standings
    )
    plan = table_plan(len(order), game)
    byes = choose_byes(order, plan.byes, byes_so_far)
    having_bye = set(byes)
    seated = [p for p in order if p not in having_bye]
    groups: Mapping[str, str] = MappingProxyType({})
    if kind == SEEDED_GROUPS:
        split = seeding_groups(seed, seated, len(plan.sizes))
        tables = seeded_tables(split, plan.sizes)
        groups = MappingProxyType(letters(split))
        mode = DIRECT
    elif kind == FINAL:
        cut, start = [], 0
        for size in plan.sizes:
            cut.append(tuple(seated[start : start + size]))
            start += size
        tables = tuple(cut)
        mode = DIRECT
    else:
        clubs = {e.id: e.club for e in players} if params.club_apart else None
        conflicts = Conflicts(history, clubs)
        try:
            found = ordered_fill(seated, plan.sizes, conflicts, params.node_budget)
        except BudgetExhausted:
            found = None
        if found is None:
            tables, mode = fallback_fill(seated, plan.sizes, conflicts), FALLBACK
        else:
            tables, mode = found, SEARCH
    violations = check_draw(
        game=game,
        format_code=format_code,
        round_number=number,
        kind=kind,
        seed=seed,
        entries=entries,
        tables=tables,
        byes=byes,
        history=history,
        byes_so_far=byes_so_far,
        active=[e.id for e in players],
        params=params,
        mode=mode,
    )
    return Draw(number, kind, mode, tables, byes, violations, groups)


def manual_draw(
    *,
    number: int,
    kind: str,
    game: str,
    format_code: str,
    seed: str,
    entries: Sequence[Entry],
    tables: Sequence[Sequence[str]],
    byes: Sequence[str] = (),
    history: Sequence[PastRound] = (),
    params: Params | None = None,
    byes_so_far: Mapping[str, int] | None = None,
) -> Draw:
    """Return the director's hand-made draw with the checker's findings (mode ``manual``, 5.5)."""
    drawn = tuple(tuple(t) for t in tables)
    byes = tuple(byes)
    violations = check_draw(
        game=game,
        format_code=format_code,
        round_number=number,
        kind=kind,
        seed=seed,
        entries=entries,
        tables=drawn,
        byes=byes,
        history=history,
        byes_so_far=byes_so_far,
        params=params,
    )
    return Draw(number, kind, MANUAL, drawn, byes, violations)
