"""A federation's officer pages for results files (``federation.md`` section 5), under
``/f/<federation>/``: the upload of a file (and the series it joins), the imported events with
each one's source, log, ranking and file again, and the upload tokens with which a club's
installation posts its files (``ledger.views.results_api``).

Every view is a ``federation_officer`` view; an event or token is looked up inside the
federation of the URL, so another federation's is 404.
"""

from __future__ import annotations

from django.contrib import messages
from django.http import JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django_tables2 import RequestConfig

from ledger.forms.federation_imports import ResultsUploadForm, UploadTokenForm
from ledger.selectors import imports as reads
from ledger.selectors.results_file import imported_document
from ledger.services.errors import LedgerError
from ledger.services.federation import series_event_add, tokens
from ledger.services.federation.results import CREATED, UNCHANGED, results_import
from ledger.tables.federation_imports import (
    ImportedEventsTable,
    ImportedRankingTable,
    UploadTokensTable,
)
from ledger.web.federation_access import federation_officer
from ledger.web.http import found
from ledger.web.refusals import refuse, refuse_message


def _event_of(request, pk: int):
    return found(reads.imported_event(request.federation, pk), "imported event")


def _outcome_text(action: str) -> str:
    if action == CREATED:
        return _("The event is imported.")
    if action == UNCHANGED:
        return _("Nothing changed: this revision of the event is already imported.")
    return _("The event is replaced by this revision.")


def _add_to_series(request, form, event) -> str | None:
    """Add the event to the series the form names (if any); return what happened, in words."""
    series = form.cleaned_data.get("series")
    if series is None:
        return None
    if series.events.filter(imported=event).exists():
        return _("The event already counts in the series {name}.").format(name=series.name)
    try:
        series_event_add(
            series=series, imported=event, factor=form.cleaned_data["factor"], by=request.user
        )
    except LedgerError as error:
        refuse(request, error, form, fields="series")
        return None
    return _("The event is added to the series {name}.").format(name=series.name)


@federation_officer()
def federation_import_upload(request):
    """Upload a results file: it is read as untrusted input, checked, recomputed and imported
    (created, unchanged or replaced); optionally added to one of the federation's series."""
    federation = request.federation
    series = reads.upload_series(federation)
    outcome = None
    if request.method == "POST":
        form = ResultsUploadForm(request.POST, request.FILES, series=series)
        if form.is_valid():
            try:
                result = results_import(
                    document=form.cleaned_data["document"], federation=federation, by=request.user
                )
            except LedgerError as error:
                refuse(request, error, form, fields="file", named=True)
            else:
                outcome = {
                    "result": result,
                    "text": _outcome_text(result.action),
                    "series": _add_to_series(request, form, result.event),
                }
                form = ResultsUploadForm(series=series) if form.is_valid() else form
    else:
        form = ResultsUploadForm(series=series)
    return render(
        request,
        "ledger/federation/import_upload.html",
        {"federation": federation, "form": form, "outcome": outcome},
    )


@federation_officer()
def federation_imports(request):
    """The federation's imported events: name, date, source, revision, when, players."""
    federation = request.federation
    table = ImportedEventsTable(reads.imported_events(federation), federation_slug=federation.slug)
    RequestConfig(request, paginate=False).configure(table)
    return render(
        request, "ledger/federation/imports.html", {"federation": federation, "table": table}
    )


@federation_officer()
def federation_import(request, pk):
    """One imported event, read-only: its source, its log (each revision, with the file's
    corrections), its ranking, the series it counts in, and its file to download."""
    federation = request.federation
    event = _event_of(request, pk)
    table = ImportedRankingTable(reads.imported_ranking(event), federation_slug=federation.slug)
    RequestConfig(request, paginate=False).configure(table)
    return render(
        request,
        "ledger/federation/import.html",
        {
            "federation": federation,
            "event": event,
            "table": table,
            "series": reads.imported_series(event),
            "log": list(reversed(event.log)),
        },
    )


@federation_officer()
def federation_import_file(request, pk):
    """The imported event's results file again (its last revision), as a download."""
    event = _event_of(request, pk)
    document = imported_document(event, exported_at=timezone.now())
    response = JsonResponse(document, json_dumps_params={"ensure_ascii": False, "indent": 2})
    filename = f"results-imported-{event.pk}-r{event.revision}.json"
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


@federation_officer()
def federation_tokens(request):
    """The federation's upload tokens: made (the token shown once, here), listed, revoked."""
    federation = request.federation
    form = UploadTokenForm()
    plain = None
    if request.method == "POST":
        if request.POST.get("action") == "revoke":
            token = reads.upload_tokens(federation).filter(pk=_pk(request.POST.get("token")))
            try:
                revoked = tokens.upload_token_revoke(
                    token=found(token.first(), "token"), by=request.user
                )
            except LedgerError as error:
                refuse_message(request, error)
            else:
                messages.success(
                    request, _("The token {label} is revoked.").format(label=revoked.label)
                )
            return redirect("federation_tokens", federation=federation.slug)
        form = UploadTokenForm(request.POST)
        if form.is_valid():
            try:
                _row, plain = tokens.upload_token_create(
                    federation=federation, label=form.cleaned_data["label"], by=request.user
                )
            except LedgerError as error:
                refuse(request, error, form, fields="label")
            else:
                form = UploadTokenForm()
    table = UploadTokensTable(reads.upload_tokens(federation))
    RequestConfig(request, paginate=False).configure(table)
    response = render(
        request,
        "ledger/federation/tokens.html",
        {
            "federation": federation,
            "form": form,
            "table": table,
            "plain": plain,
            "api_url": request.build_absolute_uri(
                reverse("results_api", kwargs={"federation": federation.slug})
            ),
        },
    )
    if plain is not None:
        response["Cache-Control"] = "no-store"
    return response


def _pk(value) -> int:
    text = str(value or "")
    return int(text) if text.isdigit() and len(text) < 19 else 0
