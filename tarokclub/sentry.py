"""Optional error reporting through sentry-sdk (as zulip's ``zproject/sentry.py``): started by
the settings when ``SENTRY_DSN`` is set, and inert otherwise (sentry-sdk is not even
imported). Errors (a 500, a logged ERROR) are sent with the release
(``tarokclub@<__version__>``) and ``SENTRY_ENVIRONMENT``; no personal data (no user names, no
addresses, no cookies) unless ``SENTRY_SEND_PII=1``; performance traces only with
``SENTRY_TRACES_SAMPLE_RATE`` above 0."""

from __future__ import annotations

import logging
import os

from django.core.exceptions import ImproperlyConfigured

import tarokclub


def init_from_environment() -> bool:
    """Start reporting when SENTRY_DSN is set; return whether it started."""
    dsn = os.environ.get("SENTRY_DSN", "").strip()
    if not dsn:
        return False
    try:
        import sentry_sdk
        from sentry_sdk.integrations.django import DjangoIntegration
        from sentry_sdk.integrations.logging import LoggingIntegration
    except ImportError as error:
        raise ImproperlyConfigured(
            "SENTRY_DSN is set but sentry-sdk is not installed (pip install -r requirements.txt)"
        ) from error

    sentry_sdk.init(
        dsn=dsn,
        release=f"tarokclub@{tarokclub.__version__}",
        environment=os.environ.get("SENTRY_ENVIRONMENT", "production"),
        traces_sample_rate=float(os.environ.get("SENTRY_TRACES_SAMPLE_RATE", "0")),
        send_default_pii=os.environ.get("SENTRY_SEND_PII", "0") == "1",
        integrations=[
            DjangoIntegration(),
            # The log's WARNING lines go along as breadcrumbs; ERROR lines are events.
            LoggingIntegration(level=logging.WARNING, event_level=logging.ERROR),
        ],
    )
    return True
