"""Dealer, sitting-out and counting rotation for 3, 4 and 5 seats."""

from ledger.games.base import Dealt
from ledger.games.danish.engine import rotation

FIVE = ("A", "B", "C", "D", "E")


def test_three_seats():
    """Three seats: all play, the deal moves one seat, the next dealer does not count."""
    seats = ("A", "B", "C")
    assert rotation.default_sitting_out(seats, "A") == ()
    assert rotation.next_dealer(seats, "C", ()) == "A"
    assert rotation.non_counter(seats, "A", ()) == "B"
    assert [rotation.hand_schedule(seats, "B", n)[0] for n in range(1, 5)] == ["B", "C", "A", "B"]


def test_four_seats():
    """Four seats: the member opposite the dealer sits out."""
    seats = ("A", "B", "C", "D")
    assert rotation.default_sitting_out(seats, "D") == ("B",)
    assert rotation.forehand(seats, "D", ("B",)) == "A"
    assert rotation.non_counter(seats, "D", ("B",)) == "A"
    assert rotation.hand_schedule(seats, "A", 3) == ("C", ("A",))


def test_five_seats_two_sitters():
    """Five seats: dealers run A, C, E, B, D; the previous and next dealers sit out."""
    assert [rotation.hand_schedule(FIVE, "A", n)[0] for n in range(1, 7)] == [
        "A",
        "C",
        "E",
        "B",
        "D",
        "A",
    ]
    dealer, out = rotation.hand_schedule(FIVE, "A", 2)
    assert (dealer, out) == ("C", ("A", "E"))
    assert rotation.next_dealer(FIVE, "C", out) == "E"
    assert rotation.forehand(FIVE, "C", out) == "D"
    assert rotation.non_counter(FIVE, "C", out) == "D"


def test_five_seats_hermansen():
    """Hermansen: each member sits out a block of 5 hands; the four play as a 4-seat table."""
    schedule = [rotation.hand_schedule(FIVE, "A", n, "hermansen") for n in range(1, 11)]
    block_sitters = [
        set.intersection(*(set(out) for _, out in schedule[i : i + 5])) for i in (0, 5)
    ]
    assert block_sitters == [{"E"}, {"A"}]
    for dealer, out in schedule:
        assert len(out) == 2 and dealer not in out
    assert [d for d, _ in schedule[:5]] == ["A", "B", "C", "D", "A"]
    assert schedule[0] == ("A", ("C", "E"))
    dealer, out = schedule[1]
    assert rotation.non_counter(FIVE, dealer, out, "hermansen") == rotation.forehand(
        FIVE, dealer, out
    )


def follow(seats, hands: int, first: str, rotation_name: str) -> list[tuple[str, tuple]]:
    """Deal ``hands`` hands, each as ``next_deal`` suggests after the ones before."""
    dealt: list[Dealt] = []
    for _ in range(hands):
        dealer, out = rotation.next_deal(seats, dealt, first, rotation_name)
        dealt.append(Dealt(tuple(seats), dealer, tuple(out or ())))
    return [(d.dealer, d.sitting_out) for d in dealt]


def test_hermansen_followed_hand_by_hand_is_the_evenings_schedule():
    """Following the suggestion from the hands dealt gives the evening's Hermansen schedule,
    also where the two sitters sit just opposite the dealer (either could be the block's
    sitter): the block's sitter keeps sitting out for all of his 5 hands."""
    expected = [rotation.hand_schedule(FIVE, "A", n, "hermansen") for n in range(1, 21)]
    assert follow(FIVE, 20, "A", "hermansen") == expected
    assert expected[1] == ("B", ("D", "E"))  # D and E sit opposite B; E is the block's sitter


def test_hermansen_out_of_turn_keeps_the_block():
    """A Hermansen hand dealt out of turn in a block: the deal goes on from its dealer among
    the four, the block's sitter sitting out on."""
    dealt = [Dealt(FIVE, "A", ("C", "E")), Dealt(FIVE, "D", ("B", "E"))]
    assert rotation.next_deal(FIVE, dealt, "A", "hermansen") == ("A", ("C", "E"))
    dealt = [Dealt(FIVE, "A", ("C", "E")), Dealt(FIVE, "B", ("D", "E"))]
    assert rotation.next_deal(FIVE, dealt, "A", "hermansen") == ("C", ("A", "E"))
