"""The club's set-up form in the admin: the rate card as validated fields, never raw JSON.

One integer field per plain amount of ``RateCard``, one per fine type (``fine_<type>``) and a
choice per option. The form shows the club's stored rate card merged over the defaults and
stores only ``RateCard.from_dict(...).as_dict()``, so a club's house rules are always a
complete, valid ``tarokclub.rates/1`` object. A change applies to evenings opened afterwards;
an evening keeps the rate card it opened with.
"""

from __future__ import annotations

from django import forms
from django.utils.text import format_lazy
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from ledger.games.danish.engine import RateCard, RateCardError
from ledger.games.danish.engine.ratecard import FINE_TYPES, OPTIONS
from ledger.models import Club

FINE_PREFIX = "fine_"

AMOUNT_LABELS = {
    "funding_per_cup": _("funding per cup"),
    "refund_per_cup": _("refunding per cup"),
    "dealer_fee_per_cup": _("dealer's fee per cup"),
    "meld_tarok_base": _("tarok meld: 10 taroks"),
    "meld_tarok_step": _("tarok meld: each more"),
    "meld_matador_base": _("matadors: 3"),
    "meld_matador_step": _("matadors: each more"),
    "meld_half": _("half meld"),
    "meld_full": _("full meld"),
    "meld_overfull": _("overfull meld"),
    "lost_ultimo_card_each": _("ultimo card lost: to each player"),
    "lost_ultimo_card_cup": _("ultimo card lost: into the cup"),
    "pagat_home_each": _("pagat home: from each player"),
    "ultimo_pagat_each": _("pagat ultimo (and bagud): from each"),
    "ultimo_king_each": _("king ultimo (and bagud): from each"),
    "last_trick_each": _("last trick: from each"),
    "nolo_each": _("nolo: from each"),
    "tout_each": _("tout: from each"),
    "tout_each_pagat": _("tout, pagat variant: from each"),
    "count_par": _("count: par"),
    "count_round_to": _("count: rounded to"),
    "split_unit": _("split unit"),
}

FINE_LABELS = {
    "cups_not_moved": _("cups not moved"),
    "misdeal": _("misdeal"),
    "meld_before_dealer": _("meld before the dealer"),
    "meld_error": _("meld error"),
    "wrong_card_count": _("wrong number of cards"),
    "wrong_skat": _("wrong skat"),
    "lead_out_of_turn": _("lead out of turn"),
    "revoke": _("revoke (kulørsvigt)"),
    "false_scies_call": _("false scies call"),
}

OPTION_LABELS = {
    "tout_variant": _("tout"),
    "multi_bagud": _("several bagud into one cup"),
    "five_seat_rotation": _("rotation at 5 seats"),
}

CHOICE_LABELS = {
    "moller": _("Møller: from each, both cups, count on top"),
    "pagat": _("pagat.com: from each, cups untouched, no count"),
    "each_pays_p": _("each pays the cup as it stood"),
    "sequential": _("each doubles the cup"),
    "two_sitters": _("two sit out"),
    "hermansen": _("Hermansen: blocks of 5 hands"),
}


def amount_fields() -> list[str]:
    """Return the form's field names of the plain amounts, in the rate card's order."""
    return list(RateCard.amount_keys())


def fine_fields() -> list[str]:
    """Return the form's field names of the fines, ``fine_<type>``."""
    return [FINE_PREFIX + fine_type for fine_type in FINE_TYPES]


def option_fields() -> list[str]:
    """Return the form's field names of the options."""
    return list(OPTIONS)


def _rate_card_fields() -> dict[str, forms.Field]:
    defaults = RateCard()
    fields: dict[str, forms.Field] = {}
    for key in amount_fields():
        fields[key] = forms.IntegerField(
            label=AMOUNT_LABELS.get(key, key.replace("_", " ")),
            min_value=0,
            help_text=format_lazy(_("default {default}"), default=getattr(defaults, key)),
        )
    for fine_type in FINE_TYPES:
        fields[FINE_PREFIX + fine_type] = forms.IntegerField(
            label=FINE_LABELS.get(fine_type, fine_type.replace("_", " ")),
            min_value=0,
            help_text=format_lazy(
                _("per cup; default {default}"), default=defaults.fine(fine_type)
            ),
        )
    for key, choices in OPTIONS.items():
        fields[key] = forms.ChoiceField(
            label=OPTION_LABELS.get(key, key.replace("_", " ")),
            choices=[(c, CHOICE_LABELS.get(c, c)) for c in choices],
        )
    return fields


def stored_rates(club: Club | None) -> dict:
    """Return the club's stored rate card merged over the defaults, as stored (unvalidated).

    A stored value the rate card would refuse is shown as it is, so saving the form reports it
    next to its field instead of silently replacing it with the default.
    """
    merged = RateCard().as_dict()
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
        fields = ["name", "slug", "game", "price_per_point", "currency", "starting_jetons"]

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        rates = stored_rates(self.instance if self.instance.pk else None)
        for key in amount_fields() + option_fields():
            self.initial.setdefault(key, rates[key])
        for fine_type in FINE_TYPES:
            self.initial.setdefault(FINE_PREFIX + fine_type, rates["fines_per_cup"][fine_type])

    def clean(self):
        cleaned = super().clean()
        names = amount_fields() + fine_fields() + option_fields()
        if any(name not in cleaned for name in names):
            return cleaned  # a field is already refused; its own error says why
        data: dict = {key: cleaned[key] for key in amount_fields() + option_fields()}
        data["fines_per_cup"] = {t: cleaned[FINE_PREFIX + t] for t in FINE_TYPES}
        try:
            rates = RateCard.from_dict(data)
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
        **_rate_card_fields(),
    },
)
