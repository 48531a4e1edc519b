"""The federation's pages: a series' ladder under a club's URLs (read-only), and the officers'
pages under ``/f/<federation>/`` (``ledger.web.federation_access``)."""

from __future__ import annotations

from django.http import Http404
from django.shortcuts import render
from django_tables2 import RequestConfig

from ledger.selectors import federation as reads
from ledger.tables.federation import LadderTable
from ledger.web.federation_access import federation_officer
from ledger.web.permissions import club_role


@club_role()
def series_ladder(request, pk):
    """A series' ladder (a series of the club or of a federation it belongs to)."""
    series = next((s for s in reads.club_series(request.club) if s.pk == pk), None)
    if series is None:
        raise Http404
    table = LadderTable(reads.ladder_lines(series))
    RequestConfig(request, paginate=False).configure(table)
    return render(request, "ledger/federation/ladder.html", {"series": series, "table": table})


@federation_officer()
def federation_home(request):
    """A federation's home for its officers: its game and language, its member clubs, and the
    way to each of the officer's pages."""
    federation = request.federation
    return render(
        request,
        "ledger/federation/home.html",
        {"federation": federation, "clubs": list(federation.clubs.order_by("name"))},
    )
