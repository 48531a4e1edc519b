"""Every refusal is a lazy template and its parameters (issue 28): no service, selector or view
translates or fills a refusal's message when raising it, so a refusal raised in one language
reads right in another (``ledger/services/errors.py``)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from django.conf import settings
from django.utils import translation

from ledger.models import Member
from ledger.services import setup
from ledger.services.errors import LedgerError
from ledger.services.tournaments import entries
from ledger.tests.factories import make_club

LEDGER = Path(settings.BASE_DIR) / "ledger"
LAYERS = ("services", "selectors", "views")
LAZY = {"gettext_lazy", "pgettext_lazy", "ngettext_lazy"}
EAGER = {"gettext", "ngettext", "pgettext", "npgettext", "str"}


def modules() -> list[Path]:
    return sorted(p for layer in LAYERS for p in (LEDGER / layer).rglob("*.py"))


def refusal_classes(trees: dict[Path, ast.Module]) -> set[str]:
    """``LedgerError`` and every class of these layers that derives from one (to a fixpoint)."""
    names = {"LedgerError"}
    classes = [n for tree in trees.values() for n in ast.walk(tree) if isinstance(n, ast.ClassDef)]
    grown = True
    while grown:
        grown = False
        for node in classes:
            bases = {
                b.id if isinstance(b, ast.Name) else getattr(b, "attr", "") for b in node.bases
            }
            if node.name not in names and bases & names:
                names.add(node.name)
                grown = True
    return names


def lazy_names(tree: ast.Module) -> set[str]:
    """The names a module binds to a lazy ``gettext`` (``gettext_lazy as _``)."""
    return {
        alias.asname or alias.name
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom) and node.module == "django.utils.translation"
        for alias in node.names
        if alias.name in LAZY
    }


def called(node: ast.AST) -> str:
    if isinstance(node, ast.Call):
        func = node.func
        return func.id if isinstance(func, ast.Name) else getattr(func, "attr", "")
    return ""


def lazy_literal(node: ast.AST, lazy: set[str]) -> bool:
    """A lazy ``_("...")`` of a literal, or a choice between two of them."""
    if isinstance(node, ast.IfExp):
        return lazy_literal(node.body, lazy) and lazy_literal(node.orelse, lazy)
    return (
        isinstance(node, ast.Call)
        and called(node) in lazy
        and len(node.args) == 1
        and isinstance(node.args[0], ast.Constant)
        and isinstance(node.args[0].value, str)
    )


def eager(node: ast.AST) -> str | None:
    """Why ``node`` translates or fills text now (None when it does not)."""
    for inner in ast.walk(node):
        if isinstance(inner, ast.JoinedStr):
            return "an f-string"
        if isinstance(inner, ast.BinOp) and isinstance(inner.op, ast.Mod | ast.Add):
            return "text filled or joined with % or +"
        if called(inner) == "format":
            return ".format()"
        if called(inner) in EAGER:
            return f"{called(inner)}()"
    return None


def problems_of_the_guard() -> list[str]:
    trees = {path: ast.parse(path.read_text(), str(path)) for path in modules()}
    refusals = refusal_classes(trees)
    found = []
    for path, tree in trees.items():
        lazy = lazy_names(tree)
        where = path.relative_to(LEDGER.parent)
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call):
                continue
            name = called(node)
            if name in refusals:
                message = node.args[0] if node.args else None
                message = next((k.value for k in node.keywords if k.arg == "message"), message)
                if message is not None and not lazy_literal(message, lazy):
                    why = eager(message) or "not a lazy _(...) of a literal"
                    found.append(f"{where}:{node.lineno}: {name}(...) template: {why}")
            elif name in ("problem", "Problem") and len(node.args) >= 2:
                eagerly = eager(node.args[1])
                if eagerly:
                    found.append(f"{where}:{node.lineno}: {name}(...) template: {eagerly}")
    return found


def test_every_refusal_is_a_lazy_template_with_its_parameters():
    """A refusal's message is ``_("... {name} ...")`` with ``name=`` given to the refusal (or
    problems given whole): never ``gettext(...)``, ``.format(...)``, an f-string or ``%``."""
    assert problems_of_the_guard() == []


def test_the_guard_sees_an_eager_refusal(tmp_path):
    """The guard's own check: the forms it refuses and the forms it lets pass."""
    tree = ast.parse(
        "from django.utils.translation import gettext, gettext_lazy as _\n"
        "LedgerError(gettext('no'), 'f')\n"
        "LedgerError(_('{x} no').format(x=1), 'f')\n"
        "SeatingError(f'{x} no')\n"
        "LedgerError(_('%(x)s no') % {'x': 1})\n"
        "LedgerError(text, 'f')\n"
        "LedgerError(_('{x} yes'), 'f', x=1)\n"
        "LedgerError(problems=[problem('f', _('{x} yes'), x=1)])\n"
    )
    lazy = lazy_names(tree)
    calls = [n for n in ast.walk(tree) if isinstance(n, ast.Call) and called(n).endswith("Error")]
    verdicts = [lazy_literal(c.args[0], lazy) if c.args else True for c in calls]
    assert verdicts == [False, False, False, False, False, True, True]


def _hungarian(error: LedgerError) -> str:
    with translation.override("hu"):
        return error.message


@pytest.mark.django_db
def test_a_refusal_raised_in_danish_reads_in_hungarian():
    """A real service's refusal raised while Danish is active reads in Hungarian when shown in
    Hungarian (a ``%(name)s`` template of Django's style and a ``{name}`` one with a refusal
    inside it)."""
    club = make_club(slug="sprog")
    with translation.override("da"), pytest.raises(LedgerError) as twice:
        setup.members_add(club=club, names=["Anna", "Anna"])
    assert _hungarian(twice.value) == "Anna: kétszer szerepel a listában"
    with translation.override("da"):
        assert twice.value.message == "Anna: står to gange på listen"
    assert not Member.objects.filter(club=club, name="Anna").exists()

    with translation.override("da"), pytest.raises(LedgerError) as rank:
        entries.parse_ladder("Anna,,0")
    hungarian = _hungarian(rank.value)
    with translation.override("da"):
        danish = rank.value.message
    with translation.override("en"):
        english = rank.value.message
    assert english == f"line 1: a ladder rank is a whole number from 1 to {entries.MAX_RANK}"
    assert len({hungarian, danish, english}) == 3
    assert str(entries.MAX_RANK) in hungarian and "1" in hungarian
