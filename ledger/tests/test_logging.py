"""The operator's log: module loggers write refused writes (INFO) with the club and the
object, as text or, with DJANGO_LOG_FORMAT=json, as one JSON object a line."""

from __future__ import annotations

import datetime
import io
import json
import logging

import pytest
from django.core.management import call_command
from django.urls import reverse

from ledger import services
from ledger.models import Member
from ledger.tests import factories
from ledger.tests.conftest import load_example
from ledger.tests.helpers import english, hand_post, login, run_python
from tarokclub.logs import JsonFormatter, TextFormatter

HANDS = load_example("EVENING_E.evening.json")["hands"]


def lines_of(formatter: logging.Formatter, emit) -> list[str]:
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.setFormatter(formatter)
    logger = logging.getLogger("ledger.tests.logging")
    logger.addHandler(handler)
    logger.propagate = False
    try:
        emit(logger)
    finally:
        logger.removeHandler(handler)
        logger.propagate = True
    return stream.getvalue().splitlines()


def test_json_lines_carry_the_extra_fields_and_the_traceback():
    """Each record is one JSON line: time, level, logger, message and the ``extra`` fields;
    an exception's traceback is a field of the same line, not lines of its own."""

    def emit(logger):
        logger.info("refused: %s", "the evening is closed", extra={"club": "kbh", "table": 7})
        try:
            raise ValueError("seal mismatch")
        except ValueError:
            logger.exception("verify failed", extra={"club": "kbh", "evening": 3})

    first, second = (json.loads(line) for line in lines_of(JsonFormatter(), emit))
    assert {k: v for k, v in first.items() if k != "time"} == {
        "level": "INFO",
        "logger": "ledger.tests.logging",
        "message": "refused: the evening is closed",
        "club": "kbh",
        "table": 7,
    }
    assert datetime.datetime.fromisoformat(first["time"]).utcoffset() == datetime.timedelta(0)
    assert second["level"] == "ERROR" and second["evening"] == 3
    assert second["exc_info"].endswith("ValueError: seal mismatch")


def test_text_lines_put_the_extra_fields_after_the_message():
    """The text format keeps one line a record too, with ``key=value`` after the message."""
    (line,) = lines_of(
        TextFormatter(), lambda logger: logger.warning("busy", extra={"club": "kbh", "table": 7})
    )
    assert line.endswith(" WARNING ledger.tests.logging busy club=kbh table=7")


def test_the_site_logs_json_when_told(tmp_path):
    """With DJANGO_LOG_FORMAT=json the site's configuration writes JSON lines to standard
    error: the app's INFO lines, not other libraries' INFO lines."""
    result = run_python(
        "import django, logging; django.setup();"
        "logging.getLogger('ledger.services.locking').info('refused', extra={'club': 'kbh'});"
        "logging.getLogger('some.library').info('chatter');"
        "logging.getLogger('some.library').warning('trouble')",
        DJANGO_SETTINGS_MODULE="tarokclub.settings",
        DJANGO_SECRET_KEY="x" * 50,
        DJANGO_LOG_FORMAT="json",
    )
    assert result.returncode == 0, result.stderr
    lines = [json.loads(line) for line in result.stderr.splitlines()]
    assert [(r["logger"], r["level"], r["message"]) for r in lines] == [
        ("ledger.services.locking", "INFO", "refused"),
        ("some.library", "WARNING", "trouble"),
    ]
    assert lines[0]["club"] == "kbh"


def test_an_unknown_log_format_is_refused_by_name():
    """DJANGO_LOG_FORMAT other than text or json stops the start with a message naming it."""
    result = run_python(
        "import django; django.setup()",
        DJANGO_SETTINGS_MODULE="tarokclub.settings",
        DJANGO_SECRET_KEY="x" * 50,
        DJANGO_LOG_FORMAT="xml",
    )
    assert result.returncode != 0
    assert "DJANGO_LOG_FORMAT must be text or json, not 'xml'" in result.stderr


@pytest.mark.django_db
def test_a_refused_save_is_logged_with_its_club_and_table(client, caplog):
    """A hand saved against a slot another device took is refused; the web layer logs it at
    INFO with the club, the user, the table and the field."""
    club = factories.make_club(slug="logged")
    people = [
        factories.make_member(club, "Anna", Member.Role.SCOREKEEPER, login=True),
        factories.make_member(club, "Bo"),
        factories.make_member(club, "Carl"),
    ]
    evening = services.evening_open(club=club, date=datetime.date(2026, 11, 5))
    table = services.table_open(evening=evening, members=people)
    english(login(client, people[0]))
    caplog.set_level(logging.INFO, logger="ledger")
    url = reverse("hand_new", kwargs={"club": "logged", "pk": table.pk})
    response = client.post(url, hand_post(table, HANDS[0], number=5))
    assert response.status_code == 422
    (line,) = [r for r in caplog.records if getattr(r, "event", None) == "refused"]
    assert line.levelname == "INFO"
    assert people[0].user is not None
    assert line.name == "ledger.web.refusals"
    assert (line.club, line.user, line.table, line.error) == (
        "logged",
        people[0].user.username,
        table.pk,
        "StaleFormError",
    )


@pytest.mark.django_db
def test_a_verify_failure_is_logged_per_problem(caplog):
    """verify_ledger logs one WARNING a problem (a tampered transfer: its hand named); a
    good ledger is one INFO line."""
    from django.db import connection

    from ledger.models import Transfer
    from ledger.tests.test_db import disable_guard

    _, table, _ = factories.evening_e(factories.make_club(slug="verified"))
    caplog.set_level(logging.INFO, logger="ledger")
    call_command("verify_ledger", stdout=io.StringIO())
    (good,) = [r for r in caplog.records if getattr(r, "event", None) == "verify"]
    assert (good.levelname, good.getMessage(), good.tables) == ("INFO", "ledger verified", 1)
    caplog.clear()
    target = Transfer.objects.filter(table=table, reason="count").order_by("pk").last()
    assert target is not None
    with connection.cursor() as cursor:
        disable_guard(cursor)
        cursor.execute("UPDATE ledger_transfer SET points = 10 WHERE id = %s", [target.pk])
    with pytest.raises(SystemExit):
        call_command("verify_ledger", stdout=io.StringIO())
    lines = [r for r in caplog.records if getattr(r, "event", None) == "verify"]
    assert lines and all(r.levelname == "WARNING" for r in lines)
    assert any("hand 3" in r.getMessage() for r in lines)


@pytest.mark.django_db
def test_an_import_is_logged_with_its_club_and_evening(caplog):
    """import_hands logs the import at WARNING (it writes a whole evening), naming the club,
    the evening and the table."""
    from ledger.models import Evening, Table
    from ledger.tests.conftest import EXAMPLES

    club = factories.make_club(slug="imported")
    for name in ("Anna", "Bo", "Carl"):
        factories.make_member(club, name)
    call_command(
        "import_hands",
        str(EXAMPLES / "EVENING_E.evening.json"),
        "--club",
        "imported",
        "--date",
        "2026-11-05",
        stdout=io.StringIO(),
    )
    (line,) = [r for r in caplog.records if getattr(r, "event", None) == "import"]
    assert line.levelname == "WARNING"
    assert line.getMessage() == "imported 3 hands"
    assert (line.club, line.evening, line.table) == (
        "imported",
        Evening.objects.get().pk,
        Table.objects.get().pk,
    )


@pytest.mark.django_db
def test_a_fallback_draw_is_logged(client, caplog):
    """Six players after a round at two tables of three: no draw without a repeated pair, so
    the director's draw falls back to the seat-by-seat fill; a WARNING names the club, the
    tournament and the round."""
    from ledger.models import Round
    from ledger.services import tournaments as tour

    club = factories.make_club(slug="fallback", game="slovenian_tarok")
    admin = factories.make_member(club, "Ada", Member.Role.ADMIN, login=True)
    t = factories.make_tournament(club, ["P1", "P2", "P3", "P4", "P5", "P6"], params={"rounds": 3})
    first = tour.round_draw(tournament=t)
    tour.round_close(round_=tour.round_start(round_=tour.round_publish(round_=first)))
    login(client, admin)
    caplog.set_level(logging.INFO, logger="ledger")
    response = client.post(reverse("tournament_draw", kwargs={"club": "fallback", "pk": t.pk}))
    assert response.status_code == 302
    second = Round.objects.get(tournament=t, number=2)
    assert second.mode == "fallback"
    (line,) = [r for r in caplog.records if getattr(r, "event", None) == "fallback-draw"]
    assert (line.levelname, line.getMessage()) == ("WARNING", "round 2 drawn by the fallback fill")
    assert (line.club, line.tournament, line.round) == ("fallback", t.pk, second.pk)
