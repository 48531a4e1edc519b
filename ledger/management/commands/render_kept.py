"""Render and keep the PDFs of a closed evening, round or tournament (issue 31).

Started by the site after a close commits (``ledger.web.kept_pdfs``, in a process of its own
that exits after its batch, so its memory goes with it); it can be run by hand too.
"""

from __future__ import annotations

import os
import resource
import time

from django.conf import settings
from django.core.management.base import BaseCommand

from ledger.web import kept_pdfs


class Command(BaseCommand):
    help = (
        "Render and keep the PDFs that are read after a close: an evening's sheets, its "
        "season's standings and each seated member's season; a round's result and the "
        "tournament's ranking; a final ranking. A PDF already kept is not rendered again."
    )

    def add_arguments(self, parser):
        parser.add_argument("closed", choices=kept_pdfs.CLOSES, help="what was closed")
        parser.add_argument("pk", type=int, help="its id")
        parser.add_argument(
            "--language",
            action="append",
            default=[],
            help="a language of the sheets, standings and ranking (repeatable; default: "
            "the site's)",
        )
        parser.add_argument(
            "--nice", type=int, default=10, help="lower the process's priority by this much"
        )

    def handle(self, *args, **options):
        if options["nice"] > 0:
            os.nice(options["nice"])
        started = time.perf_counter()
        languages = options["language"] or [settings.LANGUAGE_CODE]
        rendered = kept_pdfs.render_batch(options["closed"], options["pk"], languages)
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024
        self.stdout.write(
            f"{options['closed']} {options['pk']}: {rendered} PDFs rendered in "
            f"{time.perf_counter() - started:.1f} s, peak {peak} MB"
        )
