"""Amounts that overflow: every computed amount is bounded, not only the inputs.

The probe: a Hungarian solo with mordkontra, dupla and volát at the cap previewed
+1,600,000,000,000,000 and saved with a 500; a Slovenian evening at the cap could not be
closed (a 32-bit column). Now a rate card whose largest possible hand would pass the bound is
refused naming the key to lower; the ledger refuses a computed move or balance above its bound;
and the columns hold what the bounds allow on both databases.
"""

from __future__ import annotations

import datetime

import pytest
from django.db import transaction

from ledger import selectors, services
from ledger.games.errors import RateCardError
from ledger.games.money import MAX_BALANCE, MAX_MOVE, MAX_POINTS
from ledger.games.registry import get_game
from ledger.models import Account, EveningResult, Posting
from ledger.services.errors import LedgerError
from ledger.services.ledger import TableLedger, lock_table
from ledger.tests.factories import make_club, make_member, make_season

pytestmark = pytest.mark.django_db
CAP = MAX_POINTS


def test_a_hungarian_card_at_the_cap_is_refused_naming_the_key():
    """A solo at the cap with the dupla and volát at the cap: refused, naming the figure."""
    game = get_game("hungarian_tarokk")
    card = {
        "bid_values": {"solo": CAP},
        "figure_announced": {"dupla": CAP, "volat": CAP},
        "dupla_volat_times_bid": True,
    }
    with pytest.raises(RateCardError) as refused:
        game.rate_card(card)
    (problem,) = refused.value.problems
    assert problem.field in ("figure_announced.dupla", "figure_announced.volat")
    assert "could move" in problem.message and f"{MAX_MOVE}" in problem.message


def test_a_slovenian_card_at_the_cap_is_refused_and_the_defaults_pass():
    """Every amount of a Slovenian card at the cap passes the bound: refused by key."""
    game = get_game("slovenian_tarok")
    with pytest.raises(RateCardError) as refused:
        game.rate_card(
            {
                "bonus_announced": dict.fromkeys(
                    ("trula", "kings", "pagat_ultimo", "king_ultimo"), CAP
                )
            }
        )
    assert refused.value.problems[0].field.startswith("bonus_announced.")
    for code in ("danish_tarok", "slovenian_tarok", "hungarian_tarokk"):
        get_game(code).rate_card({})  # the defaults are far below the bound


def test_the_house_rules_screen_refuses_it_beside_the_field(client):
    """The club admin's form shows the refusal at the key to lower; nothing is stored."""
    from ledger.models import Member

    club = make_club(slug="hu", game="hungarian_tarokk")
    make_season(club)
    admin = make_member(club, "Anna", Member.Role.ADMIN, login=True)
    client.force_login(admin.user)
    from ledger.games.registry import get_web

    web = get_web("hungarian_tarokk")
    data = {k: str(v) for k, v in web.rate_card_initial({}).items()}
    data |= {"bid_values__solo": str(CAP), "figure_announced__dupla": str(CAP)}
    response = client.post(f"/c/{club.slug}/setup/rates/", data)
    assert response.status_code == 422
    assert "figure_announced__dupla" in response.context["form"].errors
    club.refresh_from_db()
    assert club.rate_card == {}


@pytest.fixture
def table():
    club = make_club()
    members = [make_member(club, n) for n in ("Anna", "Bo", "Carl")]
    evening = services.evening_open(club=club, date=datetime.date(2026, 11, 5))
    return services.table_open(evening=evening, members=members)


def _post(table, moves):
    with transaction.atomic():
        locked = lock_table(table.pk)
        TableLedger(locked).post(Posting.Kind.ADJUSTMENT, moves)


def test_a_computed_move_above_the_bound_is_refused_and_writes_nothing(table):
    """A move of more than MAX_MOVE points is refused by the ledger itself."""
    before = Posting.objects.count()
    with pytest.raises(LedgerError, match="more than the bound"):
        _post(table, [("Anna", "Bo", MAX_MOVE + 1, "adjustment")])
    assert Posting.objects.count() == before


def test_balances_past_32_bits_are_stored_read_and_closed(table):
    """Balances of three billion points are kept exactly (64-bit columns on both databases)
    and the evening closes with results past 32 bits."""
    start = selectors.table_balances(table.pk)["Anna"]
    for _ in range(3):
        _post(table, [("Bo", "Anna", MAX_MOVE, "adjustment")])
    assert selectors.table_balances(table.pk)["Anna"] == start + 3 * MAX_MOVE
    account = Account.objects.get(table=table, code="Anna")
    assert (
        account.summary.balance == selectors.account_balances_from_transfers(table.pk)[account.pk]
    )
    services.evening_close(evening=table.evening)
    anna = EveningResult.objects.get(member__name="Anna")
    assert anna.points > 2**31 and anna.money > 2**31 * 0.25


def test_a_balance_past_its_bound_is_refused(table):
    """No account's balance passes MAX_BALANCE: the move that would is refused."""
    with pytest.raises(LedgerError, match="bound of"):
        for _ in range(MAX_BALANCE // MAX_MOVE + 1):
            _post(table, [("Bo", "Anna", MAX_MOVE, "adjustment")])
    assert all(abs(b) <= MAX_BALANCE for b in selectors.table_balances(table.pk).values())
