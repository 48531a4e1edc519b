"""The rules package is pure Python: no Django and no database anywhere in it."""

import ast
from pathlib import Path

import ledger.rules

RULES = Path(ledger.rules.__file__).parent
FORBIDDEN = ("django", "ledger.models", "ledger.services", "psycopg", "sqlite3")


def imported_modules(path: Path):
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0:
            yield node.module


def test_rules_import_no_django():
    """No module of ledger/rules imports Django, the app's models or a database driver."""
    files = sorted(RULES.glob("*.py"))
    assert len(files) >= 7
    offenders = [
        (f.name, module)
        for f in files
        for module in imported_modules(f)
        if module
        and module.split(".")[0] in {m.split(".")[0] for m in FORBIDDEN if "." not in m}
        or module in FORBIDDEN
    ]
    assert offenders == []
