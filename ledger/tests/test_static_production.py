"""Static files in production: a missing collectstatic never turns a page into a 500."""

import os
import subprocess
import sys

import pytest
from django.test import override_settings

from ledger.tests.conftest import ROOT

PAGE = """
import django
django.setup()
from django.test import Client
from django.test.utils import setup_test_environment
setup_test_environment()
response = Client().get("/login/")
print("STATUS", response.status_code)
print(response.content.decode())
"""


def test_production_settings_render_the_login_page_without_collectstatic(tmp_path):
    """With the production settings (DJANGO_DEBUG unset) and an empty STATIC_ROOT, the
    log-in page renders 200 and links the stylesheet by its plain name."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("DJANGO_")}
    env.update(
        DJANGO_SETTINGS_MODULE="tarokclub.settings",
        DJANGO_SECRET_KEY="s" * 60,
        DJANGO_ALLOWED_HOSTS="testserver",
        DJANGO_STATIC_ROOT=str(tmp_path / "empty-static"),
        DATABASE_URL=f"sqlite:///{tmp_path / 'db.sqlite3'}",
    )
    env.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
    done = subprocess.run(
        [sys.executable, "-c", PAGE],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert "STATUS 200" in done.stdout, done.stderr[-3000:]
    assert "/static/ledger/site.css" in done.stdout


@pytest.mark.django_db
def test_login_page_renders_with_debug_off_and_an_empty_static_root(client, tmp_path):
    """DEBUG False, the production static storage and an empty STATIC_ROOT: the log-in
    page is 200 (the manifest storage falls back to plain names)."""
    from django.conf import settings

    from tarokclub.settings import PRODUCTION_STATICFILES_BACKEND

    storages = {**settings.STORAGES, "staticfiles": {"BACKEND": PRODUCTION_STATICFILES_BACKEND}}
    with override_settings(DEBUG=False, STATIC_ROOT=tmp_path, STORAGES=storages):
        response = client.get("/login/")
    assert response.status_code == 200
    assert b"/static/ledger/site.css" in response.content
