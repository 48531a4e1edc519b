"""Random sequences of record, correct, void, seat, leave and close keep the ledger exact."""

import datetime
import itertools
import random

import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, precondition, rule

from ledger import selectors, services
from ledger.games.danish.engine import rotation
from ledger.games.danish.engine.generate import random_hand, random_rates
from ledger.models import Club, Hand, Table
from ledger.selectors.verify import verify_ledger
from ledger.tests.factories import new_member

NAMES = ["Anna", "Bo", "Carl", "Dorte", "Erik", "Frida", "Gorm"]
_clubs = itertools.count()


class LedgerMachine(RuleBasedStateMachine):
    def __init__(self):
        super().__init__()
        self.rng = random.Random(next(_clubs))
        n = next(_clubs)
        self.club = Club.objects.create(
            name=f"Maskine {n}", slug=f"machine-{n}", rate_card=random_rates(self.rng).as_dict()
        )
        self.members = [new_member(club=self.club, name=name) for name in NAMES]
        self.evening = services.evening_open(club=self.club, date=datetime.date(2026, 12, 1))
        self.rates = services.rate_card(self.evening)
        self._open_table(3)

    def _open_table(self, size):
        chosen = self.rng.sample(self.members, size)
        self.table = services.table_open(evening=self.evening, members=chosen)

    def _seat_names(self):
        return [s.member.name for s in selectors.current_seats(self.table.pk)]

    def _record_for(self, seats, dealer_index):
        dealer = seats[dealer_index % len(seats)]
        out = None
        if len(seats) == 5 and self.rates.five_seat_rotation == "hermansen":
            dealer, out = rotation.hand_schedule(seats, seats[0], dealer_index + 1, "hermansen")
        return random_hand(self.rng, seats, dealer, self.rates, sitting_out=out, with_table=False)

    def _live_hands(self):
        return list(Hand.objects.filter(table=self.table, status="recorded").order_by("number"))

    @rule(dealer=st.integers(0, 4))
    def record(self, dealer):
        services.hand_record(table=self.table, record=self._record_for(self._seat_names(), dealer))

    @precondition(lambda self: Hand.objects.filter(table=self.table, status="recorded").exists())
    @rule(pick=st.integers(0, 50), dealer=st.integers(0, 4))
    def correct(self, pick, dealer):
        hands = self._live_hands()
        hand = hands[pick % len(hands)]
        record = self._record_for(hand.record["seats"], dealer)
        services.hand_correct(hand=hand, record=record, reason="state machine")

    @precondition(lambda self: Hand.objects.filter(table=self.table, status="recorded").exists())
    @rule(pick=st.integers(0, 50))
    def void(self, pick):
        hands = self._live_hands()
        services.hand_void(hand=hands[pick % len(hands)], reason="state machine")

    @rule(position=st.integers(0, 5))
    def seat(self, position):
        seated = {s.member_id for s in self.table.seats.all()}
        free = [m for m in self.members if m.pk not in seated]
        if len(self._seat_names()) < 5 and free:
            services.table_seat(table=self.table, member=free[0], position=position)

    @rule(pick=st.integers(0, 4))
    def leave(self, pick):
        seats = selectors.current_seats(self.table.pk)
        if len(seats) > 3:
            services.table_leave(table=self.table, member=seats[pick % len(seats)].member)

    @rule(size=st.sampled_from([3, 4, 5]))
    def close_and_open(self, size):
        services.table_close(table=self.table)
        assert selectors.pool_balances(self.table.pk) == {"kongekop": 0, "pagatkop": 0}
        self._open_table(size)

    @invariant()
    def ledger_is_exact(self):
        tables = Table.objects.filter(evening__club=self.club)
        report = verify_ledger(tables)
        assert report.ok, report.problems
        for table in tables:
            balances = selectors.table_balances(table.pk)
            assert sum(balances.values()) == 0
            assert balances["kongekop"] >= 0 and balances["pagatkop"] >= 0


@pytest.mark.slow
@pytest.mark.django_db
def test_ledger_state_machine():
    """Every step leaves every table zero-sum, every cup non-negative and verify_ledger green."""
    LedgerMachine.TestCase.settings = settings(
        max_examples=12,
        stateful_step_count=14,
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow],
    )
    LedgerMachine.TestCase().runTest()
