"""The interface every game implements, and its value types. Pure Python: no Django.

A game is a package ``ledger/games/<name>/`` whose ``GAME`` object answers the questions the
ledger asks (features, rate card, schedule, parse, settle, statistics, close) so that nothing
outside the package knows the game's words; ``settings.TAROK_GAMES`` registers it. Account
keys in moves are seat names (as recorded at seating) and the game's pool codes; the ledger
maps both to account ids.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

from ledger.games.errors import Problem, RateCardError, _

if TYPE_CHECKING:
    from ledger.tournaments.engine.rules import FormatRules


@dataclass(frozen=True)
class Pool:
    """An account of the table that is not a member's (Danish cups, the Slovenian pool)."""

    code: str
    may_go_negative: bool


@dataclass(frozen=True)
class TableSizes:
    """A game's base table size and its exception sizes in order of preference
    (``tournament.md`` section 4): how a tournament of the game seats its players."""

    base: int
    exceptions: tuple[int, ...] = ()

    @property
    def allowed(self) -> tuple[int, ...]:
        return (self.base, *self.exceptions)

    @property
    def smallest(self) -> int:
        return min(self.allowed)


@dataclass(frozen=True)
class Features:
    """What callers ask a game instead of asking which game it is.

    ``table_sizes`` seats the game's tournaments (the generic formats read them);
    ``tournament_formats`` are the formats that belong to the game alone (the tournament
    engine's ``FormatRules``, the Slovenian DP say). ``manage.py check`` holds both.
    """

    min_seats: int
    max_seats: int
    active_players: int
    pools: tuple[Pool, ...] = ()
    uses_jetons: bool = False
    state_in: str | None = None  # the hand record's key of the state it starts from
    state_out: str | None = None  # the settlement's key of the state after
    stat_keys: tuple[str, ...] = ()  # the counts ``stats_of`` gives, besides ``played``
    table_sizes: TableSizes | None = None
    tournament_formats: tuple[FormatRules, ...] = ()

    @property
    def pool_codes(self) -> tuple[str, ...]:
        return tuple(p.code for p in self.pools)


# The reason of a close's moves that split the pools among the members (``hand-format.md``,
# "An evening"): a member's balance before the split is his balance after every other move of
# the close (the Slovenian radli penalties), and his final one after these too.
SPLIT = "split"


@dataclass(frozen=True)
class Move:
    """``points`` (> 0) moved from one account key to another, with the rule that moved them."""

    source: str
    target: str
    points: int
    reason: str

    def as_dict(self) -> dict:
        return {
            "from": self.source,
            "to": self.target,
            "points": self.points,
            "reason": self.reason,
        }


@dataclass(frozen=True)
class Schedule:
    """Who deals, who sits out and who leads one hand of a table."""

    dealer: str
    sitting_out: tuple[str, ...]
    active: tuple[str, ...]
    forehand: str
    # Every seat's role in the hand: "out", "dealer", "forehand", "player", or a game's own
    # (Danish "non_counter").
    roles: Mapping[str, str] = field(default_factory=dict)
    seats: tuple[str, ...] = ()  # every seat of the table, in the direction of play


def normalized_name(name: str) -> str:
    """Return ``name`` as names are compared for clashes: NFKC, case-folded, without control or
    invisible format characters (zero-width spaces, bidirectional marks) and outer spaces."""
    text = unicodedata.normalize("NFKC", str(name))
    text = "".join(ch for ch in text if unicodedata.category(ch) not in ("Cc", "Cf"))
    return text.strip().casefold()


# Invisible characters a name may not hold: controls, format characters (bidirectional
# overrides and marks, zero-width spaces and joiners), private use, surrogates, unassigned code
# points and line or paragraph separators. They make two names look alike or reorder a line.
INVISIBLE_CATEGORIES = frozenset({"Cc", "Cf", "Co", "Cs", "Cn", "Zl", "Zp"})


def invisible_characters(text: str) -> list[str]:
    """Return the invisible characters of ``text`` as code points ("U+202E"), in order."""
    return [
        f"U+{ord(ch):04X}" for ch in str(text) if unicodedata.category(ch) in INVISIBLE_CATEGORIES
    ]


@dataclass(frozen=True)
class Dealt:
    """A hand as it was really dealt: the seats in the direction of play at the time, who
    dealt and who sat out. The next hand's schedule continues from it."""

    seats: tuple[str, ...]
    dealer: str
    sitting_out: tuple[str, ...] = ()


@dataclass(frozen=True)
class SeatStats:
    """What one seat's statistics count for one hand (``Game.stats_of``): the role he played
    (``out``, ``declarer``, ``partner``, ``opponent``, ``player`` or a game's own), whether he
    played it, and the game's counts (keys of ``Features.stat_keys``; zeros may be left out)."""

    role: str
    played: bool
    counts: Mapping[str, int] = field(default_factory=dict)


@dataclass(frozen=True)
class Preset:
    """A named house-rule variant of a game: the rate-card values it changes from the game's
    defaults (a ``tarokclub.rates/1`` fragment: an object key may set some of its entries),
    where clubs or peer scorers play it (``source``, cited as the spec cites it), and a
    title and a one-line description in English, marked for translation."""

    name: str
    title: str
    description: str
    source: str
    changes: Mapping[str, Any]


def preset_named(game: Game, name: str) -> Preset:
    """Return the preset ``name`` of ``game``; raise RateCardError naming the field
    ``preset`` and the presets there are when the game has none of that name."""
    for preset in game.presets:
        if preset.name == name:
            return preset
    names = ", ".join(p.name for p in game.presets)
    raise RateCardError(
        [
            Problem(
                "preset",
                _("{name} is not a preset of {game}; its presets are: {names}")
                if names
                else _("{name} is not a preset of {game}, which has none"),
                {"name": name, "game": game.name, "names": names},
            )
        ]
    )


def preset_card(game: Game, name: str):
    """Return the rate card of the preset ``name``: the game's defaults with the preset's
    changes (RateCardError naming ``preset`` for an unknown name)."""
    return game.rate_card(dict(preset_named(game, name).changes))


class Record(Protocol):
    """A validated hand record."""

    seats: Sequence[str]
    dealer: str

    @property
    def sitting_out(self) -> Sequence[str]:
        """The seats that sit this hand out (none when all play)."""
        ...

    def as_dict(self) -> dict: ...


class Settlement(Protocol):
    """The settlement of one hand.

    ``transfers`` are Moves (or objects with ``source``, ``target``, ``points``, ``reason``);
    ``net`` has every seated member; ``state_after`` is the state the next hand starts from;
    ``outcome`` is JSON-ready data of what happened (for the sheet's words and statistics);
    ``roles`` maps each seated member to the role he played (``declarer``, ``partner``,
    ``opponent``, ``out``, ...). ``as_dict`` is the ``tarokclub.settlement/1`` object.
    """

    transfers: Sequence[Any]
    net: Mapping[str, int]

    @property
    def state_after(self) -> dict: ...

    @property
    def outcome_data(self) -> dict: ...

    @property
    def roles(self) -> dict: ...

    def as_dict(self) -> dict: ...


class Game(Protocol):
    code: str
    name: str
    features: Features
    # The game's house-rule presets (``Preset``), in the order they are offered; each
    # changes only keys its rate card has, and its card is valid (a contract test holds it).
    presets: tuple[Preset, ...]

    def rate_card(self, data: Mapping | None = None) -> Any:
        """Return the rate card of ``data`` (a rates/1 object, a stored card or a card of the
        game already), defaults filled.

        Raises RateCardError naming each bad key. The card has ``as_dict()``.
        """

    def initial_state(self, seats: Sequence[str], rates) -> tuple[dict, list[Move]]:
        """Return the state a table of ``seats`` starts from and the moves that open it."""

    def seat_moves(self, member: str, rates) -> list[Move]:
        """Return what a late arrival pays when seated."""

    def next_state(self, previous: Mapping | None, pools: Mapping[str, int], seats) -> dict:
        """Return the state the next hand starts from.

        ``previous`` is the state after the last live hand (None before the first hand);
        ``pools`` the pools' balances now; ``seats`` the names seated now.
        """

    def schedule(self, seats: Sequence[str], previous: Sequence[Dealt], rates, *, first: str):
        """Return the Schedule of the next hand of a table seated ``seats`` now.

        ``previous`` are the hands really dealt before it, oldest first (voided hands
        included: they were dealt); the schedule continues from the last of them (its dealer
        and sitters, in the current seat order), so an out-of-turn deal, a late arrival or a
        member who left never breaks the rotation. Before any hand, ``first`` deals.
        """

    def parse_hand(self, data: Mapping, rates, *, state: Mapping | None = None) -> Record:
        """Validate a hand record; raise HandError with every problem, each naming its field."""

    def settle(self, record: Record, rates, state: Mapping | None) -> Settlement:
        """Settle a parsed hand from ``state`` (None where the caller has none to give, as
        ``manage.py settle_hand`` and a game that keeps no state between hands)."""

    def random_hand(self, rng, schedule: Schedule, rates, state) -> dict:
        """Return a hand record (without ``seats`` and the state) that this game accepts for
        the hand ``schedule`` describes, played from ``state``: a realistic mix for tests,
        the demo clubs and the bench."""

    def stats_of(self, record: Record, settlement: Settlement) -> dict[str, SeatStats]:
        """Return what each seat of a settled hand counts for the statistics, by seat name."""

    def close(self, balances: Mapping[str, int], state: Mapping, rates, seats) -> list[Move]:
        """Return the moves that end a table (splits, penalties); ``balances`` has every
        account key (seats who funded, in seat order, then pools)."""

    def settle_evening(self, data: Mapping, rates) -> dict:
        """Settle a ``tarokclub.evening/1`` object; return the evening-result object."""
