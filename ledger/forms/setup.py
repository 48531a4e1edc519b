"""Forms of the club set-up screens: a new club, members, house rules, seasons, settings and
the invitation link's choice of user name and password.

The house-rules form is the one of ``ledger.forms.ratecard``, shared with the admin.
"""

from __future__ import annotations

import datetime
from decimal import Decimal
from typing import cast

from django import forms
from django.contrib.auth import get_user_model, password_validation
from django.contrib.auth.validators import UnicodeUsernameValidator
from django.utils import timezone
from django.utils.text import slugify
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from ledger.forms.ratecard import preset_rate_card
from ledger.games.registry import GAMES, get_web
from ledger.games.web import game_choices
from ledger.models import Club, Member, Season
from ledger.services.setup import (
    CLUB_SETTINGS,
    parse_names,
    season_dates,
    season_name,
    username_free,
)

# The house rules a new club starts from: its game's defaults, or one of its game's presets
# (``Game.presets``), chosen as "<game>:<preset>"; the set-up screen changes them later.
DEFAULTS = "defaults"


# The fields of a new club that default to its game's (``GameWeb.club_defaults``).
GAME_DEFAULTED = ("language", "currency", "time_zone")


class GameRadioSelect(forms.RadioSelect):
    """The game choice; each game says whether it counts jetons (``data-jetons``), so the
    page hides the jeton field while a game without them is chosen."""

    def create_option(self, name, value, *args, **kwargs):
        option = super().create_option(name, value, *args, **kwargs)
        if str(value) in GAMES:
            option["attrs"]["data-jetons"] = "1" if GAMES[str(value)].features.uses_jetons else "0"
        return option


class ClubMoneyForm(forms.ModelForm):
    """The price per point as the reader writes numbers (0,25 in Danish and Slovenian; 0.25
    accepted too), and the starting jetons only for a game that counts jetons."""

    def game_code(self) -> str:
        """Return the club's game (the form's, chosen or given)."""
        return self.instance.game

    def setup_money(self) -> None:
        price = self.initial.get("price_per_point")
        if isinstance(price, Decimal):  # 0,25 as money is written, not 0,2500
            places = max(2, -int(price.normalize().as_tuple().exponent))
            self.initial["price_per_point"] = price.quantize(Decimal(1).scaleb(-places))
        game = GAMES.get(self.game_code())
        if game is not None and not game.features.uses_jetons:
            self.fields.pop("starting_jetons", None)


# The price is written in the reader's language, with the decimal keyboard on a phone.
PRICE_WIDGET = forms.TextInput(attrs={"inputmode": "decimal", "autocomplete": "off"})


class ClubCreateForm(ClubMoneyForm):
    """A new club: its name, short name, game, house rules, money and its first season."""

    preset = forms.ChoiceField(
        label=_("House rules"),
        initial=DEFAULTS,
        help_text=_("The game's defaults, or a preset of the chosen game; change them later."),
    )
    season_name = forms.CharField(label=_("First season"), max_length=60)
    season_starts_on = forms.DateField(
        label=_("Season starts"), widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d")
    )
    season_ends_on = forms.DateField(
        label=_("Season ends"), widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d")
    )

    class Meta:
        model = Club
        fields = [
            "name",
            "slug",
            "game",
            "language",
            "price_per_point",
            "currency",
            "time_zone",
            "starting_jetons",
        ]
        widgets = {"game": GameRadioSelect, "price_per_point": PRICE_WIDGET}
        localized_fields = ["price_per_point"]

    def __init__(self, *args, today: datetime.date | None = None, **kwargs):
        super().__init__(*args, **kwargs)
        self.setup_money()
        starts, ends = season_dates(today or timezone.localdate())
        self.initial.setdefault("season_name", season_name(starts))
        self.initial.setdefault("season_starts_on", starts.isoformat())
        self.initial.setdefault("season_ends_on", ends.isoformat())
        cast(forms.ChoiceField, self.fields["game"]).choices = game_choices()
        cast(forms.ChoiceField, self.fields["preset"]).choices = [
            (DEFAULTS, gettext("The game's defaults (its rules' own amounts)")),
            *(
                (title, [(f"{code}:{name}", text) for name, text in get_web(code).preset_choices()])
                for code, title in game_choices()
                if GAMES[code].presets
            ),
        ]
        self.fields["slug"].help_text = _("Used in the club's addresses, e.g. hjoerring.")
        # Left empty, the game's own: Slovenian, euro and Ljubljana for a Slovenian club.
        for key in GAME_DEFAULTED:
            field = cast(forms.ChoiceField, self.fields[key])
            field.required = False
            own = [(value, label) for value, label in list(field.choices) if value != ""]  # type: ignore[arg-type]
            field.choices = [("", gettext("The game's own")), *own]
            field.help_text = _("Left as the game's own, the game's country decides.")
            self.initial.setdefault(key, "")

    def game_code(self) -> str:
        if self.is_bound:
            return str(self.data.get("game") or "")
        return str(self.initial.get("game") or self.fields["game"].initial or "")

    def clean(self):
        super().clean()
        cleaned = self.cleaned_data
        starts, ends = cleaned.get("season_starts_on"), cleaned.get("season_ends_on")
        if starts and ends and ends < starts:
            self.add_error("season_ends_on", gettext("The season ends before it starts."))
        game, preset = cleaned.get("game"), cleaned.get("preset")
        if game and preset and preset != DEFAULTS and preset.partition(":")[0] != game:
            other, _colon, name = preset.partition(":")
            self.add_error(
                "preset",
                gettext("{preset} is a preset of {other}, not of {game}").format(
                    preset=get_web(other).preset_text(name)["title"],
                    other=get_web(other).title,
                    game=get_web(game).title,
                ),
            )
        return cleaned

    def rate_card(self) -> dict:
        """The card of the chosen preset: the game's defaults, or one of its presets."""
        game, preset = self.cleaned_data["game"], self.cleaned_data["preset"]
        if preset == DEFAULTS:
            return GAMES[game].rate_card({}).as_dict()
        return preset_rate_card(game, preset.partition(":")[2])


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


class ClubSettingsForm(ClubMoneyForm):
    class Meta:
        model = Club
        fields = list(CLUB_SETTINGS)
        widgets = {"price_per_point": PRICE_WIDGET}
        localized_fields = ["price_per_point"]

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.setup_money()


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
        super().clean()
        cleaned = self.cleaned_data
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
