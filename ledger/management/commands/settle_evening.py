from ledger.rules import settle_evening

from ._engine import EngineCommand


class Command(EngineCommand):
    help = (
        "Fund a table, settle every hand of a tarokclub.evening/1 file in order, split the "
        "cups, and print the tarokclub.evening-result/1."
    )

    def run(self, data, rates):
        return settle_evening(data, rates).as_dict()
