"""``manage.py results_import FILE``: import a results file (``tarokclub.results/1``).

Reads the file (or ``-``) within ``ledger.web.jsonin``'s limits, checks it against the JSON
Schema, recomputes it with the tournament engine and imports it as a read-only event of its
federation (created on an installation that has none of that short name and game). Prints
``{"event", "action": "created" | "replaced" | "unchanged", "new_players"}``; a refused file
prints ``{"errors": [{field, message}]}`` and exits 2, having written nothing.
"""

import json
import sys

from django.core.management.base import BaseCommand

from ledger.federation.engine.results import read_results
from ledger.games.errors import RulesError
from ledger.services.errors import LedgerError
from ledger.services.federation.results import results_import

from ._engine import EXIT_REFUSED, read_json


class Command(BaseCommand):
    help = "Import a tarokclub.results/1 file as an event of its federation."

    read_json = staticmethod(read_json)

    def add_arguments(self, parser):
        parser.add_argument("file", help="a JSON file, or - for standard input")

    def refuse(self, errors: list[dict]):
        self.stdout.write(json.dumps({"errors": errors}, ensure_ascii=False, indent=2))
        sys.exit(EXIT_REFUSED)

    def handle(self, *args, **options):
        try:
            document = self.read_json(options["file"], "file")
            read_results(document)  # every problem of the file by its field, not just the first
            result = results_import(document=document)
        except RulesError as error:
            self.refuse(error.as_json()["errors"])
        except LedgerError as error:
            self.refuse([{"field": error.field, "message": str(error.message)}])
        out = {"event": result.event.pk, "action": result.action, "new_players": result.new_players}
        self.stdout.write(json.dumps(out, ensure_ascii=False, indent=2))
