"""Settings of the test suite (pytest-django): the development settings.

``tarokclub.settings`` defaults to production (DEBUG off, DJANGO_SECRET_KEY required) when
DJANGO_DEBUG is unset; pytest does not go through manage.py, so it sets the developer's
default here. An explicit DJANGO_DEBUG in the environment still wins.
"""

import os

os.environ.setdefault("DJANGO_DEBUG", "1")

from tarokclub.settings import *  # noqa: F403

# A test-only game proves the game contract: registered here, with no file outside its package
# (``ledger/tests/games/toy``) naming it.
TAROK_GAMES = [*TAROK_GAMES, "ledger.tests.games.toy"]  # noqa: F405
INSTALLED_APPS = [*INSTALLED_APPS, "ledger.tests.games.toy"]  # noqa: F405

# Nothing rendered at a close (ledger/web/kept_pdfs.py): a test that closes an evening through
# its view renders no PDF it does not ask for; the tests of the kept PDFs render "inline".
TAROK_KEPT_RENDER = "off"
