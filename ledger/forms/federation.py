"""Forms of the federation officer's pages (``ledger.views.federation_officer``): a club to
join, a player's licence, a merge, a series and its events, an officer to add."""

from __future__ import annotations

import re

from django import forms
from django.utils.translation import gettext_lazy as _

from ledger.federation.engine.series import FIELD, LINEAR, PLACEMENT, POINTS, TABLE
from ledger.models import (
    Club,
    ImportedEvent,
    Player,
    Series,
    SeriesEvent,
    Tournament,
    text_limit,
    validate_visible_name,
)

MAX_LIST = 1000  # characters of a list of numbers (a scale's points or gaps)
SEPARATORS = re.compile(r"[\s,;]+")

DATE = forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d")


def numbers_of(text: str) -> list[str]:
    """The numbers of a list typed with commas, semicolons or spaces (``8, 7, 13/2``)."""
    return [n for n in SEPARATORS.split(text or "") if n]


class JoinForm(forms.Form):
    club: forms.ModelChoiceField[Club] = forms.ModelChoiceField(
        label=_("Club"), queryset=None, empty_label=None
    )

    def __init__(self, *args, clubs, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["club"].queryset = clubs  # type: ignore[attr-defined]


class LicenceForm(forms.Form):
    licence = forms.CharField(
        label=_("Licence"),
        max_length=text_limit(Player, "licence"),
        required=False,
        validators=[validate_visible_name],
        help_text=_("The federation's number for the player; empty clears it."),
    )


class PlayerSearchForm(forms.Form):
    q = forms.CharField(label=_("Search"), max_length=100, required=False)


class MergeForm(forms.Form):
    kept: forms.ModelChoiceField[Player] = forms.ModelChoiceField(
        label=_("Record to keep"), queryset=None
    )
    merged: forms.ModelChoiceField[Player] = forms.ModelChoiceField(
        label=_("Record to merge into it"), queryset=None
    )

    def __init__(self, *args, players, **kwargs):
        super().__init__(*args, **kwargs)
        for name in ("kept", "merged"):
            field = self.fields[name]
            field.queryset = players  # type: ignore[attr-defined]
            field.label_from_instance = self.player_label  # type: ignore[attr-defined]

    @staticmethod
    def player_label(player: Player) -> str:
        club = player.home_club.name if player.home_club is not None else player.club_name
        parts = [player.name, club, player.licence]
        return " · ".join(p for p in parts if p)


class SeriesForm(forms.Form):
    """A series: its name, seed, dates, rule and events (each final tournament a checkbox
    with its factor, fields ``event_<pk>`` and ``factor_<pk>``)."""

    name = forms.CharField(
        label=_("Name"), max_length=text_limit(Series, "name"), validators=[validate_visible_name]
    )
    seed = forms.CharField(
        label=_("Seed"),
        max_length=text_limit(Series, "seed"),
        validators=[validate_visible_name],
        help_text=_("Printed on the ladder; anyone can recompute it from it."),
    )
    starts_on = forms.DateField(label=_("First date"), widget=DATE)
    ends_on = forms.DateField(label=_("Last date"), widget=DATE)
    source = forms.ChoiceField(
        label=_("Results from"),
        choices=[(PLACEMENT, _("the placement, by a scale")), (POINTS, _("the points"))],
    )
    scale = forms.ChoiceField(
        label=_("Scale"),
        required=False,
        choices=[
            (LINEAR, _("linear: the last gets 1")),
            (TABLE, _("a table of points per place")),
            (FIELD, _("by the field: a base and gaps")),
        ],
    )
    scale_points = forms.CharField(
        label=_("Points per place"),
        max_length=MAX_LIST,
        required=False,
        help_text=_("For a table: 8, 8, 7, 6, 5, 9/2 (fractions such as 9/2 allowed)."),
    )
    scale_beyond = forms.CharField(
        label=_("Points beyond the table"), max_length=40, required=False, initial="0"
    )
    field_base = forms.CharField(label=_("Base"), max_length=40, required=False, initial="100")
    field_gaps = forms.CharField(
        label=_("Gaps"),
        max_length=MAX_LIST,
        required=False,
        help_text=_("For the field: 21, 32, 43, 49"),
    )
    best_of = forms.IntegerField(
        label=_("Best of"), required=False, help_text=_("Count only a player's best results.")
    )
    strike_worst = forms.IntegerField(
        label=_("Strike the worst"),
        required=False,
        help_text=_(
            "Strike each player's worst results (a missed event counts 0). Not with best of."
        ),
    )
    qualify = forms.IntegerField(
        label=_("Qualify"), required=False, help_text=_("The first so many qualify.")
    )

    def __init__(self, *args, tournaments=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.tournaments = list(tournaments)
        for t in self.tournaments:
            self.fields[f"event_{t.pk}"] = forms.BooleanField(
                label=f"{t.name} · {t.club.name} · {t.date:%Y-%m-%d}", required=False
            )
            self.fields[f"factor_{t.pk}"] = forms.CharField(
                label=_("Factor of {name}").format(name=t.name),
                max_length=text_limit(SeriesEvent, "factor"),
                initial="1",
                required=False,
            )

    @staticmethod
    def initial_of(series: Series) -> dict:
        """The form's fields of a stored series (its change prefilled), its rule as typed."""
        rule = series.rule
        scale = rule.get("scale") or {}
        return {
            "name": series.name,
            "seed": series.seed,
            "starts_on": series.starts_on,
            "ends_on": series.ends_on,
            "source": rule.get("source", POINTS),
            "scale": scale.get("kind", LINEAR),
            "scale_points": ", ".join(str(p) for p in scale.get("points", ())),
            "scale_beyond": str(scale.get("beyond", "0")),
            "field_base": str(scale.get("base", "100")),
            "field_gaps": ", ".join(str(g) for g in scale.get("gaps", ())),
            **{key: rule.get(key) for key in ("best_of", "strike_worst", "qualify")},
        }

    def rule_fields(self):
        return [self[n] for n in ("source", "scale", "scale_points", "scale_beyond")] + [
            self[n] for n in ("field_base", "field_gaps", "best_of", "strike_worst", "qualify")
        ]

    def event_fields(self):
        return [(self[f"event_{t.pk}"], self[f"factor_{t.pk}"]) for t in self.tournaments]

    def rule(self) -> dict:
        """The rule as the engine reads it (``series_create`` checks it)."""
        data = self.cleaned_data
        rule: dict = {"source": data["source"]}
        if data["source"] == PLACEMENT:
            kind = data.get("scale") or LINEAR
            scale: dict = {"kind": kind}
            if kind == TABLE:
                scale["points"] = numbers_of(data["scale_points"])
                scale["beyond"] = data["scale_beyond"] or "0"
            elif kind == FIELD:
                scale["base"] = data["field_base"] or "0"
                scale["gaps"] = numbers_of(data["field_gaps"])
            rule["scale"] = scale
        for key in ("best_of", "strike_worst", "qualify"):
            if data.get(key) is not None:
                rule[key] = data[key]
        return rule

    def events(self) -> list[tuple]:
        """The chosen tournaments with their factors, in the form's order."""
        return [
            (t, self.cleaned_data.get(f"factor_{t.pk}") or "1")
            for t in self.tournaments
            if self.cleaned_data.get(f"event_{t.pk}")
        ]

    def field_of(self, field: str) -> str | None:
        """The form's field a service's refusal names (``rule.best_of``, ``events[1].factor``)."""
        if field.startswith("events["):
            index = int(field[len("events[") :].partition("]")[0])
            chosen = [t for t, _f in self.events()]
            if index < len(chosen):
                prefix = "factor" if field.endswith(".factor") else "event"
                return f"{prefix}_{chosen[index].pk}"
            return None
        names = {
            "rule.scale.points": "scale_points",
            "rule.scale.beyond": "scale_beyond",
            "rule.scale.base": "field_base",
            "rule.scale.gaps": "field_gaps",
            "rule.scale": "scale",
        }
        for prefix, name in names.items():
            if field.startswith(prefix):
                return name
        name = field.removeprefix("rule.")
        return name if name in self.fields else None


class SeriesEventForm(forms.Form):
    """An event to add to a series: a final tournament or an imported event, its factor."""

    tournament: forms.ModelChoiceField[Tournament] = forms.ModelChoiceField(
        label=_("Tournament"), queryset=None, required=False
    )
    imported: forms.ModelChoiceField[ImportedEvent] = forms.ModelChoiceField(
        label=_("Imported event"), queryset=None, required=False
    )
    factor = forms.CharField(
        label=_("Factor"),
        max_length=text_limit(SeriesEvent, "factor"),
        initial="1",
        help_text=_("A positive whole number or fraction, such as 3/2."),
    )

    def __init__(self, *args, tournaments, imported, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["tournament"].queryset = tournaments  # type: ignore[attr-defined]
        self.fields["imported"].queryset = imported  # type: ignore[attr-defined]


class FactorForm(forms.Form):
    """A series event's factor, changed."""

    factor = forms.CharField(
        label=_("Factor"),
        max_length=text_limit(SeriesEvent, "factor"),
        help_text=_("A positive whole number or fraction, such as 3/2."),
    )


class OfficerForm(forms.Form):
    username = forms.CharField(label=_("Username"), max_length=150)
