"""Every view shows a refusal through ``ledger.web.refusals`` (issue 28): no views module
adapts a ``LedgerError`` or a ``RulesError`` its own way.

Each module of ``ledger/views/`` is parsed: a refusal caught (``except LedgerError as
error``) is only handed on, to ``refuse``, ``refuse_message``, ``logged_refusal`` or
``refusal_messages`` (or asked ``isinstance``, or raised again); no view reads a problem's
``template`` or ``problems``, takes a refusal as a parameter (an adapter of its own, such as
the ``_refused`` and ``_add_ledger_error`` that were), or logs or answers one itself
(``log_refusal``, ``busy_response``).
"""

from __future__ import annotations

import ast
from pathlib import Path

import ledger
from ledger.games.errors import RulesError
from ledger.services.errors import LedgerError

VIEWS = Path(ledger.__file__).parent / "views"
HANDED_TO = {"refuse", "refuse_message", "logged_refusal", "refusal_messages", "isinstance"}
READ = {"problems", "template", "as_json"}
KEPT_AT_HOME = {"log_refusal", "busy_response", "problem_text", "form_field"}


def _kinds(cls) -> set[str]:
    found = {cls.__name__}
    for sub in cls.__subclasses__():
        found |= _kinds(sub)
    return found


def refusal_kinds() -> set[str]:
    import ledger.views.hands
    import ledger.views.tournaments  # noqa: F401

    return _kinds(LedgerError) | _kinds(RulesError)


def _name(node) -> str | None:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    return None


def _caught(handler: ast.ExceptHandler) -> set[str]:
    types = handler.type.elts if isinstance(handler.type, ast.Tuple) else [handler.type]
    return {n for n in map(_name, types) if n}


def _parents(tree: ast.AST) -> dict[ast.AST, ast.AST]:
    return {child: node for node in ast.walk(tree) for child in ast.iter_child_nodes(node)}


def _handed_on(node: ast.Name, parents) -> bool:
    parent = parents.get(node)
    if isinstance(parent, ast.Call) and node in parent.args:
        return _name(parent.func) in HANDED_TO
    return isinstance(parent, ast.Raise)


def offences_in(path: Path, kinds: set[str]) -> tuple[list[str], int]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    parents = _parents(tree)
    where = path.name
    offences, handlers = [], 0
    for node in ast.walk(tree):
        if isinstance(node, ast.ExceptHandler) and node.name and _caught(node) & kinds:
            handlers += 1
            for used in ast.walk(node):
                if (
                    isinstance(used, ast.Name)
                    and used.id == node.name
                    and isinstance(used.ctx, ast.Load)
                    and not _handed_on(used, parents)
                ):
                    offences.append(f"{where}:{used.lineno} reads the refusal {node.name} itself")
        elif isinstance(node, ast.Attribute) and node.attr in READ:
            offences.append(f"{where}:{node.lineno} reads .{node.attr}")
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            for arg in [*node.args.args, *node.args.kwonlyargs]:
                annotation = ast.unparse(arg.annotation) if arg.annotation else ""
                if any(kind in annotation for kind in kinds):
                    offences.append(f"{where}:{node.lineno} {node.name} adapts a refusal")
        elif isinstance(node, ast.ImportFrom):
            for alias in node.names:
                if alias.name in KEPT_AT_HOME:
                    offences.append(f"{where}:{node.lineno} imports {alias.name}")
    return offences, handlers


def test_no_view_adapts_a_refusal_its_own_way():
    kinds = refusal_kinds()
    offences, handlers = [], 0
    for path in sorted(VIEWS.glob("*.py")):
        found, caught = offences_in(path, kinds)
        offences += found
        handlers += caught
    assert handlers > 40  # the walk sees the views' refusals
    assert offences == []


def test_the_walk_finds_an_adapter_of_its_own(tmp_path):
    """The walk would have found the adapters this test replaced."""
    old = tmp_path / "old.py"
    old.write_text(
        "def _refused(request, error: LedgerError) -> None:\n"
        "    messages.error(request, str(error.message))\n"
        "def view(request):\n"
        "    try:\n"
        "        act()\n"
        "    except (HandError, LedgerError) as error:\n"
        "        form.add_error(error.field, gettext(error.problems[0].template))\n",
        encoding="utf-8",
    )
    offences, handlers = offences_in(old, refusal_kinds())
    assert handlers == 1
    assert sorted(offences) == [
        "old.py:1 _refused adapts a refusal",
        "old.py:7 reads .problems",
        "old.py:7 reads .template",
        "old.py:7 reads the refusal error itself",
        "old.py:7 reads the refusal error itself",
    ]
