"""Every game's engine is pure Python: no Django and no database anywhere in it."""

import ast
from pathlib import Path

import ledger.games

GAMES_DIR = Path(ledger.games.__file__).parent
FORBIDDEN_ROOTS = {"django", "psycopg", "sqlite3", "dj_database_url"}
FORBIDDEN = {"ledger.models", "ledger.services", "ledger.selectors", "ledger.views"}
# A game's web side and its demo club may use Django; its engine and GAME may not.
WEB_SIDE = {"web.py", "demo.py", "registry.py"}


def imported_modules(path: Path):
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0:
            yield node.module


def engine_files():
    return sorted(p for p in GAMES_DIR.rglob("*.py") if p.name not in WEB_SIDE)


def test_every_game_package_is_walked():
    """The walk covers the shared modules and each game's engine package."""
    packages = {p.parent.relative_to(GAMES_DIR).as_posix() for p in engine_files()}
    assert {".", "danish/engine", "slovenian/engine", "hungarian/engine"} <= packages


def test_engines_import_no_django():
    """No engine module imports Django, the app's models or a database driver."""
    offenders = [
        (str(f.relative_to(GAMES_DIR)), module)
        for f in engine_files()
        for module in imported_modules(f)
        if module and (module.split(".")[0] in FORBIDDEN_ROOTS or module in FORBIDDEN)
    ]
    assert offenders == []
