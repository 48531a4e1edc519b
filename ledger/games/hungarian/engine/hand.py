"""The validated Hungarian Tarokk hand, parsed from the ``tarokclub.hand/1`` format.

See hand-format.md, "A Hungarian hand" and the Hungarian refusals under "Errors". Every
problem found is collected and raised at once as a HandError naming its field.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import cast

from ledger.games import validation
from ledger.games.errors import HandError, Problems, _
from ledger.games.rotation import DealerSitsOut
from ledger.games.validation import HAND_FORMAT as HAND_FORMAT
from ledger.games.validation import MAX_NAME_LENGTH as MAX_NAME_LENGTH
from ledger.games.validation import (
    check_dealer,
    check_hand_object,
    check_list,
    check_unknown_keys,
    player_check,
)
from ledger.games.validation import is_int as is_integer

from . import rotation
from .ratecard import BIDS, FIGURES, GAME_CODE, SILENT_FIGURES, RateCard, card_of

CARD_POINTS_TOTAL = 94
MAX_KONTRA = 4
SIDES = ("declarer", "opponents")
RESULTS = ("made", "failed")
CLAIM_WHENS = ("announced", "at_end")
CLAIM_COUNTS = (8, 9)

RESULT_KEYS = ("bid", "declarer", "partner", "card_points", "kontra", "figures", "tarokk_claims")
HAND_KEYS = frozenset({"format", "game", "seats", "dealer", "annulled", *RESULT_KEYS})
FIGURE_KEYS = frozenset({"type", "side", "announced", "result", "kontra"})
CLAIM_KEYS = frozenset({"player", "count", "when"})


@dataclass(frozen=True)
class Figure:
    """One figure line: the feat of a side, announced or silent, made or failed."""

    type: str
    side: str
    announced: bool
    result: str
    kontra: int = 0

    @property
    def made(self) -> bool:
        return self.result == "made"

    def as_dict(self) -> dict:
        data = {
            "type": self.type,
            "side": self.side,
            "announced": self.announced,
            "result": self.result,
        }
        if self.announced:
            data["kontra"] = self.kontra
        return data


@dataclass(frozen=True)
class TarokkClaim:
    """A player's claim of 8 or 9 tarokks, announced before play or made at the end."""

    player: str
    count: int
    when: str

    def as_dict(self) -> dict:
        return {"player": self.player, "count": self.count, "when": self.when}


@dataclass(frozen=True)
class HungarianHand(DealerSitsOut):
    """One Hungarian hand as the scorekeeper recorded it; the transfers follow from it."""

    seats: tuple[str, ...]
    dealer: str
    annulled: bool = False
    bid: str | None = None
    declarer: str | None = None
    partner: str | None = None
    card_points: int | None = None
    kontra: int = 0
    figures: tuple[Figure, ...] = ()
    tarokk_claims: tuple[TarokkClaim, ...] = ()

    @property
    def alone(self) -> bool:
        return not self.annulled and self.partner is None

    @property
    def declarer_side(self) -> tuple[str, ...]:
        """The declarer, then his partner (if any)."""
        if self.annulled:
            return ()
        declarer = cast(str, self.declarer)  # a hand not annulled has a declarer (parse_hand)
        return (declarer,) if self.partner is None else (declarer, self.partner)

    @property
    def opponents(self) -> tuple[str, ...]:
        """The opponents in the direction of play from the declarer (section 9)."""
        if self.annulled:
            return ()
        others = [a for a in self.active if a not in self.declarer_side]
        declarer = cast(str, self.declarer)  # a hand not annulled has a declarer (parse_hand)
        return tuple(rotation.in_order_from(self.seats, declarer, others))

    def side_of(self, member: str) -> str | None:
        if member in self.declarer_side:
            return "declarer"
        if member in self.opponents:
            return "opponents"
        return None

    def side_points(self, side: str) -> int:
        """Return the card points of ``side``: ``card_points`` or 94 minus them."""
        card_points = cast(int, self.card_points)  # set unless annulled (parse_hand)
        if side == "declarer":
            return card_points
        return CARD_POINTS_TOTAL - card_points

    def as_dict(self, *, with_table: bool = True) -> dict:
        """Return the normalised record in the hand format (``parse_hand`` reads it back)."""
        data: dict = {"format": HAND_FORMAT, "game": GAME_CODE}
        if with_table:
            data["seats"] = list(self.seats)
        data["dealer"] = self.dealer
        if self.annulled:
            data["annulled"] = True
            return data
        data.update(
            {
                "bid": self.bid,
                "declarer": self.declarer,
                "partner": self.partner,
                "card_points": self.card_points,
                "kontra": self.kontra,
                "figures": [f.as_dict() for f in self.figures],
                "tarokk_claims": [c.as_dict() for c in self.tarokk_claims],
            }
        )
        return data


def is_name(value) -> bool:
    """Return whether ``value`` is a member name: a non-blank string of at most 60 characters."""
    return isinstance(value, str) and bool(value.strip()) and len(value) <= MAX_NAME_LENGTH


def check_seats(p: Problems, value, path: str = "seats") -> tuple[str, ...] | None:
    """Check a seat list (4 or 5 distinct member names); return it, or None if refused."""
    return validation.check_seats(
        p, value, low=min(rotation.SEAT_COUNTS), high=max(rotation.SEAT_COUNTS), path=path
    )


def _not_given(value) -> bool:
    """Return whether an annulled hand's result field counts as not given."""
    if value is None or value is False:
        return True
    if isinstance(value, list | dict) and not value:
        return True
    return is_integer(value) and value == 0


def parse_hand(data, rates: RateCard | None = None, *, state: Mapping | None = None):
    """Validate a Hungarian ``tarokclub.hand/1`` object and return its HungarianHand.

    ``game``, if given, must be ``hungarian_tarokk``; ``state`` must be empty (the game
    carries no state from hand to hand). Raise HandError listing every problem found.
    """
    rates = card_of(rates)
    p = Problems()
    check_hand_object(
        p, data, HAND_KEYS, unknown=_("unknown key {key}: a Hungarian hand has no such field")
    )
    if "game" in data and data["game"] != GAME_CODE:
        p.add("game", _("this hand is of {game}, not of Hungarian Tarokk"), game=data["game"])
    if state:
        p.add("state", _("Hungarian Tarokk carries no state from hand to hand"))

    seats = check_seats(p, data.get("seats"))
    if seats is None:
        p.raise_if_any(HandError)
    seats = cast(tuple[str, ...], seats)  # None only after a problem: raise_if_any has raised
    dealer = check_dealer(p, data.get("dealer"), seats)
    check_player = player_check(p, seats, rotation.active_players(seats, dealer))

    annulled = data.get("annulled")
    if annulled is None:
        annulled = False
    elif not isinstance(annulled, bool):
        p.add("annulled", _("annulled must be true or false"))
        annulled = False

    if annulled:
        for key in RESULT_KEYS:
            if key in data and not _not_given(data[key]):
                p.add(key, _("a thrown-in (annulled) hand carries no {key}"), key=key)
        p.raise_if_any(HandError)
        return HungarianHand(seats=seats, dealer=dealer, annulled=True)

    bid = data.get("bid")
    if bid is None:
        p.add("bid", _("the bid is required unless the hand is annulled"))
    elif bid not in BIDS:
        p.add(
            "bid",
            _("unknown bid {bid}; a bid is one of {choices}"),
            bid=bid,
            choices=", ".join(BIDS),
        )
        bid = None

    declarer = data.get("declarer")
    if declarer is None:
        p.add("declarer", _("the declarer is required unless the hand is annulled"))
    elif not check_player("declarer", declarer):
        declarer = None

    partner = data.get("partner")
    partner_ok = True
    if partner is not None:
        if not check_player("partner", partner):
            partner_ok = False
        elif partner == declarer:
            p.add(
                "partner",
                _("{name} cannot be his own partner; give null for a lone declarer"),
                name=partner,
            )
            partner_ok = False
    if not partner_ok:
        partner = None

    card_points = data.get("card_points")
    if card_points is None:
        p.add("card_points", _("the card points are required unless the hand is annulled"))
    elif not is_integer(card_points) or not 0 <= card_points <= CARD_POINTS_TOTAL:
        p.add(
            "card_points",
            _("the declarer's side's card points are a whole number 0 to {total}, not {value}"),
            total=CARD_POINTS_TOTAL,
            value=card_points,
        )
        card_points = None

    kontra = _kontra(p, "kontra", data.get("kontra"))

    figures = _parse_figures(p, data.get("figures"), card_points, rates)

    lone = declarer is not None and partner is None and partner_ok
    claims = _parse_claims(p, data.get("tarokk_claims"), check_player, declarer if lone else None)

    p.raise_if_any(HandError)
    return HungarianHand(
        seats=seats,
        dealer=dealer,
        bid=bid,
        declarer=declarer,
        partner=partner,
        card_points=card_points,
        kontra=kontra,
        figures=figures,
        tarokk_claims=claims,
    )


def _kontra(p: Problems, path: str, value) -> int:
    if value is None:
        return 0
    if not is_integer(value) or not 0 <= value <= MAX_KONTRA:
        p.add(
            path,
            _("kontra is a level 0 to {max} (none, kontra, rekontra, ...), not {value}"),
            max=MAX_KONTRA,
            value=value,
        )
        return 0
    return value


def _parse_figures(p: Problems, value, card_points, rates: RateCard) -> tuple[Figure, ...]:
    lines: list[tuple[int, Figure]] = []
    seen: set[tuple[str, str]] = set()
    for i, item in enumerate(check_list(p, "figures", value)):
        path = f"figures[{i}]"
        if not isinstance(item, Mapping):
            p.add(path, _("a figure must be an object"))
            continue
        ok = True
        if not check_unknown_keys(p, path, item, FIGURE_KEYS):
            ok = False
        ftype = item.get("type")
        if ftype not in FIGURES:
            p.add(
                f"{path}.type",
                _("unknown figure {type}; a figure is one of {choices}"),
                type=ftype,
                choices=", ".join(FIGURES),
            )
            ok = False
        side = item.get("side")
        if side not in SIDES:
            p.add(
                f"{path}.side",
                _("unknown side {side}; a side is declarer or opponents"),
                side=side,
            )
            ok = False
        announced = item.get("announced")
        announced_ok = True
        if announced is None:
            announced = False
        elif not isinstance(announced, bool):
            p.add(f"{path}.announced", _("announced must be true or false"))
            ok = announced_ok = False
            announced = True  # unknown: check nothing that holds only for silent lines
        result = item.get("result")
        if result not in RESULTS:
            p.add(
                f"{path}.result",
                _("unknown result {result}; a figure is made or failed"),
                result=result,
            )
            ok = False
        kontra = item.get("kontra")
        if not announced and kontra not in (None, 0) and is_integer(kontra):
            p.add(f"{path}.kontra", _("a silent figure cannot be doubled"))
            ok = False
            kontra = 0
        else:
            before = len(p.items)
            kontra = _kontra(p, f"{path}.kontra", kontra)
            ok = ok and len(p.items) == before
        if ftype in FIGURES and announced_ok and not announced:
            if ftype == "dupla":
                p.add(
                    f"{path}.announced",
                    _("a silent dupla is never a line: it follows from the card points"),
                )
                ok = False
            elif ftype not in SILENT_FIGURES:
                p.add(
                    f"{path}.announced",
                    _("{type} cannot be made silently; only announced"),
                    type=ftype,
                )
                ok = False
            elif result == "failed" and ftype != "pagat_ultimo":
                p.add(
                    f"{path}.result",
                    _("a silent {type} that failed is no line; only a silent pagát ultimó fails"),
                    type=ftype,
                )
                ok = False
        if not ok:
            continue
        # ok: the type is one of FIGURES, the side one of SIDES, the result one of RESULTS
        ftype, side, result = cast(str, ftype), cast(str, side), cast(str, result)
        if (ftype, side) in seen:
            p.add(
                f"{path}.type",
                _("a second line of {type} for the {side}: one line per figure and side"),
                type=ftype,
                side=side,
            )
            continue
        seen.add((ftype, side))
        lines.append((i, Figure(ftype, side, announced, result, kontra)))

    made_by: dict[str, list[str]] = {}
    for i, f in lines:
        path = f"figures[{i}]"
        if f.made:
            if f.type in made_by:
                p.add(
                    f"{path}.result",
                    _("both sides cannot make {type}"),
                    type=f.type,
                )
            made_by.setdefault(f.type, []).append(f.side)
        if card_points is None:
            continue
        points = card_points if f.side == "declarer" else CARD_POINTS_TOTAL - card_points
        if f.type == "dupla":
            if f.made and points < rates.dupla_points:
                p.add(
                    f"{path}.result",
                    _("a dupla is made with {limit} card points or more; the {side} have {points}"),
                    limit=rates.dupla_points,
                    side=f.side,
                    points=points,
                )
            elif not f.made and points >= rates.dupla_points:
                p.add(
                    f"{path}.result",
                    _("the {side} have {points} card points: the dupla was made, not failed"),
                    side=f.side,
                    points=points,
                )
        if f.type == "volat" and f.made and points < rates.dupla_points:
            p.add(
                f"{path}.result",
                _("a side that takes every trick has {limit} card points or more, not {points}"),
                limit=rates.dupla_points,
                points=points,
            )
    volat_sides = {f.side for _i, f in lines if f.type == "volat" and f.made}
    for i, f in lines:
        if f.made and volat_sides - {f.side}:
            p.add(
                f"figures[{i}].result",
                _("beside the other side's volát the {side} make nothing"),
                side=f.side,
            )
    return tuple(f for _i, f in lines)


def _parse_claims(p: Problems, value, check_player, lone_declarer) -> tuple[TarokkClaim, ...]:
    claims = []
    players: set[str] = set()
    for i, item in enumerate(check_list(p, "tarokk_claims", value)):
        path = f"tarokk_claims[{i}]"
        if not isinstance(item, Mapping):
            p.add(path, _("a tarokk claim must be an object"))
            continue
        ok = True
        if not check_unknown_keys(p, path, item, CLAIM_KEYS):
            ok = False
        player = item.get("player")
        if not check_player(f"{path}.player", player):
            ok = False
        elif player in players:
            p.add(f"{path}.player", _("{name} has claimed tarokks already"), name=player)
            ok = False
        count = item.get("count")
        if not is_integer(count) or count not in CLAIM_COUNTS:
            p.add(
                f"{path}.count", _("a tarokk claim is of 8 or 9 tarokks, not {count}"), count=count
            )
            ok = False
        when = item.get("when")
        if when not in CLAIM_WHENS:
            p.add(
                f"{path}.when",
                _("unknown time {when}; a claim is announced or at_end"),
                when=when,
            )
            ok = False
        elif when == "at_end" and player is not None and player == lone_declarer:
            p.add(
                f"{path}.when",
                _("{name} plays alone and has no partner to pay a claim at the end"),
                name=player,
            )
            ok = False
        if isinstance(player, str):
            players.add(player)
        if ok:
            # ok: a seated player, a count of CLAIM_COUNTS and a time of CLAIM_WHENS
            claims.append(TarokkClaim(cast(str, player), cast(int, count), cast(str, when)))
    return tuple(claims)
