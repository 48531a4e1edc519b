"""The validated input of one hand, parsed from the ``tarokclub.hand/1`` format."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, cast

from ledger.games.errors import HandError, Problems, _
from ledger.games.money import MAX_POINTS
from ledger.games.validation import HAND_FORMAT as HAND_FORMAT
from ledger.games.validation import MAX_NAME_LENGTH as MAX_NAME_LENGTH
from ledger.games.validation import (
    check_dealer,
    check_hand_object,
    check_list,
    check_names,
    check_seats,
    check_unknown_keys,
    is_int,
    player_check,
)

from . import rotation
from .ratecard import FINE_TYPES, FINES_BARRING_ULTIMO, RateCard

CUPS = ("kongekop", "pagatkop")
SUITS = ("hearts", "diamonds", "spades", "clubs")
MELD_SUITS = (*SUITS, "kings")
COURT_CARDS = ("king", "queen", "cavalier", "knight")
MELD_TYPES = ("tarok", "matador", "half", "full", "overfull")
EVENT_TYPES = ("lost_king", "lost_pagat", "pagat_home")
LAST_TRICK_CARDS = ("pagat", "king", "other")
CARD_POINTS_TOTAL = 78

GAME_CODE = "danish_tarok"

HAND_KEYS = {
    "format",
    "game",
    "seats",
    "dealer",
    "sitting_out",
    "cups_before",
    "melds",
    "during_play",
    "fines",
    "annulled",
    "last_trick",
    "nolo",
    "tout",
    "count",
}
MELD_KEYS = {
    "tarok": {"player", "type", "count", "with_pagat"},
    "matador": {"player", "type", "count"},
    "half": {"player", "type", "suit", "missing"},
    "full": {"player", "type", "suit"},
    "overfull": {"player", "type", "suit"},
}


@dataclass(frozen=True)
class Meld:
    player: str
    type: str
    count: int | None = None
    suit: str | None = None
    missing: str | None = None
    with_pagat: bool | None = None


@dataclass(frozen=True)
class Event:
    type: str
    player: str


@dataclass(frozen=True)
class Fine:
    type: str
    player: str
    waived: bool = False


@dataclass(frozen=True)
class Card:
    player: str
    card: str


@dataclass(frozen=True)
class LastTrick:
    winner: str
    cards: tuple[Card, ...]

    @property
    def winning_card(self) -> str:
        return next(c.card for c in self.cards if c.player == self.winner)


@dataclass(frozen=True)
class DanishHand:
    """One hand as the scorekeeper saw it; the transfers are derived from it."""

    seats: tuple[str, ...]
    dealer: str
    sitting_out: tuple[str, ...]
    cups_before: dict | None
    melds: tuple[Meld, ...] = ()
    during_play: tuple[Event, ...] = ()
    fines: tuple[Fine, ...] = ()
    annulled: bool = False
    last_trick: LastTrick | None = None
    nolo: str | None = None
    tout: str | None = None
    count: dict | None = None
    sitting_out_given: bool = False

    @property
    def active(self) -> tuple[str, ...]:
        return rotation.active_players(self.seats, self.sitting_out)

    def barred(self) -> frozenset[str]:
        """Return the players barred from ultimo by a fine, waived or not."""
        return frozenset(f.player for f in self.fines if f.type in FINES_BARRING_ULTIMO)

    def as_dict(self, *, with_table: bool = True) -> dict:
        """Return the record in the hand format (the canonical stored form)."""
        data: dict = {"format": HAND_FORMAT}
        if with_table:
            data["seats"] = list(self.seats)
            if self.cups_before is not None:
                data["cups_before"] = dict(self.cups_before)
        data["dealer"] = self.dealer
        if self.sitting_out_given:
            data["sitting_out"] = list(self.sitting_out)
        if self.melds:
            data["melds"] = [_meld_dict(m) for m in self.melds]
        if self.during_play:
            data["during_play"] = [{"type": e.type, "player": e.player} for e in self.during_play]
        if self.fines:
            data["fines"] = [
                {"type": f.type, "player": f.player, "waived": f.waived} for f in self.fines
            ]
        if self.annulled:
            data["annulled"] = True
        if self.last_trick is not None:
            data["last_trick"] = {
                "winner": self.last_trick.winner,
                "cards": [{"player": c.player, "card": c.card} for c in self.last_trick.cards],
            }
        data["nolo"] = [self.nolo] if self.nolo else []
        data["tout"] = self.tout
        if self.count is not None:
            data["count"] = dict(self.count)
        return data


def _meld_dict(meld: Meld) -> dict:
    data = {"player": meld.player, "type": meld.type}
    for key in ("count", "with_pagat", "suit", "missing"):
        value = getattr(meld, key)
        if value is not None:
            data[key] = value
    return data


def is_counted(record: DanishHand, rates: RateCard) -> bool:
    """Return whether the count is settled: not annulled, no nolo, no tout of the pagat.com or
    Agger variant (only Møller's tout pays the count on top)."""
    if record.annulled:
        return False
    if record.tout and rates.tout_variant != "moller":
        return False
    if record.nolo and not record.tout:
        return False
    return True


def parse_hand(data, rates: RateCard | None = None, *, seats=None, cups_before=None) -> DanishHand:
    """Validate a ``tarokclub.hand/1`` object and return its DanishHand.

    ``seats`` and ``cups_before`` supply the table's values when the record
    (a hand inside an evening file, or one from the tablet) leaves them out.
    Raise HandError listing every problem found, each naming its field.
    """
    rates = rates or RateCard()
    p = Problems()
    check_hand_object(p, data, HAND_KEYS, kind=dict, key_path=lambda key: key)
    if "game" in data and data["game"] != GAME_CODE:
        p.add("game", _("this hand is not of the game {game}"), game=GAME_CODE)

    # Seats and roles: nothing else can be checked without them.
    seats_value = data.get("seats", seats)
    seat_list = check_seats(p, seats_value, low=3, high=5, reserved=CUPS)
    if seat_list is None:
        p.raise_if_any(HandError)
    seat_list = cast(tuple[str, ...], seat_list)  # None only after a problem: raise_if_any raised
    seats_t = tuple(seat_list)

    dealer = check_dealer(p, data.get("dealer"), seats_t)

    sitting_out_given = data.get("sitting_out") is not None
    if sitting_out_given:
        before = len(p.items)
        out_list = check_names(p, "sitting_out", data["sitting_out"], reserved=CUPS)
        if out_list is None:
            p.raise_if_any(HandError)
        for name in out_list:
            if name not in seats_t:
                p.add("sitting_out", _("{name} is not seated at this table"), name=name)
        if dealer in out_list:
            p.add("sitting_out", _("the dealer {name} cannot sit out"), name=dealer)
        if len(set(out_list)) != len(out_list) or len(seats_t) - len(set(out_list)) != 3:
            p.add(
                "sitting_out",
                _("exactly 3 must play: with {seats} seated, {n} must sit out"),
                seats=len(seats_t),
                n=len(seats_t) - 3,
            )
        if len(p.items) > before:
            p.raise_if_any(HandError)
        sitting_out = tuple(s for s in seats_t if s in set(out_list))
    else:
        sitting_out = rotation.default_sitting_out(seats_t, dealer, rates.five_seat_rotation)
        if sitting_out is None:
            p.add(
                "sitting_out",
                _("with the Hermansen rotation the hand must name who sits out"),
            )
            p.raise_if_any(HandError)
    active = rotation.active_players(seats_t, sitting_out)
    check_player = player_check(p, seats_t, set(active))

    cups = _parse_cups(p, data.get("cups_before", cups_before))
    if cups is None and cups_before is None and not p.items:
        # Left out or null: the cups as funded (hand-format.md).
        funded = rates.funding_per_cup * len(seats_t)
        cups = {"kongekop": funded, "pagatkop": funded}

    melds = _parse_melds(p, data.get("melds", []), check_player)
    events = _parse_events(p, data.get("during_play", []), check_player)
    fines = _parse_fines(p, data.get("fines", []), check_player)

    annulled = data.get("annulled", False)
    if not isinstance(annulled, bool):
        p.add("annulled", _("annulled must be true or false"))
        annulled = False

    last_trick = None
    if data.get("last_trick") is not None:
        last_trick = _parse_last_trick(p, data["last_trick"], active, check_player)
    elif not annulled:
        p.add("last_trick", _("the last trick is required unless the hand is annulled"))

    nolo = None
    nolo_value = data.get("nolo", [])
    if nolo_value is None:
        nolo_value = []
    if isinstance(nolo_value, str):
        nolo_value = [nolo_value]
    if not isinstance(nolo_value, list):
        p.add("nolo", _("nolo must be a list of at most one player"))
    elif len(nolo_value) > 1:
        p.add("nolo", _("only one player can win no trick (nolo), not {n}"), n=len(nolo_value))
    elif nolo_value and check_player("nolo", nolo_value[0]):
        nolo = nolo_value[0]

    tout = data.get("tout")
    if tout is not None and not check_player("tout", tout):
        tout = None

    _check_pagat_and_kings(p, events, last_trick)
    if tout is not None:
        if nolo_value:
            p.add("nolo", _("nobody can be nolo beside a tout"))
        if last_trick is not None and last_trick.winner != tout:
            p.add(
                "tout",
                _("{name} won every trick (tout) and must win the last trick"),
                name=tout,
            )
        for i, e in enumerate(events):
            if e.player == tout and e.type in ("lost_king", "lost_pagat"):
                p.add(
                    f"during_play[{i}].player",
                    _("{name} won every trick (tout) and cannot lose a card"),
                    name=tout,
                )
            if e.type == "pagat_home" and e.player != tout:
                p.add(
                    f"during_play[{i}].player",
                    _("{name} won no trick beside a tout and cannot win the pagat home"),
                    name=e.player,
                )
    if nolo is not None:
        if last_trick is not None and last_trick.winner == nolo:
            p.add(
                "last_trick.winner",
                _("{name} won no trick (nolo) and cannot win the last trick"),
                name=nolo,
            )
        for i, e in enumerate(events):
            if e.type == "pagat_home" and e.player == nolo:
                p.add(
                    f"during_play[{i}].player",
                    _("{name} won no trick (nolo) and cannot win the pagat home"),
                    name=nolo,
                )

    record = DanishHand(
        seats=seats_t,
        dealer=dealer,
        sitting_out=tuple(sitting_out),
        cups_before=cups,
        melds=melds,
        during_play=events,
        fines=fines,
        annulled=annulled,
        last_trick=last_trick,
        nolo=nolo,
        tout=tout,
        count=None,
        sitting_out_given=sitting_out_given,
    )
    count = _parse_count(p, data.get("count"), record, rates, check_player)
    p.raise_if_any(HandError)
    return replace(record, count=count)


def _parse_cups(p: Problems, value):
    if value is None:
        return None
    if not isinstance(value, dict):
        p.add("cups_before", _("the cups must be an object with kongekop and pagatkop"))
        return None
    for key in value:
        if key not in CUPS:
            p.add(f"cups_before.{key}", _("unknown cup {key}"), key=key)
    cups = {}
    for cup in CUPS:
        amount = value.get(cup)
        if not is_int(amount) or amount < 0:
            p.add(f"cups_before.{cup}", _("a cup holds a whole, non-negative number of points"))
        elif amount > MAX_POINTS:
            p.add(
                f"cups_before.{cup}",
                _(
                    "a hand starts from cups of at most {max} points each; a table whose cup "
                    "has passed it can only be closed"
                ),
                max=MAX_POINTS,
            )
        else:
            cups[cup] = amount
    return cups if len(cups) == 2 else None


def _parse_melds(p: Problems, value, check_player) -> tuple[Meld, ...]:
    melds = []
    seen = set()
    for i, item in enumerate(check_list(p, "melds", value)):
        path = f"melds[{i}]"
        if not isinstance(item, dict):
            p.add(path, _("a meld must be an object"))
            continue
        mtype = item.get("type")
        if mtype not in MELD_TYPES:
            p.add(
                f"{path}.type",
                _("unknown meld {type}; a meld is one of {choices}"),
                type=mtype,
                choices=", ".join(MELD_TYPES),
            )
            continue
        check_unknown_keys(p, path, item, MELD_KEYS[mtype])
        ok = check_player(f"{path}.player", item.get("player"))
        count = suit = missing = with_pagat = None
        if mtype in ("tarok", "matador"):
            count = item.get("count")
            low = 10 if mtype == "tarok" else 3
            if not is_int(count) or not low <= count <= 22:
                p.add(
                    f"{path}.count",
                    _("a {type} meld counts {low} to 22, not {count}"),
                    type=mtype,
                    low=low,
                    count=count,
                )
                ok = False
            if mtype == "tarok" and "with_pagat" in item:
                with_pagat = item["with_pagat"]
                if not isinstance(with_pagat, bool):
                    p.add(f"{path}.with_pagat", _("with_pagat must be true or false"))
                    ok = False
            key: tuple[Any, ...] = (item.get("player"), mtype)
        else:
            suit = item.get("suit")
            if suit not in MELD_SUITS:
                p.add(
                    f"{path}.suit",
                    _("unknown suit {suit}; a suit is one of {choices}"),
                    suit=suit,
                    choices=", ".join(MELD_SUITS),
                )
                ok = False
            if mtype == "half":
                missing = item.get("missing")
                if suit == "kings":
                    if missing not in SUITS:
                        p.add(
                            f"{path}.missing",
                            _("a half of kings names the missing king by its suit: {choices}"),
                            choices=", ".join(SUITS),
                        )
                        ok = False
                elif missing not in COURT_CARDS:
                    p.add(
                        f"{path}.missing",
                        _("the missing card of a half is a court card: {choices}"),
                        choices=", ".join(COURT_CARDS),
                    )
                    ok = False
            key = (item.get("player"), "suit", suit)
        if ok and key in seen:
            p.add(path, _("{name} has declared this meld already"), name=item.get("player"))
            ok = False
        if ok:
            seen.add(key)
            melds.append(Meld(item["player"], mtype, count, suit, missing, with_pagat))
    return tuple(melds)


def _parse_events(p: Problems, value, check_player) -> tuple[Event, ...]:
    events = []
    for i, item in enumerate(check_list(p, "during_play", value)):
        path = f"during_play[{i}]"
        if not isinstance(item, dict):
            p.add(path, _("an event must be an object"))
            continue
        check_unknown_keys(p, path, item, {"type", "player"})
        etype = item.get("type")
        ok = True
        if etype not in EVENT_TYPES:
            p.add(
                f"{path}.type",
                _("unknown event {type}; an event is one of {choices}"),
                type=etype,
                choices=", ".join(EVENT_TYPES),
            )
            ok = False
        if check_player(f"{path}.player", item.get("player")) and ok:
            events.append(Event(cast(str, etype), item["player"]))  # ok: one of EVENT_TYPES
    return tuple(events)


def _parse_fines(p: Problems, value, check_player) -> tuple[Fine, ...]:
    fines = []
    for i, item in enumerate(check_list(p, "fines", value)):
        path = f"fines[{i}]"
        if not isinstance(item, dict):
            p.add(path, _("a fine must be an object"))
            continue
        check_unknown_keys(p, path, item, {"type", "player", "waived"})
        ftype = item.get("type")
        ok = True
        if ftype not in FINE_TYPES:
            p.add(
                f"{path}.type",
                _("unknown fine {type}; a fine is one of {choices}"),
                type=ftype,
                choices=", ".join(FINE_TYPES),
            )
            ok = False
        waived = item.get("waived", False)
        if not isinstance(waived, bool):
            p.add(f"{path}.waived", _("waived must be true or false"))
            ok = False
        if check_player(f"{path}.player", item.get("player")) and ok:
            fines.append(Fine(cast(str, ftype), item["player"], waived))  # ok: one of FINE_TYPES
    return tuple(fines)


def _parse_last_trick(p: Problems, value, active, check_player) -> LastTrick | None:
    if not isinstance(value, dict):
        p.add("last_trick", _("the last trick must be an object with winner and cards"))
        return None
    check_unknown_keys(p, "last_trick", value, {"winner", "cards"})
    cards_value = value.get("cards")
    if not isinstance(cards_value, list):
        p.add("last_trick.cards", _("the last trick lists the three cards played to it"))
        return None
    cards = []
    ok = True
    for i, item in enumerate(cards_value):
        path = f"last_trick.cards[{i}]"
        if not isinstance(item, dict):
            p.add(path, _("a card must be an object with player and card"))
            ok = False
            continue
        check_unknown_keys(p, path, item, {"player", "card"})
        if item.get("card") not in LAST_TRICK_CARDS:
            p.add(
                f"{path}.card",
                _("a card in the last trick is one of {choices}"),
                choices=", ".join(LAST_TRICK_CARDS),
            )
            ok = False
        if not check_player(f"{path}.player", item.get("player")):
            ok = False
        if ok:
            cards.append(Card(item["player"], item["card"]))
    if not ok:
        return None
    players = [c.player for c in cards]
    if len(cards) != 3 or set(players) != set(active):
        p.add(
            "last_trick.cards",
            _("the last trick has exactly one card from each active player: {players}"),
            players=", ".join(active),
        )
        return None
    if sum(c.card == "pagat" for c in cards) > 1:
        p.add("last_trick.cards", _("there is only one pagat, not two"))
        return None
    winner = value.get("winner")
    if not check_player("last_trick.winner", winner):
        return None
    trick = LastTrick(cast(str, winner), tuple(cards))  # check_player: a seated name
    if trick.winning_card == "king" and any(c.card == "pagat" for c in cards):
        p.add(
            "last_trick.winner",
            _("a king cannot win a trick to which the pagat (a trump) was played"),
        )
        return None
    return trick


def _check_pagat_and_kings(p: Problems, events, last_trick) -> None:
    pagat_events = [(i, e) for i, e in enumerate(events) if e.type in ("lost_pagat", "pagat_home")]
    for i, e in pagat_events[1:]:
        first = pagat_events[0][1]
        if first.type == "lost_pagat" and e.type == "lost_pagat":
            template = _("the pagat cannot be lost twice")
        elif first.type == "lost_pagat":
            template = _("the pagat cannot win a trick after it was lost")
        else:
            template = _("the pagat can win only one trick before the last, then it is gone")
        p.add(f"during_play[{i}].type", template)
    if pagat_events and last_trick is not None:
        if any(c.card == "pagat" for c in last_trick.cards):
            p.add(
                "last_trick.cards",
                _("the pagat was played during the hand and cannot be played to the last trick"),
            )
    kings = sum(e.type == "lost_king" for e in events)
    if last_trick is not None:
        kings += sum(c.card == "king" for c in last_trick.cards)
    if kings > 4:
        p.add("during_play", _("there are only four kings, not {n}"), n=kings)


def _parse_count(p: Problems, value, record: DanishHand, rates: RateCard, check_player):
    counted = is_counted(record, rates)
    if not counted:
        if value not in (None, {}):
            p.add(
                "count", _("this hand is not counted (annulled, nolo, or a tout without the count)")
            )
        return None
    if value is None:
        p.add("count", _("the count of the two counting players is required"))
        return None
    if not isinstance(value, dict):
        p.add("count", _("the count is an object of player to card points"))
        return None
    count = {}
    for name, points in value.items():
        path = f"count.{name}"
        if not check_player(path, name):
            continue
        if not is_int(points) or not 0 <= points <= CARD_POINTS_TOTAL:
            p.add(
                path, _("card points are a whole number from 0 to 78, not {points}"), points=points
            )
            continue
        count[name] = points
    if len(count) != len(value):
        return None
    skip = rotation.non_counter(
        record.seats, record.dealer, record.sitting_out, rates.five_seat_rotation
    )
    counters = [a for a in record.active if a != skip]
    missing = [c for c in counters if c not in count]
    if missing:
        p.add(
            "count",
            _("{name} counts this hand and the count is missing ({skip} does not count)"),
            name=missing[0],
            skip=skip,
        )
        return None
    total = sum(count.values())
    if len(count) == 3 and total != CARD_POINTS_TOTAL:
        p.add("count", _("three counts must total 78, not {total}"), total=total)
    elif len(count) == 2 and total > CARD_POINTS_TOTAL:
        p.add("count", _("two counts cannot total more than 78, not {total}"), total=total)
    return count
