"""Checks shared by the games' engines: integers, amounts, names, keys and rate cards.

Pure Python: no Django. Each check adds its problems (field path and message template)
to a ``Problems``; the templates a game words its own way are passed in by the game, so
that every message and every field path stays the game's.
"""

from __future__ import annotations

import string
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, TypeGuard

from ledger.games.base import invisible_characters, normalized_name
from ledger.games.errors import HandError, Problem, Problems, RateCardError, _
from ledger.games.money import MAX_MOVE, MAX_POINTS

MAX_NAME_LENGTH = 60
RATES_FORMAT = "tarokclub.rates/1"
HAND_FORMAT = "tarokclub.hand/1"


def _used(template: str, params: dict) -> dict:
    """Return the ``params`` that ``template`` names."""
    names = {name for _text, name, _spec, _conv in string.Formatter().parse(template) if name}
    return {k: v for k, v in params.items() if k in names}


def is_int(value) -> TypeGuard[int]:
    """Return whether ``value`` is a whole number (and not a bool)."""
    return isinstance(value, int) and not isinstance(value, bool)


def check_amount(
    problems: Problems,
    path: str,
    value,
    too_high: str = _("an amount is at most {max} points"),
) -> bool:
    """Check an amount of points: a whole number from 0 to MAX_POINTS.

    ``too_high`` is the game's template for an amount above the bound (it may name the
    bound ``{max}`` or ``{limit}``).
    """
    if not is_int(value):
        problems.add(path, _("an amount must be a whole number of points"))
        return False
    if value < 0:
        problems.add(path, _("an amount cannot be negative"))
        return False
    if value > MAX_POINTS:
        problems.add(path, too_high, **_used(too_high, {"max": MAX_POINTS, "limit": MAX_POINTS}))
        return False
    return True


def check_unknown_keys(problems: Problems, path: str, item, allowed) -> bool:
    """Add ``{path}.{key}: unknown key {key}`` for each key of ``item`` not in ``allowed``."""
    ok = True
    for key in item:
        if key not in allowed:
            problems.add(f"{path}.{key}", _("unknown key {key}"), key=key)
            ok = False
    return ok


def check_list(problems: Problems, path: str, value) -> list:
    """Return ``value`` as a list: None is empty; anything else but a list is refused."""
    if value is None:
        return []
    if not isinstance(value, list):
        problems.add(path, _("{what} must be a list"), what=path)
        return []
    return value


def check_names(problems: Problems, path: str, value, *, reserved=()):
    """Return ``value`` if it is a list of member names, else None after one problem.

    A name is a non-blank string of at most MAX_NAME_LENGTH characters that is none of the
    ``reserved`` account names (the game's pools), compared in any case or Unicode form.
    """
    if not isinstance(value, list) or not all(isinstance(v, str) and v.strip() for v in value):
        problems.add(path, _("{what} must be a list of member names"), what=path)
        return None
    reserved = {normalized_name(r) for r in reserved}
    for name in value:
        if normalized_name(name) in reserved:
            problems.add(
                path, _("{name} is the name of a table's account, not of a member"), name=name
            )
            return None
        hidden = invisible_characters(name)
        if hidden:
            problems.add(
                path,
                _("a name may not hold invisible or control characters ({codes})"),
                codes=", ".join(hidden),
            )
            return None
        if len(name) > MAX_NAME_LENGTH:
            problems.add(path, _("a name has at most {n} characters"), n=MAX_NAME_LENGTH)
            return None
    return value


def check_seats(
    problems: Problems, value, *, low: int, high: int, reserved=(), path: str = "seats"
) -> tuple[str, ...] | None:
    """Return the seat list ``value`` (``low`` to ``high`` distinct member names, in the
    direction of play) as a tuple, or None after one problem naming ``path``: the one seat
    check of every game."""
    names = check_names(problems, path, value, reserved=reserved)
    if names is None:
        return None
    seen: set[str] = set()
    for name in names:
        if name in seen:
            problems.add(path, _("{name} is seated twice"), name=name)
            return None
        seen.add(name)
    if not low <= len(names) <= high:
        problems.add(
            path,
            _("a table seats {low} to {high} members, not {n}"),
            low=low,
            high=high,
            n=len(names),
        )
        return None
    return tuple(names)


def check_hand_object(
    problems: Problems,
    data,
    keys,
    *,
    unknown: str = _("unknown key {key}: a hand has no such field"),
    kind: type = Mapping,
    key_path: Callable[[Any], Any] = str,
) -> None:
    """Check that a hand is an object (else raise), of known keys and of the hand format."""
    if not isinstance(data, kind):
        problems.add("", _("a hand must be a JSON object"))
        problems.raise_if_any(HandError)
    for key in data:
        if key not in keys:
            problems.add(key_path(key), unknown, key=key)
    if "format" in data and data["format"] != HAND_FORMAT:
        problems.add("format", _("the format must be {expected}"), expected=HAND_FORMAT)


def check_dealer(problems: Problems, dealer, seats) -> str:
    """Return the dealer if he is seated; else raise HandError with every problem so far."""
    if dealer is None:
        problems.add("dealer", _("the dealer is required"))
        problems.raise_if_any(HandError)
    if not isinstance(dealer, str) or dealer not in seats:
        problems.add("dealer", _("{name} is not seated at this table"), name=dealer)
        problems.raise_if_any(HandError)
    return dealer


def player_check(problems: Problems, seats, active) -> Callable[[str, Any], bool]:
    """Return ``check(path, name)``: whether ``name`` is seated and plays this hand."""

    def check(path: str, name) -> bool:
        if not isinstance(name, str) or name not in seats:
            problems.add(path, _("{name} is not seated at this table"), name=name)
            return False
        if name not in active:
            problems.add(path, _("{name} sits out this hand and takes no part in it"), name=name)
            return False
        return True

    return check


@dataclass(frozen=True)
class RateCardRules:
    """What a game's rate card holds and how the game words its refusals.

    ``known``: every key; ``choices``: options with named choices; ``booleans``: options
    that are true or false; ``tables``: object keys of amounts by name, with the defaults
    of their entries (an entry may be set alone); every other known key is an amount.
    ``wrong_game(value)`` returns the template and parameters of a wrong ``game``;
    ``not_a_table`` and ``unknown_entry`` are templates (parameters ``key``, ``entry``,
    ``choices``); ``too_high`` is ``check_amount``'s. ``check_flat(problems, key, value)``
    checks an amount further (it is called once the amount is a whole number in bounds).
    """

    game_code: str
    known: frozenset[str]
    wrong_game: Callable[[Any], tuple[str, dict]]
    too_high: str
    choices: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    booleans: tuple[str, ...] = ()
    tables: Mapping[str, Mapping[str, int]] = field(default_factory=dict)
    not_a_table: str = ""
    unknown_entry: str = _("unknown entry {entry}; {key} has {choices}")
    kind: type[Any] = Mapping  # a mapping class; type[Mapping] would refuse the abstract Mapping
    key_path: Callable[[Any], Any] = str
    check_flat: Callable[[Problems, str, Any], bool] | None = None

    def amount(self, problems: Problems, path: str, value) -> bool:
        return check_amount(problems, path, value, self.too_high)


def check_moves(moves, field: str = "__all__") -> None:
    """Raise HandError when a computed move exceeds ``MAX_MOVE`` (the rules' one bound on a
    computed amount): the hand, or the close, is refused before anything is written."""
    for move in moves:
        if move.points > MAX_MOVE:
            raise HandError(
                [
                    Problem(
                        field,
                        _(
                            "this would move {points} points from {source} to {target}, "
                            "more than the bound of {limit}"
                        ),
                        {
                            "points": move.points,
                            "source": move.source,
                            "target": move.target,
                            "limit": MAX_MOVE,
                        },
                    )
                ]
            )


def check_largest_hand(problems: Problems, contributions: Mapping[str, int]) -> None:
    """Add a problem when the largest hand a rate card allows (the sum of ``contributions``,
    the points each setting could add to one transfer) would exceed ``MAX_MOVE``, naming the
    setting that contributes most."""
    total = sum(contributions.values())
    if total > MAX_MOVE and contributions:
        key = max(contributions, key=lambda k: contributions[k])
        problems.add(
            key,
            _(
                "with these house rules one hand could move {points} points, more than "
                "{limit}: lower {key}"
            ),
            points=total,
            limit=MAX_MOVE,
            key=key,
        )


def read_rate_card(data, rules: RateCardRules) -> tuple[Problems, dict]:
    """Read a ``tarokclub.rates/1`` object: return the problems and the values read.

    ``format`` and ``game`` are optional. A value is kept only when it passes; a table
    keeps its defaults for the entries left out (as a read-only mapping). The caller adds
    its own checks, raises and fills in the defaults.
    """
    problems = Problems()
    if not isinstance(data, rules.kind):
        problems.add("", _("a rate card must be a JSON object"))
        problems.raise_if_any(RateCardError)
    values: dict = {}
    for key, value in data.items():
        if key == "format":
            if value != RATES_FORMAT:
                problems.add("format", _("the format must be {expected}"), expected=RATES_FORMAT)
        elif key == "game":
            if value != rules.game_code:
                template, params = rules.wrong_game(value)
                problems.add("game", template, **params)
        elif key not in rules.known:
            problems.add(
                rules.key_path(key),
                _("unknown key {key}: the rate card has no such setting"),
                key=key,
            )
        elif key in rules.choices:
            if value not in rules.choices[key]:
                problems.add(
                    key,
                    _("{value} is not an option; choose one of {choices}"),
                    value=value,
                    choices=", ".join(rules.choices[key]),
                )
            else:
                values[key] = value
        elif key in rules.booleans:
            if not isinstance(value, bool):
                problems.add(key, _("{key} must be true or false"), key=key)
            else:
                values[key] = value
        elif key in rules.tables:
            table = _read_table(problems, key, value, rules)
            if table is not None:
                values[key] = table
        elif rules.amount(problems, key, value):
            if rules.check_flat is None or rules.check_flat(problems, key, value):
                values[key] = value
    return problems, values


def _read_table(problems: Problems, key: str, value, rules: RateCardRules):
    defaults = rules.tables[key]
    if not isinstance(value, rules.kind):
        problems.add(key, rules.not_a_table, **_used(rules.not_a_table, {"key": key}))
        return None
    table = dict(defaults)
    for entry, amount in value.items():
        path = f"{key}.{entry}"
        if entry not in defaults:
            params = {"entry": entry, "type": entry, "key": key, "choices": ", ".join(defaults)}
            problems.add(path, rules.unknown_entry, **_used(rules.unknown_entry, params))
        elif rules.amount(problems, path, amount):
            table[entry] = amount
    return MappingProxyType(table)
