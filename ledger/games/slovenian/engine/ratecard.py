"""The Slovenian rate card: every amount and option of ``slovenian-tarok.md`` section 15."""

from __future__ import annotations

from dataclasses import dataclass, field, fields, replace
from types import MappingProxyType

from ledger.games.errors import Problems, RateCardError, _

RATES_FORMAT = "tarokclub.rates/1"
GAME_CODE = "slovenian_tarok"
MAX_AMOUNT = 10_000_000
CARD_POINTS_TOTAL = 70

CONTRACTS_WITH_VALUE = (
    "three",
    "two",
    "one",
    "solo_three",
    "solo_two",
    "solo_one",
    "beggar",
    "solo_without",
    "open_beggar",
    "colour_valat",
    "valat",
)
BONUS_TYPES = ("trula", "kings", "pagat_ultimo", "king_ultimo")

DEFAULT_CONTRACT_VALUES = MappingProxyType(
    {
        "three": 10,
        "two": 20,
        "one": 30,
        "solo_three": 40,
        "solo_two": 50,
        "solo_one": 60,
        "beggar": 70,
        "solo_without": 80,
        "open_beggar": 90,
        "colour_valat": 125,
        "valat": 500,
    }
)
DEFAULT_BONUS_SILENT = MappingProxyType(
    {"trula": 10, "kings": 10, "pagat_ultimo": 25, "king_ultimo": 10}
)
DEFAULT_BONUS_ANNOUNCED = MappingProxyType(
    {"trula": 20, "kings": 20, "pagat_ultimo": 50, "king_ultimo": 20}
)

#: The object keys and the defaults of their entries (an entry may be set alone).
OBJECT_KEYS = {
    "contract_values": DEFAULT_CONTRACT_VALUES,
    "bonus_silent": DEFAULT_BONUS_SILENT,
    "bonus_announced": DEFAULT_BONUS_ANNOUNCED,
}
BOOLEAN_KEYS = ("radli",)
#: Units that must be at least 1 (a rounding or split unit).
UNIT_KEYS = ("difference_round_to", "klop_round_to", "split_unit")


@dataclass(frozen=True)
class RateCard:
    """Every amount (in points) and option of a club's Slovenian house rules, with defaults."""

    contract_values: MappingProxyType = field(default_factory=lambda: DEFAULT_CONTRACT_VALUES)
    card_points_par: int = 35
    difference_round_to: int = 5
    bonus_silent: MappingProxyType = field(default_factory=lambda: DEFAULT_BONUS_SILENT)
    bonus_announced: MappingProxyType = field(default_factory=lambda: DEFAULT_BONUS_ANNOUNCED)
    valat_silent: int = 250
    valat_announced: int = 500
    mond_penalty: int = 20
    radli: bool = True
    radelc_penalty: int = 100
    klop_value: int = 70
    klop_limit: int = 36
    klop_round_to: int = 5
    split_unit: int = 5

    @classmethod
    def from_dict(cls, data) -> RateCard:
        """Return the card of a ``tarokclub.rates/1`` object; keys left out keep their defaults.

        ``format`` and ``game`` are optional; ``game`` must be ``slovenian_tarok``. Raise
        RateCardError naming every unknown key or entry, every amount that is not a whole
        number of points from 0 to 10,000,000, a unit below 1, a par outside 0..70 and an
        option that is not true or false.
        """
        p = Problems()
        if not isinstance(data, dict):
            p.add("", _("a rate card must be a JSON object"))
            p.raise_if_any(RateCardError)
        known = {f.name for f in fields(cls)}
        values: dict = {}
        for key, value in data.items():
            if key == "format":
                if value != RATES_FORMAT:
                    p.add("format", _("the format must be {expected}"), expected=RATES_FORMAT)
            elif key == "game":
                if value != GAME_CODE:
                    p.add(
                        "game",
                        _("this rate card is for {expected}, not {game}"),
                        expected=GAME_CODE,
                        game=value,
                    )
            elif key not in known:
                p.add(key, _("unknown key {key}: the rate card has no such setting"), key=key)
            elif key in OBJECT_KEYS:
                defaults = OBJECT_KEYS[key]
                if not isinstance(value, dict):
                    p.add(key, _("{key} must be an object by name"), key=key)
                    continue
                merged = dict(defaults)
                for entry, amount in value.items():
                    path = f"{key}.{entry}"
                    if entry not in defaults:
                        p.add(
                            path,
                            _("unknown entry {entry}; {key} has {choices}"),
                            entry=entry,
                            key=key,
                            choices=", ".join(defaults),
                        )
                    elif _check_amount(p, path, amount):
                        merged[entry] = amount
                values[key] = MappingProxyType(merged)
            elif key in BOOLEAN_KEYS:
                if not isinstance(value, bool):
                    p.add(key, _("{key} must be true or false"), key=key)
                else:
                    values[key] = value
            elif _check_amount(p, key, value):
                if key in UNIT_KEYS and value < 1:
                    p.add(key, _("{key} must be at least 1"), key=key)
                elif key == "card_points_par" and value > CARD_POINTS_TOTAL:
                    p.add(
                        key,
                        _("the par is a number of card points from 0 to {total}"),
                        total=CARD_POINTS_TOTAL,
                    )
                else:
                    values[key] = value
        p.raise_if_any(RateCardError)
        return replace(cls(), **values)

    def as_dict(self) -> dict:
        """Return the full card as JSON-ready data (without ``format`` and ``game``).

        ``RateCard.from_dict(card.as_dict()) == card``.
        """
        data = {}
        for f in fields(self):
            value = getattr(self, f.name)
            data[f.name] = dict(value) if f.name in OBJECT_KEYS else value
        return data

    def contract_value(self, contract: str) -> int:
        return self.contract_values[contract]


def _check_amount(p: Problems, path: str, value) -> bool:
    if isinstance(value, bool) or not isinstance(value, int):
        p.add(path, _("an amount must be a whole number of points"))
        return False
    if value < 0:
        p.add(path, _("an amount cannot be negative"))
        return False
    if value > MAX_AMOUNT:
        p.add(path, _("an amount cannot be above {limit}"), limit=MAX_AMOUNT)
        return False
    return True
