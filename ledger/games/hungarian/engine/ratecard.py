"""The Hungarian Tarokk rate card: every key of hungarian-tarokk.md section 15, with defaults."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, fields, replace
from types import MappingProxyType

from ledger.games.errors import Problem, RateCardError, _
from ledger.games.money import MAX_POINTS
from ledger.games.validation import RATES_FORMAT as RATES_FORMAT
from ledger.games.validation import RateCardRules, check_largest_hand, read_rate_card

GAME_CODE = "hungarian_tarokk"
MAX_AMOUNT = MAX_POINTS

BIDS = ("harom", "ketto", "egy", "solo")
FIGURES = (
    "dupla",
    "volat",
    "trull",
    "four_kings",
    "pagat_ultimo",
    "xxi_catch",
    "centrum",
    "kismadar",
    "nagymadar",
    "king_ultimo",
    "pagat_uhu",
    "king_uhu",
)
# The figures that can be made silently (section 5); the illustrated ones cannot.
SILENT_FIGURES = ("dupla", "volat", "trull", "four_kings", "pagat_ultimo", "xxi_catch")
# The figures whose value is a multiple of G under ``dupla_volat_times_bid``.
GAME_FIGURES = ("dupla", "volat")

DEFAULT_BID_VALUES = MappingProxyType({"harom": 1, "ketto": 2, "egy": 3, "solo": 4})
DEFAULT_FIGURE_ANNOUNCED = MappingProxyType(
    {
        "dupla": 4,
        "volat": 6,
        "trull": 2,
        "four_kings": 2,
        "pagat_ultimo": 10,
        "xxi_catch": 42,
        "centrum": 10,
        "kismadar": 10,
        "nagymadar": 10,
        "king_ultimo": 15,
        "pagat_uhu": 20,
        "king_uhu": 20,
    }
)
DEFAULT_FIGURE_SILENT = MappingProxyType(
    {"dupla": 2, "volat": 3, "trull": 1, "four_kings": 1, "pagat_ultimo": 5, "xxi_catch": 21}
)

TABLES = {
    "bid_values": DEFAULT_BID_VALUES,
    "figure_announced": DEFAULT_FIGURE_ANNOUNCED,
    "figure_silent": DEFAULT_FIGURE_SILENT,
}
OPTIONS = ("dupla_volat_times_bid",)


@dataclass(frozen=True)
class RateCard:
    """Every amount (in points) and option of a club's Hungarian Tarokk house rules.

    The kontra levels (0..4, factor 2^kontra) and the x3 of a lone declarer are fixed
    by the spec and are not settings.
    """

    bid_values: Mapping[str, int] = field(default_factory=lambda: DEFAULT_BID_VALUES)
    game_win_points: int = 48
    figure_announced: Mapping[str, int] = field(default_factory=lambda: DEFAULT_FIGURE_ANNOUNCED)
    figure_silent: Mapping[str, int] = field(default_factory=lambda: DEFAULT_FIGURE_SILENT)
    dupla_volat_times_bid: bool = True
    dupla_points: int = 71
    tarokk_claim_8: int = 1
    tarokk_claim_9: int = 2

    @classmethod
    def from_dict(cls, data) -> RateCard:
        """Return the card of a ``tarokclub.rates/1`` object; keys left out keep their defaults.

        ``format`` and ``game`` are optional; ``game``, if given, must be
        ``hungarian_tarokk``. Object keys may set only some of their entries. Raise
        RateCardError naming every unknown key or entry, every amount that is not a
        whole number in 0..10,000,000 and every option that is not true or false.
        """
        problems, values = read_rate_card(data, _rules(cls))
        problems.raise_if_any(RateCardError)
        card = replace(cls(), **values)
        check_largest_hand(problems, card.largest_hand())
        problems.raise_if_any(RateCardError)
        return card

    def as_dict(self) -> dict:
        """Return the full card as JSON-ready data, without ``format`` and ``game``.

        ``RateCard.from_dict(card.as_dict()) == card``.
        """
        data = {}
        for f in fields(self):
            value = getattr(self, f.name)
            data[f.name] = dict(value) if f.name in TABLES else value
        return data

    def game_value(self, bid: str) -> int:
        """Return G, the game value of ``bid``."""
        return self.bid_values[bid]

    def figure_value(self, figure: str, announced: bool, bid: str) -> int:
        """Return the value of a figure before kontra: announced or silent, x G if it applies."""
        table = self.figure_announced if announced else self.figure_silent
        value = table[figure]
        if figure in GAME_FIGURES and self.dupla_volat_times_bid:
            value *= self.game_value(bid)
        return value

    def largest_hand(self) -> dict[str, int]:
        """Return what each setting could add to the largest transfer of one hand: T of the
        highest bid with every figure announced and made, all at mordkontra (x16), and the
        larger tarokk claim (a lone declarer receives T from each opponent separately)."""
        kontra = 2**4
        bid = max(BIDS, key=lambda b: self.bid_values[b])
        g = self.bid_values[bid]
        out = {f"bid_values.{bid}": g * kontra}
        for figure in FIGURES:
            out[f"figure_announced.{figure}"] = self.figure_value(figure, True, bid) * kontra
        out["tarokk_claim_9"] = max(self.tarokk_claim_8, self.tarokk_claim_9)
        return out

    def tarokk_claim(self, count: int) -> int:
        """Return what each payer pays for a claim of ``count`` (8 or 9) tarokks."""
        return self.tarokk_claim_9 if count == 9 else self.tarokk_claim_8


def _rules(cls) -> RateCardRules:
    return RateCardRules(
        game_code=GAME_CODE,
        known=frozenset(f.name for f in fields(cls)),
        wrong_game=lambda value: (
            _("this rate card is for {game}, not for Hungarian Tarokk"),
            {"game": value},
        ),
        too_high=_("an amount cannot exceed {limit}"),
        booleans=OPTIONS,
        tables=TABLES,
        not_a_table=_("{key} must be an object of amounts by name"),
    )


def card_of(rates) -> RateCard:
    """Return ``rates`` as a Hungarian card: None gives the defaults, a mapping is read.

    A card of another game is refused on the field ``game``.
    """
    if rates is None:
        return RateCard()
    if isinstance(rates, RateCard):
        return rates
    if isinstance(rates, Mapping):
        return RateCard.from_dict(rates)
    raise RateCardError([Problem("game", _("this is not a Hungarian Tarokk rate card"))])
