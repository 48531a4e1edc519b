"""Password reset by e-mail (Django's flow under /password-reset/), in Danish by default."""

import re

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from django.test import Client

from ledger.tests.helpers import run_python

pytestmark = pytest.mark.django_db

OLD, NEW = "gammel-adgangskode-1", "ny-sikker-kode-2026"


@pytest.fixture
def user():
    return get_user_model().objects.create_user(
        username="anna", email="anna@example.dk", password=OLD
    )


def reset_link(client, email="anna@example.dk") -> str:
    response = client.post("/password-reset/", {"email": email})
    assert response.status_code == 302
    assert response["Location"] == "/password-reset/sent/"
    (message,) = mail.outbox
    assert message.to == ["anna@example.dk"]
    match = re.search(r"https?://[^/\s]+(/password-reset/[^\s]+/)", str(message.body))
    assert match, message.body
    return match.group(1)


def test_login_page_links_the_password_reset_in_danish(client):
    """The log-in page offers "Glemt adgangskode?" linking to /password-reset/."""
    html = client.get("/login/").content.decode()
    assert '<a href="/password-reset/">Glemt adgangskode?</a>' in html


def test_reset_form_is_danish_and_extends_the_site(client):
    """The reset form is in Danish and uses the site's layout (base.html)."""
    html = client.get("/password-reset/").content.decode()
    assert "Nulstil adgangskode" in html
    assert 'class="topbar"' in html


def test_reset_mail_link_sets_a_new_password_once(client, user):
    """A reset mail goes to the user's address; its link sets a new password, the log-in
    works with it (not with the old one), and a used link is refused."""
    link = reset_link(client)
    assert "Nulstil" in mail.outbox[0].subject or "adgangskode" in mail.outbox[0].subject
    response = client.get(link)
    assert response.status_code == 302  # to the same URL with the token in the session
    set_url = response["Location"]
    response = client.get(set_url)
    assert response.status_code == 200
    assert b"new_password1" in response.content
    response = client.post(set_url, {"new_password1": NEW, "new_password2": NEW})
    assert response.status_code == 302
    assert response["Location"] == "/password-reset/done/"
    assert "Din adgangskode er ændret" in client.get("/password-reset/done/").content.decode()

    fresh = Client()
    assert fresh.post("/login/", {"username": "anna", "password": OLD}).status_code == 200
    response = fresh.post("/login/", {"username": "anna", "password": NEW})
    assert response.status_code == 302
    assert fresh.session["_auth_user_id"] == str(user.pk)

    again = Client()
    response = again.get(link, follow=True)
    assert response.status_code == 200
    assert "Linket er ikke gyldigt" in response.content.decode()
    assert b"new_password1" not in response.content


def test_unknown_address_sends_nothing_but_says_the_same(client, user):
    """An unknown address gets the same answer and no mail (no account probing)."""
    response = client.post("/password-reset/", {"email": "nobody@example.dk"})
    assert response.status_code == 302
    assert response["Location"] == "/password-reset/sent/"
    assert mail.outbox == []


@pytest.mark.axes
def test_reset_and_log_in_work_with_login_throttling_on(client, user):
    """With django-axes on, the reset flow and the log-in with the new password work."""
    for _ in range(2):
        client.post("/login/", {"username": "anna", "password": "wrong"})
    link = reset_link(client)
    set_url = client.get(link)["Location"]
    response = client.post(set_url, {"new_password1": NEW, "new_password2": NEW})
    assert response["Location"] == "/password-reset/done/"
    response = client.post("/login/", {"username": "anna", "password": NEW})
    assert response.status_code == 302


def test_email_backend_is_console_unless_an_smtp_host_is_set():
    """Console e-mail by default; SMTP with the DJANGO_EMAIL_* variables when
    DJANGO_EMAIL_HOST is set."""
    code = (
        "import os; os.environ['DJANGO_SETTINGS_MODULE'] = 'tarokclub.settings';"
        "from django.conf import settings as s;"
        "print(s.EMAIL_BACKEND, s.EMAIL_HOST, s.EMAIL_PORT, s.EMAIL_HOST_USER,"
        " s.EMAIL_HOST_PASSWORD, s.EMAIL_USE_TLS, s.DEFAULT_FROM_EMAIL)"
    )
    done = run_python(code, DJANGO_DEBUG="1")
    assert done.stdout.split()[0] == "django.core.mail.backends.console.EmailBackend"
    done = run_python(
        code,
        DJANGO_DEBUG="1",
        DJANGO_EMAIL_HOST="smtp.example.dk",
        DJANGO_EMAIL_PORT="2525",
        DJANGO_EMAIL_HOST_USER="klub",
        DJANGO_EMAIL_HOST_PASSWORD="hemmelig",
        DJANGO_EMAIL_USE_TLS="1",
        DJANGO_DEFAULT_FROM_EMAIL="tarok@example.dk",
    )
    assert done.stdout.split() == [
        "django.core.mail.backends.smtp.EmailBackend",
        "smtp.example.dk",
        "2525",
        "klub",
        "hemmelig",
        "True",
        "tarok@example.dk",
    ]
