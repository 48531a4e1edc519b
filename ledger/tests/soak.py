"""A bounded soak: several threads record, correct and void hands at the same tables.

Used by the test suite (small bound) and by ``make bench`` (full bound). Every thread uses
its own database connection; each operation is one service call. It stops by itself.
"""

from __future__ import annotations

import random
import threading
import time
from typing import Any

from django.db import OperationalError, connections

from ledger import services
from ledger.games.danish.engine import rotation
from ledger.games.danish.engine.generate import random_hand
from ledger.models import Hand
from ledger.selectors import current_seats
from ledger.services.errors import LedgerError


def run_soak(tables, *, threads: int = 4, operations: int = 40, seed: int = 1) -> dict:
    """Run ``operations`` service calls per thread against ``tables``; return counts and times."""
    stats: dict[str, Any] = {
        "record": 0,
        "correct": 0,
        "void": 0,
        "refused": 0,
        "retried": 0,
        "errors": [],
    }
    lock = threading.Lock()
    barrier = threading.Barrier(threads)
    table_ids = [t.pk for t in tables]

    def worker(index: int):
        rng = random.Random(seed * 1000 + index)
        try:
            barrier.wait()
            for _ in range(operations):
                table = tables[rng.randrange(len(table_ids))]
                action = rng.choices(("record", "correct", "void"), weights=(7, 2, 1))[0]
                for attempt in range(5):
                    try:
                        done = _operate(table, action, rng)
                        break
                    except OperationalError:
                        # SQLite's busy timeout; PostgreSQL waits on the row lock instead.
                        with lock:
                            stats["retried"] += 1
                        time.sleep(0.05 * (attempt + 1))
                else:
                    done = None
                with lock:
                    stats[done or "refused"] += 1
        except Exception as error:
            with lock:
                stats["errors"].append(repr(error))
        finally:
            connections.close_all()

    started = time.perf_counter()
    workers = [threading.Thread(target=worker, args=(i,)) for i in range(threads)]
    for w in workers:
        w.start()
    for w in workers:
        w.join(timeout=600)
    stats["seconds"] = time.perf_counter() - started
    return stats


def _record(table, rng):
    seats = [s.member.name for s in current_seats(table.pk)]
    dealer, out = rotation.hand_schedule(seats, seats[0], rng.randint(1, 10))
    return random_hand(rng, seats, dealer, sitting_out=out, with_table=False)


def _operate(table, action, rng) -> str | None:
    if action == "record":
        services.hand_record(table=table, record=_record(table, rng), token=f"soak-{rng.random()}")
        return "record"
    hands = list(Hand.objects.filter(table=table, status="recorded").order_by("number"))
    if not hands:
        return None
    hand = rng.choice(hands)
    try:
        if action == "correct":
            services.hand_correct(hand=hand, record=_record(table, rng), reason="soak")
        else:
            services.hand_void(hand=hand, reason="soak")
    except LedgerError:
        # Another thread voided this hand first: refused cleanly, nothing written.
        return None
    return action
