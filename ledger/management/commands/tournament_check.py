"""``manage.py tournament_check FILE``: run the draw checker and the table plans of a checker file.

Prints ``{"checks": [[violation, …], …], "plans": [{sizes, byes}, …]}`` (spec ``tournament.md``
sections 13 and 14) as JSON; a refused file prints ``{"errors": [{field, message}, …]}`` and
exits 2.
"""

import json
import sys

from django.core.management.base import BaseCommand

from ledger.games.errors import RulesError
from ledger.tournaments.engine import check_file

from ._engine import EXIT_REFUSED, read_json


class Command(BaseCommand):
    help = "Check the proposed draws and compute the table plans of a tournament checker file."

    # The engine commands' reading of a file or standard input, within ledger.web.jsonin's limits.
    read_json = staticmethod(read_json)

    def add_arguments(self, parser):
        parser.add_argument("file", help="a JSON file, or - for standard input")

    def handle(self, *args, **options):
        try:
            result = check_file(self.read_json(options["file"], "file"))
        except RulesError as error:
            self.stdout.write(json.dumps(error.as_json(), ensure_ascii=False, indent=2))
            sys.exit(EXIT_REFUSED)
        self.stdout.write(json.dumps(result, ensure_ascii=False, indent=2))
