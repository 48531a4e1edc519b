"""A federation's ladders in public, and the officer's switch that publishes them.

``/f/<federation>/publish/`` (POST, the federation's officers): publish the federation's series
and their ladders, or stop. ``/pf/<federation>/`` lists a publishing federation's series,
``/pf/<federation>/series/<pk>/`` shows one's ladder (CSV and XLSX with ``?_export=``) and
``ladder.pdf`` prints it for the notice board. Every public page answers 404 unless the
federation publishes (as a club's public pages do), takes no POST and needs no log-in; the
prefix ``/pf/`` cannot meet a club's short name (clubs live under ``/p/``).
"""

from __future__ import annotations

import hashlib

from django.contrib import messages
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext
from django.views.decorators.http import require_POST, require_safe

from ledger import reports
from ledger.selectors import federation as reads
from ledger.services import federation as services
from ledger.views.federation import ladder_table
from ledger.views.tournament_sheets import pdf_response
from ledger.web.federation_access import federation_officer
from ledger.web.http import found
from ledger.web.locale import offered, own_language, use_language


@federation_officer()
@require_POST
def federation_publish(request):
    """Publish the federation's ladders (``publish=1``) or stop (anything else); back to the
    federation's home with what changed."""
    publish = request.POST.get("publish") == "1"
    services.federation_publish_set(federation=request.federation, publish=publish, by=request.user)
    messages.success(
        request,
        gettext("The ladders are public.") if publish else gettext("The ladders are private."),
    )
    return redirect("federation_home", federation=request.federation.slug)


def _public(request, slug: str):
    """The publishing federation of ``slug`` (404 otherwise), its pages in the reader's
    language, else the federation's."""
    federation = found(reads.published_federation(slug), "federation")
    use_language(request, own_language(request) or offered(federation.language) or "en")
    return federation


def _series(federation, pk: int):
    return found(next((s for s in reads.public_series(federation) if s.pk == pk), None))


@require_safe
def public_federation(request, federation):
    """A publishing federation's series, each with a link to its ladder."""
    federation = _public(request, federation)
    return render(
        request,
        "ledger/public/federation.html",
        {"federation": federation, "series_list": reads.public_series(federation)},
    )


@require_safe
def public_ladder(request, federation, pk):
    """A series' ladder of a publishing federation, a page of it (``ladder_table``), the rule
    in words; CSV and XLSX of all of it with ``?_export=``."""
    federation = _public(request, federation)
    series = _series(federation, pk)
    table, answer = ladder_table(request, series, f"ladder-{federation.slug}-{series.pk}")
    if answer is not None:
        return answer
    board = reads.ladder_board(series, lines=False)
    return render(
        request,
        "ledger/public/ladder.html",
        {
            "federation": federation,
            "series": series,
            "board": board,
            "table": table,
            "pdf_url": reverse(
                "public_ladder_pdf", kwargs={"federation": federation.slug, "pk": series.pk}
            ),
        },
    )


@require_safe
def public_ladder_pdf(request, federation, pk):
    """A series' ladder of a publishing federation as the notice board's PDF, kept while its
    ladder, the language and the day are the same (a reader without a log-in shares it)."""
    federation = _public(request, federation)
    series = _series(federation, pk)
    board = reads.ladder_board(series)
    facts = [series.pk, series.name, series.seed, series.rule, board.last_event, board.events]
    facts += [
        (line.position, line.player.pk, line.player.name, str(line.total), line.struck)
        for line in board.lines
    ]
    facts += [translation.get_language(), timezone.localdate()]
    key = "ladder-pdf:" + hashlib.sha256(repr(facts).encode()).hexdigest()
    return pdf_response(
        request, lambda: reports.series_ladder_pdf(series=series, board=board), key=key
    )
