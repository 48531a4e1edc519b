import logging
import sys

from django.core.management.base import BaseCommand, CommandError

from ledger.models import Club
from ledger.selectors.chain import WitnessRefused, witness_problems
from ledger.selectors.verify import verify_ledger

logger = logging.getLogger(__name__)


class Command(BaseCommand):
    help = (
        "Run every check of the ledger: re-settle every stored hand from its record and the "
        "evening's rate card and compare with the stored transfers; check that every table is "
        "zero-sum and no cup went negative, every seal (postings, hands, tables, evenings, "
        "tournaments, and the seals of what is gone), every evening's results and every closed "
        "tournament round's results, each club's chain and head; with --witness, that the ledger "
        "extends the heads witnessed earlier. Exits 1 and names each problem; 2 for a witness "
        "that cannot be read."
    )

    def add_arguments(self, parser):
        parser.add_argument("--club", help="only this club (its short name)")
        parser.add_argument(
            "--witness",
            metavar="FILE",
            help="a file of heads written earlier by ledger_head: the ledger must extend each",
        )

    def handle(self, *args, **options):
        club = None
        if options["club"]:
            club = Club.objects.filter(slug=options["club"]).first()
            if club is None:
                raise CommandError(f"no club has the short name {options['club']!r}")
        witnessed: list[str] = []
        if options["witness"]:
            try:
                with open(options["witness"], encoding="utf-8") as file:
                    witnessed = witness_problems(file.read())
            except (OSError, UnicodeDecodeError, WitnessRefused) as error:
                raise CommandError(
                    f"--witness {options['witness']}: {error}", returncode=2
                ) from None
        report = verify_ledger(club=club)
        report.problems += witnessed
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
