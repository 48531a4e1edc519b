import json
from pathlib import Path

import pytest
from django.core.cache import cache
from django.db import transaction

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT.parent / "shared" / "spec" / "examples"
if not EXAMPLES.is_dir():  # a copy of the spec examples ships with the tests too
    EXAMPLES = ROOT / "ledger" / "tests" / "examples"


def load_example(name: str):
    return json.loads((EXAMPLES / name).read_text(encoding="utf-8"))


@pytest.fixture
def example():
    return load_example


@pytest.fixture(autouse=True, scope="session")
def _flush_may_clear_the_ledger():
    """Let pytest-django's flush between transactional tests clear the append-only tables.

    The guard is lifted only inside Django's ``flush`` command, which only tests call.
    """
    from django.core.management.commands import flush

    from ledger.db import ledger_unlocked

    original = flush.Command.handle

    def handle(self, *args, **options):
        with ledger_unlocked():
            return original(self, *args, **options)

    flush.Command.handle = handle
    yield
    flush.Command.handle = original


@pytest.fixture(autouse=True)
def _login_throttling_only_where_tested(request, settings):
    """Switch django-axes off except in tests marked ``axes``.

    Django's test client ``login()`` authenticates without a request, which django-axes
    refuses by design; the throttling itself is tested through real log-in requests.
    """
    if "axes" not in request.keywords:
        settings.AXES_ENABLED = False


@pytest.fixture(autouse=True)
def _nothing_kept_from_another_test():
    """Start every test with nothing kept in this process's cache: a test's database rolls
    back and its ids come again in the next test, so a value kept under one could leak."""
    cache.clear()


@pytest.fixture(autouse=True)
def _fast_password_hashing(settings):
    """Hash test passwords cheaply; PBKDF2 stays listed so stored demo passwords still verify.

    Every test, the browser suite's too, has it from here: no module repeats it.
    """
    settings.PASSWORD_HASHERS = [
        "django.contrib.auth.hashers.MD5PasswordHasher",
        "django.contrib.auth.hashers.PBKDF2PasswordHasher",
    ]


@pytest.fixture(autouse=True)
def _english_outside_requests():
    """Run code outside a request in English, so message assertions are language-independent.

    Pages still render in Danish by default: LocaleMiddleware picks each request's language.
    """
    from django.utils import translation

    with translation.override("en"):
        yield


@pytest.fixture(scope="class")
def demo(django_db_setup, django_db_blocker):
    """Load the demo once for a class of tests, in a transaction rolled back afterwards.

    Each test runs in a savepoint inside it (pytest-django's own atomic block), so what a test
    writes is undone and the next test sees the demo as loaded.
    """
    with django_db_blocker.unblock():
        outer = transaction.atomic()
        # Like TestCase's class-wide block: the services' durable blocks may nest in it (the
        # demo tournament is built through them after loading).
        outer._from_testcase = True
        outer.__enter__()
        try:
            from ledger.tests.helpers import seed

            out, _err = seed(force=True)
            yield out
        finally:
            transaction.set_rollback(True)
            outer.__exit__(None, None, None)
