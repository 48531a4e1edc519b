"""The house-rule presets of Hungarian Tarokk: the variants ``hungarian-tarokk.md`` names,
each with its source. Pure data: the rate-card values each changes."""

from __future__ import annotations

from types import MappingProxyType

from ledger.games.base import Preset
from ledger.games.errors import _

PRESETS: tuple[Preset, ...] = (
    Preset(
        name="flat_dupla_volat",
        title=_("Flat dupla and volát"),
        description=_(
            "Dupla and volát pay 4/2 and 6/3 whatever the bid, as the Tarokkakadémia "
            "table prints them, not times the game value."
        ),
        source="Gyenes and Horváth, Tarokkakadémia (1974) [seed 003], section VI; "
        "hungarian-tarokk.md section 5, dupla_volat_times_bid = false",
        changes=MappingProxyType({"dupla_volat_times_bid": False}),
    ),
)
