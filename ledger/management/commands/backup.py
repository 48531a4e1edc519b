"""Write a backup of the whole database: a JSON dump of one consistent snapshot, or a SQLite
online backup.

The JSON dump reads every model inside one read-only transaction that sees one moment of the
database, however busy the site: ``REPEATABLE READ READ ONLY`` on PostgreSQL, one deferred
(read) transaction on SQLite, whose WAL journal lets the tablets go on writing meanwhile. Before
the file takes its name it checks itself: every model's row count in the file equals the
snapshot's and every reference in it points at a row it holds; and ``verify_ledger`` runs in
the same snapshot. A dump that fails the first check is not written (exit 1); a ledger that
does not verify is still backed up (a damaged ledger is worth keeping), with its problems on
standard error and exit 1.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import sqlite3
import sys
from pathlib import Path

from django.apps import apps
from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError
from django.db import connection, transaction

from ledger.selectors.verify import verify_ledger

logger = logging.getLogger(__name__)

DUMP_MODELS = ["auth.user", "auth.group", "ledger"]
# Derived rows (the summaries and the seat rows of hands): restore rebuilds them.
DUMP_EXCLUDE = ["ledger.accountbalance", "ledger.accountstats", "ledger.postingseat"]


def dumped_models() -> list:
    """The models a backup holds, as model classes."""
    models = [apps.get_model("auth", "User"), apps.get_model("auth", "Group")]
    models += list(apps.get_app_config("ledger").get_models())
    return [m for m in models if m._meta.label_lower not in DUMP_EXCLUDE]


@contextlib.contextmanager
def snapshot():
    """Read the database as it is at one moment, whatever is written meanwhile."""
    if connection.in_atomic_block:
        # Called inside a transaction (a test's): that transaction is what is read.
        yield
        return
    if connection.vendor == "postgresql":
        with transaction.atomic():
            with connection.cursor() as cursor:
                cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")
            yield
        return
    # SQLite in autocommit mode: a deferred transaction becomes a read snapshot at its first
    # read (with WAL, writers go on meanwhile); it is rolled back, having written nothing.
    connection.ensure_connection()
    with connection.cursor() as cursor:
        cursor.execute("BEGIN DEFERRED")
        try:
            yield
        finally:
            cursor.execute("ROLLBACK")


def dump_problems(path: Path, models) -> list[str]:
    """Check a dump against the snapshot it was read from: each model's count, and every
    foreign key pointing at a row of the dump. Return what is wrong."""
    with open(path, encoding="utf-8") as handle:
        objects = json.load(handle)
    ids: dict[str, set] = {m._meta.label_lower: set() for m in models}
    for obj in objects:
        ids.setdefault(obj["model"], set()).add(obj["pk"])
    problems = []
    for model in models:
        label = model._meta.label_lower
        have, want = len(ids[label]), model.objects.count()
        if have != want:
            problems.append(f"{label}: {have} rows in the file, {want} in the database")
    references = {
        m._meta.label_lower: {
            f.name: f.related_model._meta.label_lower
            for f in m._meta.get_fields()
            if f.concrete
            and f.is_relation
            and f.related_model is not None
            and f.related_model._meta.label_lower in ids
        }
        for m in models
    }
    for obj in objects:
        for name, target in references.get(obj["model"], {}).items():
            value = obj["fields"].get(name)
            for pk in value if isinstance(value, list) else [value]:
                if pk is not None and pk not in ids[target]:
                    problems.append(
                        f"{obj['model']} {obj['pk']}: its {name} is {target} {pk}, "
                        "which the file does not hold"
                    )
                    if len(problems) > 20:
                        return problems
    return problems


class Command(BaseCommand):
    help = (
        "Back up the database. --format json (default) writes one consistent snapshot that "
        "restores into SQLite or PostgreSQL, checked before it is written; --format sqlite "
        "writes a consistent copy of a SQLite database while the site runs (SQLite's online "
        "backup)."
    )

    def add_arguments(self, parser):
        parser.add_argument("output", help="the file to write")
        parser.add_argument("--format", choices=["json", "sqlite"], default="json")

    def handle(self, *args, **options):
        output = Path(options["output"])
        if options["format"] == "sqlite":
            self.sqlite_copy(output)
            self.stdout.write(f"backup written to {output}")
            return
        partial = output.with_name(f".{output.name}.partial")
        models = dumped_models()
        try:
            with snapshot():
                call_command(
                    "dumpdata",
                    *DUMP_MODELS,
                    exclude=DUMP_EXCLUDE,
                    output=str(partial),
                    indent=None,
                    natural_foreign=False,
                    verbosity=0,
                )
                problems = dump_problems(partial, models)
                report = verify_ledger() if not problems else None
        except BaseException:
            partial.unlink(missing_ok=True)
            raise
        if problems or report is None:
            partial.unlink(missing_ok=True)
            logger.warning(
                "backup not written: the dump does not match the database",
                extra={"event": "backup", "file": str(output), "problems": problems[:20]},
            )
            raise CommandError(
                "the dump does not match the database, so no backup was written: "
                + "; ".join(problems)
            )
        os.replace(partial, output)
        if not report.ok:
            logger.warning(
                "backup written, but the ledger does not verify: %s problems",
                len(report.problems),
                extra={"event": "backup", "file": str(output), "problems": report.problems[:20]},
            )
            self.stderr.write(
                f"backup written to {output}, but the ledger does not verify: "
                + "; ".join(report.problems[:50])
            )
            sys.exit(1)
        self.stdout.write(
            f"backup written to {output}: one snapshot, {report.tables} tables, "
            f"{report.hands} hand postings; ledger OK"
        )

    def sqlite_copy(self, output: Path) -> None:
        if connection.vendor != "sqlite":
            raise CommandError("--format sqlite backs up a SQLite database only; use json")
        connection.ensure_connection()
        target = sqlite3.connect(output)
        try:
            connection.connection.backup(target)
            (result,) = target.execute("PRAGMA integrity_check").fetchone()
        finally:
            target.close()
        if result != "ok":
            output.unlink(missing_ok=True)
            raise CommandError(f"the copy failed SQLite's integrity check: {result}")
