"""What each seat of a settled Slovenian hand counts for the statistics (``GAME.stats_of``).

Pure Python. ``played``: the member was one of the active players (at five the dealer sits
out). Counts: the contracts he played as declarer and as the called partner, and those won;
the hands in which his side, the declarer's, made a bonus; the radli handed out to him and
those he crossed off after a won hand; the klop hands he played and the points klop paid him.
"""

from __future__ import annotations

from ledger.games.base import SeatStats

from .ratecard import BONUS_TYPES

STAT_KEYS = (
    "sl_declared",
    "sl_declared_won",
    "sl_partner",
    "sl_partner_won",
    "sl_bonuses",
    "sl_radli",
    "sl_radli_used",
    "sl_klop",
    "sl_klop_points",
)


def stats_of(record, settlement) -> dict[str, SeatStats]:
    """Return each seat's role, whether he played, and his counts in this hand."""
    outcome = settlement.outcome
    declarer, partner = outcome.get("declarer"), outcome.get("partner")
    won = outcome.get("won") is True
    bonus_made = any(
        item.get("item") in BONUS_TYPES
        and item.get("side") == "declarer"
        and item.get("result") == "made"
        for item in outcome.get("items") or ()
    )
    klop_points: dict[str, int] = {}
    for move in settlement.transfers:
        if move.reason == "klop":
            klop_points[move.target] = klop_points.get(move.target, 0) + move.points
    out = {}
    for name in record.seats:
        role = settlement.roles.get(name, "opponent")
        played = role != "out"
        counts = {
            "sl_declared": int(declarer == name),
            "sl_declared_won": int(declarer == name and won),
            "sl_partner": int(partner == name),
            "sl_partner_won": int(partner == name and won),
            "sl_bonuses": int(bonus_made and name in (declarer, partner)),
            "sl_radli": int(played and bool(outcome.get("radli_given"))),
            "sl_radli_used": int(declarer == name and bool(outcome.get("radelc_crossed"))),
            "sl_klop": int(played and outcome.get("contract") == "klop"),
            "sl_klop_points": klop_points.get(name, 0),
        }
        out[name] = SeatStats(role=role, played=played, counts=counts)
    return out
