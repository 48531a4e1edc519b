"""A whole evening of one table from a ``tarokclub.evening/1`` file: the one runner of every game.

Pure Python. ``run_evening(game, data, rates)`` checks the file's envelope (its format, its game,
its seats within the game's range, its hands), opens the table the game's way
(``initial_state``), settles every hand in order from the state the one before left
(``next_state``), and closes the table the game's way (``close``). Each game turns the run into
its own evening-result object (``hand-format.md``, "An evening"); ``settle_evening`` of every
``GAME`` is ``run_evening`` and that formatter, so no game repeats the loop.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import cast

from ledger.games import validation
from ledger.games.base import SPLIT
from ledger.games.errors import EveningError, HandError, Problems, _

EVENING_FORMAT = "tarokclub.evening/1"
EVENING_RESULT_FORMAT = "tarokclub.evening-result/1"
EVENING_KEYS = ("format", "game", "seats", "hands")
FILE_DEFAULT_GAME = "danish_tarok"  # a file without ``game`` is Danish (hand-format.md)


@dataclass(frozen=True)
class EveningRun:
    """A table's evening, settled: every hand's settlement, the balances before the close, the
    state the close started from, the close's moves, and each member's result before the split
    (after the close's penalties) and after it."""

    seats: tuple[str, ...]
    settlements: tuple
    balances: Mapping[str, int]  # members and pools, after the last hand
    state: Mapping
    close: tuple
    before_split: Mapping[str, int]
    final: Mapping[str, int]

    @property
    def pools_before_split(self) -> dict[str, int]:
        """Each pool after the close's penalties, before its split."""
        pools = {code: v for code, v in self.balances.items() if code not in self.seats}
        for move in self.close:
            if move.reason != SPLIT:
                for account, amount in ((move.source, -move.points), (move.target, move.points)):
                    if account in pools:
                        pools[account] += amount
        return pools


def _apply(balances: dict, moves) -> None:
    for move in moves:
        balances[move.source] -= move.points
        balances[move.target] += move.points


def run_evening(game, data, rates) -> EveningRun:
    """Settle the evening file ``data`` of ``game`` under ``rates``; raise EveningError with every
    problem, a hand's fields prefixed ``hands[i].``."""
    features = game.features
    pools = features.pool_codes
    p = Problems()
    if not isinstance(data, Mapping):
        p.add("", _("an evening must be a JSON object"))
        p.raise_if_any(EveningError)
    for key in data:
        if key not in EVENING_KEYS:
            p.add(str(key), _("unknown key {key}: an evening has no such field"), key=key)
    if data.get("format", EVENING_FORMAT) != EVENING_FORMAT:
        p.add("format", _("the format must be {expected}"), expected=EVENING_FORMAT)
    if data.get("game", FILE_DEFAULT_GAME) != game.code:
        p.add(
            "game",
            _("this evening is of {game}, not of {expected}"),
            game=data.get("game", FILE_DEFAULT_GAME),
            expected=game.code,
        )
    seats = validation.check_seats(
        p, data.get("seats"), low=features.min_seats, high=features.max_seats, reserved=pools
    )
    hands = data.get("hands")
    if not isinstance(hands, list):
        p.add("hands", _("hands must be a list of hands"))
    p.raise_if_any(EveningError)
    # check_seats returns None only after adding a problem, so raise_if_any has raised then
    seats = cast(tuple[str, ...], seats)

    balances = dict.fromkeys((*seats, *pools), 0)
    state, moves = game.initial_state(list(seats), rates)
    _apply(balances, moves)
    taken = tuple(k for k in ("seats", features.state_in) if k)
    previous = None
    settlements = []
    for i, hand in enumerate(hands):
        prefix = f"hands[{i}]"
        if not isinstance(hand, Mapping):
            p.add(prefix, _("a hand must be a JSON object"))
            continue
        refused = False
        for key in taken:
            if key in hand:
                p.add(
                    f"{prefix}.{key}",
                    _("a hand in an evening takes {key} from the evening"),
                    key=key,
                )
                refused = True
        if hand.get("game", game.code) != game.code:
            p.add(
                f"{prefix}.game",
                _("every hand of a {expected} evening is {expected}, not {game}"),
                expected=game.code,
                game=hand["game"],
            )
            refused = True
        body = {k: v for k, v in hand.items() if k not in (*taken, "game")}  # checked above
        body["seats"] = list(seats)
        state = game.next_state(previous, {c: balances[c] for c in pools}, list(seats))
        try:
            record = game.parse_hand(body, rates, state=state)
        except HandError as error:
            p.extend(
                replace(q, field=f"{prefix}.{q.field}" if q.field else prefix)
                for q in error.problems
            )
            continue
        if refused or p:
            continue
        settlement = game.settle(record, rates, state)
        try:
            validation.check_moves(settlement.transfers, prefix)
        except HandError as error:
            p.extend(error.problems)
            continue
        settlements.append(settlement)
        _apply(balances, settlement.transfers)
        previous = settlement.state_after
    p.raise_if_any(EveningError)

    state = game.next_state(previous, {c: balances[c] for c in pools}, list(seats))
    close = tuple(game.close(dict(balances), state, rates, list(seats)))
    try:
        validation.check_moves(close, "hands")
    except HandError as error:
        raise EveningError(error.problems) from error
    before = dict(balances)
    _apply(before, [m for m in close if m.reason != SPLIT])
    after = dict(balances)
    _apply(after, close)
    return EveningRun(
        seats=seats,
        settlements=tuple(settlements),
        balances=dict(balances),
        state=dict(state),
        close=close,
        before_split={name: before[name] for name in seats},
        final={name: after[name] for name in seats},
    )
