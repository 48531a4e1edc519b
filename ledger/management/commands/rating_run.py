"""``manage.py rating_run FILE``: rate a rating example file's tables (multiplayer Elo).

Prints ``{"ratings": {player: rating}, "tables": [{id, expected, actual, delta}, …]}`` (spec
``federation.md`` section 4) as JSON, in IEEE doubles as section 3 computes them; a refused
file prints ``{"errors": [{field, message}, …]}`` and exits 2.
"""

import json
import sys

from django.core.management.base import BaseCommand

from ledger.federation.engine import run_rating_file
from ledger.games.errors import RulesError

from ._engine import EXIT_REFUSED, read_json


class Command(BaseCommand):
    help = "Rate the tables of a tarokclub.rating-example/1 file: ratings and each table's change."

    # The engine commands' reading of a file or standard input, within ledger.web.jsonin's limits.
    read_json = staticmethod(read_json)

    def add_arguments(self, parser):
        parser.add_argument("file", help="a JSON file, or - for standard input")

    def handle(self, *args, **options):
        try:
            result = run_rating_file(self.read_json(options["file"], "file"))
        except RulesError as error:
            self.stdout.write(json.dumps(error.as_json(), ensure_ascii=False, indent=2))
            sys.exit(EXIT_REFUSED)
        self.stdout.write(json.dumps(result, ensure_ascii=False, indent=2))
