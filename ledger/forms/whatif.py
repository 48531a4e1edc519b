"""The what-if form: which rate card to replay the evening or season under.

One choice names the card: the scope's own card (the replay gives the ledger back), a preset
of the game, another club's house rules on this installation (same game), the scope's card
edited in the house-rules form (``forms.ratecard.RateCardForm``, prefilled: change a few
values), or a ``tarokclub.rates/1`` card pasted as JSON. The form is read with GET: the
comparison writes nothing, and its address is what the CSV and PDF links repeat.
"""

from __future__ import annotations

from typing import cast

from django import forms
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from ledger.forms.ratecard import RateCardForm
from ledger.games.errors import RulesError
from ledger.games.registry import get_game
from ledger.models import tournament_format_choices
from ledger.selectors import whatif
from ledger.services.errors import problem_text
from ledger.web.jsonin import load_json_safely

OWN = "own"
EDITED = "edited"  # the house-rules form below
PASTED = "json"  # a card pasted as JSON
PREFIX = "rc"  # the house-rules form's fields
# Bound on the edited card's text (a complete card is about 2 kB).
MAX_CARD_CHARS = 20_000


class WhatIfForm(forms.Form):
    """Choose the card; ``card()`` returns it (None: the scope's own card) once valid."""

    card = forms.ChoiceField(label=_("Rate card"), required=False)
    rates = forms.CharField(
        label=_("Rate card as JSON"),
        required=False,
        max_length=MAX_CARD_CHARS,
        widget=forms.Textarea(attrs={"rows": 8, "spellcheck": "false", "autocomplete": "off"}),
        help_text=_(
            "A tarokclub.rates/1 card, used when the card chosen is the one pasted as JSON; a "
            "key left out takes the game's default."
        ),
    )

    def __init__(self, data=None, *, game: str, club, own_card: dict, **kwargs):
        super().__init__(data, **kwargs)
        self.game = game
        self.clubs = {c.slug: c for c in whatif.clubs_of_game(game, exclude=club)}
        presets = [(f"preset:{p.name}", gettext(p.title)) for p in get_game(game).presets]
        choices: list = [
            (OWN, gettext("Its own rate card (the replay gives the ledger back)")),
            (EDITED, gettext("Its rate card with the changes made below")),
            (PASTED, gettext("The rate card pasted as JSON below")),
        ]
        if presets:
            choices.append((gettext("Presets"), presets))
        if self.clubs:
            others = [(f"club:{slug}", c.name) for slug, c in self.clubs.items()]
            choices.append((gettext("Another club's house rules"), others))
        cast(forms.ChoiceField, self.fields["card"]).choices = choices
        # The house rules, prefilled with the scope's card; read only when they are chosen.
        edited = data is not None and data.get("card") == EDITED
        self.house_rules = RateCardForm(
            data if edited else None, game=game, card=own_card, prefix=PREFIX
        )
        self.chosen: whatif.Card | None = None

    def clean(self):
        super().clean()
        cleaned = self.cleaned_data
        choice = cleaned.get("card") or OWN
        try:
            if choice.startswith("preset:"):
                self.chosen = whatif.card_from_preset(self.game, choice.removeprefix("preset:"))
            elif choice.startswith("club:"):
                self.chosen = whatif.card_from_club(
                    self.game, self.clubs[choice.removeprefix("club:")]
                )
            elif choice == EDITED:
                if not self.house_rules.is_valid():
                    self.add_error(None, gettext("Correct the house rules below."))
                    return cleaned
                self.chosen = whatif.card_from_data(self.game, self.house_rules.rate_card)
                self.chosen = whatif.Card(
                    self.game, self.chosen.rates, gettext("its rate card with changes")
                )
            elif choice == PASTED:
                text = cleaned.get("rates") or ""
                if not text.strip():
                    self.add_error("rates", gettext("Enter the rate card to try as JSON."))
                    return cleaned
                data = load_json_safely(text, "rates")
                self.chosen = whatif.card_from_data(self.game, data)
        except RulesError as error:
            target = "rates" if choice == PASTED else "card"
            for problem in error.problems:
                message = problem_text(problem)
                where = problem.field if problem.field not in ("", "rates", "preset") else ""
                self.add_error(target, f"{where}: {message}" if where else message)
        return cleaned


class TournamentWhatIfForm(forms.Form):
    """Choose the format a tournament's closed rounds are ranked under (its own by default)."""

    format = forms.ChoiceField(label=_("Format"), required=False)

    def __init__(self, data=None, *, tournament, **kwargs):
        super().__init__(data, **kwargs)
        labels = dict(tournament_format_choices())
        self.own = tournament.tournament_format
        cast(forms.ChoiceField, self.fields["format"]).choices = [
            (code, str(labels.get(code, code))) for code in whatif.formats_for(tournament)
        ]
        self.fields["format"].initial = self.own

    def chosen(self) -> str:
        """Return the format chosen (the tournament's own when none is, as on the page's first
        opening, from the tournament's link, with nothing asked yet)."""
        if not self.is_bound:
            return self.own
        return self.cleaned_data.get("format") or self.own
