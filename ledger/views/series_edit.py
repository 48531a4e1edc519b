"""A series changed after its creation (``federation.md`` section 2, "Changing a series"):
its name, seed, dates and rule on a form prefilled with it (``series_change``), and each
event's factor changed or the event removed on the event's own page
(``series_event_factor_set``, ``series_event_remove``). The officer's pages of a federation's
series (``ledger.views.federation_officer``) and a club admin's of the club's own cup (here)
share the handling below."""

from __future__ import annotations

from django.contrib import messages
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext
from django.views.decorators.http import require_http_methods

from ledger.forms.federation import FactorForm, SeriesForm
from ledger.models import Series, SeriesEvent
from ledger.selectors import federation as reads
from ledger.services import federation as services
from ledger.services.errors import LedgerError
from ledger.services.federation.series import series_values
from ledger.views.tournaments import ADMIN
from ledger.web.http import found
from ledger.web.permissions import club_role
from ledger.web.refusals import refuse


def change_series(request, series: Series) -> tuple[SeriesForm, bool]:
    """The change form of ``series`` (prefilled; a POST sent to ``series_change``): the form
    and whether the POST went through (then the outcome is the next page's message)."""
    form = SeriesForm(request.POST or None, initial=SeriesForm.initial_of(series))
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        before = series_values(series)
        try:
            changed = services.series_change(
                series=series,
                name=data["name"],
                seed=data["seed"],
                starts_on=data["starts_on"],
                ends_on=data["ends_on"],
                rule=form.rule(),
                by=request.user,
            )
        except LedgerError as error:
            refuse(request, error, form, fields=form.field_of, capitalised=True)
        else:
            if series_values(changed) == before:
                messages.info(request, gettext("Nothing changed."))
            else:
                messages.success(request, gettext("The series is changed."))
            return form, True
    return form, False


def event_of(series: Series, event: int) -> SeriesEvent:
    """The series' event ``event`` (its tournament or imported event read), or 404."""
    return found(reads.series_event(series, event), "series event")


def change_event(request, event: SeriesEvent) -> tuple[FactorForm, bool]:
    """The event's factor form (a POST with ``remove`` removes the event instead): the form
    and whether the POST went through (the outcome is the next page's message)."""
    removing = request.method == "POST" and "remove" in request.POST
    data = request.POST if request.method == "POST" and not removing else None
    form = FactorForm(data, initial={"factor": event.factor})
    if request.method != "POST" or not (removing or form.is_valid()):
        return form, False
    try:
        if removing:
            services.series_event_remove(event=event, by=request.user)
        else:
            before = event.factor
            after = services.series_event_factor_set(
                event=event, factor=form.cleaned_data["factor"], by=request.user
            ).factor
    except LedgerError as error:
        refuse(request, error, form, capitalised=True)
        return form, False
    if removing:
        messages.success(request, gettext("The event is removed from the series."))
    elif after == before:
        messages.info(request, gettext("Nothing changed."))
    else:
        messages.success(request, gettext("The factor is changed."))
    return form, True


def _club_cup(request, pk: int) -> Series:
    """The club's own cup ``pk`` (a federation's series is its officers'), or 404."""
    return found(reads.club_cup(request.club, pk), "series")


def _club_page(request, template: str, status: int, **context):
    return render(request, f"ledger/federation/{template}", context, status=status)


@club_role(ADMIN)
@require_http_methods(["GET", "POST"])
def cup_change(request, pk):
    """The club's own cup changed by its admin: name, seed, dates and rule, and its events'
    factors (each a link to its event's page)."""
    series = _club_cup(request, pk)
    form, done = change_series(request, series)
    if done:
        return redirect(reverse("series_ladder", kwargs={"club": request.club.slug, "pk": pk}))
    return _club_page(
        request,
        "cup_change.html",
        422 if request.method == "POST" else 200,
        series=series,
        form=form,
        events=reads.series_event_rows(series),
    )


@club_role(ADMIN)
@require_http_methods(["GET", "POST"])
def cup_event(request, pk, event):
    """An event of the club's own cup: its factor changed, or the event removed."""
    series = _club_cup(request, pk)
    one = event_of(series, event)
    form, done = change_event(request, one)
    if done:
        return redirect(reverse("cup_change", kwargs={"club": request.club.slug, "pk": pk}))
    return _club_page(
        request,
        "cup_event.html",
        422 if request.method == "POST" else 200,
        series=series,
        event=one,
        form=form,
    )
