import logging
import sys

from django.core.management.base import BaseCommand, CommandError

from ledger.models import Club
from ledger.selectors.verify import verify_ledger

logger = logging.getLogger(__name__)


class Command(BaseCommand):
    help = (
        "Run every check of the ledger: re-settle every stored hand from its record and the "
        "evening's rate card and compare with the stored transfers; check that every table is "
        "zero-sum and no cup went negative, every seal (postings, hands, tables, evenings, "
        "tournaments, and the seals of what is gone), every evening's results and every closed "
        "tournament round's results. Exits 1 and names each problem."
    )

    def add_arguments(self, parser):
        parser.add_argument("--club", help="only this club (its short name)")

    def handle(self, *args, **options):
        club = None
        if options["club"]:
            club = Club.objects.filter(slug=options["club"]).first()
            if club is None:
                raise CommandError(f"no club has the short name {options['club']!r}")
        report = verify_ledger(club=club)
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
