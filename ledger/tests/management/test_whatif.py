"""The ``whatif`` command and the spec's worked examples replayed under each preset: an
evening imported from an example gives, under a preset, what the engine gives with that card
(``settle_evening``, hand by hand ``settle``), and a hand the preset's card refuses is named,
not guessed."""

import json

import pytest

from ledger.games.base import preset_card
from ledger.games.errors import EveningError
from ledger.games.registry import get_game
from ledger.models import Club, Evening
from ledger.selectors import whatif
from ledger.tests.conftest import EXAMPLES
from ledger.tests.factories import make_season
from ledger.tests.helpers import (
    WHATIF_EVENINGS,
    imported_example,
    ledger_snapshot,
    run_command,
)

pytestmark = pytest.mark.django_db

EVENINGS = list(WHATIF_EVENINGS)
HANDS = sorted(p.name.removesuffix(".hand.json") for p in EXAMPLES.glob("*.hand.json"))


def run(*args):
    return run_command(*[str(a) for a in args])


def imported(tmp_path, name):
    return imported_example(tmp_path, name)


@pytest.mark.parametrize("name", EVENINGS + HANDS)
def test_each_example_under_each_preset_gives_the_engines_result(tmp_path, name):
    evening, data = imported(tmp_path, name)
    game = get_game(evening.game)
    own = whatif.compare_evening(evening, None)
    assert all(m.points_difference == 0 for m in own.members)
    for preset in game.presets:
        card = preset_card(game, preset.name)
        result = whatif.compare_evening(evening, whatif.card_from_preset(game.code, preset.name))
        got = {m.name: m.points_whatif for m in result.members}
        try:
            expected = game.settle_evening(data, card)["final"]
        except EveningError as error:
            # the card refuses a hand: the what-if names it and scores the rest
            refused = {p.field.split(".")[0] for p in error.problems}
            assert {
                f"hands[{u.hand - 1}]" if u.hand is not None else "close" for u in result.unscored
            } == refused, preset
            continue
        assert result.unscored == [], preset
        assert got == expected, preset


def test_a_preset_changes_a_known_amount(tmp_path):
    """HU3 (a dupla): flat dupla and volát pay 4/2 whatever the bid (hungarian-tarokk.md 5):
    Anna won 23 as played and would have won 7; the hand is explained both ways."""
    evening, _data = imported(tmp_path, "HU3")
    result = whatif.compare_evening(
        evening, whatif.card_from_preset("hungarian_tarokk", "flat_dupla_volat")
    )
    anna = next(m for m in result.members if m.name == "Anna")
    assert (anna.points_played, anna.points_whatif, anna.points_difference) == (23, 7, -16)
    (hand,) = result.hands
    assert hand.hand == 1 and ("Anna", 23, 7) in hand.members
    assert hand.story_played and hand.story_whatif and hand.story_played != hand.story_whatif


def test_a_hand_the_card_does_not_know_is_named_not_guessed(tmp_path):
    """X6 is a tout counted as the spec plays it; pagat.com's tout has no count, so the
    preset's card refuses the record: the hand is unscored, with the card's reason."""
    evening, _data = imported(tmp_path, "X6")
    result = whatif.compare_evening(evening, whatif.card_from_preset("danish_tarok", "pagat_tout"))
    (unscored,) = result.unscored
    assert (unscored.table, unscored.hand) == (1, 1)
    assert "count" in unscored.reasons[0]


class TestCommand:
    def test_prints_the_comparison_as_json_and_writes_nothing(self, tmp_path):
        evening, _data = imported(tmp_path, "SL_EVENING")
        before = ledger_snapshot()
        status, out = run("whatif", "--evening", evening.pk, "--preset", "difference_unrounded")
        assert status == 0, out
        assert ledger_snapshot() == before
        data = json.loads(out)
        dorte = next(m for m in data["members"] if m["member"] == "Dorte")
        assert dorte == {
            "member": "Dorte",
            "points_played": -150,
            "points_whatif": -162,
            "money_played": dorte["money_played"],
            "money_whatif": dorte["money_whatif"],
            "rank_played": 4,
            "rank_whatif": 4,
        }
        assert data["unscored"] == []

    def test_a_rates_file_and_a_season(self, tmp_path):
        evening, _data = imported(tmp_path, "SL_EVENING")
        season = make_season(evening.club)
        Evening.objects.filter(pk=evening.pk).update(season=season)
        rates = tmp_path / "rates.json"
        rates.write_text(json.dumps({"game": "slovenian_tarok"}), encoding="utf-8")
        status, out = run("whatif", "--season", season.pk, "--rates", rates)
        assert status == 0, out
        members = json.loads(out)["members"]
        assert [m["points_whatif"] for m in members] == [m["points_played"] for m in members]
        assert len(members) == 4

    @pytest.mark.parametrize(
        "args, field",
        [
            (["--preset", "no_such_preset"], "preset"),
            (["--rates", "RATES"], "contract_values"),
            (["--rates", "MISSING"], "--rates"),
        ],
    )
    def test_refusals_name_the_field(self, tmp_path, args, field):
        evening, _data = imported(tmp_path, "SL_EVENING")
        bad = tmp_path / "bad.json"
        bad.write_text(json.dumps({"contract_values": {"valat": -5}}), encoding="utf-8")
        args = [{"RATES": bad, "MISSING": tmp_path / "missing.json"}.get(a, a) for a in args]
        status, out = run("whatif", "--evening", evening.pk, *args)
        assert status == 2, out
        fields = [e["field"] for e in json.loads(out)["errors"]]
        assert any(f.startswith(field) for f in fields), fields

    def test_refuses_an_unknown_evening_or_tournament_and_a_missing_choice(self, tmp_path):
        status, out = run("whatif", "--evening", 999999, "--preset", "mond_21")
        assert status == 2 and json.loads(out)["errors"][0]["field"] == "--evening"
        status, out = run("whatif", "--tournament", 999999, "--format", "generic_sum")
        assert status == 2 and json.loads(out)["errors"][0]["field"] == "--tournament"
        assert Club.objects.count() == 0
        evening, _data = imported(tmp_path, "SL_EVENING")
        status, out = run("whatif", "--evening", evening.pk)
        assert status == 2 and json.loads(out)["errors"][0]["field"] == "--preset"
        status, out = run("whatif", "--evening", evening.pk, "--format", "generic_sum")
        assert status == 2 and json.loads(out)["errors"][0]["field"] == "--format"
