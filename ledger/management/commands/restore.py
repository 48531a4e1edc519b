"""Restore a JSON backup into an empty database (SQLite or PostgreSQL).

A backup is untrusted input like any other file: it is read within ``ledger.web.jsonin``'s
limits (with a backup's size), its shape is checked (a list of rows of the models a backup
holds, each with an integer ``pk`` and only that model's fields), it is loaded and the ledger
verified in one transaction. Anything refused prints ``{"errors": [{"field", "message"}]}``
and exits 2, restoring nothing; never a traceback.
"""

from __future__ import annotations

import json
import logging
import sys
from pathlib import Path

from django.conf import settings
from django.core.management import call_command
from django.core.management.base import BaseCommand
from django.db import connection, transaction

from ledger.db import ledger_unlocked
from ledger.games.errors import RulesError
from ledger.games.registry import get_web
from ledger.management.commands._engine import EXIT_REFUSED
from ledger.management.commands.backup import dumped_models
from ledger.models import Club, Transfer
from ledger.selectors.verify import verify_ledger
from ledger.services import balances, seals, stats
from ledger.web.jsonin import load_json_safely

logger = logging.getLogger(__name__)

MAX_PROBLEMS = 50


class Refused(Exception):
    def __init__(self, errors: list[dict]):
        super().__init__("; ".join(e["message"] for e in errors))
        self.errors = errors


def refuse(field: str, message: str):
    raise Refused([{"field": field, "message": message}])


CLUB_DEFAULTED = ("language", "currency", "time_zone")


def club_defaults_of_older_backups(rows: list) -> None:
    """Give a club from a backup written before clubs had a language and a time zone its
    game's (as migration 0015 did); a club whose row holds them keeps its own."""
    for row in rows:
        if row["model"] != "ledger.club" or "language" in row["fields"]:
            continue
        club = Club.objects.get(pk=row["pk"])
        defaults = get_web(club.game).club_defaults
        club.language, club.time_zone = defaults["language"], defaults["time_zone"]
        if "currency" not in row["fields"] or (
            club.currency == "DKK" and defaults["currency"] != "DKK"
        ):
            club.currency = defaults["currency"]
        club.save(update_fields=list(CLUB_DEFAULTED))


def read_backup(path: str) -> list:
    """Read and shape-check a backup file; raise Refused naming what is wrong."""
    try:
        data = Path(path).read_bytes()
    except OSError as error:
        refuse("file", f"cannot read {path}: {error.strerror or error}")
    try:
        rows = load_json_safely(data, "file", max_bytes=settings.RESTORE_MAX_BYTES)
    except RulesError as error:
        raise Refused([p.as_dict() for p in error.problems]) from None
    if not isinstance(rows, list):
        refuse("file", "a backup is a JSON list of rows, as 'backup' writes it")
    fields = {
        m._meta.label_lower: {f.name for f in m._meta.get_fields() if f.concrete or f.many_to_many}
        for m in dumped_models()
    }
    problems: list[dict] = []
    seen: set = set()

    def problem(field, message):
        problems.append({"field": field, "message": message})
        if len(problems) >= MAX_PROBLEMS:
            raise Refused(problems)

    for i, row in enumerate(rows):
        where = f"[{i}]"
        if not isinstance(row, dict) or set(row) != {"model", "pk", "fields"}:
            problem(where, "a row has exactly the keys model, pk and fields")
            continue
        model = row["model"]
        if not isinstance(model, str) or model not in fields:
            problem(f"{where}.model", f"{str(model)[:60]!r} is not a model a backup holds")
            continue
        if isinstance(row["pk"], bool) or not isinstance(row["pk"], int) or row["pk"] < 1:
            problem(f"{where}.pk", "a row's pk is a positive whole number")
        elif (model, row["pk"]) in seen:
            problem(f"{where}.pk", f"{model} {row['pk']} is in the file twice")
        seen.add((model, row["pk"]) if isinstance(row["pk"], int) else None)
        if not isinstance(row["fields"], dict):
            problem(f"{where}.fields", "a row's fields are a JSON object")
            continue
        unknown = sorted(set(row["fields"]) - fields[model])
        if unknown:
            problem(f"{where}.fields", f"{model} has no field {str(unknown[0])[:60]!r}")
    if problems:
        raise Refused(problems)
    return rows


class Command(BaseCommand):
    help = (
        "Load a JSON backup written by 'backup' into a migrated, empty database, then run "
        "verify_ledger in the same transaction (a backup that does not verify restores nothing). "
        "Refuses a database that already holds clubs or transfers. Refused input prints "
        '{"errors": [...]} and exits 2.'
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
        try:
            report = self.restore(options["file"], reseal=options["reseal"])
        except Refused as refused:
            logger.warning(
                "restore refused: %s",
                "; ".join(f"{e['field']}: {e['message']}" for e in refused.errors[:20]),
                extra={"event": "restore", "file": options["file"], "refused": True},
            )
            self.stdout.write(json.dumps({"errors": refused.errors}, ensure_ascii=False, indent=2))
            sys.exit(EXIT_REFUSED)
        logger.warning(
            "restored %s tables, %s hand postings",
            report.tables,
            report.hands,
            extra={"event": "restore", "file": options["file"], "reseal": options["reseal"]},
        )
        self.stdout.write(
            f"restored {report.tables} tables, {report.hands} hand postings; ledger OK"
        )

    def restore(self, path: str, *, reseal: bool):
        if Club.objects.exists() or Transfer.objects.exists():
            refuse("database", "restore needs an empty database: this one already has clubs")
        rows = read_backup(path)
        # Closed evenings are restored with their postings: lift the closed-evening guard for
        # this transaction only. loaddata resets PostgreSQL's sequences itself. The ledger is
        # verified inside the same transaction: a backup that does not verify is rolled back
        # whole, leaving the database exactly as it was (empty).
        try:
            with transaction.atomic(), ledger_unlocked():
                if connection.vendor == "postgresql":
                    with connection.cursor() as cursor:
                        cursor.execute("SET LOCAL ledger.restoring = 'on'")
                call_command("loaddata", path, verbosity=0)
                club_defaults_of_older_backups(rows)
                if connection.vendor == "postgresql":
                    with connection.cursor() as cursor:
                        cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")
                # The summaries are derived: never taken from the file, rebuilt from the
                # transfers just loaded (and then checked by verify_ledger with the rest).
                balances.rebuild()
                stats.replay()
                stats.rebuild()
                if reseal:
                    seals.seal_all()
                # The planner's statistics of the tables just filled (PostgreSQL's pg_statistic,
                # SQLite's sqlite_stat1): without them the first pages after a restore plan as
                # for empty tables (issue 31).
                with connection.cursor() as cursor:
                    cursor.execute("ANALYZE")
                report = verify_ledger()
                if not report.ok:
                    raise Refused(
                        [
                            {
                                "field": "ledger",
                                "message": "the restored ledger does not verify, so nothing "
                                "was restored: " + problem,
                            }
                            for problem in report.problems[:MAX_PROBLEMS]
                        ]
                    )
        except Refused:
            raise
        except Exception as error:  # whatever the rows hold: a refusal, never a traceback
            lines = str(error).strip().splitlines()
            refuse(
                "file", "the rows cannot be loaded: " + (lines[-1] if lines else repr(error))[:400]
            )
        return report
