"""Forms of the director's screens (issue 21): a new tournament, entries, a swap."""

from __future__ import annotations

import datetime
from typing import cast

from django import forms
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext_lazy as _

from ledger.games.errors import RulesError
from ledger.games.web import game_choices
from ledger.models import Member, tournament_format_choices
from ledger.services.errors import problem_text
from ledger.services.tournaments.entries import MAX_RANK
from ledger.web.jsonin import load_json_safely

MAX_LIST = 100_000  # characters of a pasted or uploaded list


class TournamentForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=100)
    # A date picker reads only ISO dates: today's date shows in it, whatever the language.
    date = forms.DateField(
        label=_("Date"), widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d")
    )
    last_date = forms.DateField(
        label=_("Last day"),
        required=False,
        widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"),
        help_text=_("For a tournament of several days, an evening each day. Empty: one day."),
    )
    game = forms.ChoiceField(label=_("Game"), choices=game_choices)
    tournament_format = forms.ChoiceField(label=_("Format"), choices=tournament_format_choices)
    seed = forms.CharField(
        label=_("Seed"),
        max_length=100,
        required=False,
        help_text=_(
            "Printed on every sheet; anyone can recompute the draws from it. Empty: "
            "the tournament's id and date."
        ),
    )
    params = forms.CharField(
        label=_("Parameters"),
        required=False,
        widget=forms.Textarea(attrs={"rows": 3}),
        help_text=_(
            'Overrides of the format\'s defaults as JSON, e.g. {"rounds": 3, '
            '"time_limit_min": 80}. Empty: the defaults.'
        ),
    )

    confirm_hands = forms.BooleanField(
        label=_("Opponent confirmation"),
        required=False,
        help_text=_(
            "A hand saved on a table's phone counts for the table's target once a second "
            "player at the table confirms it there (the parameter confirm_hands)."
        ),
    )

    def __init__(self, *args, club=None, **kwargs):
        super().__init__(*args, **kwargs)
        if club is not None:
            self.fields["game"].initial = club.game
        self.fields["date"].initial = timezone.localdate()

    def clean_params(self):
        text = (self.cleaned_data.get("params") or "").strip()
        if not text:
            return {}
        try:
            value = load_json_safely(text, "params")
        except RulesError as error:
            problem = error.problems[0]
            raise forms.ValidationError(
                _("the parameters are not valid JSON: {problem}").format(
                    problem=problem_text(problem)
                )
            ) from None
        if not isinstance(value, dict):
            raise forms.ValidationError(_("the parameters must be a JSON object"))
        return value

    def clean(self):
        """The box sets the parameter ``confirm_hands`` (the JSON may set it too)."""
        super().clean()
        data = self.cleaned_data
        if data.get("confirm_hands") and isinstance(data.get("params"), dict):
            data["params"] = {**data["params"], "confirm_hands": True}
        return data


def _iso_date(value: str) -> datetime.date:
    return datetime.date.fromisoformat(value)


def day_choices(tournament) -> list[tuple[str, str]]:
    """The tournament's days, each as an ISO date and its local short form."""
    days = (tournament.last_date - tournament.date).days + 1
    return [
        ((d := tournament.date + datetime.timedelta(days=i)).isoformat(), _day_label(d))
        for i in range(max(days, 1))
    ]


def _day_label(day: datetime.date) -> str:
    return date_format(day, "DATE_FORMAT")


class DaysForm(forms.Form):
    """The tournament's first and last day."""

    date = forms.DateField(
        label=_("First day"), widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d")
    )
    last_date = forms.DateField(
        label=_("Last day"), widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d")
    )


class DayForm(forms.Form):
    """A round's day: one of the tournament's days."""

    day = forms.TypedChoiceField(label=_("Day"), coerce=_iso_date)

    def __init__(self, *args, tournament=None, **kwargs):
        super().__init__(*args, **kwargs)
        if tournament is not None:
            cast(forms.ChoiceField, self.fields["day"]).choices = day_choices(tournament)


class MembersEntryForm(forms.Form):
    """Members typed by name (one a line or separated by commas; the page offers them)."""

    names = forms.CharField(
        label=_("Members"),
        widget=forms.TextInput(attrs={"list": "club-members", "autocomplete": "off"}),
    )


class GuestForm(forms.Form):
    name = forms.CharField(label=_("Guest's name"), max_length=60)
    club_name = forms.CharField(label=_("Club"), max_length=100, required=False)
    ladder_rank = forms.IntegerField(
        label=_("Ladder rank"), min_value=1, max_value=MAX_RANK, required=False
    )


class ImportForm(forms.Form):
    text = forms.CharField(
        label=_("Paste a list"),
        required=False,
        max_length=MAX_LIST,
        widget=forms.Textarea(attrs={"rows": 5}),
        help_text=_(
            "One player a line: name, club, ladder rank, id (all but the name "
            "optional; comma, semicolon or tab)."
        ),
    )
    file = forms.FileField(label=_("or a CSV file"), required=False)

    def clean(self):
        super().clean()
        data = self.cleaned_data
        upload = data.get("file")
        if upload is not None:
            if upload.size > MAX_LIST:
                raise forms.ValidationError(_("the file is too large"))
            try:
                data["text"] = upload.read().decode("utf-8-sig")
            except UnicodeDecodeError:
                raise forms.ValidationError(_("the file is not UTF-8 text")) from None
        if not (data.get("text") or "").strip():
            raise forms.ValidationError(_("paste a list or choose a file"))
        return data


class SwapForm(forms.Form):
    first = forms.ChoiceField(label=_("Swap"))
    second = forms.ChoiceField(label=_("with"))

    def __init__(self, *args, players=(), **kwargs):
        super().__init__(*args, **kwargs)
        for name in ("first", "second"):
            cast(forms.ChoiceField, self.fields[name]).choices = list(players)


class SubstituteForm(forms.Form):
    """A substitute for a drawn player (section 9): a member of the club who is not entered,
    or a guest typed by name."""

    absent = forms.ChoiceField(label=_("In the place of"))
    member = forms.ModelChoiceField(
        label=_("Substitute: a member"), queryset=Member.objects.none(), required=False
    )
    guest_name = forms.CharField(label=_("or a guest"), max_length=60, required=False)

    def __init__(self, *args, club=None, tournament=None, players=(), **kwargs):
        super().__init__(*args, **kwargs)
        cast(forms.ChoiceField, self.fields["absent"]).choices = list(players)
        if club is not None and tournament is not None:
            cast(forms.ModelChoiceField, self.fields["member"]).queryset = (
                Member.objects.filter(club=club, active=True)
                .exclude(entries__tournament=tournament)
                .order_by("name")
            )

    def clean(self):
        super().clean()
        data = self.cleaned_data
        if not data.get("member") and not (data.get("guest_name") or "").strip():
            raise forms.ValidationError(_("choose a member or type a guest's name"))
        return data
