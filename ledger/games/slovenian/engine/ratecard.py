"""The Slovenian rate card: every amount and option of ``slovenian-tarok.md`` section 15, and
the option of section 9 on the radli after a valat line (``radli_after_valat``)."""

from __future__ import annotations

from dataclasses import dataclass, field, fields, replace
from types import MappingProxyType

from ledger.games.errors import Problems, RateCardError, _
from ledger.games.money import MAX_POINTS
from ledger.games.validation import RATES_FORMAT as RATES_FORMAT
from ledger.games.validation import RateCardRules, check_largest_hand, read_rate_card

GAME_CODE = "slovenian_tarok"
MAX_AMOUNT = MAX_POINTS
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
#: Options with named choices, the first the default. ``radli_after_valat`` (section 9):
#: after a ``made`` valat (the contract's rule), also after an announced valat that failed
#: (``made_or_failed``, as mytja), or after ``no`` valat line at all (as erikbozic).
OPTIONS = {"radli_after_valat": ("made", "made_or_failed", "no")}
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
    radli_after_valat: str = "made"
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
        number of points from 0 to 10,000,000, a unit below 1, a par outside 0..70, an
        option that is not true or false and a choice the option does not have.
        """
        p, values = read_rate_card(data, _rules(cls))
        p.raise_if_any(RateCardError)
        card = replace(cls(), **values)
        check_largest_hand(p, card.largest_hand())
        p.raise_if_any(RateCardError)
        return card

    def as_dict(self) -> dict:
        """Return the full card as JSON-ready data (without ``format`` and ``game``).

        ``RateCard.from_dict(card.as_dict()) == card``.
        """
        data = {}
        for f in fields(self):
            value = getattr(self, f.name)
            data[f.name] = dict(value) if f.name in OBJECT_KEYS else value
        return data

    def largest_hand(self) -> dict[str, int]:
        """Return what each setting could add to one member's largest payment of a hand: the
        highest contract with the largest difference and every bonus announced, at mort (x16)
        and doubled by a radelc (x2); or a valat announced, likewise; the Mond and klop."""
        factor = 2**4 * 2
        contract = max(CONTRACTS_WITH_VALUE, key=lambda c: self.contract_values[c])
        game = {f"contract_values.{contract}": self.contract_values[contract] * factor}
        game["card_points_par"] = max(self.card_points_par, CARD_POINTS_TOTAL) * factor
        for bonus in BONUS_TYPES:
            game[f"bonus_announced.{bonus}"] = self.bonus_announced[bonus] * factor
        valat = {"valat_announced": max(self.valat_announced, self.valat_silent) * factor}
        out = game if sum(game.values()) >= sum(valat.values()) else valat
        out["mond_penalty"] = self.mond_penalty
        out["klop_value"] = self.klop_value
        return out

    def contract_value(self, contract: str) -> int:
        return self.contract_values[contract]


def _check_flat(p: Problems, key: str, value) -> bool:
    if key in UNIT_KEYS and value < 1:
        p.add(key, _("{key} must be at least 1"), key=key)
        return False
    if key == "card_points_par" and value > CARD_POINTS_TOTAL:
        p.add(
            key,
            _("the par is a number of card points from 0 to {total}"),
            total=CARD_POINTS_TOTAL,
        )
        return False
    return True


def _rules(cls) -> RateCardRules:
    return RateCardRules(
        game_code=GAME_CODE,
        known=frozenset(f.name for f in fields(cls)),
        wrong_game=lambda value: (
            _("this rate card is for {expected}, not {game}"),
            {"expected": GAME_CODE, "game": value},
        ),
        too_high=_("an amount cannot be above {limit}"),
        booleans=BOOLEAN_KEYS,
        choices=OPTIONS,
        tables=OBJECT_KEYS,
        not_a_table=_("{key} must be an object by name"),
        kind=dict,
        key_path=lambda key: key,
        check_flat=_check_flat,
    )
