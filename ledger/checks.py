"""Django system checks of tarokclub's own settings (``manage.py check``; ``--deploy`` adds
the production ones). A bad setting is named when the site starts, not on first use.

- ``tarokclub.E001``–``E009``: ``TAROK_GAMES`` (each a game package with ``GAME`` answering the
  contract and ``web.WEB`` of the same code, an installed app, listed once; its table sizes
  and own tournament formats declared in ``Features``; its new clubs' language, currency and
  time zone ones the site offers).
- ``tarokclub.E012``: every time zone a club may choose is one ``zoneinfo`` knows.
- ``tarokclub.E010``, ``W011``: the ledger's seal secret (long enough; in production its own,
  so that changing ``SECRET_KEY`` never breaks the seals).
- ``tarokclub.E020``, ``E021``: the lock and statement timeouts (positive, the lock's first,
  both under gunicorn's worker timeout).
- ``tarokclub.W030``, ``W031`` (deploy): PostgreSQL, and the trusted proxy behind TLS.
"""

from __future__ import annotations

import os
import zoneinfo
from importlib import import_module

from django.conf import settings
from django.core.checks import Error, Tags, Warning, register

from ledger.games.base import Game, TableSizes
from ledger.games.money import CURRENCIES
from ledger.games.zones import TIME_ZONES
from ledger.tournaments.engine.rules import BASES, GENERIC_FORMATS, KINDS, SCORINGS, FormatRules

# The members every game answers (ledger.games.base.Game, the engine's contract).
CONTRACT = sorted(
    {name for name in vars(Game) if not name.startswith("_")} | set(Game.__annotations__)
)
SEAL_SECRET_MIN = 32
# gunicorn's worker timeout in scripts/serve-production.sh and deploy/tarokclub.service.
GUNICORN_TIMEOUT_DEFAULT = 60
# The longest format code a tournament stores (``Tournament.tournament_format``).
FORMAT_CODE_MAX = 20


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
    formats: dict[str, str] = {}  # each game's own format codes, to the package declaring it
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
            web = None
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
            continue
        codes[game.code] = path
        errors.extend(_table_sizes_errors(path, game))
        errors.extend(_format_errors(path, game, formats))
        if web is not None:
            errors.extend(_club_defaults_errors(path, web))
    return errors


def _table_sizes_errors(path: str, game) -> list[Error]:
    """E007: the game seats its tournaments at whole sizes it can play, each named once."""
    sizes = game.features.table_sizes
    f = game.features
    if not isinstance(sizes, TableSizes):
        problem = "declares no table sizes (Features.table_sizes, a TableSizes)"
    elif not all(isinstance(n, int) and not isinstance(n, bool) for n in sizes.allowed):
        problem = f"has table sizes that are not whole numbers: {sizes.allowed}"
    elif len(set(sizes.allowed)) != len(sizes.allowed):
        problem = f"names a table size twice: {sizes.allowed}"
    elif not all(f.min_seats <= n <= f.max_seats for n in sizes.allowed):
        problem = (
            f"has table sizes {sizes.allowed} outside its seats ({f.min_seats} to {f.max_seats})"
        )
    else:
        return []
    return [
        Error(
            f"TAROK_GAMES: {path}.GAME {problem}.",
            hint="e.g. table_sizes=TableSizes(4, (3, 5)): the base size, then the exceptions "
            "in order of preference (tournament.md section 4).",
            id="tarokclub.E007",
        )
    ]


def _format_errors(path: str, game, formats: dict[str, str]) -> list[Error]:
    """E008: each of the game's own formats is a FormatRules that names the game, with a code
    of its own (no generic format's, no other game's) that fits a tournament's row, known
    kinds of round, scoring and basis, and n placement points for a table of n."""
    errors = []
    for rules in game.features.tournament_formats:
        code = getattr(rules, "code", rules)
        if not isinstance(rules, FormatRules):
            problem = "is not a FormatRules (ledger.tournaments.engine.rules)"
        elif rules.games != (game.code,):
            problem = f"is played at {', '.join(rules.games) or 'every game'}, not {game.code!r}"
        elif not isinstance(code, str) or not code or len(code) > FORMAT_CODE_MAX:
            problem = f"needs a code of 1 to {FORMAT_CODE_MAX} characters"
        elif code in GENERIC_FORMATS or code in formats:
            owner = "a generic format" if code in GENERIC_FORMATS else formats[code]
            problem = f"has the code of {owner}"
        elif not {rules.first_kind, rules.later_kind} <= set(KINDS):
            problem = f"has a kind of round that is none of {', '.join(KINDS)}"
        elif rules.scoring not in SCORINGS or rules.basis not in BASES:
            problem = f"scores by {rules.scoring!r} of {rules.basis!r}, not a scoring and basis"
        elif any(len(points) != size for size, points in rules.placement.items()):
            problem = "gives a table of n seats other than n placement points"
        else:
            formats[code] = path
            continue
        errors.append(
            Error(
                f"TAROK_GAMES: {path}'s tournament format {code!r} {problem}.",
                id="tarokclub.E008",
            )
        )
    return errors


def _club_defaults_errors(path: str, web) -> list[Error]:
    """E009: a new club of the game gets a language, currency and time zone the site offers."""
    defaults = getattr(web, "club_defaults", {}) or {}
    offered = {
        "language": {code for code, _name in settings.LANGUAGES},
        "currency": set(CURRENCIES),
        "time_zone": set(TIME_ZONES),
    }
    homes = {
        "language": "settings.LANGUAGES",
        "currency": "ledger.games.money.CURRENCIES",
        "time_zone": "ledger.games.zones.TIME_ZONES",
    }
    return [
        Error(
            f"TAROK_GAMES: {path}.web.WEB.club_defaults[{key!r}] is {defaults[key]!r}, which the "
            f"site does not offer.",
            hint=f"Add it to {homes[key]} first (docs/adding-a-game.md).",
            id="tarokclub.E009",
        )
        for key in offered
        if key in defaults and defaults[key] not in offered[key]
    ]


@register("tarokclub")
def check_time_zones(app_configs=None, **kwargs):
    """Every time zone a club may choose is one the system's zone database knows."""
    unknown = []
    for zone in TIME_ZONES:
        try:
            zoneinfo.ZoneInfo(zone)
        except (zoneinfo.ZoneInfoNotFoundError, ValueError):
            unknown.append(zone)
    return [
        Error(
            f"ledger.games.zones.TIME_ZONES: {zone!r} is no time zone zoneinfo knows.",
            id="tarokclub.E012",
        )
        for zone in unknown
    ]


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
    if not (
        isinstance(lock, int | float)
        and isinstance(statement, int | float)
        and 0 < lock < statement
    ):
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
