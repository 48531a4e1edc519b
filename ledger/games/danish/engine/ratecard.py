"""The club's house rules: every amount and option of the spec, with its defaults."""

from __future__ import annotations

from dataclasses import dataclass, field, fields, replace
from types import MappingProxyType

from ledger.games.errors import Problems, RateCardError, _
from ledger.games.money import MAX_POINTS

RATES_FORMAT = "tarokclub.rates/1"

FINE_TYPES = (
    "cups_not_moved",
    "misdeal",
    "meld_before_dealer",
    "meld_error",
    "wrong_card_count",
    "wrong_skat",
    "lead_out_of_turn",
    "revoke",
    "false_scies_call",
)
# Fines that bar the offender from ultimo in this hand, even when waived.
FINES_BARRING_ULTIMO = frozenset({"meld_error", "wrong_card_count", "wrong_skat", "revoke"})

DEFAULT_FINES = MappingProxyType(
    {
        "cups_not_moved": 5,
        "misdeal": 5,
        "meld_before_dealer": 20,
        "meld_error": 40,
        "wrong_card_count": 40,
        "wrong_skat": 40,
        "lead_out_of_turn": 20,
        "revoke": 40,
        "false_scies_call": 20,
    }
)

OPTIONS = {
    "tout_variant": ("moller", "pagat"),
    "multi_bagud": ("each_pays_p", "sequential"),
    "five_seat_rotation": ("two_sitters", "hermansen"),
}


@dataclass(frozen=True)
class RateCard:
    """Every amount (in points) and option of a club's house rules."""

    funding_per_cup: int = 20
    refund_per_cup: int = 20
    dealer_fee_per_cup: int = 5
    meld_tarok_base: int = 10
    meld_tarok_step: int = 5
    meld_matador_base: int = 10
    meld_matador_step: int = 5
    meld_half: int = 5
    meld_full: int = 10
    meld_overfull: int = 15
    lost_ultimo_card_each: int = 5
    lost_ultimo_card_cup: int = 5
    pagat_home_each: int = 5
    fines_per_cup: MappingProxyType = field(default_factory=lambda: DEFAULT_FINES)
    ultimo_pagat_each: int = 45
    ultimo_king_each: int = 40
    last_trick_each: int = 20
    nolo_each: int = 25
    tout_variant: str = "moller"
    tout_each: int = 80
    tout_each_pagat: int = 135
    multi_bagud: str = "each_pays_p"
    count_par: int = 26
    count_round_to: int = 5
    five_seat_rotation: str = "two_sitters"
    split_unit: int = 5

    @classmethod
    def amount_keys(cls) -> tuple[str, ...]:
        """Return the names of the plain integer amounts."""
        return tuple(
            f.name for f in fields(cls) if f.name not in OPTIONS and f.name != "fines_per_cup"
        )

    @classmethod
    def from_dict(cls, data) -> RateCard:
        """Return the rate card of a ``tarokclub.rates/1`` object; keys left out keep defaults.

        Raise RateCardError naming every unknown key, negative or non-integer
        amount and unknown option.
        """
        problems = Problems()
        if not isinstance(data, dict):
            problems.add("", _("a rate card must be a JSON object"))
            problems.raise_if_any(RateCardError)
        values: dict = {}
        known = {f.name for f in fields(cls)}
        for key, value in data.items():
            if key == "format":
                if value != RATES_FORMAT:
                    problems.add(
                        "format", _("the format must be {expected}"), expected=RATES_FORMAT
                    )
            elif key == "game":
                if value != "danish_tarok":
                    problems.add(
                        "game", _("this rate card is not of the game {game}"), game="danish_tarok"
                    )
            elif key not in known:
                problems.add(
                    key, _("unknown key {key}: the rate card has no such setting"), key=key
                )
            elif key in OPTIONS:
                if value not in OPTIONS[key]:
                    problems.add(
                        key,
                        _("{value} is not an option; choose one of {choices}"),
                        value=value,
                        choices=", ".join(OPTIONS[key]),
                    )
                else:
                    values[key] = value
            elif key == "fines_per_cup":
                if not isinstance(value, dict):
                    problems.add(key, _("fines per cup must be an object by fine type"))
                    continue
                fines = dict(DEFAULT_FINES)
                for fine_type, amount in value.items():
                    path = f"fines_per_cup.{fine_type}"
                    if fine_type not in DEFAULT_FINES:
                        problems.add(path, _("unknown fine type {type}"), type=fine_type)
                    elif _check_amount(problems, path, amount):
                        fines[fine_type] = amount
                values[key] = MappingProxyType(fines)
            elif _check_amount(problems, key, value):
                values[key] = value
        if values.get("count_round_to", 1) == 0:
            problems.add("count_round_to", _("the count is rounded to a multiple of at least 1"))
        if values.get("split_unit", 1) == 0:
            problems.add("split_unit", _("the split unit must be at least 1"))
        problems.raise_if_any(RateCardError)
        return replace(cls(), **values)

    def as_dict(self) -> dict:
        """Return the full rate card as a ``tarokclub.rates/1`` object."""
        data = {f.name: getattr(self, f.name) for f in fields(self)}
        data["fines_per_cup"] = dict(self.fines_per_cup)
        return {"format": RATES_FORMAT, **data}

    def fine(self, fine_type: str) -> int:
        return self.fines_per_cup[fine_type]


def _check_amount(problems: Problems, path: str, value) -> bool:
    if isinstance(value, bool) or not isinstance(value, int):
        problems.add(path, _("an amount must be a whole number of points"))
        return False
    if value < 0:
        problems.add(path, _("an amount cannot be negative"))
        return False
    if value > MAX_POINTS:
        problems.add(path, _("an amount is at most {max} points"), max=MAX_POINTS)
        return False
    return True
