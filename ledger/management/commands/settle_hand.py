from ledger.games.validation import check_moves

from ._engine import EngineCommand


class Command(EngineCommand):
    help = "Settle one tarokclub.hand/1 record (of the game it names) and print its settlement."

    def run(self, game, data, rates):
        settlement = game.settle(game.parse_hand(data, rates), rates, None)
        check_moves(settlement.transfers)
        return settlement.as_dict()
