"""What happened in a hand, as the hand list and the evening sheet say it (``hand_words``):
the worked examples in the game's own words, and every payment of every worked example named."""

from __future__ import annotations

import pytest

from ledger.games.registry import get_game, get_web
from ledger.tests.conftest import EXAMPLES, load_example

DANISH, SLOVENIAN, HUNGARIAN = "danish_tarok", "slovenian_tarok", "hungarian_tarokk"
HANDS = sorted(p.name.removesuffix(".hand.json") for p in EXAMPLES.glob("*.hand.json"))


def settled(name: str):
    """Return the game, the outcome and the transfers of the worked example ``name``."""
    data = load_example(f"{name}.hand.json")
    game = get_game(data.get("game", DANISH))
    rates = game.rate_card({})
    state = data.get(game.features.state_in) if game.features.state_in else None
    settlement = game.settle(game.parse_hand(data, rates), rates, state)
    moves = [
        (m["from"], m["to"], m["points"], m["reason"])
        for m in (t if isinstance(t, dict) else t.as_dict() for t in settlement.transfers)
    ]
    return game, settlement.outcome_data, moves


def words(name: str, *, brief: bool) -> list[str]:
    game, outcome, moves = settled(name)
    return get_web(game.code).hand_words(outcome, moves, brief=brief)


@pytest.mark.parametrize("brief", [True, False])
def test_x1_names_the_fee_the_melds_the_last_trick_and_the_count(brief):
    """X1 (no tout, nolo, ultimo or bagud) showed nothing; it names every payment now."""
    assert words("X1", brief=brief) == [
        "dealer's fee (Anna −10)",
        "tarok meld (Bo +20)",
        "matador meld (Carl +30)",
        "last trick (Carl +40)",
        "count (Carl +10)",
    ]


def test_x5_names_the_fines():
    """X5: the half meld, both fines into the cups and the count (the barred king: no money)."""
    assert words("X5", brief=True) == [
        "dealer's fee (Bo −10)",
        "half meld (Carl +10)",
        "fine: Lead out of turn (Anna −40)",
        "fine: Revoke (Carl −80)",
        "count (Carl +5)",
    ]


def test_x7_names_the_ultimo_once_and_the_rest_with_amounts():
    """X7: the ultimo by its event (the cup and each player's payment are the ultimo), then
    the king lost (by who paid: the side of fewer members), the count and the refunding with
    their amounts."""
    assert words("X7", brief=False) == [
        "ultimo: Bo (pagat)",
        "dealer's fee (Carl −10)",
        "king lost (Bo −15)",  # Bo paid Carl, Dorte and the kongekop 5 each
        "count (Bo +5)",
        "refund (Anna −20, Bo −20, Carl −20, Dorte −20)",
    ]


def test_sl5_names_its_valat():
    """SL5: the silent valat (+500) that replaced the game and the trula."""
    assert words("SL5", brief=True) == [
        "Tri: Anna + Carl (won)",
        "Valat +500",
        "radelc to every player",
    ]


def test_hu3_names_the_failed_dupla():
    """HU3: the failed dupla cost the declarers 24 and the silent trull brought 1 (T −23)."""
    assert words("HU3", brief=True) == [
        "Egy: Carl with Dorte",
        "won (64)",
        "Dupla játék failed −24",
        "Tulétroá +1",
    ]


def named(game_code: str, outcome: dict, reason: str) -> list[str]:
    """Return the words, any one of which names a payment of ``reason`` in the game's words."""
    web = get_web(game_code)
    if game_code == DANISH:
        return [web.reason_label(reason), web.reason_label(reason.removesuffix("_cup"))]
    if game_code == SLOVENIAN:
        # The hand's payment is its contract's (the bonuses are checked as items below).
        hand = web.outcome_words(outcome, brief=True)[0]
        return {"hand": [hand], "mond": ["Mond"]}.get(reason, [web.reason_label(reason)])
    if reason == "game":
        return [web.outcome_words(outcome, brief=True)[0]]
    if reason == "tarokk_claim":
        return ["tarokks"]
    return [web.reason_label(reason)]


@pytest.mark.parametrize("brief", [True, False])
@pytest.mark.parametrize("name", HANDS)
def test_every_payment_of_every_worked_example_is_named(name, brief):
    """Every reason that moved points in a worked example is named in its words, and so is
    every non-zero item of the score (the Slovenian bonuses, the Hungarian figures)."""
    game, outcome, moves = settled(name)
    web = get_web(game.code)
    text = " · ".join(web.hand_words(outcome, moves, brief=brief))
    for reason in {reason for _s, _t, points, reason in moves if points}:
        words_ = named(game.code, outcome, reason)
        # A contract is a game word, capitalised as the game writes it ("Klop", "Tri").
        assert any(w.casefold() in text.casefold() for w in words_), (reason, text)
    labels = {SLOVENIAN: "BONUS_LABELS", HUNGARIAN: "FIGURE_LABELS"}
    if game.code in labels:
        module = __import__(type(web).__module__, fromlist=["_"])
        for item in outcome.get("items") or ():
            if item["item"] != "game" and item.get("value") and item.get("paid", True):
                label = getattr(module, labels[game.code])[item["item"]]
                assert f"{label}" in text and f"{item['value']:+d}".replace("-", "−") in text, (
                    item,
                    text,
                )
