"""Forms of a federation's upload pages (``federation.md`` section 5): a results file with the
series it may join, and a new upload token's label."""

from __future__ import annotations

from typing import cast

from django import forms
from django.utils.translation import gettext_lazy as _

from ledger.federation.engine.errors import FederationError
from ledger.federation.engine.example import read_factor
from ledger.games.errors import RulesError
from ledger.models import Series, UploadToken, text_limit
from ledger.web.refusals import refusal_messages, refusal_text
from ledger.web.results_in import MAX_BYTES, read_results_bytes


class ResultsUploadForm(forms.Form):
    """A results file (read within ``ledger.web.jsonin``'s limits and checked against the
    schema in ``clean_file``: ``cleaned_data["document"]``), and optionally a series of the
    federation to add the imported event to, with its factor."""

    file = forms.FileField(
        label=_("Results file"),
        help_text=_("A tarokclub.results/1 file (JSON) exported by a club's installation."),
        widget=forms.ClearableFileInput(attrs={"accept": ".json,application/json"}),
    )
    series = forms.ModelChoiceField(
        label=_("Add to the series"),
        queryset=Series.objects.none(),
        required=False,
        empty_label=_("(none)"),
    )
    factor = forms.CharField(
        label=_("Factor"),
        initial="1",
        max_length=40,
        required=False,
        help_text=_("The event's results count times this (2, 3/2); 1 when empty."),
    )

    def __init__(self, *args, series=None, **kwargs):
        super().__init__(*args, **kwargs)
        if series is not None:
            cast(forms.ModelChoiceField, self.fields["series"]).queryset = series

    def clean_file(self):
        upload = self.cleaned_data["file"]
        if upload.size > MAX_BYTES:
            raise forms.ValidationError(
                _("the file is larger than {limit} bytes").format(limit=MAX_BYTES)
            )
        try:
            self.cleaned_data["document"] = read_results_bytes(upload.read(MAX_BYTES + 1))
        except RulesError as error:
            raise forms.ValidationError(
                [message for _field, message in refusal_messages(error, named=True)]
            ) from None
        return upload

    def clean_factor(self):
        value = (self.cleaned_data.get("factor") or "").strip() or "1"
        try:
            read_factor(value, "factor")
        except FederationError as error:
            raise forms.ValidationError(refusal_text(error)) from None
        return value


class UploadTokenForm(forms.Form):
    label = forms.CharField(
        label=_("Label"),
        max_length=text_limit(UploadToken, "label"),
        help_text=_("Whose installation uses it, e.g. the club's name."),
    )
