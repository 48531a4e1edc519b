"""``manage.py results_export TOURNAMENT_ID``: print a final tournament's results file.

Prints ``tarokclub.results/1`` (``federation.md`` section 5; the JSON Schema is
``docs/schemas/tarokclub.results-1.schema.json``) as JSON. A tournament that is not final, of
a club of no federation, or that does not exist prints ``{"errors": [{field, message}]}`` and
exits 2. Exporting twice with no change in between gives the same document but
``exported_at``.
"""

import json
import sys
from typing import NoReturn

from django.core.management.base import BaseCommand
from django.utils import timezone

from ledger.models import Tournament
from ledger.selectors.results_file import results_document
from ledger.services.errors import LedgerError

from ._engine import EXIT_REFUSED


class Command(BaseCommand):
    help = "Print a final tournament's results file (tarokclub.results/1) as JSON."

    def add_arguments(self, parser):
        parser.add_argument("tournament", help="the tournament's id")

    def refuse(self, field: str, message: str) -> NoReturn:
        errors = {"errors": [{"field": field, "message": message}]}
        self.stdout.write(json.dumps(errors, ensure_ascii=False, indent=2))
        sys.exit(EXIT_REFUSED)

    def handle(self, *args, **options):
        value = options["tournament"]
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
