"""What each seat of a settled Danish hand counts for the statistics (``GAME.stats_of``).

Pure Python. ``played``: the member was one of the three active players. Counts: ultimo with
the pagat or a king, bagud (a hand in which he was bagud, however many times), nolo and tout
(the hands he played them in) and ``melds``, the points the others paid him for his melds.
"""

from __future__ import annotations

from ledger.games.base import SeatStats

STAT_KEYS = ("ultimo_pagat", "ultimo_king", "bagud", "nolo", "tout", "melds")


def stats_of(record, settlement) -> dict[str, SeatStats]:
    """Return each seat's role, whether he played, and his counts in this hand."""
    outcome = settlement.outcome
    ultimo = tuple(outcome.ultimo) if outcome.ultimo else (None, None)
    bagud = {name for name, _card in outcome.bagud}
    melds: dict[str, int] = {}
    for move in settlement.transfers:
        if move.reason.startswith("meld_"):
            melds[move.target] = melds.get(move.target, 0) + move.points
    out = {}
    for name in record.seats:
        role = settlement.roles.get(name, "player")
        counts = {
            "ultimo_pagat": int(ultimo == (name, "pagat")),
            "ultimo_king": int(ultimo == (name, "king")),
            "bagud": int(name in bagud),
            "nolo": int(outcome.nolo == name),
            "tout": int(outcome.tout == name),
            "melds": melds.get(name, 0),
        }
        out[name] = SeatStats(role=role, played=role != "out", counts=counts)
    return out
