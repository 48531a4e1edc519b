"""A memo for django-tables2's ``utils.signature`` (django-tables2 3.0.1, pinned), an
accessor's lookup error without the record's ``repr``, and a column's cell attributes written
once a table when none is computed (``td_html``, for the ``table_row`` tag).

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


def _computed(attrs) -> bool:
    """Whether ``attrs`` (a cell's attributes, nested dicts allowed) hold a callable, which
    django-tables2 calls with each cell's record and value (``utils.computed_values``)."""
    return any(callable(v) or (isinstance(v, dict) and _computed(v)) for v in attrs.values())


def td_html(column) -> str:
    """Return the attributes of ``column``'s data cell (a ``BoundColumn`` of a table being
    written) as HTML, as ``column.attrs["td"].as_html()`` does: once a table when neither the
    table's nor the column's cell attributes hold a callable, else for each cell.
    ``BoundColumn.attrs`` builds the header's, the cell's and the footer's attributes afresh
    on every call: for a table of small tables (a round's seats) that was a third of writing
    its rows."""
    kept = column.__dict__.get("_td_html")
    if kept is not None:
        return kept
    html = column.attrs["td"].as_html()
    attrs = {**column._table.attrs, **column.column.attrs}
    if not _computed(attrs.get("td", attrs.get("cell", {}))):
        column._td_html = html
    return html


def install() -> None:
    utils.signature = signature
    utils.Accessor.LOOKUP_ERROR_FMT = LOOKUP_ERROR_FMT
