import json
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT.parent / "shared" / "spec" / "examples"
if not EXAMPLES.is_dir():  # a copy of the spec examples ships with the tests too
    EXAMPLES = ROOT / "ledger" / "tests" / "examples"


def load_example(name: str):
    return json.loads((EXAMPLES / name).read_text(encoding="utf-8"))


@pytest.fixture
def example():
    return load_example
