"""The hand preview: settle the hand being entered from the table's state, write nothing, and
say who pays whom (grouped by reason and by pair of accounts), in the game's words."""

from __future__ import annotations

import itertools
from collections import defaultdict

from django.utils.translation import gettext_lazy as _

from ledger import services
from ledger.games.money import signed_figure
from ledger.games.registry import get_game, get_web
from ledger.games.validation import check_moves
from ledger.models import Table
from ledger.selectors.table import pool_items
from ledger.services.errors import LedgerError


def transfer_summary(transfers, seats, game_code: str) -> dict:
    """Group a settlement's transfers into who pays whom, per pair of accounts, for display."""
    pools = get_game(game_code).features.pool_codes
    web = get_web(game_code)
    flows: defaultdict[tuple[str, str], int] = defaultdict(int)
    for t in transfers:
        flows[(t["from"], t["to"])] += t["points"]
    order = {name: i for i, name in enumerate(list(seats) + list(pools))}

    def label(code: str) -> str:
        """An account on screen: a pool by its label ("pulje"), a member as he is."""
        return web.pool_label(code) if code in pools else code

    names = sorted({n for pair in flows for n in pair}, key=lambda n: order.get(n, 99))
    pairs = []
    for a, b in itertools.combinations(names, 2):
        amount = flows.get((a, b), 0) - flows.get((b, a), 0)
        if amount == 0:
            continue
        payer, payee = (a, b) if amount > 0 else (b, a)
        pairs.append(
            {
                "payer": payer,
                "payee": payee,
                "payer_label": label(payer),
                "payee_label": label(payee),
                "points": abs(amount),
                "payer_is_cup": payer in pools,
                "payee_is_cup": payee in pools,
            }
        )
    pairs.sort(key=lambda p: (order.get(p["payer"], 99), order.get(p["payee"], 99)))
    details = [
        {
            "from": t["from"],
            "to": t["to"],
            "from_label": label(t["from"]),
            "to_label": label(t["to"]),
            "points": t["points"],
            "reason": web.payment_label(t["reason"]),
        }
        for t in transfers
    ]
    # The same payments by reason, in the order the rules moved them; a reason's moves
    # between the same two accounts are added up (a refunding is one line per member).
    groups: dict[str, dict] = {}
    for t in transfers:
        group = groups.setdefault(
            t["reason"],
            {"reason": t["reason"], "label": web.payment_label(t["reason"]), "moves": {}},
        )
        move = group["moves"].setdefault(
            (t["from"], t["to"]),
            {
                "from": t["from"],
                "to": t["to"],
                "from_label": label(t["from"]),
                "to_label": label(t["to"]),
                "points": 0,
                "from_is_cup": t["from"] in pools,
                "to_is_cup": t["to"] in pools,
            },
        )
        move["points"] += t["points"]
    by_reason = [
        dict(
            g, moves=list(g["moves"].values()), total=sum(m["points"] for m in g["moves"].values())
        )
        for g in groups.values()
    ]
    return {"pairs": pairs, "details": details, "groups": by_reason}


def settle_preview(
    *, table: Table, record: dict, seats: list[str], state: dict, pools: dict | None = None
) -> dict:
    """Parse and settle ``record`` at ``table`` from ``state``; write nothing.

    ``pools`` are the pools before the hand when the game's state is not its pools.

    Raise HandError or LedgerError when the hand is refused.
    """
    game = get_game(table.game)
    data = dict(record)
    if game.features.state_in:
        data.pop(game.features.state_in, None)
    if data.get("seats", seats) != seats:
        raise LedgerError(
            _("the seats must be the table's: {names}"), "seats", names=", ".join(seats)
        )
    data["seats"] = seats
    rates = services.rate_card(table.evening)
    parsed = game.parse_hand(data, rates, state=state)
    settlement = game.settle(parsed, rates, state)
    check_moves(settlement.transfers)
    transfers = [t.as_dict() for t in settlement.transfers]
    before = state if pools is None else pools
    after = dict(before)
    for t in transfers:
        for key, sign in (("from", -1), ("to", 1)):
            if t[key] in game.features.pool_codes:
                after[t[key]] = after.get(t[key], 0) + sign * t["points"]
    web = get_web(table.game)
    return {
        "story": web.preview_story(parsed, settlement, state),
        "pools_label": web.word("pools_after"),
        "net": [
            dict(signed_figure(settlement.net[name]), name=name, out=name in parsed.sitting_out)
            for name in seats
        ],
        "pools": pool_items(table.game, after, before=before),
        "summary": transfer_summary(transfers, seats, table.game),
    }
