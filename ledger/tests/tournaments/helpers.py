"""Shared helpers of the tournament tests: the spec's examples and a reference search."""

from __future__ import annotations

import copy
from pathlib import Path

from ledger.tests.conftest import EXAMPLES, ROOT, load_example

TOURNAMENT = "tournament"
SPEC_FOLDER = ROOT.parent / "shared" / "spec" / "examples" / TOURNAMENT
COPY_FOLDER = ROOT / "ledger" / "tests" / "examples" / TOURNAMENT
EXAMPLE_FOLDER = Path(EXAMPLES) / TOURNAMENT
PLAYED = ["01_sl12_dp", "02_dk25_dm", "04_hu11_byes"]
CHECKER = "07_checker_and_plans"


def example(name: str) -> dict:
    """Return a fresh copy of the tournament example ``name`` (without ``.json``)."""
    return copy.deepcopy(load_example(f"{TOURNAMENT}/{name}.json"))


def without_expected(data: dict) -> dict:
    """Return the file as ``check-tournaments`` feeds it to ``tournament_run``."""
    return {k: v for k, v in data.items() if k not in ("expected", "notes", "description")}


def reference_fill(order, sizes, compatible, budget):
    """Transcribe the pseudo-code of spec 5.3 literally (recursive): (draw or None, nodes).

    Return ``("budget", nodes)`` when the node budget is exceeded. Used to check the engine's
    iterative search against the contract on small fields.
    """
    nodes = 0

    class Abort(Exception):
        pass

    def place(remaining, k):
        nonlocal nodes
        if k >= len(sizes):
            return []
        head, rest = remaining[0], remaining[1:]

        def choose(start, chosen):
            nonlocal nodes
            if len(chosen) == sizes[k] - 1:
                left = [p for p in rest if p not in chosen]
                sub = place(left, k + 1)
                return None if sub is None else [[head, *chosen], *sub]
            for i in range(start, len(rest)):
                if len(rest) - i < (sizes[k] - 1) - len(chosen):
                    break
                nodes += 1
                if nodes > budget:
                    raise Abort
                c = rest[i]
                if all(compatible(c, x) for x in [head, *chosen]):
                    r = choose(i + 1, [*chosen, c])
                    if r is not None:
                        return r
            return None

        return choose(0, [])

    try:
        found = place(list(order), 0)
    except Abort:
        return "budget", nodes
    return (None if found is None else tuple(tuple(t) for t in found)), nodes
