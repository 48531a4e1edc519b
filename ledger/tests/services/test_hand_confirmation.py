"""Opponent confirmation (issue 27, the tournament's ``confirm_hands``): a hand saved on a
round table's own link counts for the table's target once a second player of the hand
confirms it; every refusal writes nothing."""

import random

import pytest

from ledger import services
from ledger.models import HandConfirmation, Posting, Round, Seat
from ledger.selectors import round_tables
from ledger.selectors import tournaments as reads
from ledger.selectors.verify import verify_ledger
from ledger.services import tournaments as tour
from ledger.services.errors import LedgerError, StaleFormError
from ledger.tests.factories import make_club, make_tournament
from ledger.tests.helpers import next_random_record
from ledger.tournaments import engine
from ledger.tournaments.engine.errors import TournamentError

pytestmark = pytest.mark.django_db


def playing_round(slug="kranj", **params):
    """Return round 1 of a Slovenian DP of six (two tables of three) being played."""
    club = make_club(slug=slug, game="slovenian_tarok", language="en")
    t = make_tournament(
        club, "ABCDEF", params={"rounds": 2, **params}, seed="confirm", players_club="Bled"
    )
    round_ = tour.round_start(round_=tour.round_publish(round_=tour.round_draw(tournament=t)))
    return round_, round_.round_tables.select_related("table").get(number=1).table


def save(table, rng, **extra):
    return services.hand_record(table=table, record=next_random_record(table, rng), **extra)


def players(table) -> list[str]:
    return [s.name for s in Seat.objects.of_table(table.pk)]


def latest(hand) -> int:
    return hand.revisions.order_by("-number").first().number


def test_the_parameter_is_a_boolean_off_by_default():
    assert engine.params_for("sl_dp", None).confirm_hands is False
    assert engine.params_for("sl_dp", {"confirm_hands": True}).confirm_hands is True
    with pytest.raises(TournamentError) as caught:
        engine.params_for("sl_dp", {"confirm_hands": "yes"})
    assert "confirm_hands must be true or false" in str(caught.value.problems[0].template)


def test_a_hand_saved_on_the_link_counts_once_a_second_player_confirms_it():
    """The saver is noted, the hand is posted at once (the table settles from it) but counts
    for neither the target nor the director's progress until another player confirms it;
    the confirmation is logged on the round and the ledger verifies."""
    round_, table = playing_round(confirm_hands=True)
    rng = random.Random(1)
    names = players(table)
    hand = save(table, rng, saved_by=names[0])
    assert HandConfirmation.objects.get(hand=hand).saved_by == names[0]
    assert Posting.objects.filter(hand=hand).exists()  # posted at the save
    assert tour.hands_played(table.pk) == 0
    assert tour.unconfirmed_hand(table.pk) == hand
    view = reads.round_view(round_)
    assert view.tables[0].hands == 0 and view.tables[0].unconfirmed == [(1, names[0])]
    assert view.unconfirmed == 1 and view.started == 1
    confirmation = tour.tournament_hand_confirm(
        hand=hand, revision=latest(hand), confirmed_by=names[1]
    )
    assert confirmation.confirmed_by == names[1] and confirmation.revision == 1
    assert tour.hands_played(table.pk) == 1 and tour.unconfirmed_hand(table.pk) is None
    assert reads.round_view(round_).tables[0].hands == 1
    entry = Round.objects.get(pk=round_.pk).log[-1]
    assert entry["action"] == "confirm" and entry["confirmed_by"] == names[1]
    assert entry["saved_by"] == names[0] and entry["hand"] == 1 and entry["table"] == 1
    assert verify_ledger().ok


def test_the_link_saves_no_other_hand_before_the_last_is_confirmed():
    round_, table = playing_round(confirm_hands=True)
    rng = random.Random(2)
    names = players(table)
    hand = save(table, rng, saved_by=names[0])
    with pytest.raises(LedgerError) as caught:
        save(table, rng, saved_by=names[1])
    assert "hand 1 is to confirm" in str(caught.value.message)
    assert table.hands.count() == 1
    tour.tournament_hand_confirm(hand=hand, revision=1, confirmed_by=names[2])
    save(table, rng, saved_by=names[1])
    assert table.hands.count() == 2 and tour.hands_played(table.pk) == 1


def test_a_link_save_names_a_player_of_the_table():
    _round, table = playing_round(confirm_hands=True)
    for saver in ("", "Nobody"):
        with pytest.raises(LedgerError) as caught:
            save(table, random.Random(3), saved_by=saver)
        assert caught.value.field == "saved_by"
    assert not table.hands.exists()


def test_without_the_parameter_or_the_link_nothing_waits():
    """Without ``confirm_hands`` a link's hand counts at once; with it, a hand saved by the
    director (not on the link: no ``saved_by``) counts at once too."""
    _round, table = playing_round()
    save(table, random.Random(4), saved_by="")
    assert tour.hands_played(table.pk) == 1 and not HandConfirmation.objects.exists()
    _round, table = playing_round(slug="bled", confirm_hands=True)
    save(table, random.Random(4))
    assert tour.hands_played(table.pk) == 1 and not HandConfirmation.objects.exists()


def test_the_saver_cannot_confirm_his_own_hand():
    _round, table = playing_round(confirm_hands=True)
    names = players(table)
    hand = save(table, random.Random(5), saved_by=names[0])
    with pytest.raises(LedgerError) as caught:
        tour.tournament_hand_confirm(hand=hand, revision=1, confirmed_by=names[0])
    assert caught.value.field == "confirmed_by"
    assert f"{names[0]} saved this hand" in str(caught.value.message)
    assert HandConfirmation.objects.get(hand=hand).confirmed_at is None
    assert tour.hands_played(table.pk) == 0


def test_a_confirmer_must_be_a_player_of_the_hand():
    _round, table = playing_round(confirm_hands=True)
    names = players(table)
    hand = save(table, random.Random(6), saved_by=names[0])
    for who in ("", "Stranger"):
        with pytest.raises(LedgerError) as caught:
            tour.tournament_hand_confirm(hand=hand, revision=1, confirmed_by=who)
        assert caught.value.field == "confirmed_by"
    assert HandConfirmation.objects.get(hand=hand).confirmed_at is None


def test_a_hand_is_confirmed_once():
    round_, table = playing_round(confirm_hands=True)
    names = players(table)
    hand = save(table, random.Random(7), saved_by=names[0])
    tour.tournament_hand_confirm(hand=hand, revision=1, confirmed_by=names[1])
    log = Round.objects.get(pk=round_.pk).log
    with pytest.raises(LedgerError) as caught:
        tour.tournament_hand_confirm(hand=hand, revision=1, confirmed_by=names[2])
    assert f"already confirmed by {names[1]}" in str(caught.value.message)
    assert HandConfirmation.objects.get(hand=hand).confirmed_by == names[1]
    assert Round.objects.get(pk=round_.pk).log == log


def test_a_corrected_hand_is_confirmed_as_corrected():
    """A confirmation names the revision its screen showed: once the hand was corrected
    meanwhile it is refused as stale; the corrected revision is then confirmed."""
    _round, table = playing_round(confirm_hands=True)
    names = players(table)
    rng = random.Random(8)
    hand = save(table, rng, saved_by=names[0])
    other = next_random_record(table, random.Random(80))
    other["seats"] = hand.record["seats"]
    other["dealer"] = hand.record["dealer"]
    services.hand_correct(hand=hand, record=other, reason="wrong declarer")
    with pytest.raises(StaleFormError) as caught:
        tour.tournament_hand_confirm(hand=hand, revision=1, confirmed_by=names[1])
    assert caught.value.field == "revision"
    assert HandConfirmation.objects.get(hand=hand).confirmed_at is None
    done = tour.tournament_hand_confirm(hand=hand, revision=2, confirmed_by=names[1])
    assert done.revision == 2 and verify_ledger().ok


def test_a_voided_hand_is_not_confirmed_and_does_not_hold_the_table():
    _round, table = playing_round(confirm_hands=True)
    names = players(table)
    rng = random.Random(9)
    hand = save(table, rng, saved_by=names[0])
    services.hand_void(hand=hand, reason="dealt twice")
    with pytest.raises(LedgerError) as caught:
        tour.tournament_hand_confirm(hand=hand, revision=2, confirmed_by=names[1])
    assert "voided" in str(caught.value.message)
    assert tour.unconfirmed_hand(table.pk) is None
    save(table, rng, saved_by=names[1])  # the table goes on
    assert table.hands.count() == 2


def test_no_confirmation_after_the_round_closed():
    round_, table = playing_round(confirm_hands=True)
    names = players(table)
    hand = save(table, random.Random(10), saved_by=names[0])
    tour.round_close(round_=round_)
    log = Round.objects.get(pk=round_.pk).log
    with pytest.raises(LedgerError) as caught:
        tour.tournament_hand_confirm(hand=hand, revision=1, confirmed_by=names[1])
    assert "round is closed" in str(caught.value.message)
    assert HandConfirmation.objects.get(hand=hand).confirmed_at is None
    assert Round.objects.get(pk=round_.pk).log == log
    assert verify_ledger().ok


def test_a_hand_without_a_confirmation_is_refused():
    _round, table = playing_round(confirm_hands=True)
    hand = save(table, random.Random(11))  # the director's: nothing to confirm
    with pytest.raises(LedgerError) as caught:
        tour.tournament_hand_confirm(hand=hand, revision=1, confirmed_by="A")
    assert "needs no confirmation" in str(caught.value.message)


def test_the_target_counts_confirmed_hands_only():
    """A table with a hands target of 2: two hands saved, the second to confirm, has not
    played its target (the round strip goes on), and takes no third hand; confirmed, it has."""
    _round, table = playing_round(confirm_hands=True, hands_target=2)
    names = players(table)
    rng = random.Random(12)
    first = save(table, rng, saved_by=names[0])
    tour.tournament_hand_confirm(hand=first, revision=1, confirmed_by=names[1])
    second = save(table, rng, saved_by=names[1])
    strip = round_tables.round_strip(table)
    assert strip is not None and not strip.finished
    with pytest.raises(LedgerError):
        save(table, rng)  # the director's third hand: the target is entered already
    tour.tournament_hand_confirm(hand=second, revision=1, confirmed_by=names[2])
    strip = round_tables.round_strip(table)
    assert strip is not None and strip.finished and tour.hands_played(table.pk) == 2


def test_verify_sees_a_confirmation_made_outside_the_ledger():
    """A hand marked confirmed behind the services (it would count for the target) differs
    from its round's sealed log: ``verify_ledger`` names it."""
    from django.utils import timezone

    _round, table = playing_round(confirm_hands=True)
    names = players(table)
    first = save(table, random.Random(13), saved_by=names[0])
    tour.tournament_hand_confirm(hand=first, revision=1, confirmed_by=names[1])
    second = save(table, random.Random(14), saved_by=names[1])
    assert verify_ledger().ok
    HandConfirmation.objects.filter(hand=second).update(
        confirmed_by=names[2], revision=1, confirmed_at=timezone.now()
    )
    report = verify_ledger()
    assert not report.ok
    assert any("table 1 hand 2: its confirmation" in p for p in report.problems)
    HandConfirmation.objects.filter(hand=first).update(confirmed_by=names[2])
    assert any("table 1 hand 1: its confirmation" in p for p in verify_ledger().problems)
