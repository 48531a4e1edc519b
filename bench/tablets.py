"""The tournament bench's scorekeepers' tablets: each one a process of its own, over HTTP.

A tablet logs in on the served site as a browser does (the log-in form, its CSRF token and a
session cookie), then enters hands at the round table it is given: it opens the entry form
(``hand/new/``), reads what the form carries (the CSRF token, the one-time token, the hand's
number, the table's version, the seats and the dealer of the hand), fills in a random valid
Slovenian hand (the engine's own generator, as the tests' ``random_hand_at``) and posts it.
Only the post is the timed save; the form's load is timed apart.

It imports no Django and never touches the database: what it knows of the table it reads
from the pages, as a tablet would. ``device`` is the process's loop: it logs in once and then
plays every table it is sent, each at a given start time, so all tables start together.
"""

from __future__ import annotations

import html
import http.cookiejar
import json
import random
import re
import time
import urllib.error
import urllib.parse
import urllib.request

from ledger.games.slovenian.engine.generate import random_hand

TIMEOUT = 60
_INPUT = re.compile(r'<input type="hidden" name="(\w+)" value="([^"]*)"')
_CONFIG = re.compile(r'<script id="hand-config" type="application/json">(.*?)</script>', re.S)


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    """Leave a redirect to the caller: the saved hand's 302 is the answer being timed."""

    def redirect_request(self, req, fp, code, msg, headers, newurl):
        return None


class Refused(Exception):
    """The site answered a request of the tablet with an unexpected status."""


class Tablet:
    """A browser of the served site: its cookies (session, CSRF) and its requests."""

    def __init__(self, base_url: str):
        self.base_url = base_url.rstrip("/")
        self.cookies = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(
            urllib.request.HTTPCookieProcessor(self.cookies), _NoRedirect()
        )

    def request(self, path: str, data: dict | None = None) -> tuple[int, str]:
        """Return (status, body) of a GET, or of a POST of ``data`` as a form."""
        body = urllib.parse.urlencode(data).encode() if data is not None else None
        req = urllib.request.Request(self.base_url + path, data=body)  # noqa: S310 - http://127.0.0.1
        try:
            with self.opener.open(req, timeout=TIMEOUT) as response:
                return response.status, response.read().decode()
        except urllib.error.HTTPError as error:  # a redirect (left to us) or a refusal
            return error.code, error.read().decode(errors="replace")

    def form(self, path: str) -> tuple[dict, str]:
        """GET a page with a form; return its hidden inputs and the page."""
        status, page = self.request(path)
        if status != 200:
            raise Refused(f"GET {path}: {status}")
        return {k: html.unescape(v) for k, v in _INPUT.findall(page)}, page

    def log_in(self, username: str, password: str) -> None:
        """Log in through the log-in form (its CSRF token, then the session cookie)."""
        fields, _page = self.form("/login/")
        status, _body = self.request(
            "/login/",
            {
                "csrfmiddlewaretoken": fields["csrfmiddlewaretoken"],
                "username": username,
                "password": password,
            },
        )
        if status != 302:
            raise Refused(f"log-in of {username}: {status}")

    def open_hand_form(self, path: str) -> dict:
        """GET the entry form of the next hand; return what a save needs from it."""
        fields, page = self.form(path)
        config = json.loads(_CONFIG.search(page).group(1))
        return {
            "csrfmiddlewaretoken": fields["csrfmiddlewaretoken"],
            "token": fields["token"],
            "number": fields["number"],
            "version": fields["version"],
            "seats": config["seats"],
            "dealer": config["record"]["dealer"],
        }


def play_table(tablet: Tablet, job: dict) -> dict:
    """Enter ``job["hands"]`` hands at one table; return the timings and what happened.

    Before each hand the tablet waits a think time (``job["think"]`` seconds, from half to one
    and a half times it), as a table plays its hand before typing it; the first wait is drawn
    from zero to the think time, so the tables do not all start their first hand at once. One
    save (hand ``job["resend"]``) is posted a second time with the same token, as a retried
    submit: the site must answer it as saved without recording it again.
    """
    rng = random.Random(job["seed"])
    path = f"/c/{job['club']}/table/{job['table']}/hand/new/"
    saves, forms, errors = [], [], []
    saved, resent, resent_token = 0, None, None
    time.sleep(max(0.0, job["start_at"] - time.time()) + rng.uniform(0, job["think"]))
    for number in range(1, job["hands"] + 1):
        if number > 1:
            time.sleep(job["think"] * rng.uniform(0.5, 1.5))
        try:
            started = time.perf_counter()
            slot = tablet.open_hand_form(path)
            forms.append(time.perf_counter() - started)
            record = {
                **random_hand(rng, slot["seats"], slot["dealer"], with_table=False),
                "seats": slot["seats"],
            }
            post = {
                "csrfmiddlewaretoken": slot["csrfmiddlewaretoken"],
                "record": json.dumps(record),
                "token": slot["token"],
                "number": slot["number"],
                "version": slot["version"],
            }
            started = time.perf_counter()
            status, body = tablet.request(path, post)
            elapsed = time.perf_counter() - started
            if status != 302:
                errors.append(f"hand {number}: {status} {body[:200]!r}")
                continue
            saves.append(elapsed)
            saved += 1
            if number == job["resend"]:
                resent, _body = tablet.request(path, post)
                resent_token = post["token"]
        except (OSError, Refused, ValueError, KeyError, AttributeError) as error:
            errors.append(f"hand {number}: {error!r}")
    return {
        "table": job["table"],
        "saves": saves,
        "forms": forms,
        "saved": saved,
        "resent_status": resent,
        "resent_token": resent_token,
        "errors": errors,
    }


def device(base_url: str, username: str, password: str, inbox, outbox) -> None:
    """Run one tablet: log in, say so, then play each table sent until ``None`` comes."""
    tablet = Tablet(base_url)
    try:
        tablet.log_in(username, password)
    except (OSError, Refused) as error:
        outbox.put({"error": f"log-in: {error!r}"})
        return
    outbox.put({"ready": True})
    while (job := inbox.get()) is not None:
        outbox.put(play_table(tablet, job))
