"""The services: the only writers of the ledger, each atomic, each keeping it exact."""

import datetime
import random

import pytest

from ledger import selectors, services
from ledger.games.danish import GAME
from ledger.games.danish.engine import HandError, RateCard, rotation
from ledger.games.danish.engine.generate import random_hand
from ledger.models import EveningResult, Hand, HandRevision, Posting, Transfer
from ledger.selectors.verify import verify_ledger
from ledger.services.errors import (
    EveningClosedError,
    JetonDifferenceError,
    LedgerError,
    SeatingError,
)
from ledger.tests.conftest import load_example
from ledger.tests.factories import evening_e, make_club, new_member
from ledger.tests.helpers import ledger_snapshot

pytestmark = pytest.mark.django_db

E_HANDS = load_example("EVENING_E.evening.json")["hands"]


@pytest.fixture
def club():
    return make_club()


def test_evening_e_through_the_services(club):
    """Evening E recorded hand by hand gives exactly the balances of settle_evening."""
    evening, table, hands = evening_e(club)
    assert selectors.table_balances(table.pk) == {
        "Anna": 20,
        "Bo": -75,
        "Carl": -85,
        "kongekop": 65,
        "pagatkop": 75,
    }
    assert [h.number for h in hands] == [1, 2, 3]
    cups = [p.state_before for p in Posting.objects.filter(kind="hand").order_by("pk")]
    assert cups == [
        {"kongekop": 60, "pagatkop": 60},
        {"kongekop": 65, "pagatkop": 65},
        {"kongekop": 60, "pagatkop": 70},
    ]
    services.evening_close(evening=evening)
    results = {r.member.name: (r.points, str(r.money)) for r in EveningResult.objects.all()}
    assert results == {"Anna": (65, "16.25"), "Bo": (-30, "-7.50"), "Carl": (-35, "-8.75")}
    assert selectors.pool_balances(table.pk) == {"kongekop": 0, "pagatkop": 0}
    assert verify_ledger().ok


def test_sixty_generated_hands_match_settle_evening(club):
    """A whole generated evening of 60 hands at 4 seats equals the pure engine's replay."""
    names = ["Anna", "Bo", "Carl", "Dorte"]
    members = [new_member(club=club, name=n) for n in names]
    evening = services.evening_open(club=club, date=datetime.date(2026, 11, 12))
    table = services.table_open(evening=evening, members=members)
    rng = random.Random(60)
    records = []
    for number in range(1, 61):
        dealer, out = rotation.hand_schedule(names, "Anna", number)
        records.append(random_hand(rng, names, dealer, sitting_out=out, with_table=False))
    for record in records:
        services.hand_record(table=table, record=record)
    expected = GAME.settle_evening({"seats": names, "hands": records})
    balances = selectors.table_balances(table.pk)
    assert {n: balances[n] for n in names} == expected["before_split"]
    assert {c: balances[c] for c in ("kongekop", "pagatkop")} == expected["cups_before_split"]
    services.table_close(table=table)
    assert {n: selectors.table_balances(table.pk)[n] for n in names} == expected["final"]
    assert verify_ledger().ok


def test_refused_hand_leaves_the_database_as_it_was(club):
    """A rejected hand writes nothing: no posting, no hand, no revision, no transfer."""
    evening, table, _ = evening_e(club)
    before = ledger_snapshot()
    bad = dict(E_HANDS[0], count={"Anna": 20})
    with pytest.raises(HandError, match="Carl counts this hand"):
        services.hand_record(table=table, record=bad, token="tok-bad")
    assert ledger_snapshot() == before


def test_token_records_once(club):
    """The same one-time token records the hand once and returns the same hand."""
    evening, table, _ = evening_e(club)
    first = services.hand_record(table=table, record=E_HANDS[0], token="abc")
    again = services.hand_record(table=table, record=E_HANDS[0], token="abc")
    assert first.pk == again.pk
    assert Hand.objects.filter(table=table).count() == 4


def test_seats_in_a_record_must_be_the_tables(club):
    """A record naming other seats than the table's is refused, field seats."""
    _, table, _ = evening_e(club)
    with pytest.raises(LedgerError) as caught:
        services.hand_record(table=table, record=dict(E_HANDS[0], seats=["Anna", "Carl", "Bo"]))
    assert caught.value.field == "seats"


def test_correction_resettles_later_hands(club):
    """Correcting hand 1 reverses hands 1 to 3 and re-settles 2 and 3 from the new cups."""
    evening, table, hands = evening_e(club)
    corrected = dict(E_HANDS[0])
    corrected["fines"] = [{"type": "meld_before_dealer", "player": "Bo", "waived": False}]
    changed = services.hand_correct(hand=hands[0], record=corrected, reason="fine not waived")
    assert [h.number for h, _, _ in changed] == [1, 2, 3]
    # Bo pays 20 into each cup (cups 85/85); hand 2's king ultimo takes a kongekop of 90
    # instead of 70, which is refunded to 60; the pagatkop keeps Bo's 20.
    balances = selectors.table_balances(table.pk)
    assert balances == {
        "Anna": 40,
        "Bo": -115,
        "Carl": -85,
        "kongekop": 65,
        "pagatkop": 95,
    }
    assert Posting.objects.filter(kind="reversal").count() == 3
    assert HandRevision.objects.filter(hand=hands[0]).count() == 2
    assert Hand.objects.get(pk=hands[0].pk).record["fines"][0]["waived"] is False
    assert verify_ledger().ok


def test_void_resettles_later_hands(club):
    """Voiding hand 1 re-settles hands 2 and 3 as if hand 1 had never been played."""
    evening, table, hands = evening_e(club)
    services.hand_void(hand=hands[0], reason="misdeal, replayed")
    expected = GAME.settle_evening({"seats": ["Anna", "Bo", "Carl"], "hands": E_HANDS[1:]})
    balances = selectors.table_balances(table.pk)
    assert {n: balances[n] for n in ("Anna", "Bo", "Carl")} == expected["before_split"]
    assert Hand.objects.get(pk=hands[0].pk).status == "voided"
    with pytest.raises(LedgerError, match="already voided"):
        services.hand_void(hand=hands[0], reason="again")
    assert verify_ledger().ok


def test_correction_needs_a_reason(club):
    """A correction without a reason is refused before anything is written."""
    _, _, hands = evening_e(club)
    with pytest.raises(LedgerError) as caught:
        services.hand_correct(hand=hands[0], record=E_HANDS[0], reason=" ")
    assert caught.value.field == "reason"


def test_late_arrival_pays_funding_and_correction_keeps_his_funding_in_place(club):
    """A late arrival pays 20 into each cup; correcting an earlier hand re-posts his funding."""
    evening, table, hands = evening_e(club)
    dorte = new_member(club=club, name="Dorte")
    services.table_seat(table=table, member=dorte)
    assert [s.member.name for s in selectors.current_seats(table.pk)] == [
        "Anna",
        "Bo",
        "Carl",
        "Dorte",
    ]
    balances = selectors.table_balances(table.pk)
    assert (balances["Dorte"], balances["kongekop"], balances["pagatkop"]) == (-40, 85, 95)
    services.hand_correct(hand=hands[2], record=E_HANDS[2], reason="recheck")
    assert selectors.table_balances(table.pk) == balances
    with pytest.raises(SeatingError, match="already has a seat"):
        services.table_seat(table=table, member=dorte)
    assert verify_ledger().ok


def test_seat_position_and_leaving(club):
    """A late arrival can sit between two members; one who leaves keeps his split share."""
    evening, table, _ = evening_e(club)
    dorte = new_member(club=club, name="Dorte")
    services.table_seat(table=table, member=dorte, position=1)
    assert [s.member.name for s in selectors.current_seats(table.pk)] == [
        "Anna",
        "Dorte",
        "Bo",
        "Carl",
    ]
    services.table_leave(table=table, member=dorte)
    assert [s.member.name for s in selectors.current_seats(table.pk)] == ["Anna", "Bo", "Carl"]
    services.table_close(table=table)
    # Cups 65+20 / 75+20 = 180 = 36 units over four funders: 9 units (45) each.
    balances = selectors.table_balances(table.pk)
    assert balances["Dorte"] == -40 + 45
    assert verify_ledger().ok


def test_table_sizes(club):
    """A table seats 3 to 5 members, each once, all of the evening's club."""
    members = [new_member(club=club, name=n) for n in "ABCDEF"]
    evening = services.evening_open(club=club, date=datetime.date(2026, 11, 19))
    with pytest.raises(SeatingError, match="3 to 5"):
        services.table_open(evening=evening, members=members[:2])
    with pytest.raises(SeatingError, match="3 to 5"):
        services.table_open(evening=evening, members=members)
    with pytest.raises(SeatingError, match="only one seat"):
        services.table_open(evening=evening, members=[members[0], members[0], members[1]])
    other = make_club(slug="other")
    stranger = new_member(club=other, name="Zoe")
    with pytest.raises(SeatingError, match="club"):
        services.table_open(evening=evening, members=[*members[:2], stranger])


def test_closed_evening_refuses_every_write(club):
    """A closed evening is locked: hands, corrections, seats and adjustments are refused."""
    evening, table, hands = evening_e(club)
    services.evening_close(evening=evening)
    before = ledger_snapshot()
    with pytest.raises(EveningClosedError):
        services.hand_record(table=table, record=E_HANDS[0])
    with pytest.raises(EveningClosedError):
        services.hand_correct(hand=hands[0], record=E_HANDS[0], reason="late")
    with pytest.raises(EveningClosedError):
        services.adjustment_post(table=table, source="Anna", target="Bo", points=5, reason="x")
    with pytest.raises(EveningClosedError):
        services.evening_close(evening=evening)
    assert ledger_snapshot() == before


def test_reopen_reverses_the_split_and_close_again(club):
    """Reopening reverses the split (logged with reason); closing again splits again."""
    evening, table, hands = evening_e(club)
    services.evening_close(evening=evening)
    services.evening_reopen(evening=evening, reason="forgot a fine")
    assert selectors.pool_balances(table.pk) == {"kongekop": 65, "pagatkop": 75}
    services.hand_correct(
        hand=hands[2],
        record=dict(E_HANDS[2], fines=[{"type": "misdeal", "player": "Carl"}]),
        reason="misdeal",
    )
    services.evening_close(evening=evening)
    results = {r.member.name: r.points for r in EveningResult.objects.filter(closing=2)}
    # Carl paid 5 into each cup: cups 150 = 30 units, 10 each; balances 20 / -75 / -95.
    assert results == {"Anna": 70, "Bo": -25, "Carl": -45}
    assert list(evening.log.values_list("action", flat=True)) == [
        "open",
        "close",
        "reopen",
        "close",
    ]
    assert verify_ledger().ok


def test_jeton_count_and_adjustment(club):
    """A count 5 short is a difference; closing needs confirmation; an adjustment keeps zero-sum."""
    evening, table, _ = evening_e(club)
    expected = services.jeton_expected(table)
    assert expected == {
        "Anna": 520,
        "Bo": 425,
        "Carl": 415,
        "kongekop": 65,
        "pagatkop": 75,
    }
    services.jetons_count(table=table, counts={**expected, "Bo": 420})
    assert services.jeton_differences(table) == {"Bo": -5}
    with pytest.raises(JetonDifferenceError):
        services.evening_close(evening=evening)
    services.adjustment_post(
        table=table, source="Bo", target="kongekop", points=5, reason="Bo paid a fee in chips"
    )
    services.jetons_count(table=table, counts={"kongekop": 70})
    assert services.jeton_differences(table) == {}
    services.evening_close(evening=evening)
    assert verify_ledger().ok


def test_adjustment_refuses_bad_input(club):
    """Adjustments need a reason, positive points and two accounts of the table."""
    _, table, _ = evening_e(club)
    with pytest.raises(LedgerError) as caught:
        services.adjustment_post(table=table, source="Anna", target="Bo", points=0, reason="x")
    assert caught.value.field == "points"
    with pytest.raises(LedgerError) as caught:
        services.adjustment_post(table=table, source="Anna", target="Zoe", points=5, reason="x")
    assert caught.value.field == "target"
    with pytest.raises(LedgerError):
        services.adjustment_post(
            table=table, source="kongekop", target="Anna", points=1000, reason="too much"
        )
    assert verify_ledger().ok


def test_rate_card_is_copied_when_the_evening_opens(club):
    """Changing the club's house rules later never alters an open or past evening."""
    club.rate_card = {"last_trick_each": 30}
    club.save()
    evening, table, _ = evening_e(club)
    club.rate_card = {"last_trick_each": 50}
    club.save()
    assert RateCard.from_dict(evening.rate_card).last_trick_each == 30
    # Hand 1 of Evening E with a last trick of 30: Carl +90 instead of +70.
    first = Posting.objects.filter(kind="hand").order_by("pk").first()
    got = sum(t.points for t in Transfer.objects.filter(posting=first, reason="last_trick"))
    assert got == 60
