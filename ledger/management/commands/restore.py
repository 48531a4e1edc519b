"""Restore a JSON backup into an empty database (SQLite or PostgreSQL)."""

from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError
from django.db import connection, transaction

from ledger.db import ledger_unlocked
from ledger.models import Club, Transfer
from ledger.selectors.verify import verify_ledger
from ledger.services import balances, seals, stats


class Command(BaseCommand):
    help = (
        "Load a JSON backup written by 'backup' into a migrated, empty database, then run "
        "verify_ledger in the same transaction (a backup that does not verify restores nothing). "
        "Refuses a database that already holds clubs or transfers."
    )

    def add_arguments(self, parser):
        parser.add_argument("file", help="a JSON backup")
        parser.add_argument(
            "--reseal",
            action="store_true",
            help=(
                "the backup comes from a site with another ledger secret (LEDGER_SEAL_SECRET or "
                "SECRET_KEY): seal it afresh with this site's, then verify everything else"
            ),
        )

    def handle(self, *args, **options):
        if Club.objects.exists() or Transfer.objects.exists():
            raise CommandError("restore needs an empty database: this one already has clubs")
        # Closed evenings are restored with their postings: lift the closed-evening guard for
        # this transaction only. loaddata resets PostgreSQL's sequences itself.
        # The ledger is verified inside the same transaction: a backup that does not verify
        # is rolled back whole, leaving the database exactly as it was (empty).
        with transaction.atomic(), ledger_unlocked():
            if connection.vendor == "postgresql":
                with connection.cursor() as cursor:
                    cursor.execute("SET LOCAL ledger.restoring = 'on'")
            call_command("loaddata", options["file"], verbosity=0)
            # The balance summary is derived: never taken from the file, rebuilt from the
            # transfers just loaded (and then checked by verify_ledger with the rest).
            balances.rebuild()
            stats.replay()
            stats.rebuild()
            if options["reseal"]:
                seals.seal_all()
            report = verify_ledger()
            if not report.ok:
                raise CommandError(
                    "the restored ledger does not verify, so nothing was restored: "
                    + "; ".join(report.problems)
                )
        self.stdout.write(
            f"restored {report.tables} tables, {report.hands} hand postings; ledger OK"
        )
