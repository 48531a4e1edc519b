"""Shared input and output of the engine commands ``settle_hand`` and ``settle_evening``."""

import json
import sys

from django.core.management.base import BaseCommand

from ledger.rules import RateCard, RulesError
from ledger.rules.errors import Problem

EXIT_REFUSED = 2


class EngineCommand(BaseCommand):
    """Read one JSON file (or ``-``), apply ``--rates``, print JSON; exit 2 on refused input."""

    def add_arguments(self, parser):
        parser.add_argument("file", help="a JSON file, or - for standard input")
        parser.add_argument("--rates", help="a tarokclub.rates/1 file (default: the spec's rates)")

    def handle(self, *args, **options):
        try:
            rates = RateCard()
            if options["rates"]:
                rates = RateCard.from_dict(self.read_json(options["rates"], "--rates"))
            data = self.read_json(options["file"], "file")
            result = self.run(data, rates)
        except RulesError as error:
            self.stdout.write(json.dumps(error.as_json(), ensure_ascii=False, indent=2))
            sys.exit(EXIT_REFUSED)
        self.stdout.write(json.dumps(result, ensure_ascii=False, indent=2))

    def read_json(self, name: str, field: str):
        try:
            if name == "-":
                return json.load(sys.stdin)
            with open(name, encoding="utf-8") as handle:
                return json.load(handle)
        except OSError as error:
            raise RulesError(
                [
                    Problem(
                        field,
                        "cannot read {name}: {reason}",
                        {"name": name, "reason": error.strerror},
                    )
                ]
            ) from error
        except json.JSONDecodeError as error:
            raise RulesError(
                [
                    Problem(
                        field,
                        "{name} is not valid JSON: {reason}",
                        {"name": name, "reason": str(error)},
                    )
                ]
            ) from error

    def run(self, data, rates):
        raise NotImplementedError
