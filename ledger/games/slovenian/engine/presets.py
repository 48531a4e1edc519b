"""The house-rule presets of Slovenian Tarok: variants the spec's rate card expresses, each
with where it is played (``slovenian-tarok.md``). Pure data: the rate-card values each
changes."""

from __future__ import annotations

from types import MappingProxyType

from ledger.games.base import Preset
from ledger.games.errors import _

PRESETS: tuple[Preset, ...] = (
    Preset(
        name="difference_unrounded",
        title=_("Rounded difference off"),
        description=_("The difference from 35 is paid as it is, not rounded to 5."),
        source="slovenian-tarok.md sections 3 and 15, difference_round_to = 1 [club]: "
        "the spec names no peer scorer that plays it",
        changes=MappingProxyType({"difference_round_to": 1}),
    ),
    Preset(
        name="mond_21",
        title="Mond 21",  # the game's own words, in every language
        description=_("A captured Mond costs 21 instead of 20."),
        source="mytja/Tarok and slovenski-tarok.si [public]; slovenian-tarok.md section 8",
        changes=MappingProxyType({"mond_penalty": 21}),
    ),
    Preset(
        name="klop_by_ones",
        title=_("Klop by ones"),
        description=_("Klop scores are the card points as they are, not rounded to 5."),
        source="mytja/Tarok [public]; slovenian-tarok.md section 10, klop_round_to = 1",
        changes=MappingProxyType({"klop_round_to": 1}),
    ),
    Preset(
        name="radli_after_every_valat",
        title=_("Radelci after every valat"),
        description=_(
            "An announced valat that fails hands every player a radelc too, as a made one does."
        ),
        source="mytja/Tarok [public]; slovenian-tarok.md section 9",
        changes=MappingProxyType({"radli_after_valat": "made_or_failed"}),
    ),
    Preset(
        name="no_radli_after_valat",
        title=_("No radelci after a valat"),
        description=_(
            "A valat in three to solo one hands out no radelci; klop and the games from "
            "beggar up still do."
        ),
        source="erikbozic/tarok-scoreboard [public]; slovenian-tarok.md section 9",
        changes=MappingProxyType({"radli_after_valat": "no"}),
    ),
)
