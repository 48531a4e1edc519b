"""Reading untrusted JSON: one function, ``load_json_safely``, with documented limits.

Pure Python (no Django): the engine commands and the web forms both use it. Every refusal is
a ``RulesError`` with one ``Problem`` naming the field (``file``, ``--rates``, ``record``)
and what is wrong, so callers report it as they report any refused input.

The limits:

- ``MAX_BYTES`` (2 MB): the size of the document, in UTF-8 bytes. A club evening is a few
  kilobytes. A caller reading a bigger kind of document (``restore``'s backups) passes its own
  ``max_bytes``.
- ``MAX_DEPTH`` (64): nesting of arrays and objects. The depth is checked by a scan of the
  text *before* ``json.loads``, so the parser's recursion (RecursionError) is never reached.
- ``MAX_INT_DIGITS`` (18): integers of more digits are refused (they fit no points column,
  and Python refuses to convert more than 4300 digits with a ValueError).
- ``NaN``, ``Infinity``, ``-Infinity`` and floats that overflow to infinity (``1e999``) are
  refused.
- Bytes must be valid UTF-8 (one leading byte-order mark is allowed); text and the decoded
  strings may not hold lone surrogates (e.g. ``"\\ud800"``), which no database stores.
"""

from __future__ import annotations

import json
import math
import re

from ledger.games.errors import Problem, RulesError, _

MAX_BYTES = 2_000_000
MAX_DEPTH = 64
MAX_INT_DIGITS = 18

# Strings (with their escapes) are skipped when counting brackets; what is left between them
# is scanned for brackets only.
_STRING = re.compile(r'"(?:[^"\\]|\\.)*"', re.S)
_BRACKET = re.compile(r"[\[\]{}]")


class _Refused(Exception):
    def __init__(self, template: str, **params):
        super().__init__(template)
        self.template = template
        self.params = params


def load_json_safely(data: str | bytes | bytearray, field: str, *, max_bytes: int = MAX_BYTES):
    """Parse ``data`` (text, or bytes in UTF-8) as JSON within the limits of this module.

    Raise ``RulesError([Problem(field, ...)])`` naming what is wrong when it is refused.
    """
    try:
        return _load(data, max_bytes)
    except _Refused as refused:
        raise RulesError([Problem(field, refused.template, refused.params)]) from None


def _load(data, max_bytes: int):
    if isinstance(data, (bytes, bytearray)):
        if len(data) > max_bytes:
            raise _Refused(_("the JSON is larger than {limit} bytes"), limit=max_bytes)
        try:
            text = bytes(data).decode("utf-8")
        except UnicodeDecodeError as error:
            raise _Refused(
                _("the JSON is not valid UTF-8 (byte {position})"), position=error.start
            ) from None
    elif isinstance(data, str):
        text = data
        if len(text) > max_bytes or len(text.encode("utf-8", "surrogatepass")) > max_bytes:
            raise _Refused(_("the JSON is larger than {limit} bytes"), limit=max_bytes)
    else:
        raise TypeError(f"load_json_safely reads str or bytes, not {type(data).__name__}")
    if text.startswith("\ufeff"):
        text = text[1:]
    _check_depth(text)
    try:
        value = json.loads(
            text,
            parse_int=_parse_int,
            parse_float=_parse_float,
            parse_constant=_parse_constant,
        )
    except json.JSONDecodeError as error:
        raise _Refused(
            _("the text is not valid JSON: {reason} (line {line}, column {column})"),
            reason=error.msg,
            line=error.lineno,
            column=error.colno,
        ) from None
    except RecursionError:  # pragma: no cover - the depth scan makes this unreachable
        raise _Refused(
            _("the JSON nests deeper than {limit} levels"), limit=MAX_DEPTH, position=0
        ) from None
    _check_strings(value)
    return value


def _check_depth(text: str) -> None:
    depth = 0
    for piece in _STRING.split(text):
        for match in _BRACKET.finditer(piece):
            if match.group() in "[{":
                depth += 1
                if depth > MAX_DEPTH:
                    raise _Refused(_("the JSON nests deeper than {limit} levels"), limit=MAX_DEPTH)
            else:
                depth -= 1


def _parse_int(digits: str) -> int:
    if len(digits.lstrip("-")) > MAX_INT_DIGITS:
        raise _Refused(_("the JSON has a number of more than {limit} digits"), limit=MAX_INT_DIGITS)
    return int(digits)


def _parse_float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise _Refused(_("the JSON has a number that is not finite: {value}"), value=text[:40])
    return value


def _parse_constant(name: str):
    raise _Refused(_("the JSON has a number that is not finite: {value}"), value=name)


def _check_strings(value, depth: int = 0) -> None:
    """Refuse lone surrogates in any key or string (the depth is bounded by the scan)."""
    if isinstance(value, str):
        _check_text(value)
    elif isinstance(value, list):
        for item in value:
            _check_strings(item, depth + 1)
    elif isinstance(value, dict):
        for key, item in value.items():
            _check_text(key)
            _check_strings(item, depth + 1)


def _check_text(text: str) -> None:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as error:
        raise _Refused(
            _("the JSON has a lone surrogate (\\u{code:04x}), which is not text"),
            code=ord(text[error.start]),
        ) from None
