"""A memo for django-tables2's ``utils.signature`` (django-tables2 3.0.1, pinned), and an
accessor's lookup error without the record's ``repr``.

django-tables2 asks ``inspect.signature`` about every callable it calls with "appropriate"
arguments (``call_with_appropriate``: each column's ``render``, ``linkify``, callable attrs
and row attrs), once per cell: on the season's standings that was a quarter of the page's
time. A function's signature never changes, so the answer is kept per function (per the
underlying function of a bound method), in a weak dictionary that lets go of functions no
longer used. ``install`` is called once, from ``LedgerConfig.ready``.

``ledger/tests/web/test_tables2_speed.py`` pins the patched function line for line, so an
upgrade of django-tables2 that changes it fails a test; ``docs/upstream-tables2.md`` offers
the memo upstream.
"""

from __future__ import annotations

import weakref

from django_tables2 import utils

_memo: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
_bound: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()  # by the method's function
_original = utils.signature


def signature(fn):
    """Return ``utils.signature(fn)``, computed once per function (a bound method's answer,
    without ``self``, is kept apart from its function's)."""
    memo, key = (_bound, fn.__func__) if hasattr(fn, "__func__") else (_memo, fn)
    try:
        return memo[key]
    except KeyError:
        result = memo[key] = _original(fn)
        return result
    except TypeError:  # not weakly referable (e.g. a builtin): ask each time
        return _original(fn)


# What an accessor says when a record has no such key or attribute (a column that renders
# from the whole record, such as the score sheet's member columns). django-tables2 writes the
# record's ``repr`` into the message, and the cell catches and drops it: on a live evening's
# sheet that was every member and pool cell formatting its whole posting and transfers, 15%
# of the page's rendering. The message keeps the key and the accessor, not the record.
LOOKUP_ERROR_FMT = "Failed lookup for key [{key}] in accessor {accessor}"
_original_lookup_error = utils.Accessor.LOOKUP_ERROR_FMT


def install() -> None:
    utils.signature = signature
    utils.Accessor.LOOKUP_ERROR_FMT = LOOKUP_ERROR_FMT
