"""The pure packages are pure Python: no Django and no database anywhere in them.

Walked: every game's engine and the games' shared modules (``ledger/games``, but a game's
web side, its demo and the registry, which are Django's), the tournament engine, the
federation engine and the JSON intake. One walk for all, so a new game or engine is covered by
being where it belongs.
"""

import ast
from pathlib import Path

import ledger

APP = Path(ledger.__file__).parent
FORBIDDEN_ROOTS = {"django", "psycopg", "psycopg2", "sqlite3", "dj_database_url", "MySQLdb"}
FORBIDDEN = {"ledger.models", "ledger.services", "ledger.selectors", "ledger.views"}
# A game's web side, its demo club and the registry may use Django.
DJANGO_SIDE = {"web.py", "demo.py", "registry.py"}


def imported_modules(path: Path):
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0:
            yield node.module


def pure_files() -> list[Path]:
    games = [
        p
        for p in (APP / "games").rglob("*.py")
        if p.name not in DJANGO_SIDE and "templates" not in p.parts and "static" not in p.parts
    ]
    tournaments = list((APP / "tournaments" / "engine").rglob("*.py"))
    federation = list((APP / "federation" / "engine").rglob("*.py"))
    return sorted([*games, *tournaments, *federation, APP / "web" / "jsonin.py"])


def test_the_walk_covers_every_pure_package():
    """The walk covers the shared game modules, each game's engine, the tournament engine and
    the federation engine."""
    packages = {p.parent.relative_to(APP).as_posix() for p in pure_files()}
    assert {
        "games",
        "games/danish/engine",
        "games/slovenian/engine",
        "games/hungarian/engine",
        "tournaments/engine",
        "federation/engine",
    } <= packages


def test_pure_packages_import_no_django():
    """No pure module imports Django, a database driver or the app's models, services,
    selectors or views."""
    offenders = [
        (str(f.relative_to(APP)), module)
        for f in pure_files()
        for module in imported_modules(f)
        if module
        and (
            module.split(".")[0] in FORBIDDEN_ROOTS
            or any(module == name or module.startswith(name + ".") for name in FORBIDDEN)
        )
    ]
    assert offenders == []
