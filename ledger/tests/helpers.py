"""Helpers shared by the tests: builders of seasons and histories, log-ins, the world of the
authorization matrix, snapshots of the ledger, PDF text and a browser screenshot. Tests import
them from here, never from one another."""

from __future__ import annotations

import contextlib
import datetime
import io
import json
import os
import random
import re
import secrets
import shutil
import subprocess
import sys
import threading
import uuid
from collections.abc import Callable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any, NamedTuple, TypeVar

import pypdf
import pytest
from django.apps import apps
from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.core import serializers
from django.core.management import call_command
from django.db import connection, connections, transaction
from django.db.models import Model
from django.test import Client, override_settings
from pytest_django import DjangoDbBlocker

from ledger import services
from ledger.db import ledger_unlocked
from ledger.games.danish.engine import RateCard
from ledger.games.danish.engine.ratecard import FINE_TYPES, OPTIONS
from ledger.games.registry import get_game
from ledger.models import (
    Account,
    Club,
    Entry,
    Evening,
    Federation,
    Hand,
    ImportedEvent,
    Member,
    Round,
    RoundTable,
    Season,
    Seat,
    Series,
    Table,
    Tournament,
)
from ledger.tests import factories
from ledger.tests.conftest import ROOT
from ledger.tests.factories import (
    evening_e,
    get_member,
    make_club,
    make_member,
    make_season,
    new_member,
)
from ledger.tests.games.helpers import schedule_in_turn

# from test_standings
NAMES = ("Anna", "Bo", "Carl", "Dorte", "Erik")


# from test_standings
def build_season(
    club: Club, *, hands: int = 12, seed: int = 1, open_evening: bool = True
) -> tuple[Season, list[Evening]]:
    """Build a season of Evening E plus generated evenings; return (season, evenings).

    Evening 1 is Evening E (closed); evening 2 seats all five members at one table and,
    once it is closed, four of them at a second; evening 3 has a voided hand (a reversal)
    and an adjustment; evening 4 (when ``open_evening``) is still open. An evening outside
    the season and one of another club are added so that the reads must leave them out.
    """
    season = factories.make_season(club)
    members = {name: get_member(club, name) for name in NAMES}
    anna, bo, carl, dorte, erik = (members[n] for n in NAMES)
    e1, _, _ = factories.evening_e(club, members=[anna, bo, carl])
    services.evening_close(evening=e1)

    e2 = services.evening_open(club=club, date=datetime.date(2026, 11, 12))
    t21 = services.table_open(evening=e2, members=[anna, bo, carl, dorte, erik])
    factories.random_table_hands(t21, hands, seed=seed)
    services.table_close(table=t21)  # the same members move on to a second table
    t22 = services.table_open(evening=e2, members=[erik, dorte, carl, bo])
    factories.random_table_hands(t22, hands // 2 + 1, seed=seed + 1)
    services.evening_close(evening=e2)

    e3 = services.evening_open(club=club, date=datetime.date(2026, 11, 19))
    t3 = services.table_open(evening=e3, members=[bo, carl, dorte, erik])
    played = factories.random_table_hands(t3, hands, seed=seed + 2)
    services.hand_void(hand=played[1], reason="misdeal noticed later")
    services.adjustment_post(
        table=t3, source="Carl", target="Dorte", points=5, reason="a payment forgotten"
    )
    services.evening_close(evening=e3)
    evenings = [e1, e2, e3]

    if open_evening:
        e4 = services.evening_open(club=club, date=datetime.date(2026, 11, 26))
        t4 = services.table_open(evening=e4, members=[dorte, anna, erik])
        factories.random_table_hands(t4, hands // 2 + 1, seed=seed + 3)
        evenings.append(e4)

    outside = services.evening_open(club=club, date=datetime.date(2025, 3, 1))
    services.table_open(evening=outside, members=[anna, bo, carl])
    other = factories.make_club(slug=f"other{club.pk}", name="Other")
    factories.make_season(other)
    factories.evening_e(other)
    return season, evenings


# from test_query_counts
def small_history(club: Club) -> tuple[Evening, Evening]:
    """Return (closed evening, open evening): Evening E closed, and played again, open."""
    factories.make_season(club)
    closed, _, _ = factories.evening_e(club)
    services.evening_close(evening=closed)
    still_open, _, _ = factories.evening_e(club, date=datetime.date(2026, 11, 6))
    return closed, still_open


# from test_query_counts
def large_history(club: Club) -> tuple[Evening, Evening]:
    """Return (closed evening, open evening) of a season of four evenings and ~150 hands."""
    _, evenings = build_season(club, hands=40)
    return evenings[1], evenings[3]


# from test_my_page
def log_in_as(client: Client, club: Club, name: str = "Anna") -> Member:
    member = Member.objects.get(club=club, name=name)
    member.user = get_user_model().objects.create_user(
        username=f"{club.slug}-{name}-me".lower(), password=factories.PASSWORD
    )
    member.save()
    client.force_login(member.user)
    return member


# from test_views_scoring
def login(client: Client, member: Member) -> Client:
    assert member.user is not None
    assert client.login(username=member.user.username, password=factories.PASSWORD)
    return client


# from test_views_scoring
def main(html: str) -> str:
    """A page's ``<main>`` (what it shows, without the per-response CSRF token)."""
    return html.split("<main>", 1)[1].split("</main>", 1)[0]


def english(client: Client) -> Client:
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    return client


# from test_views_scoring
def config_of(response) -> dict:
    match = re.search(
        r'<script id="hand-config" type="application/json">(.*?)</script>',
        response.content.decode(),
        re.S,
    )
    assert match is not None, "no hand config on the page"
    return json.loads(match.group(1))


def found(pattern: str, text: str, flags: int = 0) -> re.Match[str]:
    """Return the first match of ``pattern`` in ``text``; the test fails naming the pattern
    when there is none (a page without the markup it looks for)."""
    match = re.search(pattern, text, flags)
    assert match is not None, f"{pattern!r} is not in the text"
    return match


# from test_backup
def wipe() -> None:
    """Empty the database as a fresh installation would be (test-only flush)."""
    if connection.vendor == "postgresql":
        # Deferred foreign-key checks must fire before the tables can be truncated.
        with connection.cursor() as cursor:
            cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")
    with ledger_unlocked():
        call_command("flush", interactive=False, verbosity=0)


def restore_refused(path, *options) -> list[str]:
    """Run ``restore`` on a file it must refuse; return the messages it printed (it exits 2
    printing ``{"errors": [...]}``, never a traceback)."""
    out = io.StringIO()
    with pytest.raises(SystemExit) as exit_:
        call_command("restore", str(path), *options, stdout=out)
    assert exit_.value.code == 2
    errors = json.loads(out.getvalue())["errors"]
    assert errors and all(set(e) == {"field", "message"} for e in errors)
    return [f"{e['field']}: {e['message']}" for e in errors]


# from test_concurrency
def run_together(*calls: Callable[[], Any]) -> tuple[list[Any], list[Exception | None]]:
    """Run the calls in threads released at the same instant; return results and errors."""
    barrier = threading.Barrier(len(calls))
    results: list[Any] = [None] * len(calls)
    errors: list[Exception | None] = [None] * len(calls)

    def worker(i, call):
        try:
            barrier.wait()
            results[i] = call()
        except Exception as error:
            errors[i] = error
        finally:
            connections.close_all()

    threads = [threading.Thread(target=worker, args=(i, c)) for i, c in enumerate(calls)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    return results, errors


# from test_locking
class HeldLock:
    """Hold the row lock of one table from another connection until ``release()``."""

    def __init__(self, table_pk: int):
        self.table_pk = table_pk
        self.held = threading.Event()
        self.done = threading.Event()
        self.thread = threading.Thread(target=self._hold)

    def _hold(self):
        try:
            with transaction.atomic():
                Table.objects.select_for_update().get(pk=self.table_pk)
                self.held.set()
                self.done.wait(timeout=60)
        finally:
            connections.close_all()

    def __enter__(self):
        self.thread.start()
        assert self.held.wait(timeout=30), "the other connection never had the lock"
        return self

    def release(self):
        self.done.set()
        self.thread.join(timeout=30)

    def __exit__(self, *exc):
        self.release()


# from the engine commands' tests (games/danish, tournaments)
def run_command(name: str, *args: str, stdin: str | None = None) -> tuple[int, str]:
    """Run the management command ``name`` in this process as ``manage.py name *args`` would,
    reading ``stdin`` (UTF-8) as its standard input; return its exit code and what it printed.

    A real process costs a Django start-up (about a second); one test per command family keeps
    the real process (tournaments/test_examples.py) to prove the exit code reaches the shell.
    """
    out = io.StringIO()
    saved = sys.stdin
    if stdin is not None:
        sys.stdin = io.TextIOWrapper(io.BytesIO(stdin.encode("utf-8")), encoding="utf-8")
    try:
        call_command(name, *args, stdout=out)
        code = 0
    except SystemExit as stop:
        # As the interpreter turns SystemExit into a status: None is 0, a message is 1.
        code = 0 if stop.code is None else stop.code if isinstance(stop.code, int) else 1
    finally:
        sys.stdin = saved
    return code, out.getvalue()


# from test_settings_defaults
def clean_env(**extra: str) -> dict[str, str]:
    """The environment of a bare production start: no DJANGO_* variable at all."""
    keep = {"PATH", "HOME", "LANG", "LC_ALL", "SYSTEMROOT", "TMPDIR"}
    env = {k: v for k, v in os.environ.items() if k in keep}
    return {**env, **extra}


# from test_hardening
def documented_environment() -> dict[str, str]:
    """Return the production environment documented in deploy/tarokclub.env.example (shown in
    docs/operator.md), with its two secrets made up here."""
    text = (ROOT / "deploy" / "tarokclub.env.example").read_text(encoding="utf-8")
    env = dict(re.findall(r"^(\w+)=(.*)$", text, re.M))
    assert env["DJANGO_SECRET_KEY"].startswith("change-me")
    env["DJANGO_SECRET_KEY"] = secrets.token_urlsafe(50)
    env["LEDGER_SEAL_SECRET"] = secrets.token_urlsafe(48)
    return env


# from test_settings_defaults
def run_python(code: str, **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        env=clean_env(**env),
        capture_output=True,
        text=True,
        timeout=120,
    )


# from test_admin
def form_data(club: Club | None = None, **changes: Any) -> dict[str, Any]:
    """Return a complete, valid POST of the club form (defaults), with ``changes`` applied."""
    data = {
        "name": club.name if club else "Hjørring Tarokklub",
        "slug": club.slug if club else "hjoerring",
        "game": "danish_tarok",
        "price_per_point": "0.25",
        "currency": "DKK",
        "language": "da",
        "time_zone": "Europe/Copenhagen",
        "starting_jetons": "500",
    }
    rates = RateCard()
    for key in RateCard.amount_keys():
        data[key] = str(getattr(rates, key))
    for fine_type in FINE_TYPES:
        data[f"fines_per_cup__{fine_type}"] = str(rates.fine(fine_type))
    for key in OPTIONS:
        data[key] = getattr(rates, key)
    data.update({k: str(v) for k, v in changes.items()})
    return data


# from test_reports
ARTIFACTS = Path(settings.BASE_DIR) / "test-artifacts" / "treasury"


# from test_reports
def pdf_text(content: bytes) -> tuple[pypdf.PdfReader, str]:
    """Return the reader and the text of every page, with real minus signs as hyphens and
    runs of spaces as one."""
    reader = pypdf.PdfReader(io.BytesIO(content))
    text = "\n".join(page.extract_text() for page in reader.pages)
    return reader, re.sub(" {2,}", " ", text.replace("\u2212", "-"))


def seen_text(content: bytes) -> tuple[pypdf.PdfReader, str]:
    """Return the reader and the text of every page as it is seen (``page_lines``: a score
    sheet's layers are read by where they are drawn), with real minus signs as hyphens."""
    reader = pypdf.PdfReader(io.BytesIO(content))
    text = "\n".join("\n".join(page_lines(page)) for page in reader.pages)
    return reader, text.replace("\u2212", "-")


MONO_ADVANCE = 1233 / 2048  # DejaVu Sans Mono's advance, in em (ledger.sheet_print)


class PageWord(NamedTuple):
    """A word a PDF page shows: its baseline, its left and, in a monospaced run, its right
    (else None), in the page's units; the word; its fill colour (``colours``) or None."""

    y: float
    x: float
    end: float | None
    word: str
    colour: tuple | None


def page_words(page, *, colours: bool = False) -> list[PageWord]:
    """Return each word a PDF page shows, top to bottom and left to right. A score sheet draws
    its lines in layers over each other (``ledger.sheet_print``), so a reader must place each
    word by where it is drawn, not by when: in a monospaced run every character is as wide as
    another, so its words are placed by their index; another run's words keep its start."""
    colour: list[tuple[float, ...] | None] = [None]
    words: list[PageWord] = []

    def before(operator, operands, _cm, _tm):
        if colours and operator == b"rg":
            colour[0] = tuple(round(float(x), 3) for x in operands)

    def shown(text, cm, tm, font, size):
        x0, y = tm[4] * cm[0] + cm[4], tm[5] * cm[3] + cm[5]
        mono = "Mono" in str((font or {}).get("/BaseFont", ""))
        advance = MONO_ADVANCE * size * tm[0] * cm[0]
        for match in re.finditer(r"\S+", text):
            if mono:
                x, end = x0 + match.start() * advance, x0 + match.end() * advance
            else:
                x, end = x0 + match.start() * 1e-6, None
            words.append(PageWord(round(y), x, end, match.group(), colour[0]))

    page.extract_text(visitor_operand_before=before, visitor_text=shown)
    return sorted(words, key=lambda w: (-w.y, w.x))


def page_lines(page) -> list[str]:
    """Return a page's lines as they are seen: top to bottom, each line's words left to
    right (``page_words``)."""
    lines: dict[float, list[str]] = {}
    for word in page_words(page):
        lines.setdefault(word.y, []).append(word.word)
    return [" ".join(words) for words in lines.values()]


# from test_reports
def save_first_page(content: bytes, name: str) -> Path:
    """Render the first page to ``test-artifacts/treasury/<name>.png`` (pdftoppm -r 60)."""
    if shutil.which("pdftoppm") is None:
        pytest.skip("pdftoppm (poppler-utils) is not installed")
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    pdf = ARTIFACTS / f"{name}.pdf"
    pdf.write_bytes(content)
    subprocess.run(
        [
            "pdftoppm",
            "-png",
            "-r",
            "60",
            "-f",
            "1",
            "-l",
            "1",
            "-singlefile",
            pdf,
            ARTIFACTS / name,
        ],
        check=True,
    )
    png = ARTIFACTS / f"{name}.png"
    assert png.stat().st_size > 5000
    return png


# from test_services
def ledger_snapshot() -> dict[str, str]:
    """Return every row of every ledger model, serialised: equal means byte-for-byte equal."""
    return {
        model.__name__: serializers.serialize("json", model._default_manager.order_by("pk"))
        for model in apps.get_app_config("ledger").get_models()
    }


# from test_authorization
# url name -> (least role for GET, least role for POST); None: the method is not offered.
MATRIX = {
    "club": ("member", None),
    "my_page": ("member", None),
    "my_data": ("member", None),
    "my_data_pdf": ("member", None),
    "my_erase": (None, "member"),
    "evening_start": (None, "scorekeeper"),
    "evening": ("member", None),
    "evening_wall": ("member", None),
    "table_new": ("scorekeeper", "scorekeeper"),
    "table": ("member", None),
    "table_state": ("member", None),
    "table_seat": (None, "scorekeeper"),
    "table_leave": (None, "scorekeeper"),
    "hand_new": ("scorekeeper", "scorekeeper"),
    "hand_preview": (None, "scorekeeper"),
    # A hand saved on a round table's link, confirmed by a second player (issue 27); the
    # world's table is no round table: the page sends to the table.
    "hand_confirm": ("scorekeeper", "scorekeeper"),
    "hand": ("member", None),
    "hand_correct": ("scorekeeper", "scorekeeper"),
    "hand_correct_preview": (None, "scorekeeper"),
    "hand_void": (None, "scorekeeper"),
    "standings": ("member", None),
    "standings_pdf": ("member", None),
    "member_season": ("member", None),
    "member_season_pdf": ("member", None),
    "evening_sheet": ("member", None),
    "evening_sheet_pdf": ("member", None),
    "table_sheet_pdf": ("member", None),
    "evening_treasury": ("treasurer", None),
    "treasury_count": (None, "treasurer"),
    "treasury_adjust": (None, "treasurer"),
    "treasury_close": (None, "treasurer"),
    "treasury_reopen": (None, "treasurer"),
    "whatif": ("treasurer", None),
    "whatif_pdf": ("treasurer", None),
    "setup_members": ("admin", "admin"),
    "setup_member_edit": (None, "admin"),
    "setup_member_erase": (None, "admin"),
    "setup_rates": ("admin", "admin"),
    "setup_seasons": ("admin", "admin"),
    "setup_season_edit": ("admin", "admin"),
    "setup_settings": ("admin", "admin"),
    "setup_people_log": ("admin", None),
    "setup_invitation_new": (None, "admin"),
    "setup_invitations": ("admin", None),
    "setup_invitations_all": (None, "admin"),
    "setup_invitations_pdf": ("admin", None),
    "tournaments": ("admin", "admin"),
    "tournament": ("admin", None),
    "tournament_entries": (None, "admin"),
    "tournament_draw": (None, "admin"),
    "tournament_days": (None, "admin"),
    "tournament_finish": (None, "admin"),
    "tournament_rating": (None, "admin"),
    "tournament_ladder": (None, "admin"),
    "tournament_ladder_rank": (None, "admin"),
    "tournament_reopen": (None, "admin"),
    "tournament_cancel": (None, "admin"),
    "tournament_standings": ("member", None),
    "tournament_wall": ("member", None),
    "tournament_ranking_pdf": ("member", None),
    # The federation's results file: the director's (licences are in it).
    "tournament_results_file": ("admin", None),
    "tournament_round": ("admin", None),
    "tournament_round_pdf": ("admin", None),
    "tournament_round_result_pdf": ("member", None),
    "tournament_round_table_sheet_pdf": ("member", None),
    "tournament_round_day": (None, "admin"),
    "tournament_round_swap": (None, "admin"),
    "tournament_round_redraw": (None, "admin"),
    "tournament_round_publish": (None, "admin"),
    "tournament_round_start": (None, "admin"),
    "tournament_round_close": (None, "admin"),
    "tournament_round_reopen": (None, "admin"),
    "tournament_round_unpublish": (None, "admin"),
    "tournament_round_release": (None, "admin"),
    "tournament_round_substitute": (None, "admin"),
    "tournament_round_cards_pdf": ("admin", None),
    "series_ladder": ("member", None),
    "series_ladder_pdf": ("member", None),
    # The club's own cup changed (its rule, an event's factor, an event removed): its admin's.
    "cup_change": ("admin", "admin"),
    "cup_event": ("admin", "admin"),
    # A Masters' entries filled from a qualifying series (the director's).
    "tournament_entries_series": (None, "admin"),
    # A round table's own link: open to whoever has it (no log-in); its report of a missing
    # player is taken only from the device holding the link (others are sent to the link).
    "table_link": ("anonymous", None),
    "table_link_missing": (None, "anonymous"),
}
# The URLs of a round table's own link (they name its secret, not an id).
LINK_URLS = {"table_link", "table_link_missing"}
# The tournament URLs naming a tournament, and those naming one of its rounds.
TOURNAMENT_URLS = {
    "tournament",
    "tournament_entries",
    "tournament_draw",
    "tournament_days",
    "tournament_finish",
    "tournament_rating",
    "tournament_ladder",
    "tournament_ladder_rank",
    "tournament_reopen",
    "tournament_cancel",
    "tournament_standings",
    "tournament_wall",
    "tournament_ranking_pdf",
    "tournament_results_file",
    "tournament_entries_series",
}
ROUND_URLS = {name for name in MATRIX if name.startswith("tournament_round")}
# The round URLs a member reads once the draw is published (the director before): the matrix
# names the world's published round for them.
PUBLISHED_ROUND_URLS = {"tournament_round_result_pdf", "tournament_round_table_sheet_pdf"}


def drawn_tournament(
    club: Club, names: Sequence[str] = ("Ana", "Bor", "Cene")
) -> tuple[Tournament, Round]:
    """Return a Slovenian tournament of ``club`` with three guests and its round 1 drawn."""
    from ledger.services import tournaments

    t = tournaments.tournament_create(
        club=club,
        name="DP",
        date=datetime.date(2026, 12, 5),
        game="slovenian_tarok",
        tournament_format="sl_dp",
    )
    for name in names:
        tournaments.entry_add_guest(tournament=t, name=f"{name} {club.slug}", club_name="Bled")
    return t, tournaments.round_draw(tournament=t)


def published_round(club: Club, names: Sequence[str] = ("Dan", "Eva", "Fin")) -> Round:
    """Return round 1 of another tournament of ``club``, published: its table has a link."""
    from ledger.services import tournaments

    t, round_ = drawn_tournament(club, names)
    return tournaments.round_publish(round_=round_)


# from test_authorization
# The hashers of every test (``conftest._fast_password_hashing``): cheap MD5 first, PBKDF2
# still listed so stored demo passwords verify.
FAST_HASHERS = [
    "django.contrib.auth.hashers.MD5PasswordHasher",
    "django.contrib.auth.hashers.PBKDF2PasswordHasher",
]


@contextlib.contextmanager
def rolled_back(django_db_blocker: DjangoDbBlocker, language: str | None = "en") -> Iterator[None]:
    """Hold what is built inside for a wider scope than a test (a module's world, a class's
    demo), in a transaction rolled back when the scope ends. Each test runs in a savepoint
    inside it (pytest-django's own atomic block), so what a test writes is undone and the next
    test sees the world as built. Like TestCase's class-wide block, the services' durable
    blocks may nest in it; it builds as a test would: cheap hashers, and in ``language``
    (English, as ``conftest._english_outside_requests``; None: the site's default)."""
    from django.utils import translation

    with django_db_blocker.unblock():
        outer = transaction.atomic()
        # A private flag of Django's that django-stubs does not declare on Atomic.
        outer._from_testcase = True  # type: ignore[attr-defined]
        outer.__enter__()
        try:
            speaking = translation.override(language) if language else contextlib.nullcontext()
            with override_settings(PASSWORD_HASHERS=FAST_HASHERS), speaking:
                yield
        finally:
            transaction.set_rollback(True)
            outer.__exit__(None, None, None)


M = TypeVar("M", bound=Model)


def fresh(instance: M) -> M:
    """The row of a model ``instance`` read again: a test's own copy of an object a wider
    scope built (``rolled_back``)."""
    return type(instance)._default_manager.get(pk=instance.pk)


def build_world() -> dict[str, Any]:
    """Two clubs; club A has an open evening with Evening E at one table and a closed one."""
    a, b = make_club(slug="alpha", name="Alpha"), make_club(slug="beta", name="Beta")
    season = make_season(a)
    players = [new_member(club=a, name=n) for n in ("Anna", "Bo", "Carl")]
    closed, _, _ = evening_e(a, members=players)
    services.evening_close(evening=closed)
    evening, table, hands = evening_e(a, members=players, date=closed.date.replace(day=20))
    users: dict[str, User | None] = {"anonymous": None}
    for role in ("member", "scorekeeper", "treasurer", "admin"):
        users[role] = make_member(a, f"{role}-a", role=role, login=True).user
    users["other_club"] = make_member(b, "admin-b", role="admin", login=True).user
    _, b_table, b_hands = evening_e(b)
    b_seat = b_table.seats.first()
    assert b_seat is not None
    b_season = make_season(b)
    tournament, round_ = drawn_tournament(a)
    b_tournament, b_round = drawn_tournament(b)
    return {
        # A club's own cup (a series' ladder), in each club.
        "series": club_cup(a),
        "b_series": club_cup(b),
        "tournament": tournament,
        "round": round_,
        # A published round of another tournament (its sheets, its tables' own links).
        "published_round": published_round(a),
        "b_published_round": published_round(b),
        "b_tournament": b_tournament,
        "b_round": b_round,
        "club": a,
        "evening": evening,
        "closed": closed,
        "table": table,
        "hand": hands[0],
        "member": players[0],
        "users": users,
        "b_table": b_table,
        "b_hand": b_hands[0],
        "b_evening": b_table.evening,
        "b_member": b_seat.member,
        "season": season,
        "b_season": b_season,
    }


def club_cup(club: Club) -> Series:
    """A club's own cup: a series of the club, with no event yet."""
    from ledger.services import federation

    return federation.series_create(
        club=club,
        name=f"Cup {club.slug}",
        seed=f"Cup {club.slug}",
        starts_on=datetime.date(2026, 9, 1),
        ends_on=datetime.date(2027, 6, 30),
        rule={"source": "placement", "scale": {"kind": "linear"}},
    )


def cup_event(series: Series):
    """The cup's first event: a tournament of its club and game (``generic_sum``), made and
    added the first time."""
    from ledger.services import federation, tournaments

    first = series.events.order_by("pk").first()
    if first is not None:
        return first
    assert series.club is not None
    t = tournaments.tournament_create(
        club=series.club,
        name="Cup DP",
        date=datetime.date(2026, 10, 3),
        game=series.game,
        tournament_format="generic_sum",
    )
    return federation.series_event_add(series=series, tournament=t)


# from test_authorization
def kwargs_for(name: str, w: dict[str, Any], *, foreign: bool = False) -> dict[str, str | int]:
    evening = w["b_evening"] if foreign else w["evening"]
    table = w["b_table"] if foreign else w["table"]
    hand = w["b_hand"] if foreign else w["hand"]
    member = w["b_member"] if foreign else w["member"]
    season = w["b_season"] if foreign else w["season"]
    pk = {
        "evening": evening.pk,
        "evening_wall": evening.pk,
        "table_new": evening.pk,
        "table": table.pk,
        "table_state": table.pk,
        "table_seat": table.pk,
        "table_leave": table.pk,
        "hand_new": table.pk,
        "hand_preview": table.pk,
        "hand_confirm": table.pk,
        "hand": hand.pk,
        "hand_correct": hand.pk,
        "hand_correct_preview": hand.pk,
        "hand_void": hand.pk,
        "member_season": member.pk,
        "member_season_pdf": member.pk,
        "evening_sheet": evening.pk,
        "evening_sheet_pdf": evening.pk,
        "table_sheet_pdf": evening.pk,
        "evening_treasury": evening.pk,
        "treasury_count": evening.pk,
        "treasury_adjust": evening.pk,
        "treasury_close": evening.pk,
        "treasury_reopen": evening.pk,
        "whatif": evening.pk,
        "whatif_pdf": evening.pk,
        "setup_member_edit": member.pk,
        "setup_member_erase": member.pk,
        "setup_invitation_new": member.pk,
        "setup_season_edit": season.pk,
    }.get(name)
    if name in ("series_ladder", "series_ladder_pdf", "cup_change", "cup_event"):
        pk = (w["b_series"] if foreign else w["series"]).pk
    elif name in TOURNAMENT_URLS:
        pk = (w["b_tournament"] if foreign else w["tournament"]).pk
    elif name == "tournament_round_cards_pdf":  # a published round's cards
        pk = (w["b_published_round"] if foreign else w["published_round"]).pk
    elif name in ROUND_URLS:
        own = w.get("published_round", w["round"]) if name in PUBLISHED_ROUND_URLS else w["round"]
        pk = (w["b_round"] if foreign else own).pk
    kwargs: dict[str, str | int] = {"club": "alpha"}
    if name in LINK_URLS:
        linked = w["b_published_round"] if foreign else w["published_round"]
        kwargs["token"] = linked.round_tables.order_by("number").first().token
    if pk is not None:
        kwargs["pk"] = pk
    if name == "tournament_round_table_sheet_pdf":
        kwargs["number"] = 1
    if name == "cup_event":
        kwargs["event"] = cup_event(w["b_series"] if foreign else w["series"]).pk
    if name in ("whatif", "whatif_pdf"):
        kwargs["scope"] = "evening"
    if name in ("treasury_count", "treasury_adjust", "table_sheet_pdf"):
        kwargs["table"] = table.pk
    return kwargs


# from test_authorization
def client_for(user: User | None) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


# from test_treasury
EXPECTED = {"Anna": 520, "Bo": 425, "Carl": 415, "kongekop": 65, "pagatkop": 75}


# from test_treasury
def count_data(table, counts: dict[str, int]) -> dict[str, str]:
    """Return the POST data of the count form of ``table`` for ``counts`` by account name."""
    accounts = {a.name: a.pk for a in Account.objects.filter(table=table).select_related("member")}
    return {f"t{table.pk}-count_{accounts[name]}": str(points) for name, points in counts.items()}


def hand_post(table, record, token=None, **extra) -> dict:
    """Return the POST of a new hand as the entry form sends it: the record, a one-time token,
    and the slot and table version it was previewed against (hand_new requires both)."""
    return {
        "record": record if isinstance(record, str) else json.dumps(record),
        "token": token or str(uuid.uuid4()),
        "number": services.next_hand_number(table.pk),
        "version": services.table_version(table.pk),
        **extra,
    }


def seed(*, debug: bool = True, **options: Any) -> tuple[str, str]:
    """Run seed_demo (as a developer would: DEBUG on, unless ``debug=False``); return its
    standard output and standard error."""
    out, err = io.StringIO(), io.StringIO()
    with override_settings(DEBUG=debug):
        call_command("seed_demo", stdout=out, stderr=err, **options)
    return out.getvalue(), err.getvalue()


# from the tournament tests
def random_hand_at(table: Table, rng: random.Random) -> Hand:
    """Record one random valid hand at ``table`` in its game's rotation."""
    game = get_game(table.game)
    rates = services.rate_card(table.evening)
    seats = [s.name for s in table.seats.order_by("position")]
    number = table.hands.count() + 1
    schedule = schedule_in_turn(game, seats, seats[0], number, rates)
    state = services.table_state(table)
    record = {**game.random_hand(rng, schedule, rates, state), "seats": seats}
    return services.hand_record(table=table, record=record)


def next_random_record(table, rng) -> dict:
    """Return a random valid record of ``table``'s next hand, as its screen schedules it: the
    seats now at the table and the dealer after the hands really dealt (a substitute or a
    late arrival included)."""
    from ledger.selectors.table import dealt_hands, next_hand

    game = get_game(table.game)
    rates = services.rate_card(table.evening)
    seats = [s.name for s in Seat.objects.of_table(table.pk)]
    dealt = dealt_hands(table.pk)
    first = table.first_dealer.name if table.first_dealer.name in seats else seats[0]
    schedule = game.schedule(seats, dealt, rates, first=first)
    upcoming = next_hand(table, seats, rates, len(dealt) + 1, dealt)
    assert upcoming is not None and upcoming["dealer"] == schedule.dealer
    state = services.table_state(table)
    return {**game.random_hand(rng, schedule, rates, state), "seats": seats}


def first_hand_again(table: Table, rng: random.Random) -> dict:
    """Return another valid record of hand 1 of ``table`` (same seats and dealer)."""
    game = get_game(table.game)
    rates = services.rate_card(table.evening)
    seats = [s.name for s in table.seats.order_by("position")]
    schedule = schedule_in_turn(game, seats, seats[0], 1, rates)
    state = game.next_state(None, dict.fromkeys(game.features.pool_codes, 0), seats)
    return {**game.random_hand(rng, schedule, rates, state), "seats": seats}


def set_round_start(round_id: int, started_at) -> None:
    """Move a round's start (the clock has run on), resealing its tournament as a service
    would: a test's stand-in for the time passing, not a tampering."""
    from ledger.services.ledger import touched, writing

    with writing():
        round_ = Round.objects.select_for_update(of=("self",)).get(pk=round_id)
        Round.objects.filter(pk=round_id).update(started_at=started_at)
        touched(tournament_id=round_.tournament_id)


def post_round_adjustment(table, *, source: str, target: str, points: int) -> None:
    """Post an adjustment at a round table through the ledger's core (the treasurer's
    ``adjustment_post`` refuses a tournament's evening): how the tournament tests give a
    table its scores without playing its hands."""
    from ledger.models import Posting
    from ledger.services.ledger import TableLedger, lock_table, writing

    with writing():
        locked = lock_table(table.pk)
        ledger = TableLedger(locked)
        src, dst = ledger.accounts[source], ledger.accounts[target]
        ledger.post_accounts(
            Posting.Kind.ADJUSTMENT,
            [(src, dst, points, "adjustment")],
            note="test",
            intent={"source": src.pk, "target": dst.pk, "points": points},
        )


def seat_behind_the_draw(table, member) -> None:
    """Seat ``member`` at a round table through the ledger's core, as no service would (the
    club's ``table_seat`` refuses a tournament's evening): a seating the round close refuses."""
    from ledger.services.ledger import lock_evening, lock_table, writing
    from ledger.services.tables import _seat_locked

    with writing():
        evening = lock_evening(table.evening_id)
        _seat_locked(evening, lock_table(table.pk), member, None, None)


# from the tournament tests: a round table's scores given by adjustments
def score_table(round_table: RoundTable, scores: Mapping[str, int]) -> None:
    """Give each seated player his table score with an adjustment from or to the pool (the
    Slovenian pool is split at the close; the score before the split is the adjustments)."""
    table = round_table.table
    assert table is not None
    pool = get_game(table.game).features.pool_codes[0]
    names = dict(
        Entry.objects.filter(tournament=round_table.round.tournament).values_list("code", "name")
    )
    for code in round_table.seats:
        points = scores[code]
        if points > 0:
            source, target = pool, names[code]
        else:
            source, target = names[code], pool
        if points:
            post_round_adjustment(table, source=source, target=target, points=abs(points))


def settle_zero_sum(round_table, scores):
    """Give each seated player his table score at a zero-sum table by adjustments from the
    players below zero to those above it."""
    names = dict(
        Entry.objects.filter(tournament=round_table.round.tournament).values_list("code", "name")
    )
    debtors = [[names[c], -scores[c]] for c in round_table.seats if scores[c] < 0]
    creditors = [[names[c], scores[c]] for c in round_table.seats if scores[c] > 0]
    for creditor in creditors:
        while creditor[1]:
            debtor = next(d for d in debtors if d[1])
            points = min(debtor[1], creditor[1])
            post_round_adjustment(
                round_table.table, source=debtor[0], target=creditor[0], points=points
            )
            debtor[1] -= points
            creditor[1] -= points


# from the what-if tests (management and views)
WHATIF_EVENINGS = ("EVENING_E", "HU_EVENING", "SL_EVENING")


def example_as_evening(name: str) -> dict:
    """Return the spec's example ``name`` as an evening file: an evening example as it is, a
    hand example as an evening of that one hand from the table's opening state."""
    from ledger.games.evening import EVENING_FORMAT
    from ledger.tests.conftest import load_example

    if name in WHATIF_EVENINGS:
        return load_example(f"{name}.evening.json")
    hand = load_example(f"{name}.hand.json")
    game = get_game(hand.get("game", "danish_tarok"))
    body = {k: v for k, v in hand.items() if k not in ("seats", "game", game.features.state_in)}
    return {"format": EVENING_FORMAT, "game": game.code, "seats": hand["seats"], "hands": [body]}


def imported_example(
    tmp_path: Path, name: str, *, club: Club | None = None
) -> tuple[Evening, dict]:
    """Import the example ``name`` (``example_as_evening``) with ``import_hands --close`` into
    ``club`` or a fresh club of its game; return the closed evening and the evening file."""
    data = example_as_evening(name)
    if club is None:
        slug = f"x-{name.lower().replace('_', '-')}"
        club = factories.make_club(slug=slug, game=data.get("game", "danish_tarok"))
    path = tmp_path / f"{name}.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    status, out = run_command(
        "import_hands", str(path), "--club", club.slug, "--create-members", "--close", "--date",
        "2026-11-05",
    )  # fmt: skip
    assert status == 0, out
    return Evening.objects.filter(club=club).latest("pk"), data


def pdftotext(content: bytes, tmp_path) -> str:
    """Return the text of a PDF as poppler's ``pdftotext -layout`` reads it back."""
    if shutil.which("pdftotext") is None:
        pytest.skip("pdftotext (poppler-utils) is not installed")
    pdf = tmp_path / "read-back.pdf"
    pdf.write_bytes(content)
    result = subprocess.run(
        ["pdftotext", "-layout", str(pdf), "-"], capture_output=True, check=True, timeout=60
    )
    return result.stdout.decode("utf-8").replace("\u2212", "-")


# The federation's officer pages under /f/<federation>/ (issue 30): each URL's name, with the
# methods it answers ("GET", "POST"); every one is for the federation's officers only.
FEDERATION_MATRIX = {
    "federation_home": ("GET",),
    "federation_clubs": ("GET", "POST"),
    "federation_players": ("GET",),
    "federation_player": ("GET", "POST"),
    "federation_player_merge": ("GET", "POST"),
    "federation_series_list": ("GET",),
    "federation_series_new": ("GET", "POST"),
    "federation_series": ("GET", "POST"),
    "federation_series_change": ("GET", "POST"),
    "federation_series_event": ("GET", "POST"),
    "federation_series_ladder": ("GET",),
    "federation_log": ("GET",),
    "federation_officers": ("GET", "POST"),
    "federation_imports": ("GET",),
    "federation_import_upload": ("GET", "POST"),
    "federation_import": ("GET",),
    "federation_import_file": ("GET",),
    "federation_tokens": ("GET", "POST"),
    "federation_publish": ("POST",),
    "federation_ratings": ("GET", "POST"),
    "federation_rating_recompute": ("POST",),
}
# The federation pages that name an imported event (``imported_results``).
FEDERATION_EVENT_PAGES = {"federation_import", "federation_import_file"}
RESULTS_FILE = Path(__file__).resolve().parent / "federation" / "results_tzs.json"


def results_file_doc(federation_slug: str = "tzs") -> dict:
    """A results file of a final sl_dp tournament of 7 players in 2 rounds (exported from
    another installation: ``tests/federation/results_tzs.json``), for ``federation_slug``."""
    document = json.loads(RESULTS_FILE.read_text(encoding="utf-8"))
    document["federation"] = federation_slug
    return document


def imported_results(federation: Federation) -> ImportedEvent:
    """The federation's imported event of ``results_file_doc`` (imported on first use)."""
    from ledger.services.federation.results import results_import

    document = results_file_doc(federation.slug)
    found = ImportedEvent.objects.filter(federation=federation, uid=document["id"]).first()
    return found or results_import(document=document, federation=federation).event


def final_tournament(
    club: Club,
    members: Mapping[str, Member],
    date: datetime.date,
    scores: Mapping[str, int],
    name: str,
    *,
    finish: bool = True,
) -> Tournament:
    """A one-round Slovenian tournament of ``club`` on ``date``, its table(s) scored ``scores``
    (by member name, ``members`` by name; a name not seated has a bye) and made final (with
    ``finish``; else its round closed only)."""
    from ledger.services import tournaments as tour

    t = tour.tournament_create(
        club=club,
        name=name,
        date=date,
        game="slovenian_tarok",
        tournament_format="sl_dp",
        params={"rounds": 1},
    )
    tour.entries_add(tournament=t, members=[members[n] for n in scores])
    r = tour.round_start(round_=tour.round_publish(round_=tour.round_draw(tournament=t)))
    codes = {e.name: e.code for e in t.entries.all()}
    for rt in r.round_tables.select_related("table", "round__tournament"):
        score_table(rt, {codes[n]: s for n, s in scores.items() if codes[n] in rt.seats})
    tour.round_close(round_=r)
    if finish:
        tour.tournament_finish(tournament=t)
    t.refresh_from_db()
    return t


def federation_world(*, series: bool = False) -> dict[str, Any]:
    """A Slovenian federation with club alpha as a member and one officer, and another
    federation with an officer of its own: ``{"federation", "officer", "other", "b_officer",
    "stranger", "club"}`` (the stranger is a logged-in user who is no officer). With
    ``series``, also two members of alpha as players ``"player"`` and ``"player2"``, a final
    tournament of theirs ``"tournament"`` (a one-round sl_dp of four) and a series of the
    federation with it as its event ``"series"``."""
    from django.contrib.auth import get_user_model

    from ledger.services import federation as services
    from ledger.tests.factories import PASSWORD, make_club

    users = get_user_model().objects
    officer = users.create_user("officer", password=PASSWORD)
    b_officer = users.create_user("b-officer", password=PASSWORD)
    stranger = users.create_user("stranger", password=PASSWORD)
    club = make_club("alpha", "Alpha", game="slovenian_tarok", language="sl")
    fed = services.federation_create(
        name="Tarok Zveza",
        slug="tzs",
        game="slovenian_tarok",
        language="sl",
        officers=[officer],
    )
    services.club_join(federation=fed, club=club)
    services.rating_list_create(federation=fed, name="Rating")
    other = services.federation_create(
        name="Other", slug="other", game="slovenian_tarok", language="sl", officers=[b_officer]
    )
    world = {
        "federation": fed,
        "officer": officer,
        "other": other,
        "b_officer": b_officer,
        "stranger": stranger,
        "club": club,
    }
    if series:
        from ledger.tests.factories import make_member

        members = {n: make_member(club, n) for n in ("Ana", "Bor", "Cene", "Dan")}
        scores = {"Ana": 60, "Bor": 20, "Cene": -30, "Dan": -50}
        tournament = final_tournament(club, members, datetime.date(2026, 10, 3), scores, "DP 1")
        world["tournament"] = tournament
        world["series"] = services.series_create(
            federation=fed,
            name="Pokal",
            seed="Pokal 2026",
            starts_on=datetime.date(2026, 9, 1),
            ends_on=datetime.date(2027, 6, 30),
            rule={"source": "placement", "scale": {"kind": "linear"}},
            events=[(tournament, "3/2")],
            by=officer,
        )
        members["Ana"].refresh_from_db()
        members["Bor"].refresh_from_db()
        world["player"], world["player2"] = members["Ana"].player, members["Bor"].player
    return world


# The federation pages that name a player or a series (``pk``), in ``federation_world``.
FEDERATION_PK = {
    "federation_player": "player",
    "federation_series": "series",
    "federation_series_change": "series",
    "federation_series_event": "series",
    "federation_series_ladder": "series",
}


def federation_kwargs(
    name: str, w: dict[str, Any], *, foreign: bool = False
) -> dict[str, str | int]:
    """The URL kwargs of federation page ``name`` in ``federation_world`` ``w`` (one naming a
    player or a series: the world made with ``series``; a page of an imported event names the
    federation's own, even on another federation's URL; a rating list's, its first)."""
    from ledger.models import RatingList

    kwargs: dict = {"federation": (w["other"] if foreign else w["federation"]).slug}
    if name in FEDERATION_PK:
        kwargs["pk"] = w[FEDERATION_PK[name]].pk
    if name == "federation_series_event":  # the series' event (its own, even on another's URL)
        kwargs["event"] = w["series"].events.order_by("pk").first().pk
    if name in FEDERATION_EVENT_PAGES:
        kwargs["pk"] = imported_results(w["federation"]).pk
    if name == "federation_rating_recompute":
        found = RatingList.objects.filter(federation=w["federation"]).first()
        kwargs["pk"] = found.pk if found is not None else 0
    return kwargs


# from test_page_plans and test_query_plans: SQLite planned as for a large history
FULL_HISTORY_STATS = Path(__file__).parent / "views" / "full_history_stats.json"
# The tables that grow with every hand: no read may take one whole (a club's members or an
# evening's tables may be, where SQLite finds that cheaper).
GROWING = ("ledger_transfer", "ledger_posting", "ledger_hand", "ledger_handrevision")


def as_the_full_history() -> None:
    """Give this SQLite database's planner the statistics of ``make bench``'s full history
    (96,000 hands: ``FULL_HISTORY_STATS``, written by ``bench/stats.py``), so its plans are the
    large history's whatever rows the test holds."""
    rows = json.loads(FULL_HISTORY_STATS.read_text(encoding="utf-8"))["sqlite_stat1"]
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE")  # makes sqlite_stat1 where there is none
        cursor.execute("DELETE FROM sqlite_stat1")
        cursor.executemany("INSERT INTO sqlite_stat1 (tbl, idx, stat) VALUES (%s, %s, %s)", rows)
        cursor.execute("ANALYZE sqlite_schema")  # the planner reads them again


def whole_reads(sql: str) -> list[str]:
    """Return the steps of SQLite's plan of the read ``sql`` that build an index
    (``AUTOMATIC``) or read a table of ``GROWING`` whole (``SCAN``); [] for any other
    statement."""
    if not sql.lstrip().upper().startswith(("SELECT", "WITH")):
        return []
    with connection.cursor() as cursor:
        cursor.execute(f"EXPLAIN QUERY PLAN {sql}")
        steps = [row[-1] for row in cursor.fetchall()]
    return [
        step
        for step in steps
        if "AUTOMATIC" in step or (step.startswith("SCAN ") and step.split(" ")[1] in GROWING)
    ]
