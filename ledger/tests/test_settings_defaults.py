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


TEST_DATABASE = (
    "import os; os.environ['DJANGO_SETTINGS_MODULE'] = 'tarokclub.settings';"
    "from django.conf import settings;"
    "print(os.getpid(), settings.DATABASES['default']['TEST']['NAME'])"
)


def test_sqlite_test_database_keeps_one_name_for_the_edit_test_loop():
    """A one-process run outside CI names its SQLite test database the same every time
    (``test-db-kept.sqlite3``), so ``pytest --reuse-db`` finds it migrated."""
    names = set()
    for _ in range(2):
        done = run_python(TEST_DATABASE, DJANGO_DEBUG="1")
        assert done.returncode == 0, done.stderr
        names.add(done.stdout.split()[1])
    assert names == {str(ROOT / "test-db-kept.sqlite3")}


def test_sqlite_test_database_is_named_by_process_in_ci_and_under_xdist():
    """In CI and in each pytest-xdist worker the SQLite test database is named by the process
    id, so runs side by side never share a file; TEST_DATABASE_NAME overrides both."""
    for env in ({"CI": "true"}, {"PYTEST_XDIST_WORKER": "gw0"}):
        done = run_python(TEST_DATABASE, DJANGO_DEBUG="1", **env)
        assert done.returncode == 0, done.stderr
        pid, name = done.stdout.split()
        assert name == str(ROOT / f"test-db-{pid}.sqlite3"), env
    done = run_python(
        TEST_DATABASE, DJANGO_DEBUG="1", CI="true", TEST_DATABASE_NAME="named.sqlite3"
    )
    assert done.stdout.split()[1] == "named.sqlite3"
