import logging
import sys

from django.core.management.base import BaseCommand

from ledger.models import Table
from ledger.selectors.verify import verify_ledger

logger = logging.getLogger(__name__)


class Command(BaseCommand):
    help = (
        "Re-settle every stored hand from its record and the evening's rate card, compare with "
        "the stored transfers, and check that every table is zero-sum and no cup went negative. "
        "Exits 1 and names each hand on any mismatch."
    )

    def add_arguments(self, parser):
        parser.add_argument("--club", help="only this club (its short name)")

    def handle(self, *args, **options):
        tables = Table.objects.all()
        if options["club"]:
            tables = tables.filter(evening__club__slug=options["club"])
        report = verify_ledger(tables)
        for problem in report.problems:
            self.stdout.write(f"MISMATCH {problem}")
        summary = (
            f"{report.tables} tables, {report.hands} hand postings, {report.transfers} transfers: "
        )
        counts = {"tables": report.tables, "hands": report.hands, "club": options["club"]}
        if report.ok:
            logger.info("ledger verified", extra={"event": "verify", **counts})
            self.stdout.write(summary + "ledger OK")
            return
        # A seal that does not hold, a hand that settles otherwise: one line each for the log.
        for problem in report.problems:
            logger.warning("verify: %s", problem, extra={"event": "verify", **counts})
        self.stdout.write(summary + f"{len(report.problems)} problems")
        sys.exit(1)
