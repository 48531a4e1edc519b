"""Issue 22.5: behind the TLS proxy nobody can lock anybody out, and the password reset is
bounded. The probe: behind the proxy every client was the proxy's address, so five wrong
passwords from anywhere locked the member out everywhere for 15 minutes."""

from __future__ import annotations

from typing import Any

import pytest
from django.core import mail
from django.core.cache import caches
from django.test import Client, RequestFactory

from ledger.tests.factories import PASSWORD, make_club, make_member
from ledger.tests.helpers import run_python
from ledger.web.client import client_ip

PROXY = "127.0.0.1"
ATTACKER, MEMBER = "203.0.113.9", "198.51.100.7"


@pytest.fixture(autouse=True)
def _fresh_cache(db):
    caches["shared"].clear()
    yield
    caches["shared"].clear()


def via_proxy(client_address: str, *, forwarded: str | None = None) -> Client:
    """A client reaching the site through nginx on the same machine, which appends the
    address it was reached from to whatever X-Forwarded-For the client sent."""
    header = f"{forwarded}, {client_address}" if forwarded else client_address
    return Client(REMOTE_ADDR=PROXY, HTTP_X_FORWARDED_FOR=header)


def meta(remote: str, forwarded: str | None = None):
    extra: dict[str, Any] = {"REMOTE_ADDR": remote}
    if forwarded is not None:
        extra["HTTP_X_FORWARDED_FOR"] = forwarded
    return RequestFactory().get("/", **extra)


@pytest.mark.parametrize(
    "proxies,remote,forwarded,expected",
    [
        ([], PROXY, ATTACKER, PROXY),  # no trusted proxy: the header is ignored
        ([PROXY], PROXY, ATTACKER, ATTACKER),
        ([PROXY], PROXY, f"{MEMBER}, {ATTACKER}", ATTACKER),  # a spoofed left part is not taken
        ([PROXY], "192.0.2.50", MEMBER, "192.0.2.50"),  # not from the proxy: header ignored
        (["10.0.0.0/8"], "10.0.0.2", f"{ATTACKER}, 10.0.0.1", ATTACKER),  # two proxies
        ([PROXY], PROXY, "not an address", PROXY),
        ([PROXY], PROXY, None, PROXY),
        (["::1"], "::1", "2001:db8::5", "2001:db8::5"),
    ],
)
def test_the_client_address(settings, proxies, remote, forwarded, expected):
    settings.TAROK_TRUSTED_PROXIES = proxies
    assert client_ip(meta(remote, forwarded)) == expected


@pytest.mark.axes
@pytest.mark.django_db
def test_behind_the_proxy_a_stranger_cannot_lock_a_member_out(settings):
    settings.TAROK_TRUSTED_PROXIES = [PROXY]
    make_member(make_club(), "Anna", login=True)
    attacker = via_proxy(ATTACKER)
    for _ in range(6):
        attacker.post("/login/", {"username": "test-anna", "password": "wrong"})
    assert (
        attacker.post("/login/", {"username": "test-anna", "password": PASSWORD}).status_code == 429
    )
    # Anna at her own address, through the same proxy, logs in with her password.
    response = via_proxy(MEMBER).post("/login/", {"username": "test-anna", "password": PASSWORD})
    assert response.status_code == 302


@pytest.mark.axes
@pytest.mark.django_db
def test_a_forged_forwarded_header_neither_locks_the_member_nor_frees_the_attacker(settings):
    settings.TAROK_TRUSTED_PROXIES = [PROXY]
    make_member(make_club(), "Anna", login=True)
    for _ in range(6):  # the attacker claims Anna's address each time
        via_proxy(ATTACKER, forwarded=MEMBER).post(
            "/login/", {"username": "test-anna", "password": "wrong"}
        )
    # still locked, whatever address he claims next
    forged = via_proxy(ATTACKER, forwarded="192.0.2.77")
    assert (
        forged.post("/login/", {"username": "test-anna", "password": PASSWORD}).status_code == 429
    )
    response = via_proxy(MEMBER).post("/login/", {"username": "test-anna", "password": PASSWORD})
    assert response.status_code == 302


@pytest.mark.axes
@pytest.mark.django_db
def test_without_trusted_proxies_the_header_buys_nothing(settings):
    """A direct client that writes X-Forwarded-For is still locked by its own address."""
    settings.TAROK_TRUSTED_PROXIES = []
    make_member(make_club(), "Anna", login=True)
    for i in range(6):
        Client(REMOTE_ADDR=ATTACKER, HTTP_X_FORWARDED_FOR=f"192.0.2.{i}").post(
            "/login/", {"username": "test-anna", "password": "wrong"}
        )
    again = Client(REMOTE_ADDR=ATTACKER, HTTP_X_FORWARDED_FOR="192.0.2.99")
    assert again.post("/login/", {"username": "test-anna", "password": PASSWORD}).status_code == 429


@pytest.mark.django_db
def test_password_reset_requests_are_bounded_per_address(settings, django_user_model):
    settings.TAROK_TRUSTED_PROXIES = [PROXY]
    settings.PASSWORD_RESET_PER_HOUR = 3
    for i in range(5):
        django_user_model.objects.create_user(f"u{i}", f"u{i}@example.dk", "x")
    answers = [
        via_proxy(ATTACKER).post("/password-reset/", {"email": f"u{i}@example.dk"}).status_code
        for i in range(5)
    ]
    assert answers == [302, 302, 302, 429, 429]
    assert len(mail.outbox) == 3
    refused = via_proxy(ATTACKER).post("/password-reset/", {"email": "u4@example.dk"})
    assert refused["Retry-After"] == "3600"
    assert "Too many password-reset requests" in refused.content.decode() or (
        "For mange" in refused.content.decode()
    )
    # another client is not held back by him
    assert via_proxy(MEMBER).post("/password-reset/", {"email": "u4@example.dk"}).status_code == 302
    assert len(mail.outbox) == 4


@pytest.mark.django_db
def test_password_reset_requests_are_bounded_per_mailbox(settings, django_user_model):
    """Nobody floods one member's mailbox from many addresses."""
    settings.TAROK_TRUSTED_PROXIES = [PROXY]
    settings.PASSWORD_RESET_PER_HOUR = 2
    django_user_model.objects.create_user("anna", "anna@example.dk", "x")
    answers = [
        via_proxy(f"192.0.2.{i}").post("/password-reset/", {"email": "Anna@Example.dk"}).status_code
        for i in range(4)
    ]
    assert answers == [302, 302, 429, 429]
    assert len(mail.outbox) == 2


def test_a_trusted_proxy_that_is_no_address_stops_the_start():
    done = run_python(
        "import django; django.setup()",
        DJANGO_SETTINGS_MODULE="tarokclub.settings",
        DJANGO_DEBUG="1",
        TAROK_TRUSTED_PROXIES="127.0.0.1,nginx.local",
    )
    assert done.returncode != 0
    assert "TAROK_TRUSTED_PROXIES: 'nginx.local' is not an address or a network" in done.stderr
