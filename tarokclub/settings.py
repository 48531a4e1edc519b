"""Settings of tarokclub: one module; production differences come from the environment.

Environment variables:
- DJANGO_DEBUG: "1" for development, "0" (the default when unset) in production. manage.py,
  the developer's entry point, sets "1" unless told otherwise; tarokclub/wsgi.py and asgi.py
  (production) do not, and the test suite gets "1" from tarokclub/settings_test.py.
- DJANGO_SECRET_KEY: required when DEBUG is off (ImproperlyConfigured otherwise).
- DJANGO_ALLOWED_HOSTS: comma-separated host names (production).
- TAROK_INSTALLATION_NAME (tarokclub): this installation's name in the results files it exports.
- DJANGO_CSRF_TRUSTED_ORIGINS: comma-separated origins, e.g. https://tarok.example.dk.
- DJANGO_SECURE_SSL: "1" when served behind TLS (secure cookies, HSTS, redirect).
- DJANGO_STATIC_ROOT: where collectstatic puts the files (default: staticfiles/).
- DJANGO_EMAIL_HOST, DJANGO_EMAIL_PORT (587), DJANGO_EMAIL_HOST_USER,
  DJANGO_EMAIL_HOST_PASSWORD, DJANGO_EMAIL_USE_TLS ("1"), DJANGO_DEFAULT_FROM_EMAIL: SMTP for
  the password-reset mail; without DJANGO_EMAIL_HOST mail is printed on the console.
- DATABASE_URL: e.g. postgres://user@host:5432/tarokclub; SQLite db.sqlite3 when unset.
- TAROK_LOCK_TIMEOUT (5), TAROK_STATEMENT_TIMEOUT (20): seconds a service waits for a row lock,
  and runs one statement, before it answers "busy, try again" (PostgreSQL); TAROK_BUSY_RETRY_AFTER
  (2): the seconds the tablet waits before it sends again. Keep both timeouts under gunicorn's
  (GUNICORN_TIMEOUT, 60 in scripts/serve-production.sh).
- DJANGO_LOG_FORMAT: "text" (the default) or "json" (one JSON object a line);
  DJANGO_LOG_LEVEL (WARNING) for everything, TAROK_LOG_LEVEL (INFO) for the app's own loggers.
- SENTRY_DSN: report errors through sentry-sdk (tarokclub/sentry.py); SENTRY_ENVIRONMENT
  (production), SENTRY_TRACES_SAMPLE_RATE (0), SENTRY_SEND_PII (0).
"""

import datetime
import ipaddress
import os
from pathlib import Path

import dj_database_url
from csp.constants import NONE, SELF
from django.core.exceptions import ImproperlyConfigured

from tarokclub.sentry import init_from_environment as init_sentry

BASE_DIR = Path(__file__).resolve().parent.parent


def env_flag(name: str, default: str = "0") -> bool:
    return os.environ.get(name, default).strip().lower() in ("1", "true", "yes", "on")


def env_list(name: str, default: str = "") -> list[str]:
    return [item.strip() for item in os.environ.get(name, default).split(",") if item.strip()]


def env_seconds(name: str, default: str) -> float:
    value = os.environ.get(name, default)
    try:
        seconds = float(value)
    except ValueError:
        seconds = -1
    if not 0 < seconds < 3600:
        raise ImproperlyConfigured(f"{name} must be a number of seconds (0 to 3600), not {value!r}")
    return seconds


DEBUG = env_flag("DJANGO_DEBUG", "0")

SECRET_KEY = os.environ.get("DJANGO_SECRET_KEY", "")
if not SECRET_KEY:
    if not DEBUG:
        raise ImproperlyConfigured(
            "DJANGO_SECRET_KEY must be set when DEBUG is off (DJANGO_DEBUG unset or 0)"
        )
    SECRET_KEY = "development-only-key-never-used-in-production"  # noqa: S105 (DEBUG only)
# The key of the ledger's seals (ledger/services/seals.py); SECRET_KEY when unset. Keep it with
# the backups: a backup restores under the secret that sealed it (or with restore --reseal).
LEDGER_SEAL_SECRET = os.environ.get("LEDGER_SEAL_SECRET") or None
# The largest backup file restore reads (bytes).
RESTORE_MAX_BYTES = int(os.environ.get("RESTORE_MAX_BYTES", "2000000000"))

ALLOWED_HOSTS = env_list("DJANGO_ALLOWED_HOSTS", "localhost,127.0.0.1,[::1]" if DEBUG else "")
CSRF_TRUSTED_ORIGINS = env_list("DJANGO_CSRF_TRUSTED_ORIGINS")

# The games the site scores, listed once: each a package of ``ledger/games`` (its pure engine,
# its web side, its templates and static files, its demo club). The first is a new club's
# default. Each is also an app, so Django finds its templates and static files.
TAROK_GAMES = [
    "ledger.games.danish",
    "ledger.games.slovenian",
    "ledger.games.hungarian",
]

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "django.contrib.humanize",
    "django_tables2",
    "django_htmx",
    "axes",
    "csp",
    "ledger",
    *TAROK_GAMES,
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "ledger.web.bounds.QueryBoundsMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    # After LocaleMiddleware, replacing its decision: the member's own language, then the
    # club's on its pages, then the browser's, then Danish; and the club's time zone.
    "ledger.web.locale.ClubLanguageMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    # Before any view: ends the session of a log-out made without a network and of a log-in
    # unused for its club's idle time (its message needs the messages above).
    "ledger.web.sessions.SessionEndMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "csp.middleware.CSPMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    # Last, as django-axes requires: it turns a lockout into the lockout page.
    "axes.middleware.AxesMiddleware",
]

AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]

# Login throttling (django-axes): 5 failures for one user name from one address lock that
# pair out for 15 minutes; a success resets the count.
AXES_ENABLED = env_flag("AXES_ENABLED", "1")
AXES_FAILURE_LIMIT = int(os.environ.get("AXES_FAILURE_LIMIT", "5"))
AXES_COOLOFF_TIME = datetime.timedelta(minutes=int(os.environ.get("AXES_COOLOFF_MINUTES", "15")))
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
# The client's address: REMOTE_ADDR, or behind the proxies named here (addresses or networks,
# comma-separated, e.g. 127.0.0.1 for nginx on the same machine) the address they forwarded.
TAROK_TRUSTED_PROXIES = env_list("TAROK_TRUSTED_PROXIES")
for _proxy in TAROK_TRUSTED_PROXIES:
    try:
        ipaddress.ip_network(_proxy, strict=False)
    except ValueError:
        raise ImproperlyConfigured(
            f"TAROK_TRUSTED_PROXIES: {_proxy!r} is not an address or a network"
        ) from None
AXES_CLIENT_IP_CALLABLE = "ledger.web.client.axes_client_ip"
# Password-reset requests: at most this many an hour from one address, and for one address.
PASSWORD_RESET_PER_HOUR = int(os.environ.get("PASSWORD_RESET_PER_HOUR", "5"))
AXES_RESET_ON_SUCCESS = True
AXES_LOCKOUT_TEMPLATE = "registration/locked_out.html"
AXES_VERBOSE = False

ROOT_URLCONF = "tarokclub.urls"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "django.template.context_processors.i18n",
                "ledger.web.context_processors.club",
                "ledger.web.context_processors.tablet",
                "ledger.web.context_processors.version",
            ],
        },
    },
]

WSGI_APPLICATION = "tarokclub.wsgi.application"

DATABASES = {
    "default": dj_database_url.config(
        default=f"sqlite:///{BASE_DIR / 'db.sqlite3'}",
        conn_max_age=int(os.environ.get("DATABASE_CONN_MAX_AGE", "60")),
        # A kept connection is checked before a request reuses it, so a database restart
        # costs a reconnect rather than a 500.
        conn_health_checks=True,
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # WAL lets readers (the wall screen) go on while a tablet writes.
    DATABASES["default"].setdefault("OPTIONS", {})
    DATABASES["default"]["OPTIONS"].update(
        {"transaction_mode": "IMMEDIATE", "timeout": 20, "init_command": "PRAGMA journal_mode=WAL;"}
    )
    DATABASES["default"]["CONN_MAX_AGE"] = 0
    # Tests use a file (not the shared in-memory database), so that with WAL the browser
    # tests' live server and the test thread never lock each other out. A run of one process
    # on a developer's machine names it the same every time, so ``pytest --reuse-db`` finds
    # it migrated and the edit-test loop skips the migrations; CI and each pytest-xdist worker
    # name theirs by process id, so runs side by side never share a file.
    by_process = os.environ.get("CI") or os.environ.get("PYTEST_XDIST_WORKER")
    kept = f"test-db-{os.getpid()}.sqlite3" if by_process else "test-db-kept.sqlite3"
    DATABASES["default"]["TEST"] = {
        "NAME": os.environ.get("TEST_DATABASE_NAME") or str(BASE_DIR / kept)
    }
elif os.environ.get("TEST_DATABASE_NAME"):
    DATABASES["default"]["TEST"] = {"NAME": os.environ["TEST_DATABASE_NAME"]}

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# The installation's name in the results files it exports (federation.md section 5).
TAROK_INSTALLATION_NAME = os.environ.get("TAROK_INSTALLATION_NAME", "")[:100] or "tarokclub"

# Locks that answer (ledger/services/locking.py): seconds; ledger/checks.py checks their order.
TAROK_LOCK_TIMEOUT = env_seconds("TAROK_LOCK_TIMEOUT", "5")
TAROK_STATEMENT_TIMEOUT = env_seconds("TAROK_STATEMENT_TIMEOUT", "20")
TAROK_BUSY_RETRY_AFTER = round(env_seconds("TAROK_BUSY_RETRY_AFTER", "2"))
# Where the PDFs read after a close are rendered (ledger/web/kept_pdfs.py): "process" (a
# ``manage.py render_kept`` process of its own that exits after its batch), "inline" (in the
# request, after the commit) or "off" (by the first reader). See docs/operator.md.
TAROK_KEPT_RENDER = os.environ.get("TAROK_KEPT_RENDER", "process")
if TAROK_KEPT_RENDER not in ("process", "inline", "off"):
    raise ImproperlyConfigured("TAROK_KEPT_RENDER must be process, inline or off")

# "default": per process, for what is the same whichever worker computes it (rendered tables
# kept by their content, ledger/web/render_cache.py). "shared": one table in the database
# every worker reads (created by migrate, see ledger/apps.py), for what must hold across
# workers: kept PDFs of closed evenings and the one-render-per-user locks (ledger/web/kept.py).
CACHES = {
    "default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"},
    "shared": {
        "BACKEND": "django.core.cache.backends.db.DatabaseCache",
        "LOCATION": "tarokclub_cache",
        "OPTIONS": {"MAX_ENTRIES": 2000},
    },
    # Pages and parts of pages kept in each worker's memory before (or instead of) the shared
    # store (ledger.web.kept): bounded to 64 entries, about 20 MB at most (an evening's sheet
    # of 160 hands is 340 KB; a table's part a quarter of that).
    "parts": {
        "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
        "LOCATION": "parts",
        "OPTIONS": {"MAX_ENTRIES": 64},
    },
}

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

LANGUAGE_CODE = "da"
# The interface's languages, each named in its own language (the switch in the top bar offers
# them all). English is the source language of the messages; the others have catalogues in
# locale/. The order is the switch's.
LANGUAGES = [("da", "Dansk"), ("sl", "Slovenščina"), ("hu", "Magyar"), ("en", "English")]
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = "Europe/Copenhagen"
USE_I18N = True
# Dates are typed the Danish way (24.11.2026 or 24-11-2026); tarokclub/formats/ holds the
# localised formats (they take precedence over these when a language is active).
FORMAT_MODULE_PATH = ["tarokclub.formats"]
DATE_INPUT_FORMATS = ["%d.%m.%Y", "%d-%m-%Y", "%Y-%m-%d"]
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = Path(os.environ.get("DJANGO_STATIC_ROOT") or BASE_DIR / "staticfiles")
STATICFILES_DIRS = [BASE_DIR / "static"]
# Production: hashed, compressed files from collectstatic (scripts/serve-production.sh runs
# it); a file missing from the manifest falls back to its plain name instead of a 500.
PRODUCTION_STATICFILES_BACKEND = "tarokclub.staticstorage.SafeCompressedManifestStaticFilesStorage"
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"
        if DEBUG
        else PRODUCTION_STATICFILES_BACKEND
    },
}

FIXTURE_DIRS = [BASE_DIR / "fixtures"]

LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"

DJANGO_TABLES2_TEMPLATE = "ledger/_table.html"  # django-tables2's, rows written in Python

if env_flag("DJANGO_SECURE_SSL"):
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_SSL_REDIRECT = True
    # The proxy's and a monitor's health probe may come over plain HTTP on the loopback.
    SECURE_REDIRECT_EXEMPT = [r"^healthz/$"]
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    SECURE_HSTS_SECONDS = int(os.environ.get("DJANGO_HSTS_SECONDS", "31536000"))
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = True

# Content-Security-Policy (django-csp): scripts and styles only from our own static files,
# no inline script or style (a test greps the templates); htmx's own indicator styles are
# switched off in base.html. The PDF templates keep their <style>: WeasyPrint renders them,
# not a browser.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "script-src": [SELF],
        "style-src": [SELF],
        "img-src": [SELF, "data:"],
        "frame-ancestors": [NONE],
        "form-action": [SELF],
    }
}

# E-mail (the password reset): printed on the console unless an SMTP host is set.
if os.environ.get("DJANGO_EMAIL_HOST"):
    EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    EMAIL_HOST = os.environ["DJANGO_EMAIL_HOST"]
    EMAIL_PORT = int(os.environ.get("DJANGO_EMAIL_PORT", "587"))
    EMAIL_HOST_USER = os.environ.get("DJANGO_EMAIL_HOST_USER", "")
    EMAIL_HOST_PASSWORD = os.environ.get("DJANGO_EMAIL_HOST_PASSWORD", "")
    EMAIL_USE_TLS = env_flag("DJANGO_EMAIL_USE_TLS", "1")
else:
    EMAIL_BACKEND = "django.core.mail.backends.console.EmailBackend"
DEFAULT_FROM_EMAIL = os.environ.get("DJANGO_DEFAULT_FROM_EMAIL", "tarokclub@localhost")
PASSWORD_RESET_TIMEOUT = 60 * 60 * 24  # a reset link is good for one day (and one use)

SESSION_COOKIE_HTTPONLY = True
# Sessions stay in the database (Django's default engine): one query a request. Through the
# cache they would save nothing here: "cached_db" over "shared" (a database table) reads a row
# as the session table does, and over "default" (each worker's own memory) a session logged
# out or changed in one worker would live on, unchanged, in the others. With a cache that
# every worker shares in memory (memcached, Redis), "cached_db" over it would save the query.
X_FRAME_OPTIONS = "DENY"

# Logs go to standard error (journald under systemd, deploy/): plain text, or one JSON object
# a line with DJANGO_LOG_FORMAT=json (tarokclub/logs.py). The app's own module loggers
# ("ledger...") say INFO and up (refused writes); the rest WARNING and up.
LOG_FORMAT = os.environ.get("DJANGO_LOG_FORMAT", "text").strip().lower()
if LOG_FORMAT not in ("text", "json"):
    raise ImproperlyConfigured(f"DJANGO_LOG_FORMAT must be text or json, not {LOG_FORMAT!r}")
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {
        "text": {"()": "tarokclub.logs.TextFormatter"},
        "json": {"()": "tarokclub.logs.JsonFormatter"},
    },
    "handlers": {"console": {"class": "logging.StreamHandler", "formatter": LOG_FORMAT}},
    "root": {"handlers": ["console"], "level": os.environ.get("DJANGO_LOG_LEVEL", "WARNING")},
    "loggers": {"ledger": {"level": os.environ.get("TAROK_LOG_LEVEL", "INFO")}},
}

# Error reporting: only when SENTRY_DSN is set (tarokclub/sentry.py).
SENTRY_ENABLED = init_sentry()
