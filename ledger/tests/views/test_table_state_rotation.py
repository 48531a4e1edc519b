"""The next hand, read through ``state.json``, for every game and seat count: the next dealer is
the seat after the dealer who really dealt (each game's spec), whatever the hands before did.

Each case plays a table step by step (hands dealt in or out of turn, a correction of a dealer,
a late arrival, a member who leaves, a void) and then reads the next hand. The expected dealers
are worked out by hand from the specs' rule, never from the code under test.
"""

from __future__ import annotations

import datetime
import io
import json
import random

import pytest
from django.core.management import call_command
from django.urls import reverse

from ledger import selectors, services
from ledger.games.base import Schedule
from ledger.games.registry import get_game
from ledger.models import Hand, Member, Table
from ledger.tests import factories
from ledger.tests.helpers import login

pytestmark = pytest.mark.django_db

DANISH, SLOVENIAN, HUNGARIAN = "danish_tarok", "slovenian_tarok", "hungarian_tarokk"
NAMES = ("Anna", "Bo", "Carl", "Dorte", "Erik")
HERMANSEN = {"five_seat_rotation": "hermansen"}


def seats_of(table) -> list[str]:
    return [s.name for s in selectors.current_seats(table.pk)]


def record_for(table, dealer: str, sitting_out=None, *, seed: int = 1) -> dict:
    """Return a random valid hand of ``table`` dealt by ``dealer`` (Danish: with ``sitting_out``
    if given, else the game's default for that dealer)."""
    game = get_game(table.game)
    rates = services.rate_card(table.evening)
    seats = seats_of(table)
    schedule = game.schedule(seats, (), rates, first=dealer)
    if sitting_out is not None:
        schedule = Schedule(
            dealer=dealer,
            sitting_out=tuple(sitting_out),
            active=tuple(s for s in seats if s not in sitting_out),
            forehand="",
            roles={},
            seats=tuple(seats),
        )
    assert schedule.dealer == dealer
    state = services.table_state(table)
    record = game.random_hand(random.Random(seed), schedule, rates, state)
    record.pop("seats", None)
    return record


def play(table, steps) -> None:
    """Play ``steps`` at ``table``: ``("deal", dealer[, sitting_out])``, ``("follow", n)`` (deal
    n hands as the state suggests), ``("correct", number, dealer)``, ``("void", number)``,
    ``("seat", name, position)`` and ``("leave", name)``."""
    for seed, (action, *args) in enumerate(steps, start=1):
        if action == "deal":
            services.hand_record(table=table, record=record_for(table, *args, seed=seed))
        elif action == "follow":
            for k in range(args[0]):
                nxt = selectors.table_state_data(table)["next"]
                record = record_for(table, nxt["dealer"], nxt["sitting_out"], seed=seed * 10 + k)
                services.hand_record(table=table, record=record)
        elif action == "correct":
            number, dealer = args
            hand = Hand.objects.get(table=table, number=number)
            record = record_for(table, dealer, seed=seed)
            services.hand_correct(hand=hand, record=record, reason="dealt by another")
        elif action == "void":
            hand = Hand.objects.get(table=table, number=args[0])
            services.hand_void(hand=hand, reason="misdeal")
        elif action == "seat":
            name, position = args
            member = factories.make_member(table.evening.club, name)
            services.table_seat(table=table, member=member, position=position)
        elif action == "leave":
            member = Member.objects.get(club=table.evening.club, name=args[0])
            services.table_leave(table=table, member=member)
        else:  # pragma: no cover
            raise AssertionError(action)


def open_table(game: str, seats: int, rate_card=None, slug="rot") -> Table:
    club = factories.make_club(slug=slug, game=game, rate_card=rate_card or {})
    members = [factories.make_member(club, n) for n in NAMES[:seats]]
    evening = services.evening_open(club=club, date=datetime.date(2026, 11, 5))
    return services.table_open(evening=evening, members=members)


def next_hand(client, table) -> dict:
    """Return the ``next`` of the table's state.json, read by a member of its club."""
    club = table.evening.club
    login(client, factories.make_member(club, f"reader-{table.pk}", login=True))
    response = client.get(reverse("table_state", kwargs={"club": club.slug, "pk": table.pk}))
    assert response.status_code == 200
    return response.json()["next"]


def picked(nxt: dict, expected: dict) -> dict:
    return {key: nxt.get(key) for key in expected}


# (game, seats, rate card, steps, the next hand: number, dealer, sitting out, forehand, [roles])
CASES = {
    # Danish, 3 seats: everyone plays; the next dealer is the seat after, and does not count.
    "danish-3-out-of-turn": (
        DANISH, 3, None, [("deal", "Anna"), ("deal", "Carl")],
        {"number": 3, "dealer": "Anna", "sitting_out": [], "forehand": "Bo", "non_counter": "Bo"},
    ),
    "danish-3-void-keeps-its-dealer": (
        DANISH, 3, None, [("deal", "Anna"), ("deal", "Bo"), ("void", 2)],
        {"number": 3, "dealer": "Carl", "sitting_out": [], "forehand": "Anna",
         "non_counter": "Anna"},
    ),
    "danish-3-late-arrival": (
        DANISH, 3, None, [("deal", "Anna"), ("seat", "Dorte", 1)],
        # Seats Anna, Dorte, Bo, Carl: Dorte deals, Carl (opposite) sits out, Bo deals next.
        {"number": 2, "dealer": "Dorte", "sitting_out": ["Carl"], "forehand": "Bo",
         "non_counter": "Bo"},
    ),
    # Danish, 4 seats: the seat opposite the dealer sits out.
    "danish-4-out-of-turn": (
        DANISH, 4, None, [("deal", "Anna"), ("deal", "Dorte")],
        # The case: after Dorte dealt hand 2 out of turn, Anna deals (not Carl).
        {"number": 3, "dealer": "Anna", "sitting_out": ["Carl"], "forehand": "Bo",
         "non_counter": "Bo"},
    ),
    "danish-4-correction-of-the-last-dealer": (
        DANISH, 4, None, [("deal", "Anna"), ("deal", "Bo"), ("correct", 2, "Dorte")],
        {"number": 3, "dealer": "Anna", "sitting_out": ["Carl"], "forehand": "Bo",
         "non_counter": "Bo"},
    ),
    "danish-4-correction-of-an-earlier-dealer": (
        DANISH, 4, None,
        [("deal", "Anna"), ("deal", "Bo"), ("deal", "Carl"), ("correct", 2, "Dorte")],
        {"number": 4, "dealer": "Dorte", "sitting_out": ["Bo"], "forehand": "Anna",
         "non_counter": "Anna"},
    ),
    "danish-4-member-left": (
        DANISH, 4, None, [("deal", "Anna"), ("leave", "Bo")],
        {"number": 2, "dealer": "Carl", "sitting_out": [], "forehand": "Dorte",
         "non_counter": "Dorte"},
    ),
    "danish-4-dealer-left": (
        DANISH, 4, None, [("deal", "Anna"), ("leave", "Anna")],
        {"number": 2, "dealer": "Bo", "sitting_out": [], "forehand": "Carl",
         "non_counter": "Carl"},
    ),
    # Danish, 5 seats, two_sitters: the deal skips a seat; the previous and next dealer sit out.
    "danish-5-two-sitters-out-of-turn": (
        DANISH, 5, None, [("deal", "Anna"), ("deal", "Bo")],
        # Dorte deals (two on from Bo); Anna and Bo sit out; Anna deals next and sits out, so
        # forehand Erik does not count.
        {"number": 3, "dealer": "Dorte", "sitting_out": ["Anna", "Bo"], "forehand": "Erik",
         "non_counter": "Erik"},
    ),
    "danish-5-two-sitters-late-arrival": (
        DANISH, 4, None, [("deal", "Anna"), ("seat", "Erik", 1)],
        # Seats Anna, Erik, Bo, Carl, Dorte: the table is five now, so the deal goes two on
        # from Anna, to Bo, who plays with Erik and Carl; Dorte deals next and sits out.
        {"number": 2, "dealer": "Bo", "sitting_out": ["Anna", "Dorte"], "forehand": "Carl",
         "non_counter": "Carl"},
    ),
    # Danish, 5 seats, hermansen: a block of 5 hands with one sitter, the four as a 4-seat table.
    "danish-5-hermansen-out-of-turn": (
        DANISH, 5, HERMANSEN,
        [("deal", "Anna", ["Carl", "Erik"]), ("deal", "Dorte", ["Bo", "Erik"])],
        # Erik sits out the block; after Dorte the next of the four is Anna; Carl is opposite.
        {"number": 3, "dealer": "Anna", "sitting_out": ["Carl", "Erik"], "forehand": "Bo",
         "non_counter": "Bo"},
    ),
    "danish-5-hermansen-next-block": (
        DANISH, 5, HERMANSEN, [("follow", 5)],
        # Erik sat out hands 1-5 (dealers Anna, Bo, Carl, Dorte, Anna); Anna sits out the next
        # block; Bo deals with Dorte opposite.
        {"number": 6, "dealer": "Bo", "sitting_out": ["Anna", "Dorte"], "forehand": "Carl",
         "non_counter": "Carl"},
    ),
    # Slovenian, 3 to 5 seats: the dealer sits out at five.
    "slovenian-3-out-of-turn": (
        SLOVENIAN, 3, None, [("deal", "Anna"), ("deal", "Carl")],
        {"number": 3, "dealer": "Anna", "sitting_out": [], "forehand": "Bo"},
    ),
    "slovenian-4-out-of-turn": (
        SLOVENIAN, 4, None, [("deal", "Anna"), ("deal", "Dorte")],
        {"number": 3, "dealer": "Anna", "sitting_out": [], "forehand": "Bo"},
    ),
    "slovenian-4-correction": (
        SLOVENIAN, 4, None, [("deal", "Anna"), ("deal", "Bo"), ("correct", 2, "Carl")],
        {"number": 3, "dealer": "Dorte", "sitting_out": [], "forehand": "Anna"},
    ),
    "slovenian-4-void-keeps-its-dealer": (
        SLOVENIAN, 4, None, [("deal", "Anna"), ("deal", "Bo"), ("void", 2)],
        {"number": 3, "dealer": "Carl", "sitting_out": [], "forehand": "Dorte"},
    ),
    "slovenian-4-late-arrival": (
        SLOVENIAN, 4, None, [("deal", "Anna"), ("deal", "Bo"), ("seat", "Erik", 2)],
        # Seats Anna, Bo, Erik, Carl, Dorte: Erik is the seat after Bo; he deals and sits out.
        {"number": 3, "dealer": "Erik", "sitting_out": ["Erik"], "forehand": "Carl"},
    ),
    "slovenian-5-out-of-turn": (
        SLOVENIAN, 5, None, [("deal", "Anna"), ("deal", "Carl")],
        {"number": 3, "dealer": "Dorte", "sitting_out": ["Dorte"], "forehand": "Erik"},
    ),
    "slovenian-5-member-left": (
        SLOVENIAN, 5, None, [("deal", "Anna"), ("deal", "Bo"), ("leave", "Carl")],
        {"number": 3, "dealer": "Dorte", "sitting_out": [], "forehand": "Erik"},
    ),
    # Hungarian, 4 or 5 seats (3 are refused): the dealer sits out at five.
    "hungarian-4-out-of-turn": (
        HUNGARIAN, 4, None, [("deal", "Anna"), ("deal", "Carl")],
        {"number": 3, "dealer": "Dorte", "sitting_out": [], "forehand": "Anna"},
    ),
    "hungarian-4-late-arrival-after-five-hands": (
        HUNGARIAN, 4, None, [("follow", 5), ("seat", "Erik", 1)],
        # Dealers Anna, Bo, Carl, Dorte, Anna; Erik seated after Anna deals hand 6 and sits out.
        {"number": 6, "dealer": "Erik", "sitting_out": ["Erik"], "forehand": "Bo"},
    ),
    "hungarian-4-correction": (
        HUNGARIAN, 4, None, [("deal", "Anna"), ("deal", "Bo"), ("correct", 2, "Dorte")],
        {"number": 3, "dealer": "Anna", "sitting_out": [], "forehand": "Bo"},
    ),
    "hungarian-5-out-of-turn": (
        HUNGARIAN, 5, None, [("deal", "Anna"), ("deal", "Dorte")],
        {"number": 3, "dealer": "Erik", "sitting_out": ["Erik"], "forehand": "Anna"},
    ),
    "hungarian-5-void-keeps-its-dealer": (
        HUNGARIAN, 5, None, [("deal", "Anna"), ("deal", "Bo"), ("void", 2)],
        {"number": 3, "dealer": "Carl", "sitting_out": ["Carl"], "forehand": "Dorte"},
    ),
    "hungarian-5-dealer-left": (
        HUNGARIAN, 5, None, [("deal", "Anna"), ("deal", "Bo"), ("leave", "Bo")],
        # Bo dealt and left: the seat after him, Carl, deals at four seats; all play.
        {"number": 3, "dealer": "Carl", "sitting_out": [], "forehand": "Dorte"},
    ),
}  # fmt: skip


@pytest.mark.parametrize("case", sorted(CASES))
def test_next_hand_follows_the_hand_dealt(client, case):
    """The next hand is dealt by the seat after the dealer who dealt the hand before."""
    game, seats, rate_card, steps, expected = CASES[case]
    table = open_table(game, seats, rate_card)
    play(table, steps)
    assert picked(next_hand(client, table), expected) == expected


def run_import(path, slug: str) -> str:
    out = io.StringIO()
    call_command("import_hands", str(path), "--club", slug, "--date", "2026-11-05", stdout=out)
    return out.getvalue()


@pytest.mark.parametrize(
    ("game", "seats", "dealers", "expected"),
    [
        # Anna, Carl, Bo dealt out of turn: Carl (after Bo) deals; Anna opposite him sits out.
        (DANISH, 4, ["Anna", "Carl", "Bo"],
         {"number": 4, "dealer": "Carl", "sitting_out": ["Anna"], "forehand": "Dorte",
          "non_counter": "Dorte"}),
        (SLOVENIAN, 5, ["Anna", "Carl", "Bo"],
         {"number": 4, "dealer": "Carl", "sitting_out": ["Carl"], "forehand": "Dorte"}),
        (HUNGARIAN, 5, ["Anna", "Carl", "Erik"],
         {"number": 4, "dealer": "Anna", "sitting_out": ["Anna"], "forehand": "Bo"}),
    ],
)  # fmt: skip
def test_imported_table_dealt_out_of_turn(client, tmp_path, game, seats, dealers, expected):
    """A paper sheet imported with ``import_hands`` whose hands were dealt out of turn: the
    next hand continues from the last hand's dealer."""
    slug = f"imp-{game.split('_')[0]}"
    scratch = open_table(game, seats, slug=f"{slug}-scratch")
    hands = []
    for k, dealer in enumerate(dealers, start=1):
        record = record_for(scratch, dealer, seed=k)
        services.hand_record(table=scratch, record=record)
        hands.append({key: value for key, value in record.items() if not key.endswith("_before")})
    club = factories.make_club(slug=slug, game=game)
    for name in NAMES[:seats]:
        factories.make_member(club, name)
    data = {"format": "tarokclub.evening/1", "seats": list(NAMES[:seats]), "hands": hands}
    if game != DANISH:
        data["game"] = game
    path = tmp_path / "sheet.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    run_import(path, slug)
    table = Table.objects.get(evening__club=club)
    assert [h.dealer.name for h in table.hands.order_by("number")] == dealers
    assert picked(next_hand(client, table), expected) == expected
