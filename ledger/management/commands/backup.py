"""Write a backup of the whole database: a SQLite online backup or a JSON dump."""

import sqlite3
from pathlib import Path

from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError
from django.db import connection

DUMP_MODELS = ["auth.user", "auth.group", "ledger"]
# Derived rows: restore rebuilds the balance summary from the transfers.
# derived: the summaries and the seat rows of hands, replayed from the postings on restore
DUMP_EXCLUDE = ["ledger.accountbalance", "ledger.accountstats", "ledger.postingseat"]


class Command(BaseCommand):
    help = (
        "Back up the database. --format json (default) writes a dump that restores into SQLite "
        "or PostgreSQL; --format sqlite writes a consistent copy of a SQLite database while the "
        "site runs (SQLite's online backup)."
    )

    def add_arguments(self, parser):
        parser.add_argument("output", help="the file to write")
        parser.add_argument("--format", choices=["json", "sqlite"], default="json")

    def handle(self, *args, **options):
        output = Path(options["output"])
        if options["format"] == "sqlite":
            if connection.vendor != "sqlite":
                raise CommandError("--format sqlite backs up a SQLite database only; use json")
            connection.ensure_connection()
            target = sqlite3.connect(output)
            try:
                connection.connection.backup(target)
            finally:
                target.close()
        else:
            call_command(
                "dumpdata",
                *DUMP_MODELS,
                exclude=DUMP_EXCLUDE,
                output=str(output),
                indent=None,
                natural_foreign=False,
                verbosity=0,
            )
        self.stdout.write(f"backup written to {output}")
