"""Django system checks of tarokclub's own settings (``manage.py check``; ``--deploy`` adds
the production ones). A bad setting is named when the site starts, not on first use.

- ``tarokclub.E001``–``E006``: ``TAROK_GAMES`` (each a game package with ``GAME`` answering the
  contract and ``web.WEB`` of the same code, an installed app, listed once).
- ``tarokclub.E010``, ``W011``: the ledger's seal secret (long enough; in production its own,
  so that changing ``SECRET_KEY`` never breaks the seals).
- ``tarokclub.E020``, ``E021``: the lock and statement timeouts (positive, the lock's first,
  both under gunicorn's worker timeout).
- ``tarokclub.W030``, ``W031`` (deploy): PostgreSQL, and the trusted proxy behind TLS.
"""

from __future__ import annotations

import os
from importlib import import_module

from django.conf import settings
from django.core.checks import Error, Tags, Warning, register

from ledger.games.base import Game

# The members every game answers (ledger.games.base.Game, the engine's contract).
CONTRACT = sorted(
    {name for name in vars(Game) if not name.startswith("_")} | set(Game.__annotations__)
)
SEAL_SECRET_MIN = 32
# gunicorn's worker timeout in scripts/serve-production.sh and deploy/tarokclub.service.
GUNICORN_TIMEOUT_DEFAULT = 60


@register("tarokclub")
def check_games(app_configs=None, **kwargs):
    """TAROK_GAMES lists importable game packages, each installed, each code once."""
    games = getattr(settings, "TAROK_GAMES", None)
    if (
        not isinstance(games, list | tuple)
        or not games
        or not all(isinstance(p, str) for p in games)
    ):
        return [
            Error(
                "TAROK_GAMES must be a non-empty list of game packages (dotted paths).",
                hint='e.g. TAROK_GAMES = ["ledger.games.danish"]',
                id="tarokclub.E001",
            )
        ]
    errors = []
    codes: dict[str, str] = {}
    for path in games:
        try:
            game = import_module(path).GAME
        except (ImportError, AttributeError) as error:
            errors.append(
                Error(
                    f"TAROK_GAMES: {path!r} is not a game package with GAME: {error}",
                    id="tarokclub.E002",
                )
            )
            continue
        missing = [name for name in CONTRACT if not hasattr(game, name)]
        if missing:
            errors.append(
                Error(
                    f"TAROK_GAMES: {path}.GAME lacks {', '.join(missing)} of the game contract "
                    "(ledger.games.base.Game).",
                    id="tarokclub.E003",
                )
            )
            continue
        try:
            web = import_module(f"{path}.web").WEB
        except (ImportError, AttributeError) as error:
            errors.append(
                Error(f"TAROK_GAMES: {path}.web has no WEB: {error}", id="tarokclub.E004")
            )
        else:
            if getattr(web, "code", None) != game.code:
                errors.append(
                    Error(
                        f"TAROK_GAMES: {path}.web.WEB is for {getattr(web, 'code', None)!r}, "
                        f"not {game.code!r}.",
                        id="tarokclub.E004",
                    )
                )
        if path not in settings.INSTALLED_APPS:
            errors.append(
                Error(
                    f"TAROK_GAMES: {path} is not in INSTALLED_APPS, so its templates and "
                    "static files are not found.",
                    hint="INSTALLED_APPS = [..., *TAROK_GAMES]",
                    id="tarokclub.E005",
                )
            )
        if game.code in codes:
            errors.append(
                Error(
                    f"TAROK_GAMES: {path} and {codes[game.code]} are both the game {game.code!r}.",
                    id="tarokclub.E006",
                )
            )
        codes.setdefault(game.code, path)
    return errors


@register("tarokclub")
def check_seal_secret(app_configs=None, **kwargs):
    """The seal secret, when set, is long enough to key an HMAC."""
    secret = getattr(settings, "LEDGER_SEAL_SECRET", None)
    if secret is not None and len(secret) < SEAL_SECRET_MIN:
        return [
            Error(
                f"LEDGER_SEAL_SECRET has {len(secret)} characters; the ledger's seals need at "
                f"least {SEAL_SECRET_MIN}.",
                hint="python -c 'import secrets; print(secrets.token_urlsafe(48))'",
                id="tarokclub.E010",
            )
        ]
    return []


@register("tarokclub", deploy=True)
def check_seal_secret_deploy(app_configs=None, **kwargs):
    """In production the seals have a secret of their own."""
    if getattr(settings, "LEDGER_SEAL_SECRET", None):
        return []
    return [
        Warning(
            "LEDGER_SEAL_SECRET is not set: the ledger is sealed with SECRET_KEY, so changing "
            "SECRET_KEY (after a leak, say) makes every seal fail verify_ledger.",
            hint="Set LEDGER_SEAL_SECRET and keep it with the backups (docs/operator.md).",
            id="tarokclub.W011",
        )
    ]


def _gunicorn_timeout() -> float | None:
    try:
        return float(os.environ.get("GUNICORN_TIMEOUT", GUNICORN_TIMEOUT_DEFAULT))
    except ValueError:
        return None


@register("tarokclub")
def check_timeouts(app_configs=None, **kwargs):
    """The lock timeout is positive and under the statement timeout."""
    lock = getattr(settings, "TAROK_LOCK_TIMEOUT", None)
    statement = getattr(settings, "TAROK_STATEMENT_TIMEOUT", None)
    numbers = all(isinstance(v, int | float) and v > 0 for v in (lock, statement))
    if not numbers or lock >= statement:
        return [
            Error(
                f"TAROK_LOCK_TIMEOUT ({lock}) and TAROK_STATEMENT_TIMEOUT ({statement}) must be "
                "positive numbers of seconds, the lock's the smaller.",
                id="tarokclub.E020",
            )
        ]
    return []


@register("tarokclub", deploy=True)
def check_timeouts_deploy(app_configs=None, **kwargs):
    """Gunicorn waits longer than a service may: a stuck lock is "busy", never a 500."""
    statement = getattr(settings, "TAROK_STATEMENT_TIMEOUT", 0)
    worker = _gunicorn_timeout()
    if worker is None or not isinstance(statement, int | float) or statement >= worker:
        return [
            Error(
                f"GUNICORN_TIMEOUT ({os.environ.get('GUNICORN_TIMEOUT')}) must be a number of "
                f"seconds above TAROK_STATEMENT_TIMEOUT ({statement}), or a stuck lock ends in "
                "a 500 from gunicorn instead of the ledger's 'busy, try again'.",
                id="tarokclub.E021",
            )
        ]
    return []


@register(Tags.database, "tarokclub", deploy=True)
def check_production(app_configs=None, **kwargs):
    """Production runs on PostgreSQL and believes its TLS proxy."""
    warnings = []
    if settings.DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
        warnings.append(
            Warning(
                "The database is SQLite: tablets saving at once wait for each other's whole "
                "transaction, and the lock timeouts do not apply.",
                hint="Set DATABASE_URL=postgres://... (docs/operator.md).",
                id="tarokclub.W030",
            )
        )
    if getattr(settings, "SECURE_PROXY_SSL_HEADER", None) and not getattr(
        settings, "TAROK_TRUSTED_PROXIES", None
    ):
        warnings.append(
            Warning(
                "Behind a TLS proxy (DJANGO_SECURE_SSL=1) with no TAROK_TRUSTED_PROXIES: every "
                "client has the proxy's address, so log-in throttling locks out all at once.",
                hint="TAROK_TRUSTED_PROXIES=127.0.0.1 for a proxy on the same machine.",
                id="tarokclub.W031",
            )
        )
    return warnings
