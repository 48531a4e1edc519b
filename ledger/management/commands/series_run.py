"""``manage.py series_run FILE``: compute a series example file's standings (the ladder).

Prints ``{"standings": [{position, player, total, counted, struck, wins, best, events,
qualified?}, …]}`` (spec ``federation.md`` section 4) as JSON, totals and results as exact
rationals in lowest terms; a refused file prints ``{"errors": [{field, message}, …]}`` and
exits 2.
"""

import json
import sys

from django.core.management.base import BaseCommand

from ledger.federation.engine import run_series_file
from ledger.games.errors import RulesError

from ._engine import EXIT_REFUSED, read_json


class Command(BaseCommand):
    help = "Compute a tarokclub.series-example/1 file's standings: totals, struck events, order."

    # The engine commands' reading of a file or standard input, within ledger.web.jsonin's limits.
    read_json = staticmethod(read_json)

    def add_arguments(self, parser):
        parser.add_argument("file", help="a JSON file, or - for standard input")

    def handle(self, *args, **options):
        try:
            result = run_series_file(self.read_json(options["file"], "file"))
        except RulesError as error:
            self.stdout.write(json.dumps(error.as_json(), ensure_ascii=False, indent=2))
            sys.exit(EXIT_REFUSED)
        self.stdout.write(json.dumps(result, ensure_ascii=False, indent=2))
