"""Forms of the treasurer: counting jetons, adjustments, closing and reopening an evening."""

from __future__ import annotations

from typing import cast

from django import forms
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _


class JetonCountForm(forms.Form):
    """The jetons counted in front of every account of one table (blank: not counted)."""

    def __init__(self, *args, lines, **kwargs):
        super().__init__(*args, **kwargs)
        self.lines = lines
        for line in lines:
            self.fields[f"count_{line.account_id}"] = forms.IntegerField(
                label=line.name,
                min_value=0,
                required=False,
                # The input sits in its account's row under "New count": its own name says
                # whose count it is.
                widget=forms.NumberInput(
                    attrs={
                        "inputmode": "numeric",
                        "step": 5,
                        "class": "count-input",
                        "aria-label": gettext("New count for {name}").format(name=line.name),
                    }
                ),
            )

    def clean(self):
        super().clean()
        cleaned = self.cleaned_data
        if not any(cleaned.get(f"count_{line.account_id}") is not None for line in self.lines):
            raise forms.ValidationError(_("Enter at least one count."))
        return cleaned

    def counts(self) -> dict[str, int]:
        """Return the entered counts by account name."""
        return {
            line.name: self.cleaned_data[f"count_{line.account_id}"]
            for line in self.lines
            if self.cleaned_data.get(f"count_{line.account_id}") is not None
        }


class AdjustmentForm(forms.Form):
    """An explicit transfer between two accounts of a table, with the treasurer's reason."""

    source = forms.ChoiceField(label=_("From"))
    target = forms.ChoiceField(label=_("To"))
    points = forms.IntegerField(label=_("Points"), min_value=1)
    reason = forms.CharField(
        label=_("Reason"), max_length=500, widget=forms.TextInput(attrs={"size": 40})
    )

    def __init__(self, *args, names, **kwargs):
        super().__init__(*args, **kwargs)
        choices = [(name, name) for name in names]
        cast(forms.ChoiceField, self.fields["source"]).choices = choices
        cast(forms.ChoiceField, self.fields["target"]).choices = choices


class CloseForm(forms.Form):
    """Close the evening; differences in the jeton count must be confirmed."""

    confirm_differences = forms.BooleanField(
        label=_("I confirm the differences in the jeton count"), required=False
    )


class ReopenForm(forms.Form):
    """Reopen a closed evening or a tournament's closed round; the reason is logged."""

    reason = forms.CharField(
        label=_("Reason"), max_length=500, widget=forms.Textarea(attrs={"rows": 2})
    )
