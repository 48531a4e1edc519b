from ._engine import EngineCommand


class Command(EngineCommand):
    help = (
        "Settle every hand of a tarokclub.evening/1 file in order, close the table the game's "
        "way, and print the tarokclub.evening-result/1."
    )

    def run(self, game, data, rates):
        return game.settle_evening(data, rates)
