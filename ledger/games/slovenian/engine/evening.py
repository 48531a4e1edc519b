"""A whole Slovenian evening: every hand in order, then the close of the table.

The table starts with no radli and the pool at 0; each hand's ``radli_before`` is the
previous hand's ``radli_after`` (``hand-format.md``, "An evening").
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace

from ledger.games.errors import EveningError, HandError, Problems, _

from .close import close_table
from .hand import POOL, parse_hand, parse_seats
from .ratecard import GAME_CODE, RateCard
from .settle import settle

EVENING_FORMAT = "tarokclub.evening/1"
EVENING_RESULT_FORMAT = "tarokclub.evening-result/1"
EVENING_KEYS = ("format", "game", "seats", "hands")
#: Keys an evening hand takes from the evening, never from itself.
TABLE_KEYS = ("seats", "radli_before")


def settle_evening(data, rates: RateCard | Mapping | None = None) -> dict:
    """Settle a Slovenian ``tarokclub.evening/1`` object; return the evening-result object.

    Raise EveningError with every problem, the fields of a hand prefixed ``hands[i].``.
    A missing ``game`` is accepted; another game than ``slovenian_tarok`` is refused.
    """
    if rates is None:
        rates = RateCard()
    elif not isinstance(rates, RateCard):
        rates = RateCard.from_dict(dict(rates))
    p = Problems()
    if not isinstance(data, Mapping):
        p.add("", _("an evening must be a JSON object"))
        p.raise_if_any(EveningError)
    for key in data:
        if key not in EVENING_KEYS:
            p.add(str(key), _("unknown key {key}: an evening has no such field"), key=key)
    if data.get("format", EVENING_FORMAT) != EVENING_FORMAT:
        p.add("format", _("the format must be {expected}"), expected=EVENING_FORMAT)
    if "game" in data and data["game"] != GAME_CODE:
        p.add(
            "game",
            _("this is a {expected} evening, not {game}"),
            expected=GAME_CODE,
            game=data["game"],
        )
    seats = parse_seats(p, data.get("seats"))
    hands = data.get("hands")
    if not isinstance(hands, list):
        p.add("hands", _("hands must be a list of hands"))
    p.raise_if_any(EveningError)

    radli = {seat: 0 for seat in seats}
    scores = {seat: 0 for seat in seats}
    settlements = []
    for i, hand in enumerate(hands):
        prefix = f"hands[{i}]."
        if not isinstance(hand, Mapping):
            p.add(f"hands[{i}]", _("a hand must be a JSON object"))
            continue
        refused = False
        for key in TABLE_KEYS:
            if key in hand:
                p.add(
                    prefix + key,
                    _("a hand in an evening takes {key} from the evening"),
                    key=key,
                )
                refused = True
        if "game" in hand and hand["game"] != GAME_CODE:
            p.add(
                prefix + "game",
                _("every hand of a {expected} evening is {expected}, not {game}"),
                expected=GAME_CODE,
                game=hand["game"],
            )
            refused = True
        body = {k: v for k, v in hand.items() if k not in TABLE_KEYS and k != "game"}
        body["seats"] = list(seats)
        try:
            record = parse_hand(body, rates, state=radli)
        except HandError as error:
            p.extend(replace(problem, field=prefix + problem.field) for problem in error.problems)
            continue
        if refused or p:
            continue
        settlement = settle(record, rates, radli)
        settlements.append(settlement)
        for name, amount in settlement.net.items():
            scores[name] += amount
        radli = settlement.state_after
    p.raise_if_any(EveningError)

    balances = dict(scores)
    balances[POOL] = -sum(scores.values())
    close = close_table(balances, radli, rates, seats)
    before_split = dict(scores)
    final = dict(scores)
    for move in close:
        if move.reason == "radelc":
            before_split[move.source] -= move.points
        for account, amount in ((move.source, -move.points), (move.target, move.points)):
            if account != POOL:
                final[account] += amount
    return {
        "format": EVENING_RESULT_FORMAT,
        "game": GAME_CODE,
        "hands": [s.as_dict() for s in settlements],
        "radli_at_close": dict(radli),
        "before_split": before_split,
        "pool_before_split": -sum(before_split.values()),
        "close": [m.as_dict() for m in close],
        "final": final,
    }
