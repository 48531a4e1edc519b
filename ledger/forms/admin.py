"""The club's set-up form in the admin: the rate card as validated fields, never raw JSON.

One integer field per plain amount of ``RateCard``, one per fine type (``fine_<type>``) and a
choice per option. The form shows the club's stored rate card merged over the defaults and
stores only ``RateCard.from_dict(...).as_dict()``, so a club's house rules are always a
complete, valid ``tarokclub.rates/1`` object. A change applies to evenings opened afterwards;
an evening keeps the rate card it opened with.
"""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext

from ledger.games.errors import RateCardError
from ledger.games.registry import default_game, get_game, get_web
from ledger.models import Club

FINE_PREFIX = "fine_"
# The club form edits the rate card of the default game; its fields and labels are the
# game's (``get_web(code).rate_card_form_fields``).


def _groups() -> dict[str, list[str]]:
    return get_web(default_game()).rate_card_field_groups()


def amount_fields() -> list[str]:
    """Return the form's field names of the plain amounts, in the rate card's order."""
    return _groups()["amounts"]


def fine_fields() -> list[str]:
    """Return the form's field names of the fines, ``fine_<type>``."""
    return _groups()["fines"]


def option_fields() -> list[str]:
    """Return the form's field names of the options."""
    return _groups()["options"]


def _fine_types() -> list[str]:
    return [name.removeprefix(FINE_PREFIX) for name in fine_fields()]


def stored_rates(club: Club | None) -> dict:
    """Return the club's stored rate card merged over the defaults, as stored (unvalidated).

    A stored value the rate card would refuse is shown as it is, so saving the form reports it
    next to its field instead of silently replacing it with the default.
    """
    merged = get_game(default_game()).rate_card().as_dict()
    stored = dict(club.rate_card or {}) if club is not None else {}
    fines = stored.pop("fines_per_cup", None)
    merged.update({k: v for k, v in stored.items() if k in merged and k != "format"})
    if isinstance(fines, dict):
        merged["fines_per_cup"] = {**merged["fines_per_cup"], **fines}
    return merged


class _ClubFormBase(forms.ModelForm):
    """The club's own fields plus its rate card as one validated field per setting."""

    class Meta:
        model = Club
        fields = [
            "name",
            "slug",
            "game",
            "price_per_point",
            "currency",
            "starting_jetons",
            "publish_results",
            "publish_money",
        ]

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        rates = stored_rates(self.instance if self.instance.pk else None)
        for key in amount_fields() + option_fields():
            self.initial.setdefault(key, rates[key])
        for fine_type in _fine_types():
            self.initial.setdefault(FINE_PREFIX + fine_type, rates["fines_per_cup"][fine_type])

    def clean(self):
        cleaned = super().clean()
        game = cleaned.get("game")
        if game and game != default_game():
            # These fields are the default game's; another game's house rules are edited on
            # the club's own screen (setup). A club that changes game starts from its defaults.
            if self.instance.game != game:
                self.instance.rate_card = {}
            return cleaned
        names = amount_fields() + fine_fields() + option_fields()
        if any(name not in cleaned for name in names):
            return cleaned  # a field is already refused; its own error says why
        data: dict = {key: cleaned[key] for key in amount_fields() + option_fields()}
        data["fines_per_cup"] = {t: cleaned[FINE_PREFIX + t] for t in _fine_types()}
        try:
            rates = get_game(default_game()).rate_card(data)
        except RateCardError as error:
            for problem in error.problems:
                self.add_error(
                    self._field_of(problem.field),
                    gettext(problem.template).format(**problem.params),
                )
            return cleaned
        # Only the validated, complete rate card is stored.
        self.instance.rate_card = rates.as_dict()
        return cleaned

    def _field_of(self, path: str) -> str | None:
        if path.startswith("fines_per_cup."):
            path = FINE_PREFIX + path.removeprefix("fines_per_cup.")
        return path if path in self.fields else None


ClubForm = type(_ClubFormBase)(
    "ClubForm",
    (_ClubFormBase,),
    {
        "__module__": __name__,
        "__doc__": _ClubFormBase.__doc__,
        **get_web(default_game()).rate_card_form_fields(),
    },
)
