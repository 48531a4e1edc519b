"""The club's form in the admin: the club's own fields and its house rules, one validated field
per setting of its game's rate card (``ledger.forms.ratecard``), never raw JSON.

The rate-card fields are those of the club's game (for a new club, the default game's); a
club that changes its game starts from the new game's defaults, which its own house-rules
screen then edits. A preset of the game (``rate_card_preset``) fills the whole card instead of
the fields. Only the validated, complete card is stored.
"""

from __future__ import annotations

from django import forms

from ledger.forms.ratecard import (
    clean_rate_card,
    preset_field,
    preset_rate_card,
    rate_card_fields,
)
from ledger.games.registry import default_game, get_game, get_web
from ledger.models import Club

CLUB_FIELDS = [
    "name",
    "slug",
    "game",
    "price_per_point",
    "currency",
    "language",
    "time_zone",
    "starting_jetons",
    "publish_results",
    "publish_money",
]


class ClubFormBase(forms.ModelForm):
    """The club's own fields; ``club_form(game)`` adds the house rules of ``game``."""

    rate_card_game: str = ""

    class Meta:
        model = Club
        fields = CLUB_FIELDS

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        stored = self.instance.rate_card if self.instance.game == self.rate_card_game else {}
        for name, value in get_web(self.rate_card_game).rate_card_initial(stored).items():
            self.initial.setdefault(name, value)

    def clean(self):
        super().clean()
        cleaned = self.cleaned_data
        game = cleaned.get("game")
        if game and game != self.rate_card_game:
            # These fields are another game's: a club that changes game starts from the new
            # game's defaults, edited on its own house-rules screen afterwards.
            if self.instance.game != game:
                self.instance.rate_card = get_web(game).rate_card_defaults()
            return cleaned
        preset = cleaned.get("rate_card_preset")
        if preset:
            # The preset's card replaces the settings: its values, over the game's defaults.
            self.instance.rate_card = preset_rate_card(self.rate_card_game, preset)
            return cleaned
        card = clean_rate_card(self, self.rate_card_game, cleaned)
        if card is not None:
            self.instance.rate_card = card
        return cleaned


def club_form(game: str) -> type[ClubFormBase]:
    """Return the admin's club form with the house-rules fields of ``game``."""
    presets = {"rate_card_preset": preset_field(game, required=False)}
    return type(
        f"ClubForm_{game}",
        (ClubFormBase,),
        {
            "__module__": __name__,
            "rate_card_game": game,
            **(presets if get_game(game).presets else {}),
            **rate_card_fields(game),
        },
    )


def ClubForm(*args, **kwargs):
    """Return the admin's club form for ``instance``'s game (a new club: the default game)."""
    instance = kwargs.get("instance")
    game = instance.game if instance is not None and instance.pk else default_game()
    return club_form(game)(*args, **kwargs)
