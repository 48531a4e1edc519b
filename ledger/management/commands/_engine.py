"""Shared input and output of the engine commands ``settle_hand`` and ``settle_evening``."""

import json
import sys

from django.core.management.base import BaseCommand

from ledger.jsonin import MAX_BYTES, load_json_safely
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
        """Read ``name`` (or standard input for ``-``) as JSON within ``ledger.jsonin``'s
        limits; raise RulesError naming ``field`` when it cannot be read or is refused."""
        try:
            if name == "-":
                stream = getattr(sys.stdin, "buffer", None)
                data = stream.read(MAX_BYTES + 1) if stream else sys.stdin.read(MAX_BYTES + 1)
            else:
                with open(name, "rb") as handle:
                    data = handle.read(MAX_BYTES + 1)
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
        return load_json_safely(data, field)

    def run(self, data, rates):
        raise NotImplementedError
