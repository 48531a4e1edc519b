"""Shared helpers of the federation tests: the spec's examples and the commands in-process."""

from __future__ import annotations

import copy
import io
import json

import pytest
from django.core.management import call_command

from ledger.tests.conftest import ROOT, load_example

FEDERATION = "federation"
SPEC_FOLDER = ROOT.parent / "shared" / "spec" / "examples" / FEDERATION
COPY_FOLDER = ROOT / "ledger" / "tests" / "examples" / FEDERATION
SERIES = [
    "01_dp_ladder_best_of",
    "02_league_field",
    "03_cup_strike_worst",
    "04_cup_linear_factor",
]
RATINGS = ["10_rating_tables", "11_rating_threshold"]


def example(name: str) -> dict:
    """Return a fresh copy of the federation example ``name`` (without ``.json``)."""
    return copy.deepcopy(load_example(f"{FEDERATION}/{name}.json"))


def without_expected(data: dict) -> dict:
    """Return the file as ``check-federation`` feeds it to ``series_run`` / ``rating_run``."""
    return {k: v for k, v in data.items() if k not in ("expected", "notes", "description")}


def run(command: str, path) -> tuple[int, dict]:
    """Run ``command`` on the file ``path`` in-process; return (exit code, printed JSON)."""
    out = io.StringIO()
    try:
        call_command(command, str(path), stdout=out)
        code = 0
    except SystemExit as stop:
        assert isinstance(stop.code, int), stop.code  # the commands exit with a number
        code = stop.code
    return code, json.loads(out.getvalue())


def run_doc(command: str, doc, tmp_path) -> tuple[int, dict]:
    """Write ``doc`` as JSON to a file and run ``command`` on it."""
    path = tmp_path / "doc.json"
    path.write_text(json.dumps(doc, ensure_ascii=False), encoding="utf-8")
    return run(command, path)


def refused(command: str, path) -> list[tuple[str, str]]:
    """Run ``command`` on ``path``; it must exit 2; return its errors as (field, message)."""
    code, printed = run(command, path)
    assert code == 2, printed
    assert set(printed) == {"errors"}
    return [(e["field"], e["message"]) for e in printed["errors"]]


def refused_doc(command: str, doc, tmp_path) -> list[tuple[str, str]]:
    path = tmp_path / "doc.json"
    path.write_text(json.dumps(doc, ensure_ascii=False), encoding="utf-8")
    return refused(command, path)


needs_spec = pytest.mark.skipif(
    not SPEC_FOLDER.is_dir(), reason="the spec's folder is not beside this checkout"
)
