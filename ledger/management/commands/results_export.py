"""``manage.py results_export TOURNAMENT_ID``: print a final tournament's results file;
``manage.py results_export --imported ID``: print an imported event's file again.

Prints ``tarokclub.results/1`` (``federation.md`` section 5; the JSON Schema is
``docs/schemas/tarokclub.results-1.schema.json``) as JSON. A tournament that is not final, of
a club of no federation, or that does not exist prints ``{"errors": [{field, message}]}`` and
exits 2. Exporting twice with no change in between gives the same document but
``exported_at``. An imported event's file is the one imported (its last revision), with the
source's ``id``, ``revision`` and ``seed``: imported again anywhere, it changes nothing.
"""

import json
import sys
from typing import NoReturn

from django.core.management.base import BaseCommand
from django.utils import timezone

from ledger.models import ImportedEvent, Tournament
from ledger.selectors.results_file import imported_document, results_document
from ledger.services.errors import LedgerError

from ._engine import EXIT_REFUSED


class Command(BaseCommand):
    help = "Print a final tournament's results file (tarokclub.results/1) as JSON."

    def add_arguments(self, parser):
        parser.add_argument("tournament", nargs="?", help="the tournament's id")
        parser.add_argument(
            "--imported", metavar="ID", help="print the file of this imported event instead"
        )

    def refuse(self, field: str, message: str) -> NoReturn:
        errors = {"errors": [{"field": field, "message": message}]}
        self.stdout.write(json.dumps(errors, ensure_ascii=False, indent=2))
        sys.exit(EXIT_REFUSED)

    def handle(self, *args, **options):
        if options["imported"] is not None:
            return self.imported(options["imported"])
        value = options["tournament"] or ""
        tournament = (
            Tournament.objects.select_related("club").filter(pk=int(value)).first()
            if value.isdigit() and len(value) < 19
            else None
        )
        if tournament is None:
            self.refuse("tournament", f"no tournament with the id {value[:40]!r}")
        try:
            document = results_document(tournament, exported_at=timezone.now())
        except LedgerError as error:
            self.refuse(error.field, str(error.message))
        self.stdout.write(json.dumps(document, ensure_ascii=False, indent=2))

    def imported(self, value: str):
        event = (
            ImportedEvent.objects.filter(pk=int(value)).first()
            if value.isdigit() and len(value) < 19
            else None
        )
        if event is None:
            self.refuse("imported", f"no imported event with the id {value[:40]!r}")
        document = imported_document(event, exported_at=timezone.now())
        self.stdout.write(json.dumps(document, ensure_ascii=False, indent=2))
