"""Error reporting through sentry-sdk: inert without SENTRY_DSN (not even imported); with it,
an error is sent with the release and no personal data. The "Sentry" here is a small HTTP
server on the loopback that keeps what it receives."""

from __future__ import annotations

import gzip
import http.server
import json
import threading

import brotli

import tarokclub
from ledger.tests.helpers import run_python

PRODUCTION = {"DJANGO_SETTINGS_MODULE": "tarokclub.settings", "DJANGO_SECRET_KEY": "x" * 50}


def test_without_a_dsn_sentry_is_not_even_imported():
    """No SENTRY_DSN: the site starts without importing sentry_sdk."""
    result = run_python(
        "import sys, django; django.setup(); from django.conf import settings;"
        "print(settings.SENTRY_ENABLED, 'sentry_sdk' in sys.modules)",
        **PRODUCTION,
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "False False"


class Collector(http.server.BaseHTTPRequestHandler):
    received: list[bytes] = []

    def do_POST(self):
        body = self.rfile.read(int(self.headers["Content-Length"]))
        encoding = self.headers.get("Content-Encoding")
        if encoding == "gzip":
            body = gzip.decompress(body)
        elif encoding == "br":
            body = brotli.decompress(body)
        Collector.received.append(body)
        self.send_response(200)
        self.end_headers()
        self.wfile.write(b"{}")

    def log_message(self, *args):
        pass


def test_with_a_dsn_an_error_is_reported_with_the_release():
    """SENTRY_DSN set: a logged ERROR reaches the collector as an event of release
    tarokclub@<version>, environment from SENTRY_ENVIRONMENT, without the user's address."""
    server = http.server.HTTPServer(("127.0.0.1", 0), Collector)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    Collector.received = []
    try:
        result = run_python(
            "import django, logging, sentry_sdk; django.setup();"
            "logging.getLogger('ledger.test').error('the seal of table 7 does not hold');"
            "sentry_sdk.flush(10)",
            **PRODUCTION,
            SENTRY_DSN=f"http://publickey@127.0.0.1:{server.server_port}/1",
            SENTRY_ENVIRONMENT="club-test",
        )
    finally:
        server.shutdown()
        server.server_close()
    assert result.returncode == 0, result.stderr
    events = [
        json.loads(line)
        for body in Collector.received
        for line in body.splitlines()
        if line.startswith(b"{") and b'"level"' in line
    ]
    (event,) = events
    assert event["release"] == f"tarokclub@{tarokclub.__version__}"
    assert event["environment"] == "club-test"
    assert event["logentry"]["message"] == "the seal of table 7 does not hold"
    assert "ip_address" not in json.dumps(event.get("user", {}))
