from ledger.rules import parse_hand, settle

from ._engine import EngineCommand


class Command(EngineCommand):
    help = "Settle one tarokclub.hand/1 record and print its tarokclub.settlement/1."

    def run(self, data, rates):
        return settle(parse_hand(data, rates), rates).as_dict()
