"""The house-rule presets of Danish Tarok: variants the spec's rate card expresses, each with
where it is played (``danish-tarok.md``). Pure data: the rate-card values each changes."""

from __future__ import annotations

from types import MappingProxyType

from ledger.games.base import Preset
from ledger.games.errors import _

PRESETS: tuple[Preset, ...] = (
    Preset(
        name="bagud_one_by_one",
        title=_("Bagud paid one by one"),
        description=_(
            "Two kings bagud in one last trick pay into the kongekop one after the other, "
            "each doubling the cup as it stands, in the order they were played."
        ),
        source="danish-tarok.md section 6.4, option multi_bagud = sequential",
        changes=MappingProxyType({"multi_bagud": "sequential"}),
    ),
    Preset(
        name="pagat_tout",
        title=_("Tout as on pagat.com"),
        description=_(
            "Each opponent pays a tout 135; the cups stay where they are and there is no count."
        ),
        source="J. B. Christiansen on pagat.com [P]; danish-tarok.md section 6.1, "
        "option tout_variant = pagat",
        changes=MappingProxyType({"tout_variant": "pagat"}),
    ),
    Preset(
        name="agger_tout",
        title=_("Tout as in Agger's 1970 booklet"),
        description=_("Each opponent pays a tout 85 and he takes both cups; there is no count."),
        source="Agger, Tarok (1970), as clubs play it; a house rule beyond danish-tarok.md "
        "(option tout_variant = agger, tout_each_agger = 85)",
        changes=MappingProxyType({"tout_variant": "agger"}),
    ),
    Preset(
        name="no_dealer_fee",
        title=_("No dealer's fee"),
        description=_("The dealer pays nothing into the cups before the hand."),
        source="danish-tarok.md, dealer_fee_per_cup = 0 (clubs that play without the fee)",
        changes=MappingProxyType({"dealer_fee_per_cup": 0}),
    ),
)
