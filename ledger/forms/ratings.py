"""The form of a new rating list (an officer's, ``federation.md`` section 3)."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from ledger.federation.engine.rating import RatingParams

DEFAULTS = RatingParams()


class RatingListForm(forms.Form):
    """Name, the parameters (the spec's defaults shown; the service checks them) and whether
    the member clubs' evenings are rated too."""

    name = forms.CharField(label=_("Name"), max_length=100)
    # "initial" is a form's own attribute (its initial values): the field is named apart.
    initial_rating = forms.FloatField(label=_("Initial rating"), initial=DEFAULTS.initial)
    scale = forms.FloatField(label=_("Scale"), initial=DEFAULTS.scale)
    k_new = forms.FloatField(label=_("K of a new player"), initial=DEFAULTS.k_new)
    new_tables = forms.IntegerField(
        label=_("New until this many tables"), initial=DEFAULTS.new_tables
    )
    k = forms.FloatField(label=_("K after"), initial=DEFAULTS.k)
    club_evenings = forms.BooleanField(
        label=_("Also rate the member clubs' evenings"), required=False
    )

    def params(self) -> dict:
        """The parameters as the service takes them."""
        data = self.cleaned_data
        return {
            "initial": data["initial_rating"],
            **{key: data[key] for key in ("scale", "k_new", "new_tables", "k")},
        }
