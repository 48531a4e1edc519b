"""Imports run one way: engines → game web sides → models → services → selectors → the rest.

Every module of the app is parsed and each of its imports of the app, at the top or inside a
function, is checked against the layers below: a module imports only from its own layer or a
lower one, so no import made inside a function hides a circle.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import ledger

APP = Path(ledger.__file__).parent
# (pattern of a dotted module name, layer), the first match decides; lower layers first.
LAYERS = [
    (r"ledger\.games\.(registry|web)$", 1),
    (r"ledger\.games\.[a-z_]+\.web$", 1),
    (r"ledger\.tournaments\.web$", 1),
    (r"ledger\.games\.[a-z_]+\.demo$", 3),
    (r"ledger\.games(\..*)?$", 0),
    (r"ledger\.tournaments\.engine(\..*)?$", 0),
    (r"ledger\.federation\.engine(\..*)?$", 0),
    (r"ledger\.web\.jsonin$", 0),
    (r"ledger\.models$", 2),
    (r"ledger\.db$", 2),
    (r"ledger\.services(\..*)?$", 3),
    (r"ledger\.selectors(\..*)?$", 4),
    (r"ledger(\..*)?$", 5),
]
NAMES = {0: "engines", 1: "game web sides", 2: "models", 3: "services", 4: "selectors", 5: "web"}


def layer_of(module: str) -> int:
    for pattern, layer in LAYERS:
        if re.match(pattern, module):
            return layer
    raise AssertionError(module)


def module_of(path: Path) -> str:
    parts = list(path.relative_to(APP.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def app_modules():
    for path in sorted(APP.rglob("*.py")):
        relative = path.relative_to(APP).parts
        if relative[0] in ("tests", "migrations"):
            continue
        yield module_of(path), path


def imports_of(module: str, path: Path):
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                up = package.split(".")
                up = up[: len(up) - node.level + 1]
                base = ".".join([*up, base]) if base else ".".join(up)
            for alias in node.names:
                # "from ledger import services" imports the module ledger.services
                candidate = f"{base}.{alias.name}"
                yield candidate if re.match(r"ledger(\.|$)", candidate) else base


def test_the_walk_sees_every_layer():
    """The walk finds modules of each layer."""
    layers = {layer_of(module) for module, _path in app_modules()}
    assert layers == set(NAMES)


def test_imports_run_one_way():
    """No module imports from a layer above its own, not even inside a function."""
    known = {module for module, _path in app_modules()}
    offences = []
    for module, path in app_modules():
        own = layer_of(module)
        for imported in imports_of(module, path):
            if not re.match(r"ledger(\.|$)", imported):
                continue
            while imported not in known and "." in imported:
                imported = imported.rpartition(".")[0]  # a name imported from a module
            if layer_of(imported) > own:
                offences.append(
                    f"{module} ({NAMES[own]}) imports {imported} ({NAMES[layer_of(imported)]})"
                )
    assert offences == []


HTTP = ("django.http", "django.shortcuts", "django.urls", "django.template", "django_htmx")


def test_services_and_selectors_know_nothing_of_http():
    """Services and selectors return rows and data, and None for "not found": a view answers
    404 or renders; neither imports Django's request, response, URL or template machinery."""
    offences = [
        f"{module} imports {imported}"
        for module, path in app_modules()
        if layer_of(module) in (3, 4) and not module.endswith(".demo")
        for imported in imports_of(module, path)
        if imported.startswith(HTTP)
    ]
    assert offences == []


def test_no_module_is_a_maze():
    """A module of the app is at most 800 lines (``models.py``, the design's one home of every
    table, aside), a views module at most 600: past that it is rooms that want splitting."""
    over = []
    for module, path in app_modules():
        lines = len(path.read_text(encoding="utf-8").splitlines())
        limit = 600 if module.startswith("ledger.views") else 800
        if module != "ledger.models" and lines > limit:
            over.append(f"{module}: {lines} lines (at most {limit})")
    assert over == []
