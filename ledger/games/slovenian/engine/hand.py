"""The validated Slovenian hand, parsed from a ``tarokclub.hand/1`` object.

The rules of ``hand-format.md`` ("A Slovenian hand" and the Slovenian refusals in
"Errors"). Every refusal names its field; every problem found is collected and raised at
once as a HandError.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, cast

from ledger.games import validation
from ledger.games.errors import HandError, Problems, _
from ledger.games.rotation import DealerSitsOut
from ledger.games.validation import HAND_FORMAT as HAND_FORMAT
from ledger.games.validation import MAX_NAME_LENGTH as MAX_NAME_LENGTH
from ledger.games.validation import (
    check_dealer,
    check_hand_object,
    check_unknown_keys,
    is_int,
    player_check,
)

from .ratecard import BONUS_TYPES, CARD_POINTS_TOTAL, CONTRACTS_WITH_VALUE, GAME_CODE, RateCard

POOL = "pool"
MAX_KONTRA = 4

#: Contracts with a king call (a partner with four active players).
CALLED_CONTRACTS = ("three", "two", "one")
#: Contracts decided by card points and the difference, with bonuses and a valat line.
GAME_CONTRACTS = (*CALLED_CONTRACTS, "solo_three", "solo_two", "solo_one")
#: Contracts whose record gives the declarer's side's card points.
CARD_POINT_CONTRACTS = (*GAME_CONTRACTS, "solo_without")
#: Contracts decided by ``won``.
WON_CONTRACTS = ("beggar", "open_beggar", "colour_valat", "valat")
CONTRACTS = ("klop", *CONTRACTS_WITH_VALUE)
#: Contracts after which every active player receives a radelc (section 9).
RADLI_CONTRACTS = ("klop", "beggar", "solo_without", "open_beggar", "colour_valat", "valat")
#: Contracts in which a Mond capture costs the Mond's holder (section 8).
MOND_CONTRACTS = CARD_POINT_CONTRACTS
SIDES = ("declarer", "opponents")
RESULTS = ("made", "failed")
#: Bonuses that can fail silently: the card was played to the last trick and lost it.
SILENT_FAIL_BONUSES = ("pagat_ultimo", "king_ultimo")

RESULT_KEYS = (
    "contract",
    "declarer",
    "partner",
    "card_points",
    "won",
    "kontra",
    "bonuses",
    "valat",
    "mond_captured",
    "klop",
)
HAND_KEYS = frozenset(
    ("format", "game", "seats", "dealer", "radli_before", "annulled", *RESULT_KEYS)
)
BONUS_KEYS = frozenset(("type", "side", "announced", "result", "kontra"))
VALAT_KEYS = frozenset(("side", "announced", "result", "kontra"))
KLOP_KEYS = frozenset(("card_points", "took_trick"))


@dataclass(frozen=True)
class Bonus:
    """One bonus line: the side that made (or announced) it, and how it ended."""

    type: str
    side: str
    announced: bool
    result: str
    kontra: int = 0

    def as_dict(self) -> dict:
        return {
            "type": self.type,
            "side": self.side,
            "announced": self.announced,
            "result": self.result,
            "kontra": self.kontra,
        }


@dataclass(frozen=True)
class Valat:
    """A valat line in ``three`` … ``solo_one``: a side that won (or announced) every trick."""

    side: str
    announced: bool
    result: str
    kontra: int = 0

    def as_dict(self) -> dict:
        return {
            "side": self.side,
            "announced": self.announced,
            "result": self.result,
            "kontra": self.kontra,
        }


@dataclass(frozen=True)
class KlopResult:
    """One player's klop: his card points and whether he took a trick."""

    player: str
    card_points: int
    took_trick: bool


@dataclass(frozen=True)
class SlovenianHand(DealerSitsOut):
    """One Slovenian hand as the scorekeeper saw it; the settlement is derived from it.

    ``radli_before`` has every seat (0 when none) and is state, not part of ``as_dict``.
    """

    seats: tuple[str, ...]
    dealer: str
    radli_before: Mapping[str, int]
    annulled: bool = False
    contract: str | None = None
    declarer: str | None = None
    partner: str | None = None
    card_points: int | None = None
    won: bool | None = None
    kontra: int = 0
    bonuses: tuple[Bonus, ...] = ()
    valat: Valat | None = None
    mond_captured: str | None = None
    klop: tuple[KlopResult, ...] = ()

    game = GAME_CODE

    def as_dict(self) -> dict:
        """Return the normalised record in the hand format (without ``radli_before``)."""
        data: dict = {
            "format": HAND_FORMAT,
            "game": GAME_CODE,
            "seats": list(self.seats),
            "dealer": self.dealer,
        }
        if self.annulled:
            data["annulled"] = True
            return data
        data["contract"] = self.contract
        if self.contract == "klop":
            data["klop"] = {
                k.player: {"card_points": k.card_points, "took_trick": k.took_trick}
                for k in self.klop
            }
            return data
        data["declarer"] = self.declarer
        if self.contract in CALLED_CONTRACTS:
            data["partner"] = self.partner
        if self.contract in CARD_POINT_CONTRACTS:
            data["card_points"] = self.card_points
        else:
            data["won"] = self.won
        data["kontra"] = self.kontra
        if self.bonuses:
            data["bonuses"] = [b.as_dict() for b in self.bonuses]
        if self.valat is not None:
            data["valat"] = self.valat.as_dict()
        if self.mond_captured is not None:
            data["mond_captured"] = self.mond_captured
        return data


def _given(value) -> bool:
    """A field left null or an empty list counts as not given."""
    return value is not None and not (isinstance(value, list) and not value)


def _given_in_annulled(value) -> bool:
    """In an annulled hand 0, false and {} count as not given as well."""
    if not _given(value) or value is False:
        return False
    if is_int(value) and value == 0:
        return False
    return not (isinstance(value, dict) and not value)


def parse_seats(p: Problems, value, path: str = "seats") -> tuple[str, ...] | None:
    """Check a list of 3 to 5 distinct member names; return it, or None after a problem."""
    return validation.check_seats(p, value, low=3, high=5, reserved=(POOL,), path=path)


def parse_radli(p: Problems, value, seats, path: str = "radli_before") -> dict[str, int]:
    """Return every seat's open radli from a member → radli object (members left out: 0)."""
    radli = {seat: 0 for seat in seats}
    if value is None:
        return radli
    if not isinstance(value, Mapping):
        p.add(path, _("the radli must be an object: member to open radli"))
        return radli
    for name, count in value.items():
        field = f"{path}.{name}"
        if name not in radli:
            p.add(field, _("{name} is not seated at this table"), name=name)
        elif not is_int(count):
            p.add(field, _("a number of radli must be a whole number"))
        elif count < 0:
            p.add(field, _("a number of radli cannot be negative"))
        else:
            radli[name] = count
    return radli


def parse_hand(data, rates: RateCard | None = None, *, state=None) -> SlovenianHand:
    """Validate a Slovenian ``tarokclub.hand/1`` object and return its SlovenianHand.

    ``state`` (member → open radli), when given, replaces any ``radli_before`` of the
    data. A missing ``game`` is accepted (the caller chose this engine); a ``game`` other
    than ``slovenian_tarok`` is refused. ``rates`` is accepted for the Game protocol; no
    check depends on the rate card. Raise HandError listing every problem found.
    """
    p = Problems()
    check_hand_object(p, data, HAND_KEYS)
    if "game" in data and data["game"] != GAME_CODE:
        p.add(
            "game",
            _("this is a {expected} hand, not {game}"),
            expected=GAME_CODE,
            game=data["game"],
        )

    seats = parse_seats(p, data.get("seats"))
    if seats is None:
        p.raise_if_any(HandError)
    seats = cast(tuple[str, ...], seats)  # None only after a problem: raise_if_any has raised
    dealer = check_dealer(p, data.get("dealer"), seats)

    radli_value = state if state is not None else data.get("radli_before")
    radli = parse_radli(p, radli_value, seats)
    record = SlovenianHand(seats=seats, dealer=dealer, radli_before=MappingProxyType(radli))

    annulled = data.get("annulled", False)
    if annulled is None:
        annulled = False
    if not isinstance(annulled, bool):
        p.add("annulled", _("annulled must be true or false"))
        annulled = False
    if annulled:
        for key in RESULT_KEYS:
            if _given_in_annulled(data.get(key)):
                p.add(key, _("an annulled hand carries no result: leave {key} out"), key=key)
        p.raise_if_any(HandError)
        return SlovenianHand(
            seats=seats, dealer=dealer, radli_before=record.radli_before, annulled=True
        )

    contract = data.get("contract")
    if contract is None:
        p.add("contract", _("the contract is required unless the hand is annulled"))
        p.raise_if_any(HandError)
    if contract not in CONTRACTS:
        p.add(
            "contract",
            _("unknown contract {contract}; a contract is one of {choices}"),
            contract=contract,
            choices=", ".join(CONTRACTS),
        )
        p.raise_if_any(HandError)

    active = record.active
    four = len(active) == 4
    check_player = player_check(p, seats, active)

    # Declarer and partner.
    declarer = data.get("declarer")
    if contract == "klop":
        if declarer is not None:
            p.add("declarer", _("klop has no declarer"))
        declarer = None
    elif declarer is None:
        p.add("declarer", _("the declarer is required for {contract}"), contract=contract)
    elif not check_player("declarer", declarer):
        declarer = None
    elif contract == "three" and declarer != record.forehand:
        p.add(
            "declarer",
            _("only forehand ({name}) may play three"),
            name=record.forehand,
        )

    partner = data.get("partner")
    if partner is not None:
        if contract not in CALLED_CONTRACTS:
            p.add("partner", _("{contract} is played alone: no partner"), contract=contract)
        elif not four:
            p.add("partner", _("at 3 seats every contract is played alone: no partner"))
        elif check_player("partner", partner) and partner == declarer:
            p.add(
                "partner",
                _("{name} is the declarer; give no partner for a lone declarer"),
                name=partner,
            )

    # Card points and won.
    card_points = data.get("card_points")
    if contract in CARD_POINT_CONTRACTS:
        if card_points is None:
            p.add(
                "card_points", _("the card points are required for {contract}"), contract=contract
            )
        elif not is_int(card_points) or not 0 <= card_points <= CARD_POINTS_TOTAL:
            p.add(
                "card_points",
                _("card points are a whole number from 0 to {total}"),
                total=CARD_POINTS_TOTAL,
            )
    elif _given(card_points):
        p.add("card_points", _("{contract} is not decided by card points"), contract=contract)
        card_points = None
    else:
        card_points = None

    won = data.get("won")
    if contract in WON_CONTRACTS:
        if won is None:
            p.add("won", _("{contract} needs won: true or false"), contract=contract)
        elif not isinstance(won, bool):
            p.add("won", _("won must be true or false"))
    elif _given(won):
        p.add("won", _("{contract} is not decided by won"), contract=contract)
        won = None
    else:
        won = None

    # Kontra on the game.
    kontra = data.get("kontra")
    if kontra is None:
        kontra = 0
    if not _check_kontra(p, "kontra", kontra):
        kontra = 0
    elif contract == "klop" and kontra != 0:
        p.add("kontra", _("klop cannot be doubled"))

    bonuses = _parse_bonuses(p, data.get("bonuses"), contract, four)
    valat = _parse_valat(p, data.get("valat"), contract)

    mond = data.get("mond_captured")
    if mond is not None:
        if contract not in MOND_CONTRACTS:
            p.add(
                "mond_captured",
                _("a Mond capture does not count in {contract}"),
                contract=contract,
            )
        check_player("mond_captured", mond)

    klop = _parse_klop(p, data.get("klop"), contract, active, check_player)

    p.raise_if_any(HandError)
    return SlovenianHand(
        seats=seats,
        dealer=dealer,
        radli_before=record.radli_before,
        contract=contract,
        declarer=declarer,
        partner=partner,
        card_points=card_points,
        won=won,
        kontra=kontra,
        bonuses=bonuses,
        valat=valat,
        mond_captured=mond,
        klop=klop,
    )


def _check_kontra(p: Problems, path: str, value) -> bool:
    if not is_int(value) or not 0 <= value <= MAX_KONTRA:
        p.add(
            path,
            _("kontra is a whole number from 0 (none) to {max}"),
            max=MAX_KONTRA,
        )
        return False
    return True


def _check_line(p: Problems, path: str, item, keys) -> dict | None:
    """Check the keys common to a bonus and a valat line; return the parsed values."""
    if not isinstance(item, Mapping):
        p.add(path, _("a line must be an object"))
        return None
    check_unknown_keys(p, path, item, keys)
    ok = True
    side = item.get("side")
    if side not in SIDES:
        p.add(f"{path}.side", _("the side is declarer or opponents, not {side}"), side=side)
        ok = False
    announced = item.get("announced", False)
    if announced is None:
        announced = False
    if not isinstance(announced, bool):
        p.add(f"{path}.announced", _("announced must be true or false"))
        ok = False
    result = item.get("result")
    if result not in RESULTS:
        p.add(f"{path}.result", _("the result is made or failed, not {result}"), result=result)
        ok = False
    kontra = item.get("kontra")
    if kontra is None:
        kontra = 0
    if not _check_kontra(p, f"{path}.kontra", kontra):
        ok = False
    elif announced is False and kontra != 0:
        p.add(f"{path}.kontra", _("only an announced line can be doubled"))
        ok = False
    if not ok:
        return None
    return {"side": side, "announced": announced, "result": result, "kontra": kontra}


def _parse_bonuses(p: Problems, value, contract: str, four: bool) -> tuple[Bonus, ...]:
    if not _given(value):
        return ()
    if not isinstance(value, list):
        p.add("bonuses", _("bonuses must be a list"))
        return ()
    if contract not in GAME_CONTRACTS:
        p.add("bonuses", _("there are no bonuses in {contract}"), contract=contract)
        return ()
    king_called = contract in CALLED_CONTRACTS and four
    bonuses: list[Bonus] = []
    for i, item in enumerate(value):
        path = f"bonuses[{i}]"
        btype = item.get("type") if isinstance(item, Mapping) else None
        if isinstance(item, Mapping) and btype not in BONUS_TYPES:
            p.add(
                f"{path}.type",
                _("unknown bonus {type}; a bonus is one of {choices}"),
                type=btype,
                choices=", ".join(BONUS_TYPES),
            )
        line = _check_line(p, path, item, BONUS_KEYS)
        if line is None or btype not in BONUS_TYPES:
            continue
        ok = True
        if (
            not line["announced"]
            and line["result"] == "failed"
            and btype not in SILENT_FAIL_BONUSES
        ):
            p.add(
                f"{path}.result",
                _("a silent {type} that failed is no line: leave it out"),
                type=btype,
            )
            ok = False
        if btype == "king_ultimo":
            if not king_called:
                p.add(f"{path}.type", _("king ultimo needs a called king"))
                ok = False
            elif line["side"] != "declarer":
                p.add(
                    f"{path}.side",
                    _("the called king is on the declarer's side: only that side has king ultimo"),
                )
                ok = False
        for earlier in bonuses:
            if earlier.type != btype:
                continue
            if earlier.side == line["side"]:
                p.add(
                    f"{path}.type",
                    _("a second {type} line for the {side}"),
                    type=btype,
                    side=line["side"],
                )
                ok = False
            elif earlier.result == "made" and line["result"] == "made":
                p.add(f"{path}.side", _("both sides cannot make {type}"), type=btype)
                ok = False
        if ok:
            bonuses.append(Bonus(type=btype, **line))
    return tuple(bonuses)


def _parse_valat(p: Problems, value, contract: str) -> Valat | None:
    if value is None:
        return None
    if contract not in GAME_CONTRACTS:
        p.add(
            "valat",
            _("a valat line belongs to three … solo one, not {contract}"),
            contract=contract,
        )
        return None
    line = _check_line(p, "valat", value, VALAT_KEYS)
    if line is None:
        return None
    if not line["announced"] and line["result"] == "failed":
        p.add("valat.result", _("a silent valat cannot fail: leave it out"))
        return None
    return Valat(**line)


def _parse_klop(p: Problems, value, contract: str, active, check_player) -> tuple[KlopResult, ...]:
    if contract != "klop":
        if _given(value):
            p.add("klop", _("klop points are given for klop only"))
        return ()
    if value is None:
        p.add("klop", _("klop needs every active player's card points"))
        return ()
    if not isinstance(value, Mapping):
        p.add("klop", _("klop must be an object: player to his card points and trick"))
        return ()
    ok = True
    entries: dict[str, tuple[Any, Any]] = {}  # as given; all checked when ok
    for name, entry in value.items():
        path = f"klop.{name}"
        if not check_player(path, name):
            ok = False
            continue
        if not isinstance(entry, Mapping):
            p.add(path, _("a klop result is an object with card_points and took_trick"))
            ok = False
            continue
        if not check_unknown_keys(p, path, entry, KLOP_KEYS):
            ok = False
        points = entry.get("card_points")
        took = entry.get("took_trick")
        if points is None:
            p.add(f"{path}.card_points", _("the card points are required"))
            ok = False
        elif not is_int(points) or not 0 <= points <= CARD_POINTS_TOTAL:
            p.add(
                f"{path}.card_points",
                _("card points are a whole number from 0 to {total}"),
                total=CARD_POINTS_TOTAL,
            )
            ok = False
        if not isinstance(took, bool):
            p.add(f"{path}.took_trick", _("took_trick must be true or false"))
            ok = False
        elif took is False and is_int(points) and points > 0:
            p.add(
                f"{path}.card_points",
                _("{name} took no trick and cannot have card points"),
                name=name,
            )
            ok = False
        entries[name] = (points, took)
    missing = [name for name in active if name not in value]
    if missing:
        p.add(
            "klop",
            _("klop needs every active player; missing: {names}"),
            names=", ".join(missing),
        )
        ok = False
    if not ok:
        return ()
    total = sum(points for points, _took in entries.values())
    if total != CARD_POINTS_TOTAL:
        p.add(
            "klop",
            _("the klop card points total {total}, not {expected}"),
            total=total,
            expected=CARD_POINTS_TOTAL,
        )
        return ()
    return tuple(KlopResult(name, *entries[name]) for name in active)
