"""Kept PDFs: each named once with its key and its render, and rendered at the close, off the
request, in a process of its own (issue 31).

**What is kept.** Every PDF of something that stops changing is kept in the shared store
(``ledger.web.kept``) under a key naming everything it shows: a closed evening's sheet (with
and without the transfers) and its tables' sheets, a season's standings and each member's
season (by the seals of the season's evenings and tables), a tournament's ranking (by its
``version``) and a closed round's result. The functions below return ``(key, render)``: the
views serve the PDF kept under the key, else render it (``kept.kept_report``); the render
process keeps it with the same pair, so a PDF has one key whoever renders it.

**Rendered at the close.** When a treasurer closes an evening, a director closes a round or
makes a tournament final, the view calls ``after_close``: once the transaction has committed
(``transaction.on_commit``) the PDFs that will be asked for are rendered, so the first reader
waits no longer than the second. At an evening's close: its sheet with and without the
transfers and each ordinary table's sheet (a round table's sheet is the tournament's), the
season's standings, in the closer's language and the club's, and each seated member's season
in his own language (his profile's, else the club's): one each, not one per language, since
a member's season PDF costs seconds and is read by him. At a round's close: its result and
the ranking; at the final: the ranking. A PDF already kept is not rendered again.

``settings.TAROK_KEPT_RENDER`` says where: ``"process"`` (the default) starts
``manage.py render_kept`` in a session of its own, at a lower priority; it renders the batch
one PDF at a time and exits, so WeasyPrint's memory (tens of MB per render) is never a
gunicorn worker's and the request that closes returns at once. ``"inline"`` renders in the
request after the commit (the tests: deterministic, no process); ``"off"`` renders nothing at
the close (the first reader renders). A PDF is stored whole or not at all (``kept``), so a
killed render process leaves nothing half-written: the next reader renders it.
"""

from __future__ import annotations

import functools
import logging
import os
import subprocess
import sys
import threading
from collections.abc import Callable, Iterator

from django.conf import settings
from django.db import transaction
from django.utils import timezone, translation

from ledger import reports
from ledger.models import Club, Evening, Member, Profile, Round, Seat, Table, Tournament
from ledger.tables.columns import activate_currency, deactivate_currency
from ledger.web import kept
from ledger.web.locale import activate_time_zone, offered

logger = logging.getLogger(__name__)

Report = tuple[str, str, bytes]
Pdf = tuple[str | None, Callable[[], Report]]
CLOSES = ("evening", "round", "tournament")


# --- each kept PDF: its key and its render ----------------------------------------------------


def evening_sheet(evening: Evening, transfers: bool) -> Pdf:
    """The evening's sheet (``transfers``: with every transfer), kept once it is closed."""
    return (
        kept.closed_evening_key(evening, "sheet", transfers),
        lambda: reports.evening_sheet_pdf(evening=evening, transfers=transfers),
    )


def table_sheet(evening: Evening, table: Table) -> Pdf:
    """A table's sheet, kept once its evening is closed."""
    return (
        kept.closed_evening_key(evening, "table", table.pk),
        lambda: reports.table_sheet_pdf(table=table),
    )


def season_standings(season, club) -> Pdf:
    """The season's standings, kept until any of its evenings or tables changes."""
    return (
        kept.season_key(season, club, "standings"),
        lambda: reports.season_standings_pdf(season=season),
    )


def member_season(season, club, member: Member) -> Pdf:
    """A member's season, kept like the standings and by his name and role."""
    return (
        kept.member_season_key(season, club, member),
        lambda: reports.member_season_pdf(season=season, member=member),
    )


def ranking(tournament, club) -> Pdf:
    """The tournament's ranking (provisional or final), kept by its version."""
    return (
        kept.tournament_key(tournament, club, "ranking"),
        lambda: reports.tournament_ranking_pdf(tournament=tournament),
    )


def round_result(round_, club) -> Pdf:
    """A round's result, kept once the round is closed."""
    return (
        kept.closed_round_key(round_, club),
        lambda: reports.tournament_round_result_pdf(round_=round_),
    )


# --- rendered at the close -------------------------------------------------------------------


def keep(pdf: Pdf) -> bool:
    """Render and keep ``pdf`` unless it is kept already (or not to be kept: no key); True
    when it rendered. The store's row is written whole after the render, or not at all."""
    key, render = pdf
    if key is None:
        return False
    store = kept.shared()
    if store.has_key(key):
        return False
    store.set(key, render(), kept.KEPT_SECONDS)
    return True


def _evening_pdfs(evening: Evening, languages: list[str]) -> Iterator[tuple[str, Pdf]]:
    club = evening.club
    for language in languages:
        with translation.override(language):
            yield language, evening_sheet(evening, False)
            yield language, evening_sheet(evening, True)
            ordinary = Table.objects.filter(evening=evening, round_table__isnull=True)
            for table in ordinary.select_related("evening").order_by("number", "pk"):
                yield language, table_sheet(evening, table)
            if evening.season is not None:
                yield language, season_standings(evening.season, club)
    if evening.season is None:
        return
    seated = Seat.objects.filter(table__evening=evening).values("member")
    members = list(Member.objects.filter(pk__in=seated).order_by("pk"))
    own = dict(
        Profile.objects.filter(user__in={m.user_id for m in members if m.user_id})
        .exclude(language="")
        .values_list("user", "language")
    )
    for member in members:
        mine = own.get(member.user_id) if member.user_id is not None else None
        chosen = offered(mine) or offered(club.language) or settings.LANGUAGE_CODE
        with translation.override(chosen):
            yield chosen, member_season(evening.season, club, member)


def _tournament_pdfs(tournament, round_, languages: list[str]) -> Iterator[tuple[str, Pdf]]:
    for language in languages:
        with translation.override(language):
            if round_ is not None:
                yield language, round_result(round_, tournament.club)
            yield language, ranking(tournament, tournament.club)


def batch(closed: str, pk: int, languages: list[str]) -> Iterator[tuple[str, Pdf]]:
    """Yield ``(language, pdf)`` of each PDF to keep after ``closed`` (an evening, a round or
    a tournament) of id ``pk`` closed; nothing when it is gone or open again."""
    if closed == "evening":
        evening = Evening.objects.select_related("club", "season").filter(pk=pk).first()
        if evening is not None and evening.status == Evening.Status.CLOSED:
            yield from _evening_pdfs(evening, languages)
    elif closed == "round":
        round_ = Round.objects.select_related("tournament__club").filter(pk=pk).first()
        if round_ is not None and round_.status == Round.Status.CLOSED:
            yield from _tournament_pdfs(round_.tournament, round_, languages)
    elif closed == "tournament":
        tournament = Tournament.objects.select_related("club").filter(pk=pk).first()
        if tournament is not None:
            yield from _tournament_pdfs(tournament, None, languages)


def _club_of(closed: str, pk: int):
    rows = {
        "evening": Evening.objects.filter(pk=pk).values_list("club", flat=True),
        "round": Round.objects.filter(pk=pk).values_list("tournament__club", flat=True),
        "tournament": Tournament.objects.filter(pk=pk).values_list("club", flat=True),
    }[closed]
    return Club.objects.filter(pk__in=rows).first()


def render_batch(closed: str, pk: int, languages: list[str]) -> int:
    """Keep every PDF of ``batch``, each in its language and the club's time zone and
    currency (as a reader's request has them); return how many were rendered."""
    club = _club_of(closed, pk)
    if club is None:
        return 0
    activate_time_zone(club)
    token = activate_currency(club.currency)
    rendered = 0
    try:
        for language, pdf in batch(closed, pk, languages):
            with translation.override(language):
                rendered += keep(pdf)
    finally:
        deactivate_currency(token)
        timezone.deactivate()
    return rendered


def after_close(request, closed: str, pk: int) -> None:
    """Have the PDFs of ``closed`` (``"evening"``, ``"round"`` or ``"tournament"``) ``pk``
    rendered once the request's transaction commits (``settings.TAROK_KEPT_RENDER``)."""
    mode = settings.TAROK_KEPT_RENDER
    if mode == "off":
        return
    asked = (translation.get_language(), offered(request.club.language))
    languages = list(dict.fromkeys(language for language in asked if language))
    transaction.on_commit(functools.partial(start, mode, closed, pk, languages))


def start(mode: str, closed: str, pk: int, languages: list[str]) -> None:
    """Render the batch here (``inline``) or start the render process and return at once."""
    if mode == "inline":
        render_batch(closed, pk, languages)
        return
    command = [
        sys.executable,
        str(settings.BASE_DIR / "manage.py"),
        "render_kept",
        closed,
        str(pk),
        *(f"--language={language}" for language in languages),
    ]
    # The worker's own settings (manage.py would default a developer's DEBUG).
    env = {**os.environ, "DJANGO_DEBUG": "1" if settings.DEBUG else "0"}
    try:
        process = subprocess.Popen(  # noqa: S603 - our own command, no shell
            command,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            start_new_session=True,
            env=env,
        )
    except OSError:
        logger.exception("the render process did not start", extra={"event": "render-kept"})
        return
    # Reaped when it exits (no zombie left to the worker), without waiting for it here.
    threading.Thread(target=process.wait, daemon=True).start()
    logger.info(
        "render process started",
        extra={"event": "render-kept", "closed": closed, "pk": pk, "pid": process.pid},
    )
