"""Production settings, login throttling and CSRF."""

import os
import subprocess
import sys

import pytest
from django.test import Client

from ledger.tests.conftest import ROOT
from ledger.tests.factories import PASSWORD, make_club, make_member
from ledger.tests.helpers import documented_environment


def manage(*args, **env):
    # Browser tests allow async-unsafe ORM calls in this process; a deployment never does.
    base = {k: v for k, v in os.environ.items() if k != "DJANGO_ALLOW_ASYNC_UNSAFE"}
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env={**base, **env},
        capture_output=True,
        text=True,
    )


def test_check_deploy_is_clean_with_production_settings():
    """``check --deploy`` reports nothing, not even a warning, with the production environment
    documented in deploy/tarokclub.env.example (docs/operator.md)."""
    env = documented_environment()
    assert {"DATABASE_URL", "DJANGO_SECURE_SSL", "TAROK_TRUSTED_PROXIES"} <= set(env)
    done = manage("check", "--deploy", "--fail-level", "WARNING", **env)
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.strip() == "System check identified no issues (0 silenced)."


def test_production_refuses_to_start_without_a_secret_key():
    """With DJANGO_DEBUG=0 and no DJANGO_SECRET_KEY the site refuses to start."""
    done = manage("check", DJANGO_DEBUG="0", DJANGO_SECRET_KEY="")
    assert done.returncode != 0
    assert "DJANGO_SECRET_KEY must be set" in done.stderr


@pytest.mark.axes
@pytest.mark.django_db
def test_login_is_throttled_after_five_failures(client):
    """The fifth wrong password locks the user name from that address; the right one then fails."""
    club = make_club()
    make_member(club, "Anna", login=True)
    for _ in range(4):
        response = client.post("/login/", {"username": "test-anna", "password": "wrong"})
        assert response.status_code == 200
    response = client.post("/login/", {"username": "test-anna", "password": "wrong"})
    assert response.status_code == 429
    response = client.post("/login/", {"username": "test-anna", "password": PASSWORD})
    assert response.status_code == 429
    assert b'id="locked-out"' in response.content
    assert "_auth_user_id" not in client.session
    other = Client(REMOTE_ADDR="10.9.8.7")
    response = other.post("/login/", {"username": "test-anna", "password": PASSWORD})
    assert response.status_code == 302


@pytest.mark.axes
@pytest.mark.django_db
def test_successful_login_resets_the_count(client):
    """A success before the limit resets the count of failures."""
    club = make_club()
    make_member(club, "Anna", login=True)
    for _ in range(4):
        client.post("/login/", {"username": "test-anna", "password": "wrong"})
    assert (
        client.post("/login/", {"username": "test-anna", "password": PASSWORD}).status_code == 302
    )
    client.post("/logout/")
    for _ in range(4):
        client.post("/login/", {"username": "test-anna", "password": "wrong"})
    assert (
        client.post("/login/", {"username": "test-anna", "password": PASSWORD}).status_code == 302
    )


@pytest.mark.django_db
def test_login_form_requires_csrf():
    """A log-in without the CSRF token is refused."""
    client = Client(enforce_csrf_checks=True)
    response = client.post("/login/", {"username": "x", "password": "y"})
    assert response.status_code == 403
