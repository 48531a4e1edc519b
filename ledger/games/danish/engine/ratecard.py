"""The club's house rules: every amount and option of the spec, with its defaults."""

from __future__ import annotations

from dataclasses import dataclass, field, fields, replace
from types import MappingProxyType

from ledger.games.errors import RateCardError, _
from ledger.games.validation import (
    RATES_FORMAT,
    RateCardRules,
    check_largest_hand,
    read_rate_card,
)

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

# The most seats a table has: a cup's cap may not bite while the cup holds only what a full
# table funds it with.
FULL_TABLE = 5

OPTIONS = {
    "tout_variant": ("moller", "pagat", "agger"),
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
    # A house rule beyond the spec: Agger's 1970 booklet pays a tout this from each, and both
    # cups, without the count (``tout_variant`` = agger).
    tout_each_agger: int = 85
    multi_bagud: str = "each_pays_p"
    # A house rule beyond the spec's defaults: a bagud pays at most this into its cup (0: no
    # cap, the spec's rule). A cup doubles with every bagud; the cap keeps it below the
    # ledger's bound (``cup_outlook``).
    cup_cap: int = 0
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
        problems, values = read_rate_card(data, _rules(cls))
        if values.get("count_round_to", 1) == 0:
            problems.add("count_round_to", _("the count is rounded to a multiple of at least 1"))
        if values.get("split_unit", 1) == 0:
            problems.add("split_unit", _("the split unit must be at least 1"))
        problems.raise_if_any(RateCardError)
        card = replace(cls(), **values)
        if card.cup_cap and card.cup_cap < card.full_table_funding():
            problems.add(
                "cup_cap",
                _(
                    "a cup's cap is 0 (none) or at least what a full table funds a cup "
                    "with: {seats} x {funding} = {least} points"
                ),
                seats=FULL_TABLE,
                funding=card.funding_per_cup,
                least=card.full_table_funding(),
            )
        check_largest_hand(problems, card.largest_hand())
        problems.raise_if_any(RateCardError)
        return card

    def full_table_funding(self) -> int:
        """Return what a full table (five seats) funds each cup with."""
        return FULL_TABLE * self.funding_per_cup

    def into_cup(self, points: int) -> int:
        """Return what a bagud pays into a cup that calls for ``points``: at most the cap."""
        return min(points, self.cup_cap) if self.cup_cap else points

    def largest_hand(self) -> dict[str, int]:
        """Return what each setting could add to the largest transfer of one hand (a safe
        over-estimate: every amount at once, the melds at their largest, every fine into
        both cups). What the cups hold grows from hand to hand, so the ledger also refuses a
        computed move above the bound."""
        out = {key: getattr(self, key) for key in self.amount_keys()}
        out["meld_tarok_step"] = self.meld_tarok_step * 12  # up to 22 taroks
        out["meld_matador_step"] = self.meld_matador_step * 19  # up to 22 matadors
        for fine, amount in self.fines_per_cup.items():
            out[f"fines_per_cup.{fine}"] = 2 * amount
        return out

    def as_dict(self) -> dict:
        """Return the full rate card as a ``tarokclub.rates/1`` object."""
        data = {f.name: getattr(self, f.name) for f in fields(self)}
        data["fines_per_cup"] = dict(self.fines_per_cup)
        return {"format": RATES_FORMAT, **data}

    def fine(self, fine_type: str) -> int:
        return self.fines_per_cup[fine_type]


def _rules(cls) -> RateCardRules:
    return RateCardRules(
        game_code="danish_tarok",
        known=frozenset(f.name for f in fields(cls)),
        wrong_game=lambda value: (
            _("this rate card is not of the game {game}"),
            {"game": "danish_tarok"},
        ),
        too_high=_("an amount is at most {max} points"),
        choices=OPTIONS,
        tables={"fines_per_cup": DEFAULT_FINES},
        not_a_table=_("fines per cup must be an object by fine type"),
        unknown_entry=_("unknown fine type {type}"),
        kind=dict,
        key_path=lambda key: key,
    )
