import json

from django.core.management.base import BaseCommand

from ledger.selectors.chain import heads


class Command(BaseCommand):
    help = (
        "Print every club's chain head as JSON (a witness file): keep it outside the database "
        "(mail it, print it, store it elsewhere); verify_ledger --witness FILE later checks that "
        "the ledger still extends it."
    )

    def handle(self, *args, **options):
        self.stdout.write(json.dumps(heads(), indent=2))
