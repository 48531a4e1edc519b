"""django-tables2's ``utils.signature`` memo (``ledger.web.tables2_speed``): it answers as
django-tables2 does, django-tables2 asks it for every call, and an upgrade of django-tables2
that changes the function it stands in for fails here first."""

from __future__ import annotations

import functools
import inspect

import django_tables2
import pytest
from django_tables2 import utils

from ledger.web import tables2_speed

# django-tables2 3.0.1's ``utils.signature``, line for line: the function the memo stands in for.
PATCHED = '''def signature(fn):
    """
    Return an (arguments, kwargs)-tuple.

     - the arguments (positional or keyword)
     - the name of the ** kwarg catch all.

    The self-argument for methods is always removed.
    """
    signature = inspect.signature(fn, **SIGNATURE_KWARGS)

    args = []
    keywords = None
    for arg in signature.parameters.values():
        if arg.kind == arg.VAR_KEYWORD:
            keywords = arg.name
        elif arg.kind == arg.VAR_POSITIONAL:
            continue  # skip *args catch-all
        else:
            args.append(arg.name)

    return tuple(args), keywords
'''


def test_the_patched_function_is_the_one_the_memo_was_written_for():
    """django-tables2's ``utils.signature`` is, line for line, the function of django-tables2
    3.0.1 whose answer depends on nothing but the function asked about. An upgrade that changes
    it fails here: check the memo against the new function (is its answer still the function's
    alone?) and its tests below, then move this pin and the version in tables2_speed.py."""
    assert inspect.getsource(tables2_speed._original) == PATCHED, (
        f"django-tables2 {django_tables2.__version__} changed utils.signature: "
        "re-check ledger/web/tables2_speed.py before moving this pin"
    )


def test_django_tables2_asks_the_memo_for_every_call():
    """``call_with_appropriate`` (every cell's ``render``, ``linkify`` and attrs) looks the
    signature up through the memo: a function it called is kept, and what the memo holds for a
    function is what django-tables2 then passes it (here ``record`` alone, not ``value``)."""

    def render(record, value=None):
        return record, value

    given = {"record": 1, "value": 2, "table": None}
    assert utils.call_with_appropriate(render, given) == (1, 2)
    assert tables2_speed._memo[render] == (("record", "value"), None)
    tables2_speed._memo[render] = (("record",), None)
    assert utils.call_with_appropriate(render, given) == (1, None)


class Thing:
    def method(self, record, table=None):
        return record

    def __call__(self, value, **kwargs):
        return value


def plain(record, *args, **kwargs):
    return record


@pytest.mark.parametrize(
    "fn",
    [
        plain,
        lambda table: table,
        Thing().method,
        Thing.method,
        Thing(),
        functools.partial(plain, 1),
        len,
    ],
    ids=[
        "function",
        "lambda",
        "bound method",
        "function of a class",
        "callable",
        "partial",
        "builtin",
    ],
)
def test_the_signature_memo_answers_as_django_tables2(fn):
    """For every kind of callable django-tables2 meets, the memo's answer, first and kept, is
    django-tables2's own."""
    assert utils.signature is tables2_speed.signature  # installed by LedgerConfig.ready
    assert tables2_speed.signature(fn) == tables2_speed._original(fn)
    assert tables2_speed.signature(fn) == tables2_speed._original(fn)  # and again, kept


class Unprintable:
    """A record with no ``missing`` attribute whose ``repr`` fails the test if asked."""

    kind = "hand"

    def __repr__(self):
        raise AssertionError("the record's repr was asked for")


def test_a_failed_lookup_does_not_write_out_the_record():
    """An accessor that finds nothing on a record (a column rendered from the whole record)
    says which key and accessor, not the record: django-tables2 3.0.1 wrote the record's repr
    into a message each such cell drops (pinned: an upgrade that changes it fails here)."""
    assert tables2_speed._original_lookup_error == (
        "Failed lookup for key [{key}] in {context}, when resolving the accessor {accessor}"
    )
    with pytest.raises(ValueError, match=r"key \[missing\] in accessor missing"):
        utils.Accessor("missing").resolve(Unprintable())
    assert utils.Accessor("missing").resolve(Unprintable(), quiet=True) is None


class Figures(django_tables2.Table):
    """A static cell class, a class from each cell's value, and a class from the table."""

    name = django_tables2.Column(attrs={"td": {"class": "who", "data-kind": "name"}})
    points = django_tables2.Column(
        attrs={"td": {"class": lambda value: "neg" if value < 0 else "pos"}}
    )
    club = django_tables2.Column()

    class Meta:
        attrs = {"td": {"class": "plain"}}


def test_a_cells_attributes_are_django_tables2s_own_whether_kept_or_computed():
    """``td_html`` writes each cell's attributes as ``BoundColumn.attrs`` does: kept for the
    table when nothing in them is computed, computed for each cell when a callable is."""
    table = Figures(
        [{"name": "Ana", "points": -5, "club": "A"}, {"name": "Bor", "points": 7, "club": "B"}]
    )
    seen = [
        [(tables2_speed.td_html(column), column.attrs["td"].as_html()) for column, _ in row.items()]
        for row in table.rows
    ]
    assert all(mine == theirs for row in seen for mine, theirs in row)
    assert [row[1][0] for row in seen] == ['class="neg"', 'class="pos"']
    assert seen[0][0][0] == 'class="who" data-kind="name"' and seen[0][2][0] == 'class="plain"'
    kept = {name: "_td_html" in column.__dict__ for name, column in table.columns.items()}
    assert kept == {"name": True, "points": False, "club": True}
