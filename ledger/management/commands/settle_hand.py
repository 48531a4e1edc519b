from ._engine import EngineCommand


class Command(EngineCommand):
    help = "Settle one tarokclub.hand/1 record (of the game it names) and print its settlement."

    def run(self, game, data, rates):
        return game.settle(game.parse_hand(data, rates), rates, None).as_dict()
