"""System checks: a bad TAROK_GAMES, seal secret or timeout stops ``manage.py check`` with an
error naming the setting; the production ones warn of what ``check --deploy`` should find
(that the documented production environment passes it is tests/security/test_hardening.py)."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.core.checks import run_checks
from django.test import override_settings

from ledger import checks
from ledger.tests.helpers import run_python


def ids(messages) -> list[str]:
    return [m.id for m in messages]


def test_the_test_settings_pass_every_check():
    """The games, secret and timeouts of the test settings raise nothing."""
    assert run_checks(tags=["tarokclub"]) == []


@pytest.mark.parametrize("games", [[], "ledger.games.danish", [1]])
def test_tarok_games_must_be_a_list_of_packages(games):
    """An empty or malformed TAROK_GAMES is E001."""
    with override_settings(TAROK_GAMES=games):
        (error,) = checks.check_games()
    assert error.id == "tarokclub.E001"
    assert error.msg == "TAROK_GAMES must be a non-empty list of game packages (dotted paths)."


def test_a_game_that_cannot_be_imported_is_named():
    """A misspelt package is E002, naming it."""
    with override_settings(TAROK_GAMES=["ledger.games.danish", "ledger.games.danishh"]):
        (error,) = checks.check_games()
    assert error.id == "tarokclub.E002"
    assert error.msg.startswith("TAROK_GAMES: 'ledger.games.danishh' is not a game package")


def test_a_package_that_is_not_a_game_is_named():
    """A package whose GAME lacks members of the contract is E003, naming them."""
    with override_settings(TAROK_GAMES=["ledger.games.danish", "ledger.tests.games.nogame"]):
        errors = checks.check_games()
    (error,) = errors
    assert error.id == "tarokclub.E003"
    assert error.msg == (
        "TAROK_GAMES: ledger.tests.games.nogame.GAME lacks close, features, initial_state, "
        "next_state, parse_hand, presets, random_hand, rate_card, schedule, seat_moves, settle, "
        "settle_evening, stats_of of the game contract (ledger.games.base.Game)."
    )


def test_a_game_listed_twice_and_not_installed():
    """The same game twice is E006; a game missing from INSTALLED_APPS is E005."""
    apps = [a for a in settings.INSTALLED_APPS if a != "ledger.games.hungarian"]
    games = ["ledger.games.danish", "ledger.games.hungarian", "ledger.games.danish"]
    with override_settings(TAROK_GAMES=games, INSTALLED_APPS=apps):
        errors = checks.check_games()
    assert ids(errors) == ["tarokclub.E005", "tarokclub.E006"]
    assert errors[0].msg.startswith("TAROK_GAMES: ledger.games.hungarian is not in INSTALLED_APPS")
    assert errors[1].msg == (
        "TAROK_GAMES: ledger.games.danish and ledger.games.danish are both the game 'danish_tarok'."
    )


BAD = "ledger.tests.games.badtour"


def test_a_game_must_declare_the_table_sizes_it_can_seat():
    """A game without table sizes, or with sizes it cannot seat or names twice, is E007."""
    games = ["ledger.games.danish", f"{BAD}.nosizes", BAD]
    with override_settings(TAROK_GAMES=games):
        errors = [e for e in checks.check_games() if e.id == "tarokclub.E007"]
    assert [e.msg for e in errors] == [
        f"TAROK_GAMES: {BAD}.nosizes.GAME declares no table sizes (Features.table_sizes, a "
        "TableSizes).",
        f"TAROK_GAMES: {BAD}.GAME names a table size twice: (4, 6, 4).",
    ]


def test_a_games_own_formats_are_its_own():
    """A game's own format that takes a generic format's code or another game's, is played at
    another game, has a code longer than a tournament stores or placement points that are
    not one per seat is E008, each named; a good one (``toy_open``) passes."""
    games = ["ledger.games.slovenian", BAD]
    with override_settings(TAROK_GAMES=games):
        errors = [e for e in checks.check_games() if e.id == "tarokclub.E008"]
    assert [e.msg for e in errors] == [
        f"TAROK_GAMES: {BAD}'s tournament format 'generic_sum' has the code of a generic format.",
        f"TAROK_GAMES: {BAD}'s tournament format 'toy_cup' is played at danish_tarok, not "
        "'toy_bad_tournaments'.",
        f"TAROK_GAMES: {BAD}'s tournament format 'toy_championship_of_all' needs a code of 1 to "
        "20 characters.",
        f"TAROK_GAMES: {BAD}'s tournament format 'sl_dp' has the code of ledger.games.slovenian.",
        f"TAROK_GAMES: {BAD}'s tournament format 'toy_places' gives a table of n seats other "
        "than n placement points.",
    ]


def test_a_new_clubs_currency_and_time_zone_are_offered():
    """A game whose new clubs would get a currency or time zone the site does not offer is
    E009, naming the list to add it to."""
    with override_settings(TAROK_GAMES=[BAD]):
        errors = [e for e in checks.check_games() if e.id == "tarokclub.E009"]
    assert [(e.msg, e.hint) for e in errors] == [
        (
            f"TAROK_GAMES: {BAD}.web.WEB.club_defaults['currency'] is 'XYZ', which the site "
            "does not offer.",
            "Add it to ledger.games.money.CURRENCIES first (docs/adding-a-game.md).",
        ),
        (
            f"TAROK_GAMES: {BAD}.web.WEB.club_defaults['time_zone'] is 'Mars/Olympus', which "
            "the site does not offer.",
            "Add it to ledger.games.zones.TIME_ZONES first (docs/adding-a-game.md).",
        ),
    ]


def test_every_time_zone_offered_is_known():
    """The time zones a club may choose are zoneinfo's (E012 otherwise)."""
    assert checks.check_time_zones() == []


def test_a_short_seal_secret_is_an_error():
    """A LEDGER_SEAL_SECRET under 32 characters is E010, with its length."""
    with override_settings(LEDGER_SEAL_SECRET="short"):
        (error,) = checks.check_seal_secret()
    assert error.id == "tarokclub.E010"
    assert error.msg.startswith("LEDGER_SEAL_SECRET has 5 characters")
    with override_settings(LEDGER_SEAL_SECRET="x" * 32):
        assert checks.check_seal_secret() == []


def test_production_without_a_seal_secret_is_warned():
    """--deploy warns (W011) when the seals would use SECRET_KEY."""
    with override_settings(LEDGER_SEAL_SECRET=None):
        assert ids(checks.check_seal_secret_deploy()) == ["tarokclub.W011"]
    with override_settings(LEDGER_SEAL_SECRET="s" * 40):
        assert checks.check_seal_secret_deploy() == []


@pytest.mark.parametrize("lock, statement", [(0, 20), (20, 20), (30, 20), ("5", 20)])
def test_the_lock_timeout_is_positive_and_under_the_statement_timeout(lock, statement):
    """E020 names both timeouts."""
    with override_settings(TAROK_LOCK_TIMEOUT=lock, TAROK_STATEMENT_TIMEOUT=statement):
        (error,) = checks.check_timeouts()
    assert error.id == "tarokclub.E020"
    assert f"TAROK_LOCK_TIMEOUT ({lock}) and TAROK_STATEMENT_TIMEOUT ({statement})" in error.msg


def test_gunicorn_must_wait_longer_than_a_statement(monkeypatch):
    """E021 when GUNICORN_TIMEOUT is not above TAROK_STATEMENT_TIMEOUT."""
    monkeypatch.setenv("GUNICORN_TIMEOUT", "20")
    with override_settings(TAROK_STATEMENT_TIMEOUT=20):
        (error,) = checks.check_timeouts_deploy()
    assert error.id == "tarokclub.E021"
    assert error.msg.startswith("GUNICORN_TIMEOUT (20) must be a number of seconds above")
    monkeypatch.setenv("GUNICORN_TIMEOUT", "60")
    with override_settings(TAROK_STATEMENT_TIMEOUT=20):
        assert checks.check_timeouts_deploy() == []


@pytest.mark.filterwarnings("ignore:Overriding setting DATABASES")
def test_production_settings_are_checked():
    """--deploy warns of SQLite (W030) and of a TLS proxy nobody trusts (W031)."""
    sqlite = {"default": {**settings.DATABASES["default"], "ENGINE": "django.db.backends.sqlite3"}}
    with override_settings(
        DATABASES=sqlite,
        SECURE_PROXY_SSL_HEADER=("HTTP_X_FORWARDED_PROTO", "https"),
        TAROK_TRUSTED_PROXIES=[],
    ):
        assert ids(checks.check_production()) == ["tarokclub.W030", "tarokclub.W031"]


@pytest.mark.parametrize("value", ["abc", "0", "-3"])
def test_a_timeout_that_is_not_seconds_stops_the_start(value):
    """TAROK_LOCK_TIMEOUT that is not a positive number stops the start, naming it."""
    result = run_python(
        "import django; django.setup()",
        DJANGO_SETTINGS_MODULE="tarokclub.settings",
        DJANGO_SECRET_KEY="x" * 50,
        TAROK_LOCK_TIMEOUT=value,
    )
    assert result.returncode != 0
    assert (
        f"TAROK_LOCK_TIMEOUT must be a number of seconds (0 to 3600), not {value!r}"
        in result.stderr
    )
