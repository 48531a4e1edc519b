"""A Hungarian evening: the hands settled in order; nothing to split (section 12)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace

from ledger.games.errors import EveningError, HandError, Problems, _

from .hand import check_seats, parse_hand
from .ratecard import GAME_CODE, RateCard, card_of
from .settle import settle

EVENING_FORMAT = "tarokclub.evening/1"
EVENING_RESULT_FORMAT = "tarokclub.evening-result/1"
EVENING_KEYS = frozenset({"format", "game", "seats", "hands"})


def settle_evening(data, rates: RateCard | None = None) -> dict:
    """Settle a Hungarian ``tarokclub.evening/1`` object and return the evening result.

    The evening must name ``"game": "hungarian_tarokk"`` (a file without ``game`` is
    Danish). Its hands take ``seats`` from the evening and may not carry them. Raise
    EveningError with every problem, a hand's fields prefixed by ``hands[i].``.
    """
    rates = card_of(rates)
    p = Problems()
    if not isinstance(data, Mapping):
        p.add("", _("an evening must be a JSON object"))
        p.raise_if_any(EveningError)
    for key in data:
        if key not in EVENING_KEYS:
            p.add(str(key), _("unknown key {key}: an evening has no such field"), key=key)
    if data.get("format", EVENING_FORMAT) != EVENING_FORMAT:
        p.add("format", _("the format must be {expected}"), expected=EVENING_FORMAT)
    if data.get("game") != GAME_CODE:
        p.add(
            "game",
            _("this evening is of {game}, not of Hungarian Tarokk"),
            game=data.get("game", "danish_tarok"),
        )
    seats = check_seats(p, data.get("seats"))
    hands = data.get("hands")
    if not isinstance(hands, list):
        p.add("hands", _("hands must be a list of hands"))
    p.raise_if_any(EveningError)

    settlements = []
    for i, hand in enumerate(hands):
        prefix = f"hands[{i}]"
        if not isinstance(hand, Mapping):
            p.add(prefix, _("a hand must be a JSON object"))
            continue
        if "seats" in hand:
            p.add(f"{prefix}.seats", _("a hand in an evening takes its seats from the evening"))
            continue
        try:
            record = parse_hand({**hand, "seats": list(seats)}, rates)
        except HandError as error:
            p.extend(
                replace(q, field=f"{prefix}.{q.field}" if q.field else prefix)
                for q in error.problems
            )
            continue
        settlements.append(settle(record, rates, {}))
    p.raise_if_any(EveningError)

    balances = {name: 0 for name in seats}
    for settlement in settlements:
        for name, amount in settlement.net.items():
            balances[name] += amount
    return {
        "format": EVENING_RESULT_FORMAT,
        "game": GAME_CODE,
        "hands": [s.as_dict() for s in settlements],
        "before_split": dict(balances),
        "final": dict(balances),
    }
