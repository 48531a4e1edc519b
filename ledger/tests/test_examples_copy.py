"""The copy of the spec's worked examples shipped with the tests is the spec's, byte for byte."""

from pathlib import Path

import pytest

from ledger.tests.conftest import ROOT

SPEC = ROOT.parent / "shared" / "spec" / "examples"
COPY = ROOT / "ledger" / "tests" / "examples"


@pytest.mark.skipif(not SPEC.is_dir(), reason="the spec's folder is not beside this checkout")
def test_shipped_examples_equal_the_spec():
    """Every example file of the spec is shipped, unchanged, in ledger/tests/examples."""
    spec = {p.name: p.read_bytes() for p in Path(SPEC).glob("*.json")}
    copy = {p.name: p.read_bytes() for p in COPY.glob("*.json")}
    assert spec == copy
