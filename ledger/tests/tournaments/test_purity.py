"""The tournament engine is pure Python: no Django, no database, no app layers in it."""

import ast
from pathlib import Path

import ledger.tournaments.engine

ENGINE_DIR = Path(ledger.tournaments.engine.__file__).parent
FORBIDDEN_ROOTS = {"django", "psycopg", "sqlite3", "dj_database_url"}
FORBIDDEN = {"ledger.models", "ledger.services", "ledger.selectors", "ledger.views"}


def imported_modules(path: Path):
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0:
            yield node.module


def engine_files():
    return sorted(ENGINE_DIR.rglob("*.py"))


def forbidden(module: str) -> bool:
    return module.split(".")[0] in FORBIDDEN_ROOTS or any(
        module == name or module.startswith(name + ".") for name in FORBIDDEN
    )


def test_the_walk_covers_the_engine():
    """Every module of the engine is walked, the draw and the checker among them."""
    names = {p.name for p in engine_files()}
    assert {"__init__.py", "draw.py", "checker.py", "points.py", "standings.py"} <= names


def test_the_engine_imports_no_django_and_no_database():
    """No engine module imports Django, a database driver or the app's models, services,
    selectors or views (relative imports stay inside the engine)."""
    offenders = [
        (p.name, module)
        for p in engine_files()
        for module in imported_modules(p)
        if module and forbidden(module)
    ]
    assert offenders == []


def test_the_forbidden_list_catches_what_it_must():
    """The check itself: Django, sqlite3 and ledger.models.sub are caught, ledger.jsonin not."""
    assert forbidden("django.db") and forbidden("sqlite3") and forbidden("ledger.models.x")
    assert not forbidden("ledger.jsonin") and not forbidden("ledger.games.errors")
