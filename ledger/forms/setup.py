"""Forms of the club set-up screens: a new club, members, house rules, seasons, settings and
the invitation link's choice of user name and password.

The house rules form reuses the game's own field builder (``get_web(code)
.rate_card_form_fields()``, the admin's); a game whose web side has none yet gets one field
per key of its default card (nested amounts as ``key__sub``). Either way the card is validated
by ``game.rate_card`` and each refusal shown at its field.
"""

from __future__ import annotations

import datetime

from django import forms
from django.contrib.auth import get_user_model, password_validation
from django.contrib.auth.validators import UnicodeUsernameValidator
from django.utils import timezone
from django.utils.text import format_lazy, slugify
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from ledger.games.errors import RateCardError
from ledger.games.registry import GAMES, get_game, get_web
from ledger.games.web import game_choices
from ledger.models import Club, Member, Season
from ledger.services.setup import (
    CLUB_SETTINGS,
    parse_names,
    season_dates,
    season_name,
    username_free,
)

FINE_PREFIX = "fine_"
NESTED = "__"

# House-rule presets offered when a club is created. The spec names Møller's rules [M] and
# the Danish federation's [DTF] as sources but does not say where the two differ, so the one
# preset is each game's defaults (for Danish Tarok: the spec's, after Møller).
PRESETS = [("defaults", _("The game's defaults (Danish Tarok: the spec's, after Møller)"))]


def rate_card_layout(code: str) -> tuple[dict[str, forms.Field], list[tuple[str, list[str]]]]:
    """Return the house rules' form fields of game ``code`` and their groups (title, names)."""
    defaults = get_game(code).rate_card({}).as_dict()
    web_fields = get_web(code).rate_card_form_fields()
    if web_fields:
        groups = get_web(code).rate_card_field_groups()
        fields = dict(web_fields)
        for key in groups["options"]:
            field = fields[key]
            default = dict(field.choices).get(defaults[key], defaults[key])
            field.help_text = format_lazy(_("default {default}"), default=default)
        titled = [
            (_("Amounts"), groups["amounts"]),
            (_("Fines (per cup)"), groups["fines"]),
            (_("Options"), groups["options"]),
        ]
        return fields, [(title, names) for title, names in titled if names]
    fields = {}
    plain: list[str] = []
    groups_out: list[tuple[str, list[str]]] = []
    for key, value in defaults.items():
        if key == "format":
            continue
        if isinstance(value, dict):
            names = []
            for sub, sub_value in value.items():
                name = f"{key}{NESTED}{sub}"
                fields[name] = _generic_field(sub.replace("_", " "), sub_value)
                names.append(name)
            groups_out.append((key.replace("_", " ").capitalize(), names))
        else:
            fields[key] = _generic_field(key.replace("_", " ").capitalize(), value)
            plain.append(key)
    return fields, [(_("Amounts"), plain), *groups_out]


def _generic_field(label: str, default) -> forms.Field:
    help_text = format_lazy(_("default {default}"), default=default)
    if isinstance(default, bool):
        return forms.TypedChoiceField(
            label=label,
            choices=[("1", _("yes")), ("0", _("no"))],
            coerce=lambda v: v in (True, "1", "True"),
            help_text=format_lazy(_("default {default}"), default=_("yes") if default else _("no")),
        )
    if isinstance(default, int):
        return forms.IntegerField(label=label, min_value=0, help_text=help_text)
    return forms.CharField(label=label, help_text=help_text)


def card_initial(code: str, card: dict | None) -> dict:
    """Return the form's initial values from a stored card merged over the game's defaults."""
    merged = get_game(code).rate_card({}).as_dict()
    for key, value in (card or {}).items():
        if isinstance(value, dict) and isinstance(merged.get(key), dict):
            merged[key] = {**merged[key], **value}
        elif key in merged:
            merged[key] = value
    fields, _groups = rate_card_layout(code)
    initial = {}
    for name in fields:
        if name.startswith(FINE_PREFIX) and "fines_per_cup" in merged:
            initial[name] = merged["fines_per_cup"].get(name.removeprefix(FINE_PREFIX))
        elif NESTED in name:
            key, sub = name.split(NESTED, 1)
            initial[name] = merged[key][sub]
        else:
            value = merged[name]
            initial[name] = ("1" if value else "0") if isinstance(value, bool) else value
    return initial


class RateCardForm(forms.Form):
    """The club's house rules as one field per setting, each with the game's default beside it."""

    def __init__(self, *args, game: str, card: dict | None = None, **kwargs):
        kwargs.setdefault("initial", card_initial(game, card))
        super().__init__(*args, **kwargs)
        self.game = game
        fields, self.groups = rate_card_layout(game)
        self.fields.update(fields)
        self.rate_card: dict | None = None

    def grouped(self):
        return [(title, [self[name] for name in names]) for title, names in self.groups]

    def clean(self):
        cleaned = super().clean()
        if self.errors:
            return cleaned
        data: dict = {}
        for name in self.fields:
            value = cleaned[name]
            if name.startswith(FINE_PREFIX) and get_web(self.game).rate_card_form_fields():
                data.setdefault("fines_per_cup", {})[name.removeprefix(FINE_PREFIX)] = value
            elif NESTED in name:
                key, sub = name.split(NESTED, 1)
                data.setdefault(key, {})[sub] = value
            else:
                data[name] = value
        try:
            self.rate_card = get_game(self.game).rate_card(data).as_dict()
        except RateCardError as error:
            for problem in error.problems:
                field = problem.field
                if field.startswith("fines_per_cup."):
                    field = FINE_PREFIX + field.removeprefix("fines_per_cup.")
                field = field.replace(".", NESTED)
                message = gettext(problem.template).format(**problem.params)
                self.add_error(field if field in self.fields else None, message)
        return cleaned


class ClubCreateForm(forms.ModelForm):
    """A new club: its name, short name, game, house rules, money and its first season."""

    preset = forms.ChoiceField(label=_("House rules"), choices=PRESETS, initial="defaults")
    season_name = forms.CharField(label=_("First season"), max_length=60)
    season_starts_on = forms.DateField(
        label=_("Season starts"), widget=forms.DateInput(attrs={"type": "date"})
    )
    season_ends_on = forms.DateField(
        label=_("Season ends"), widget=forms.DateInput(attrs={"type": "date"})
    )

    class Meta:
        model = Club
        fields = ["name", "slug", "game", "price_per_point", "currency", "starting_jetons"]
        widgets = {"game": forms.RadioSelect}

    def __init__(self, *args, today: datetime.date | None = None, **kwargs):
        super().__init__(*args, **kwargs)
        starts, ends = season_dates(today or timezone.localdate())
        self.initial.setdefault("season_name", season_name(starts))
        self.initial.setdefault("season_starts_on", starts.isoformat())
        self.initial.setdefault("season_ends_on", ends.isoformat())
        self.fields["game"].choices = game_choices()
        self.fields["slug"].help_text = _("Used in the club's addresses, e.g. hjoerring.")

    def clean(self):
        cleaned = super().clean()
        starts, ends = cleaned.get("season_starts_on"), cleaned.get("season_ends_on")
        if starts and ends and ends < starts:
            self.add_error("season_ends_on", gettext("The season ends before it starts."))
        return cleaned

    def rate_card(self) -> dict:
        """The card of the chosen preset (today only the game's defaults)."""
        return GAMES[self.cleaned_data["game"]].rate_card({}).as_dict()


class MemberAddForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=60)
    role = forms.ChoiceField(label=_("Role"), choices=Member.Role.choices, initial="member")


class MembersPasteForm(forms.Form):
    names = forms.CharField(
        label=_("Names, one a line"),
        widget=forms.Textarea(attrs={"rows": 8}),
        help_text=_("Every name becomes a member; all are added at once, or none."),
    )

    def names_list(self) -> list[str]:
        return parse_names(self.cleaned_data["names"])


class MemberEditForm(forms.Form):
    role = forms.ChoiceField(label=_("Role"), choices=Member.Role.choices, required=False)
    active = forms.TypedChoiceField(
        label=_("Active"),
        choices=[("1", _("active")), ("0", _("inactive"))],
        coerce=lambda v: v == "1",
        required=False,
        empty_value=None,
    )


class SeasonForm(forms.ModelForm):
    class Meta:
        model = Season
        fields = ["name", "starts_on", "ends_on"]
        widgets = {
            "starts_on": forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"),
            "ends_on": forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"),
        }


class ClubSettingsForm(forms.ModelForm):
    class Meta:
        model = Club
        fields = list(CLUB_SETTINGS)


DANISH_LETTERS = str.maketrans({"æ": "ae", "ø": "oe", "å": "aa", "Æ": "Ae", "Ø": "Oe", "Å": "Aa"})


def suggested_username(name: str) -> str | None:
    """Return the member's name as a user name: Danish letters spelled out, then slugified."""
    return slugify(name.translate(DANISH_LETTERS)) or None


class InvitationAcceptForm(forms.Form):
    """The invited member chooses the user name and password of his new log-in."""

    username = forms.CharField(label=_("User name"), max_length=150)
    password1 = forms.CharField(
        label=_("Password"),
        strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "new-password"}),
        help_text=password_validation.password_validators_help_text_html,
    )
    password2 = forms.CharField(
        label=_("Password again"),
        strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "new-password"}),
    )

    def __init__(self, *args, member: Member, **kwargs):
        super().__init__(*args, **kwargs)
        self.member = member
        self.fields["username"].initial = suggested_username(member.name)
        self.fields["username"].validators.append(UnicodeUsernameValidator())

    def clean_username(self):
        username = self.cleaned_data["username"].strip()
        if not username_free(username):
            raise forms.ValidationError(gettext("That user name is taken; choose another."))
        return username

    def clean(self):
        cleaned = super().clean()
        p1, p2 = cleaned.get("password1"), cleaned.get("password2")
        if p1 and p2 and p1 != p2:
            self.add_error("password2", gettext("The two passwords differ."))
        elif p1:
            probe = get_user_model()(username=cleaned.get("username", ""))
            try:
                password_validation.validate_password(p1, probe)
            except forms.ValidationError as error:
                self.add_error("password1", error)
        return cleaned
