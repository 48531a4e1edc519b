"""The site's log lines: plain text for a terminal, or one JSON object a line for a collector
(``DJANGO_LOG_FORMAT=json``). Both carry what a module logger passes in ``extra`` (the club,
the object, the event), so an operator can grep or query a refused write, a lock timeout or a
failed verification by club and object."""

from __future__ import annotations

import datetime
import json
import logging

# The attributes every LogRecord has; anything else on a record came in ``extra``.
_STANDARD = set(vars(logging.LogRecord("", 0, "", 0, "", None, None))) | {"message", "asctime"}


def extra_of(record: logging.LogRecord) -> dict:
    """Return what the caller passed in ``extra``, in the order given."""
    return {k: v for k, v in vars(record).items() if k not in _STANDARD and not k.startswith("_")}


class JsonFormatter(logging.Formatter):
    """One JSON object a line: time (UTC, ISO 8601), level, logger, message, the ``extra``
    fields, and the exception's traceback as ``exc_info`` when there is one."""

    def format(self, record: logging.LogRecord) -> str:
        line = {
            "time": datetime.datetime.fromtimestamp(record.created, datetime.UTC).isoformat(
                timespec="milliseconds"
            ),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
            **extra_of(record),
        }
        if record.exc_info:
            line["exc_info"] = self.formatException(record.exc_info)
        return json.dumps(line, default=str, ensure_ascii=False)


class TextFormatter(logging.Formatter):
    """``time level logger message key=value ...``: the ``extra`` fields after the message."""

    def __init__(self):
        super().__init__("%(asctime)s %(levelname)s %(name)s %(message)s")

    def format(self, record: logging.LogRecord) -> str:
        text = super().format(record)
        extra = " ".join(f"{k}={v}" for k, v in extra_of(record).items())
        if not extra:
            return text
        head, sep, tail = text.partition("\n")
        return f"{head} {extra}{sep}{tail}"
