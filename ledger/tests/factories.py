"""Plain builders of clubs, members and evenings for tests; every write goes through services."""

from __future__ import annotations

import datetime
import random
from collections.abc import Sequence

from django.contrib.auth import get_user_model

from ledger import services
from ledger.games.danish.engine import rotation
from ledger.games.danish.engine.generate import random_hand
from ledger.models import Club, Evening, Hand, Member, Season, Table, Tournament
from ledger.services import people
from ledger.services import tournaments as tournament_services
from ledger.tests.conftest import load_example

PASSWORD = "tarok-test-pw-1"


def make_club(slug: str = "test", name: str = "Test Tarokklub", **fields) -> Club:
    return Club.objects.create(slug=slug, name=name, **fields)


def make_member(
    club: Club, name: str, role: str = Member.Role.MEMBER, *, login: bool = False
) -> Member:
    user = None
    if login:
        username = f"{club.slug}-{name}".lower()
        user = get_user_model().objects.create_user(username=username, password=PASSWORD)
    return new_member(club=club, name=name, role=role, user=user)


def sealed(members: list[Member]) -> list[Member]:
    """Reseal the people of the members' clubs as they stand: a test's set-up is trusted, as
    a fixture loaded is (``services.people.seal_clubs``); return ``members``."""
    people.seal_clubs({m.club_id for m in members})
    return members


def new_member(**fields) -> Member:
    """A member made as a test's set-up wants him (no name check), sealed."""
    return sealed([Member.objects.create(**fields)])[0]


def get_member(club: Club, name: str) -> Member:
    """The club's member named ``name``, made (and sealed) when he is new."""
    member, created = Member.objects.get_or_create(club=club, name=name)
    return sealed([member])[0] if created else member


def make_season(club: Club, year: int = 2026) -> Season:
    return Season.objects.create(
        club=club,
        name=f"{year}/{year + 1}",
        starts_on=datetime.date(year, 8, 1),
        ends_on=datetime.date(year + 1, 7, 31),
    )


def evening_e(
    club: Club,
    date: datetime.date = datetime.date(2026, 11, 5),
    members: list[Member] | None = None,
) -> tuple[Evening, Table, list[Hand]]:
    """Play the spec's Evening E at one table: Anna, Bo and Carl; return (evening, table, hands)."""
    if members is None:
        members = [get_member(club, name) for name in ("Anna", "Bo", "Carl")]
    evening = services.evening_open(club=club, date=date)
    table = services.table_open(evening=evening, members=members)
    hands = [
        services.hand_record(table=table, record=hand)
        for hand in load_example("EVENING_E.evening.json")["hands"]
    ]
    return evening, table, hands


def random_table_hands(table: Table, count: int, seed: int = 1, rates=None) -> list[Hand]:
    """Record ``count`` random valid hands at ``table`` following its rotation."""
    from ledger.selectors import current_seats

    rng = random.Random(seed)
    rates = rates or services.rate_card(table.evening)
    hands = []
    for _ in range(count):
        seats = [s.member.name for s in current_seats(table.pk)]
        number = table.hands.count() + 1
        dealer, out = rotation.hand_schedule(seats, seats[0], number, rates.five_seat_rotation)
        record = random_hand(rng, seats, dealer, rates, sitting_out=out, with_table=False)
        hands.append(services.hand_record(table=table, record=record))
    return hands


def make_tournament(
    club: Club,
    players: Sequence[str] = (),
    *,
    name: str = "DP Kranj",
    game: str = "slovenian_tarok",
    tournament_format: str = "sl_dp",
    params: dict | None = None,
    seed: str = "",
    players_club: str = "Kranj",
) -> Tournament:
    """Create a tournament of ``club`` on 5 December 2026 and enter ``players`` by name through
    the pasted list, their ladder ranks in the given order."""
    tournament = tournament_services.tournament_create(
        club=club,
        name=name,
        date=datetime.date(2026, 12, 5),
        game=game,
        tournament_format=tournament_format,
        params=params,
        seed=seed,
    )
    if players:
        text = "\n".join(f"{n},{players_club},{i}" for i, n in enumerate(players, 1))
        tournament_services.entries_import(tournament=tournament, text=text)
    return tournament
