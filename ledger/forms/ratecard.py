"""The one house-rules form: a club's rate card as one validated field per setting, in its
game's words, for the set-up screen and the admin alike.

The fields come from the game's web side (``GameWeb.rate_card_form_fields``: a label, a
one-line explanation and the default of every setting), the values from the stored card merged
over the defaults, and the card the form returns is the game's own validation of them
(``game.rate_card``), complete; a refusal is shown beside the field it names. A change
applies to evenings opened afterwards: an evening keeps the card it opened with.

A game's presets (``Game.presets``) fill the card: ``PresetForm`` on the set-up screen, the
``rate_card_preset`` field in the admin; both show what a card changes from the game's
defaults (``GameWeb.rate_card_changes``).
"""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from ledger.games.base import preset_card
from ledger.games.errors import RateCardError
from ledger.games.registry import get_game, get_web
from ledger.services.errors import problem_text


def rate_card_fields(game: str) -> dict[str, forms.Field]:
    """Return the house-rules fields of ``game``, by field name."""
    return get_web(game).rate_card_form_fields()


def clean_rate_card(form: forms.BaseForm, game: str, cleaned: dict) -> dict | None:
    """Return the complete, validated rate card of the form's house-rules fields, or None
    after adding each refusal to the field it names (or to the form)."""
    web = get_web(game)
    names = set(rate_card_fields(game))
    if any(name not in cleaned for name in names):
        return None  # a field is refused already; its own error says why
    try:
        return get_game(game).rate_card(web.rate_card_from_form(cleaned)).as_dict()
    except RateCardError as error:
        for problem in error.problems:
            name = web.rate_card_field_name(problem.field)
            message = problem_text(problem)
            form.add_error(name if name in form.fields else None, message)
        return None


class RateCardForm(forms.Form):
    """A club's house rules (the set-up screen): one field per setting, grouped by the game."""

    def __init__(self, *args, game: str, card: dict | None = None, **kwargs):
        kwargs.setdefault("initial", get_web(game).rate_card_initial(card))
        super().__init__(*args, **kwargs)
        self.game = game
        self.fields.update(rate_card_fields(game))
        self.groups = get_web(game).rate_card_field_groups()
        self.rate_card: dict | None = None

    def grouped(self):
        return [(title, [self[name] for name in names]) for title, names in self.groups]

    def clean(self):
        super().clean()
        cleaned = self.cleaned_data
        if not self.errors:
            self.rate_card = clean_rate_card(self, self.game, cleaned)
        return cleaned


def preset_field(game: str, *, required: bool) -> forms.ChoiceField:
    """Return a field choosing one of ``game``'s presets (not required: blank keeps the card).

    A name the game has not is refused as every choice field refuses one, on the field."""
    choices = get_web(game).preset_choices()
    return forms.ChoiceField(
        label=_("Preset"),
        choices=choices if required else [("", gettext("none: keep the settings below")), *choices],
        required=required,
        help_text=_("A variant clubs play; it fills the whole card from the game's defaults."),
    )


def preset_rate_card(game: str, name: str) -> dict:
    """Return the complete card of ``game``'s preset ``name``."""
    return preset_card(get_game(game), name).as_dict()


class PresetForm(forms.Form):
    """The set-up screen's choice of a preset to fill the house-rules form with (nothing is
    saved until the filled form is)."""

    def __init__(self, *args, game: str, **kwargs):
        super().__init__(*args, **kwargs)
        self.game = game
        self.fields["preset"] = preset_field(game, required=True)

    def rate_card(self) -> dict:
        return preset_rate_card(self.game, self.cleaned_data["preset"])
