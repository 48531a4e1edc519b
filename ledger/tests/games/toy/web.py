"""The web side of the test-only game: every screen it needs, from its own package."""

from __future__ import annotations

from ledger.games.web import GameWeb

from . import CODE, POT


class ToyWeb(GameWeb):
    code = CODE
    title = "High card"
    entry_template = "ledger/games/toy/_entry.html"
    entry_sections = ("winner",)
    section_of_field = {"winner": "winner"}
    wait_hint = "Tap the winner."
    reason_labels = {"win": "win"}
    pool_labels = {POT: "pot"}
    pool_classes = {POT: "pot"}
    role_labels = {"winner": "winner"}
    words = {"pools_not_split": "the pot is not shared yet"}
    close_columns = (("split", "Share of the pot"),)
    stats_columns = (("toy_wins", "Wins"),)
    stats_help = {"toy_wins": "Hands the member won."}
    rate_card_labels = {
        "stake": ("stake", "What each loser pays the winner of a hand."),
        "ante": ("ante", "What each member puts into the pot when he sits down."),
    }
    rate_card_groups = (("Amounts", ("stake", "ante")),)

    def outcome_words(self, outcome, *, brief=False):
        return [f"won by {outcome['winner']}"] if outcome and outcome.get("winner") else []

    def entry_context(self, *, rates, seats):
        return {"config": {"game": CODE}, "winners": list(seats)}


WEB = ToyWeb()
