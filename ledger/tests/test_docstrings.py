"""Docstrings that name code name code that exists (issue 28: drift such as
"services._Ledger" or "services.py" after the module was split).

Every dotted name in double backquotes in the models' and the services' docstrings and
comments that starts with ``ledger.`` or ``services.`` must resolve to a module or an attribute
of one; a name relative to a module (``engine.admit_hand``) or to Django is left to the reader.
"""

from __future__ import annotations

import importlib
import re
from pathlib import Path

import pytest

import ledger

APP = Path(ledger.__file__).parent
NAME = re.compile(r"``((?:ledger|services)\.[A-Za-z_][A-Za-z0-9_.]*)``")
FILES = [APP / "models.py", *sorted((APP / "services").rglob("*.py"))]


def resolves(dotted: str) -> bool:
    """Whether ``dotted`` is a module, or an attribute path under the longest module prefix."""
    parts = dotted.split(".")
    for cut in range(len(parts), 0, -1):
        try:
            target = importlib.import_module(".".join(parts[:cut]))
        except ImportError:
            continue
        for attribute in parts[cut:]:
            if not hasattr(target, attribute):
                return False
            target = getattr(target, attribute)
        return True
    return False


def named() -> list[tuple[str, str]]:
    found = []
    for path in FILES:
        for name in NAME.findall(path.read_text(encoding="utf-8")):
            full = name if name.startswith("ledger.") else f"ledger.{name}"
            found.append((str(path.relative_to(APP.parent)), full))
    return found


def test_the_walk_finds_names():
    assert len(named()) > 10


@pytest.mark.parametrize(("where", "dotted"), sorted(set(named())))
def test_a_dotted_name_in_a_docstring_resolves(where, dotted):
    assert resolves(dotted), f"{where} names {dotted}, which does not exist"
