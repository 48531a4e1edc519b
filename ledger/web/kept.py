"""Heavy renders kept and bounded: PDFs of what cannot change, one render at a time per user.

**Kept PDFs.** A closed evening never changes until it is reopened, so its evening sheet (with
and without the transfers), its table sheets and a season's standings are kept in the shared
cache (``CACHES["shared"]``, a database table every worker reads) under a *version key*: a
digest of everything the PDF shows that can change. For an evening that is its head seal
(``ledger.services.seals``: status, closing time, results, tables, the log's length and last
seal, so a reopen or a new close changes it), the id of its latest log entry and its closing
time; for a season the head seals of its evenings and of their tables (a hand saved at an open
table changes its table's seal). Every key also holds what the page frame and the names show:
the club's name and currency, the members' names, the language and the day printed (the
margin says "Printed <date>"). A repeat download with the same key is served from the store
without rendering; a reopened evening has a new key, so its old PDF is never served again
(it expires after ``KEPT_SECONDS``). Permissions are checked before the store is looked at,
and a PDF holds nothing that depends on who reads it. A PDF is kept whole or not at all: it
is rendered into memory and written as one row of the store (one statement, in a
transaction), so a render killed midway leaves nothing behind. A member's season PDF, a
tournament's ranking and a closed round's result are kept the same way (the tournament's by
its ``version``), and ``ledger.web.kept_pdfs`` renders them at the close, off the request.

**One render at a time per user.** A PDF that is not kept is rendered under a per-user lock in
the shared cache (``cache.add``: one row insert, atomic on both databases, so it holds across
gunicorn workers); a second request of the same user meanwhile gets 429 with ``Retry-After``
instead of a second worker busy for seconds, so one member cannot starve the tablets. The lock
expires after ``LOCK_SECONDS`` should a worker die while holding it.

**Versions of the live screens.** ``table_version`` and ``evening_version`` are one query each:
the seals of a table's head, or of an evening's head and its tables' heads, with the statuses.
The htmx polls answer 304 when the version they sent (``If-None-Match``) is the current one.
A page that shows an evening's tables keeps each table's part by that table's seal
(``table_part_key``) in the worker's memory (``kept_local_part``), shared by every reader it
looks the same to: after a save at one table the next reader's page renders that table again,
not the others.
"""

from __future__ import annotations

import contextlib
import hashlib
import logging

from django.core.cache import caches
from django.db.models import Exists, OuterRef, Q, Subquery
from django.http import HttpResponse, HttpResponseNotModified
from django.utils import timezone
from django.utils.cache import patch_cache_control, patch_vary_headers
from django.utils.http import parse_etags, quote_etag
from django.utils.translation import get_language, gettext

from ledger.models import Evening, EveningLog, Member, Round, Seal, Table

KEPT_SECONDS = 30 * 24 * 3600
LOCK_SECONDS = 120
RETRY_AFTER = 5


def shared():
    """Return the cache every worker shares (``CACHES["shared"]``)."""
    return caches["shared"]


def forget_all() -> None:
    """Keep nothing: this process's caches and the shared store (the benches' "nothing
    kept")."""
    for alias in ("default", "parts", "shared"):
        caches[alias].clear()


def _digest(parts) -> str:
    return hashlib.sha256(repr(parts).encode()).hexdigest()


def names(club) -> list:
    """Return the club's members' names (a rename changes what a kept page would show)."""
    return list(Member.objects.filter(club=club).order_by("pk").values_list("pk", "name"))


def _frame(club) -> tuple:
    """What a PDF of ``club`` shows besides its ledger: names, language, the day printed."""
    return (club.pk, club.name, club.currency, names(club), get_language(), timezone.localdate())


def closed_evening_key(evening: Evening, *parts) -> str | None:
    """Return the store key of a PDF of ``evening`` (``parts`` say which one), or None while
    the evening is open (an open evening's PDFs are rendered every time)."""
    row = (
        Evening.objects.filter(pk=evening.pk)
        .annotate(
            seal=Subquery(
                Seal.objects.filter(kind=Seal.Kind.EVENING, object_id=OuterRef("pk")).values(
                    "digest"
                )[:1]
            ),
            last_log=Subquery(
                EveningLog.objects.filter(evening=OuterRef("pk")).order_by("-pk").values("pk")[:1]
            ),
        )
        .values_list("status", "closed_at", "seal", "last_log")
        .first()
    )
    if row is None or row[0] != Evening.Status.CLOSED:
        return None
    season = evening.season.name if evening.season is not None else None  # named in the lead
    return "pdf:evening:" + _digest((evening.pk, parts, row, season, _frame(evening.club)))


def season_seals(season) -> list[tuple]:
    """Return the seals of ``season``'s evenings' heads and of their tables' heads as (kind,
    object id, digest) (one query): a hand saved, corrected or voided at any of its tables,
    a close, a reopen or an adjustment changes one of them."""
    evenings = Evening.objects.filter(season=season).values("pk")
    return list(
        Seal.objects.filter(
            Q(kind=Seal.Kind.EVENING, object_id__in=evenings)
            | Q(kind=Seal.Kind.TABLE, scope__in=evenings)
        )
        .order_by("kind", "object_id")
        .values_list("kind", "object_id", "digest")
    )


def season_key(season, club, *parts) -> str:
    """Return the store key of a PDF of ``season``: its evenings' and their tables' seals."""
    season_row = (season.pk, season.name, season.starts_on, season.ends_on)
    return "pdf:season:" + _digest((season_row, parts, season_seals(season), _frame(club)))


def member_season_key(season, club, member) -> str:
    """Return the store key of ``member``'s season PDF: the season's key (its evenings' and
    tables' seals, the names) and the member himself (his name and role, as printed)."""
    return season_key(season, club, "member", member.pk, member.name, member.role)


def tournament_key(tournament, club, *parts) -> str:
    """Return the store key of a PDF of ``tournament`` (``parts`` say which one): its id,
    when it was made and its ``version``, which every tournament service raises before it
    commits (entries, draws, results, corrections, the final), and the page frame."""
    state = (tournament.pk, tournament.created_at.timestamp(), tournament.version)
    return "pdf:tournament:" + _digest((state, tournament.status, parts, _frame(club)))


def closed_round_key(round_, club) -> str | None:
    """Return the store key of a round's result PDF, or None while the round is not closed
    (a round at play changes with every hand; a closed one only through its services)."""
    if round_.status != Round.Status.CLOSED:
        return None
    return tournament_key(round_.tournament, club, "round", round_.pk, round_.number)


logger = logging.getLogger(__name__)


class Busy(Exception):
    """The user already has a render under way."""


@contextlib.contextmanager
def one_at_a_time(user):
    """Hold the user's render lock for the block; raise ``Busy`` when another holds it."""
    key = f"render-lock:{user.pk}"
    store = shared()
    if not store.add(key, 1, LOCK_SECONDS):
        logger.info(
            "render refused: the user's last render is under way",
            extra={"event": "render-lock", "user": user.pk},
        )
        raise Busy
    try:
        yield
    finally:
        store.delete(key)


def busy_response() -> HttpResponse:
    """Return the 429 of a render asked for while the same user's last one is under way."""
    response = HttpResponse(
        gettext("This sheet is already being prepared for you; try again in a moment."),
        status=429,
        content_type="text/plain; charset=utf-8",
    )
    response["Retry-After"] = str(RETRY_AFTER)
    return response


def kept_report(request, key: str | None, render):
    """Return the report ``(filename, content_type, bytes)`` kept under ``key``, else render
    it (``render()``) under the user's lock and keep it when there is a key; ``Busy`` when the
    user's last render is still under way."""
    store = shared()
    if key is not None:
        kept = store.get(key)
        if kept is not None:
            return kept
    with one_at_a_time(request.user):
        report = render()
    if key is not None:
        store.set(key, report, KEPT_SECONDS)
    return report


# --- versions of the live screens -----------------------------------------------------------


def table_version(club, pk: int) -> str | None:
    """Return the version of a table of ``club`` (None when there is no such table or it has
    no seal yet): its head
    seal, which changes with every hand, correction, void, seat and status, and the
    evening's status (one query)."""
    row = (
        Table.objects.filter(pk=pk, evening__club=club)
        .annotate(
            seal=Subquery(
                Seal.objects.filter(kind=Seal.Kind.TABLE, object_id=OuterRef("pk")).values(
                    "digest"
                )[:1]
            )
        )
        .values_list("pk", "status", "evening__status", "seal")
        .first()
    )
    return None if row is None or row[3] is None else _digest(row)


def evening_seals(club, pk: int) -> list[tuple]:
    """Return the seals of an evening of ``club`` as (kind, object id, digest): its head's
    (its status among them) and each of its tables' heads' (one query; none when there is
    no such evening)."""
    return list(
        Seal.objects.filter(
            Q(kind=Seal.Kind.EVENING, object_id=pk) | Q(kind=Seal.Kind.TABLE, scope=pk),
            Exists(Evening.objects.filter(pk=pk, club=club)),
        )
        .order_by("kind", "object_id")
        .values_list("kind", "object_id", "digest")
    )


def version_of(seals: list[tuple]) -> str | None:
    """Return the version an evening's ``evening_seals`` make (None when it has none)."""
    return _digest(seals) if seals else None


def evening_version(club, pk: int) -> str | None:
    """Return the version of an evening of ``club`` (None when there is no such evening or it
    has no seals yet): the seals of its head and of its tables' heads (one query)."""
    return version_of(evening_seals(club, pk))


def table_part_key(seals: list[tuple], table_pk: int, *parts) -> str | None:
    """Return the key of a part of a page showing one table of an evening, shared by every
    reader it looks the same to: its table's head seal (from ``evening_seals``), ``parts``
    and the language; None when the table has no seal yet."""
    digest = next((d for k, o, d in seals if k == Seal.Kind.TABLE and o == table_pk), None)
    if digest is None:
        return None
    return _digest(("table-part", table_pk, digest, parts, get_language()))


# --- the polls' 304 and pages kept by their version -------------------------------------------

PAGE_SECONDS = 15 * 60


def reader_key(request, version: str | None, *parts) -> str | None:
    """Return a digest of ``version`` and of everything of the request a rendering depends
    on (the address with its query, the reader, his role in the club, the language); None
    without a version."""
    if version is None:
        return None
    user = request.user
    return _digest(
        (
            version,
            parts,
            request.get_full_path(),
            user.pk,
            getattr(request, "club_role", None),
            get_language(),
        )
    )


def poll_etag(request, version: str | None) -> str | None:
    """Return the ETag of an htmx poll's answer at ``version`` (None: no version known)."""
    key = reader_key(request, version, "poll")
    return None if key is None else quote_etag(key[:32])


def not_modified(request, etag: str | None) -> HttpResponse | None:
    """Return an empty 304 when the poll's ``If-None-Match`` names ``etag``, else None."""
    if etag is None or etag not in parse_etags(request.headers.get("If-None-Match", "")):
        return None
    return tagged(HttpResponseNotModified(), etag)


def tagged(response: HttpResponse, etag: str | None) -> HttpResponse:
    """Give a poll's answer its ETag; the browser keeps it and asks again with If-None-Match
    (``no-cache``: always asks), separately from the full page at the same address."""
    if etag is not None:
        response["ETag"] = etag
        patch_cache_control(response, private=True, no_cache=True)
        patch_vary_headers(response, ("HX-Request",))
    return response


def kept_local_part(key: str | None, render) -> str:
    """Return the HTML kept under ``key`` in this worker's memory (``CACHES["parts"]``), else
    ``render()`` and keep it: for the parts of a page kept as a whole in the shared store,
    where each part's trip to the database would cost about as much as it saves."""
    if key is None:
        return render()
    store = caches["parts"]
    html = store.get(key)
    if html is None:
        html = str(render())
        store.set(key, html, PAGE_SECONDS)
    return html


def kept_page_part(key: str | None, render) -> str:
    """Return the HTML kept under ``key`` (a ``reader_key``), else ``render()`` and keep it:
    in the shared store, so every worker finds it, and in this worker's memory
    (``kept_local_part``), so its next reader skips the store's query and the decoding of its
    value (about 1.5 ms for an evening's sheet). Both are keyed by the same version: neither
    can be staler."""
    if key is None:
        return render()
    key = "page:" + key

    def from_store() -> str:
        store = shared()
        html = store.get(key)
        if html is None:
            html = str(render())
            store.set(key, html, PAGE_SECONDS)
        return html

    return kept_local_part(key, from_store)
