"""What each seat of a settled Hungarian hand counts for the statistics (``GAME.stats_of``).

Pure Python. ``played``: the member was one of the four who played (at five the dealer sits
out). Counts: the games he bid as declarer, played as partner or alone, and those won; the
figures of his side (the silent dupla from the card points included) made and failed; and the
hands in which he made a tarokk claim. A thrown-in hand counts as played and nothing else.
"""

from __future__ import annotations

from ledger.games.base import SeatStats

STAT_KEYS = (
    "hu_declarer",
    "hu_declarer_won",
    "hu_partner",
    "hu_partner_won",
    "hu_alone",
    "hu_alone_won",
    "hu_figures_made",
    "hu_figures_failed",
    "hu_claims",
)


def stats_of(record, settlement) -> dict[str, SeatStats]:
    """Return each seat's role, whether he played, and his counts in this hand."""
    outcome = settlement.outcome_data
    roles = settlement.roles
    annulled = bool(outcome.get("annulled"))
    declarer, partner = outcome.get("declarer"), outcome.get("partner")
    won = outcome.get("game_won_by") == "declarer"
    claimants = {c["player"] for c in outcome.get("tarokk_claims") or ()}
    out = {}
    for name in record.seats:
        role = roles.get(name, "player")
        played = role != "out"
        side = None
        if not annulled and played:
            side = "declarer" if name in (declarer, partner) else "opponents"
        figures = [
            item
            for item in outcome.get("items") or ()
            if item.get("item") != "game" and item.get("side") == side
        ]
        counts = {
            "hu_declarer": int(declarer == name),
            "hu_declarer_won": int(declarer == name and won),
            "hu_partner": int(partner is not None and partner == name),
            "hu_partner_won": int(partner is not None and partner == name and won),
            "hu_alone": int(declarer == name and partner is None),
            "hu_alone_won": int(declarer == name and partner is None and won),
            "hu_figures_made": sum(1 for i in figures if i.get("result") == "made"),
            "hu_figures_failed": sum(1 for i in figures if i.get("result") == "failed"),
            "hu_claims": int(name in claimants),
        }
        out[name] = SeatStats(role=role, played=played, counts=counts)
    return out
