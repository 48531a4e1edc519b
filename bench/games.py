"""Hand saves of every registered game, server side, with the table's history growing.

Each game gets a club of its own with four members and one table; ``HANDS`` random hands of
that game (its own generator, its own schedule, so the dealer is always right) are recorded
one after another through ``services.hand_record`` and each save is timed. The figure the
issue asks for: the games' medians stay within 1.5x of each other.
"""

from __future__ import annotations

import random
import time

from django.utils import timezone

from ledger import services
from ledger.games.base import Dealt
from ledger.games.registry import GAMES
from ledger.models import Club, Member
from ledger.services import people

HANDS = 60
NAMES = ("Anna", "Bo", "Carl", "Dorte")


def _save_hands(code: str, offset: int) -> tuple[list[float], list[float]]:
    """Record HANDS hands of game ``code``; return the first and the last half's save times."""
    import datetime

    game = GAMES[code]
    club = Club.objects.create(name=f"Bench {code}", slug=f"bench-game-{offset}", game=code)
    members = [Member.objects.create(club=club, name=n) for n in NAMES]
    people.seal_clubs([club.pk])  # sealed as a trusted set-up
    day = timezone.localdate() + datetime.timedelta(days=200 + offset)
    evening = services.evening_open(club=club, date=day)
    table = services.table_open(evening=evening, members=members)
    rates = game.rate_card({})
    rng = random.Random(17)
    dealt: list[Dealt] = []
    times = []
    for number in range(1, HANDS + 1):
        schedule = game.schedule(list(NAMES), dealt, rates, first=NAMES[0])
        record = game.random_hand(rng, schedule, rates, services.table_state(table))
        started = time.perf_counter()
        hand = services.hand_record(
            table=table,
            record=record,
            token=f"bench-game-{offset}-{number}",
            number=number,
            version=services.table_version(table.pk),
        )
        times.append(time.perf_counter() - started)
        dealt.append(Dealt(seats=NAMES, dealer=hand.dealer.name))
    half = len(times) // 2
    return times[:half], times[half:]


def measure(*, summary) -> dict:
    """Each game's hand saves (median, p95 of all; median of the first and the last half as
    the history grows) and the slowest median over the fastest."""
    out: dict = {}
    medians = {}
    for offset, code in enumerate(GAMES):
        first, last = _save_hands(code, offset)
        every = summary(first + last)
        out[f"save_{code}"] = {
            **every,
            "first_half_median_ms": summary(first)["median_ms"],
            "last_half_median_ms": summary(last)["median_ms"],
        }
        medians[code] = every["median_ms"]
    out["save_games_ratio"] = {
        "slowest_over_fastest": round(max(medians.values()) / max(min(medians.values()), 1e-9), 2),
        "slowest": max(medians, key=medians.__getitem__),
    }
    return out
