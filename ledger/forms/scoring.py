"""Forms of the scorekeeper's tablet: they parse input; ``ledger.services`` does the writing.

The hand forms carry the hand record as JSON (built in the browser by the game's entry script from
real form controls); the server always parses it again with the rules engine.
"""

from __future__ import annotations

import uuid
from typing import cast

from django import forms
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from ledger.games.errors import RulesError
from ledger.games.registry import get_game
from ledger.models import Member
from ledger.services.errors import LedgerError
from ledger.services.tables import check_evening_date
from ledger.web.jsonin import load_json_safely
from ledger.web.refusals import refusal_text


class EveningStartForm(forms.Form):
    """The evening's date, typed the reader's way (Danish: 24.11.2026 or 24-11-2026; the
    formats are ``tarokclub/formats/``); a date outside every season must be confirmed."""

    date = forms.DateField(
        label=_("Date"),
        widget=forms.DateInput(attrs={"autocomplete": "off", "size": 10, "class": "date"}),
    )
    no_season = forms.BooleanField(label=_("Start anyway without a season"), required=False)

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("initial", {"date": timezone.localdate()})
        kwargs.setdefault("auto_id", "id_evening_%s")
        super().__init__(*args, **kwargs)
        # The format the field shows, in the reader's words (Danish: dd.mm.åååå).
        self.fields["date"].widget.attrs["placeholder"] = _("yyyy-mm-dd")

    def clean_date(self):
        date = self.cleaned_data["date"]
        try:
            check_evening_date(date)
        except LedgerError as error:
            raise forms.ValidationError(str(error.message)) from error
        return date


def mark_busy(field: forms.ModelChoiceField, busy: dict[int, int]) -> None:
    """Mark each member of ``field`` who already sits at another open table (member id ->
    table number in ``busy``) with that table's number: the service refuses him."""
    field.label_from_instance = lambda m: (  # type: ignore[method-assign,assignment]
        _("{name} (at table {number})").format(name=m.name, number=busy[m.pk])
        if m.pk in busy
        else m.name
    )


class TableOpenForm(forms.Form):
    """Seat the evening's game's number of members (``game.features``: 3 to 5 for Danish and
    Slovenian, 4 or 5 for Hungarian) in the direction of play and name the first dealer."""

    first_dealer = forms.TypedChoiceField(
        label=_("First dealer"), coerce=int, initial=1, widget=forms.RadioSelect
    )

    def __init__(self, *args, club, game: str, busy=None, **kwargs):
        super().__init__(*args, **kwargs)
        features = get_game(game).features
        self.min_seats, self.max_seats = features.min_seats, features.max_seats
        cast(forms.ChoiceField, self.fields["first_dealer"]).choices = [
            (n, n) for n in range(1, self.max_seats + 1)
        ]
        members = Member.objects.filter(club=club, active=True).order_by("name")
        busy = busy or {}
        for n in range(1, self.max_seats + 1):
            field = forms.ModelChoiceField(
                queryset=members,
                required=False,  # the number seated is checked as the game's rule, in clean
                label=_("Seat {n}").format(n=n),
                empty_label="—",
            )
            mark_busy(field, busy)
            self.fields[f"seat_{n}"] = field
        self.order_fields([f"seat_{n}" for n in range(1, self.max_seats + 1)] + ["first_dealer"])

    def seat_fields(self):
        return [self[f"seat_{n}"] for n in range(1, self.max_seats + 1)]

    def clean(self):
        super().clean()
        data = self.cleaned_data
        chosen = [(n, data.get(f"seat_{n}")) for n in range(1, self.max_seats + 1)]
        members = [m for _n, m in chosen if m is not None]
        if not self.min_seats <= len(members) <= self.max_seats:
            raise forms.ValidationError(
                _("a table of this game seats {low} to {high} members, not {n}").format(
                    low=self.min_seats, high=self.max_seats, n=len(members)
                )
            )
        if len({m.pk for m in members}) != len(members):
            raise forms.ValidationError(_("a member can have only one seat at a table"))
        first: int | None = data.get("first_dealer")
        by_seat = dict(chosen)
        if first is not None and by_seat.get(first) is None:
            self.add_error("first_dealer", _("the first dealer must be seated at the table"))
        data["members"] = members
        data["first_dealer_member"] = by_seat.get(first) if first is not None else None
        return data


class SeatForm(forms.Form):
    """Seat a late arrival before one of the seated members, or last."""

    member = forms.ModelChoiceField(
        queryset=Member.objects.none(), label=_("Member"), empty_label=_("Choose a member …")
    )
    position = forms.TypedChoiceField(label=_("Seat"), coerce=int)

    def __init__(self, *args, table, seats, busy=None, **kwargs):
        super().__init__(*args, **kwargs)
        cast(forms.ModelChoiceField, self.fields["member"]).queryset = (
            Member.objects.filter(club_id=table.evening.club_id, active=True)
            .exclude(seats__table=table)
            .order_by("name")
        )
        mark_busy(cast(forms.ModelChoiceField, self.fields["member"]), busy or {})
        choices: list[tuple[int, str]] = [
            (i, _("before {name}").format(name=seat.member.name)) for i, seat in enumerate(seats)
        ]
        choices.append((len(seats), str(_("last"))))
        cast(forms.ChoiceField, self.fields["position"]).choices = choices
        self.fields["position"].initial = len(seats)


class LeaveForm(forms.Form):
    member = forms.ModelChoiceField(
        queryset=Member.objects.none(), label=_("Member"), empty_label=_("Choose a member …")
    )

    def __init__(self, *args, seats, **kwargs):
        super().__init__(*args, **kwargs)
        cast(forms.ModelChoiceField, self.fields["member"]).queryset = Member.objects.filter(
            pk__in=[s.member_id for s in seats]
        )


class HandForm(forms.Form):
    """A new hand: the record built by the browser and the form's one-time token."""

    record = forms.CharField(widget=forms.HiddenInput)
    token = forms.CharField(widget=forms.HiddenInput, required=False, max_length=64)
    # The slot and the table's version the form was previewed against (services.hand_record).
    number = forms.IntegerField(required=False, min_value=1, max_value=10**6)
    version = forms.IntegerField(required=False, min_value=0, max_value=2**62)

    def clean_record(self):
        raw = self.cleaned_data["record"]
        try:
            record = load_json_safely(raw, "record")  # bounded size, depth and numbers
        except RulesError as error:
            raise forms.ValidationError(
                refusal_text(error, str(_("the hand could not be read")))
            ) from error
        if not isinstance(record, dict):
            raise forms.ValidationError(_("the hand could not be read"))
        return record

    def clean_token(self):
        token = self.cleaned_data["token"]
        if not token:
            return ""
        try:
            return str(uuid.UUID(token))
        except ValueError as error:
            raise forms.ValidationError(_("the form's token is not valid")) from error


class HandNewForm(HandForm):
    """A new hand's save: the slot and the table's version it was previewed against are
    required, so that a resend or a second tablet can never record the hand twice."""

    number = forms.IntegerField(min_value=1, max_value=10**6)
    version = forms.IntegerField(min_value=0, max_value=2**62)
    # A tournament's round table after the signal: the one hand in play when time was
    # called (``tournament.md`` section 10).
    begun_before_signal = forms.BooleanField(required=False)


class HandCorrectForm(HandForm):
    """A correction: the changed record, why, and the revision it was made from."""

    reason = forms.CharField(label=_("Reason"), max_length=500, widget=forms.Textarea({"rows": 2}))
    base_revision = forms.IntegerField(widget=forms.HiddenInput, min_value=1)


class VoidForm(forms.Form):
    reason = forms.CharField(label=_("Reason"), max_length=500, widget=forms.Textarea({"rows": 2}))
