"""Rebuild the account balance and statistics summaries from the ledger."""

from django.core.management.base import BaseCommand, CommandError
from django.db import transaction

from ledger.models import Club, PostingSeat, Table
from ledger.services import balances, stats


class Command(BaseCommand):
    help = (
        "Recompute every account's balance summary (AccountBalance) from its transfers, the "
        "seat rows of hands (PostingSeat) by settling each live hand again, and the "
        "statistics (AccountStats) from those rows, in one transaction; with --club, only "
        "that club's tables."
    )

    def add_arguments(self, parser):
        parser.add_argument("--club", help="the club's short name (slug); default: every club")

    def handle(self, *args, **options):
        tables = None
        if options["club"]:
            club = Club.objects.filter(slug=options["club"]).first()
            if club is None:
                raise CommandError(f"no club with the short name {options['club']!r}")
            tables = Table.objects.filter(evening__club=club)
        with transaction.atomic(durable=True):
            if tables is not None:
                # Lock the club's tables, so no hand is written while the summary is rebuilt.
                list(tables.select_for_update(of=("self",)).values_list("pk", flat=True))
            else:
                list(Table.objects.select_for_update(of=("self",)).values_list("pk", flat=True))
            rows = balances.rebuild(tables)
            seat_rows = PostingSeat.objects.all()
            if tables is not None:
                seat_rows = seat_rows.filter(posting__table__in=tables)
            seat_rows.delete()
            stats.replay(tables)
            counted = stats.rebuild(tables)
        self.stdout.write(
            f"rebuilt the balance summary of {rows} accounts and the statistics of {counted}"
        )
