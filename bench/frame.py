"""The site's frame around nothing, for ``bench/pages.py``: a club page that reads nothing of
its own (``frame``), served through the same test client, middleware and template as every
page. What it costs is what each page pays before its own reads (the session, the user, the
club and the reader's membership, the frame's template), which no raw-SQL floor counts. Only
the bench routes to it (``ROOT_URLCONF`` overridden while it is timed); the site has no such
page."""

from __future__ import annotations

from django.shortcuts import render
from django.urls import path

import tarokclub.urls
from ledger.web.permissions import club_role


@club_role()
def frame(request, **_kwargs):
    return render(request, "base.html")


urlpatterns = [
    path("c/<slug:club>/bench-frame/", frame, name="bench_frame"),
    *tarokclub.urls.urlpatterns,
]
