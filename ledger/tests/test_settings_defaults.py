"""The settings' defaults: production unless the developer's entry point says otherwise."""

import subprocess
import sys

from ledger.tests.conftest import ROOT
from ledger.tests.helpers import clean_env, run_python


def test_wsgi_refuses_to_start_without_debug_and_secret():
    """With DJANGO_DEBUG unset and no DJANGO_SECRET_KEY, importing the WSGI app raises
    ImproperlyConfigured: DEBUG defaults to off, and off needs a secret key."""
    done = run_python("import tarokclub.wsgi")
    assert done.returncode != 0
    assert "ImproperlyConfigured" in done.stderr
    assert "DJANGO_SECRET_KEY must be set" in done.stderr


def test_asgi_refuses_to_start_without_debug_and_secret():
    """The ASGI entry point refuses a start without DJANGO_SECRET_KEY in the same way."""
    done = run_python("import tarokclub.asgi")
    assert done.returncode != 0
    assert "DJANGO_SECRET_KEY must be set" in done.stderr


def test_debug_defaults_off_when_unset():
    """With DJANGO_DEBUG unset (and a secret key) the settings load with DEBUG False."""
    done = run_python(
        "import os; os.environ['DJANGO_SETTINGS_MODULE'] = 'tarokclub.settings';"
        "from django.conf import settings; print(settings.DEBUG)",
        DJANGO_SECRET_KEY="x" * 60,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "False"


def test_manage_py_defaults_to_debug_for_the_developer():
    """manage.py, the developer's entry point, runs in DEBUG with no environment at all,
    so the engine commands work on a bare machine."""
    hand = ROOT / "ledger" / "tests" / "examples" / "X1.hand.json"
    done = subprocess.run(
        [sys.executable, "manage.py", "settle_hand", str(hand)],
        cwd=ROOT,
        env=clean_env(),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert '"format": "tarokclub.settlement/1"' in done.stdout
    done = subprocess.run(
        [
            sys.executable,
            "manage.py",
            "shell",
            "-c",
            "from django.conf import settings as s; print(s.DEBUG)",
        ],
        cwd=ROOT,
        env=clean_env(),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip().splitlines()[-1] == "True"


def test_database_connections_are_checked_before_reuse():
    """A kept connection is health-checked before a request reuses it (CONN_HEALTH_CHECKS),
    on whatever database DATABASE_URL names."""
    done = run_python(
        "import os; os.environ['DJANGO_SETTINGS_MODULE'] = 'tarokclub.settings';"
        "from django.conf import settings; d = settings.DATABASES['default'];"
        "print(d['CONN_HEALTH_CHECKS'], d['CONN_MAX_AGE'])",
        DJANGO_SECRET_KEY="x" * 60,
        DATABASE_URL="postgres://postgres@127.0.0.1:5432/tarokclub",
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["True", "60"]
