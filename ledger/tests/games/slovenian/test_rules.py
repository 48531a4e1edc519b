"""Single rules of slovenian-tarok.md beyond the worked examples."""

import copy

from ledger.games.slovenian.engine import RateCard, parse_hand, settle

from .helpers import load_sl

RATES = RateCard()


def run(name, radli=None, **changes):
    data = copy.deepcopy(load_sl(f"{name}.hand.json"))
    for key, value in changes.items():
        if value is None:
            data.pop(key, None)
        else:
            data[key] = value
    return settle(parse_hand(data, RATES, state=radli), RATES)


def test_only_the_declarers_radli_double():
    """The partner's open radelc neither doubles H nor is crossed off (section 9)."""
    s = run("SL3", radli={"Anna": 2})
    assert s.net["Carl"] == 140 and s.radli_after["Anna"] == 2


def test_a_lost_hand_keeps_the_radelc():
    """A declarer with a radelc who loses pays double and keeps it."""
    s = run("SL3", card_points=30)  # lost: −(30 + 5) × 4 − 20 = −160; doubled −320
    assert s.net["Carl"] == -320 and s.radli_after["Carl"] == 1


def test_many_radli_double_once_and_one_is_crossed():
    """Three open radli double H once; a won hand crosses off one."""
    s = run("SL3", radli={"Carl": 3})
    assert s.net["Carl"] == 280 and s.radli_after["Carl"] == 2


def test_a_valat_made_by_the_opponents_gives_radli():
    """A valat made by either side gives every active player a radelc; H is −250 × kontra."""
    s = run("SL3", radli={}, valat={"side": "opponents", "result": "made"}, kontra=0)
    assert s.net["Carl"] == -250 and set(s.radli_after.values()) == {1}


def test_opponents_failed_announced_valat_scores_for_the_declarer():
    """An announced valat of the opponents that fails: +500 × 2^kontra for the declarer."""
    valat = {"side": "opponents", "announced": True, "result": "failed", "kontra": 1}
    s = run("SL3", radli={}, valat=valat)
    assert s.net["Carl"] == 1000 and s.outcome_data["won"] is True
    assert set(s.radli_after.values()) == {0}


def test_mond_counts_in_solo_without_and_is_never_doubled():
    """A Mond capture in solo_without costs 20, not doubled by kontra or a radelc."""
    s = run(
        "SL3",
        contract="solo_without",
        partner=None,
        bonuses=None,
        kontra=1,
        mond_captured="Bo",
    )
    assert s.net["Carl"] == 80 * 2 * 2 and s.net["Bo"] == -20


def test_king_ultimo_without_partner():
    """King ultimo stands in a called contract whose declarer plays alone."""
    line = {"type": "king_ultimo", "side": "declarer", "announced": False, "result": "failed"}
    s = run("SL1", partner=None, bonuses=[line], mond_captured=None)
    assert s.net == {"Anna": 30 - 10, "Bo": 0, "Carl": 0, "Dorte": 0}


def test_klop_no_trick_and_over_the_limit_both_happen():
    """Both a player without a trick and one with 36 or more: the others score 0 (SL4)."""
    assert dict(run("SL4", radli={}).net) == {"Anna": 70, "Bo": -70, "Carl": 0, "Dorte": 0}


def test_klop_two_players_without_a_trick():
    """Two players who took no trick each receive 70 from the pool."""
    klop = {
        "Anna": {"card_points": 0, "took_trick": False},
        "Bo": {"card_points": 0, "took_trick": False},
        "Carl": {"card_points": 35, "took_trick": True},
        "Dorte": {"card_points": 35, "took_trick": True},
    }
    assert dict(run("SL4", klop=klop).net) == {"Anna": 70, "Bo": 70, "Carl": 0, "Dorte": 0}


def test_zero_score_makes_no_transfer():
    """H of 0 moves nothing and the nets stay 0 (game +30, opponents' kings −20, trula −10)."""
    lines = [
        {"type": "kings", "side": "opponents", "announced": True, "result": "made"},
        {"type": "trula", "side": "opponents", "announced": False, "result": "made"},
    ]
    s = run("SL1", bonuses=lines, mond_captured=None)
    assert s.outcome_data["H"] == 0 and s.transfers == ()
    assert set(s.net.values()) == {0}
