"""Write the list of slow tests (``ledger/tests/slow.txt``) from a timed run's JUnit XML.

    .venv/bin/pytest -q -p no:cacheprovider -n 2 -m "not e2e" --junitxml=/tmp/timed.xml
    .venv/bin/python scripts/slow_tests.py /tmp/timed.xml [MORE.xml ...] [--over SECONDS]

A test whose call took over ``--over`` seconds (0.15 by default, for a quiet machine; on a
loaded one scale it by the load, e.g. 0.4 at a load of 6 on 2 cores) is listed; the conftest
marks the listed ones ``slow``, so ``make test-fast`` leaves them out. A test not yet measured
is not listed: it runs in ``make test-fast`` until the list is written again. Given several
reports (a whole run, then a module timed again after a change), a later one's time of a test
replaces an earlier one's.
"""

from __future__ import annotations

import argparse
import os
import xml.etree.ElementTree as ET
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
LIST = ROOT / "ledger" / "tests" / "slow.txt"


def node_id(classname: str, name: str) -> str:
    """The pytest node id of a JUnit test case: the longest dotted prefix of ``classname``
    that is a test module, then its classes, then the test's name."""
    parts = classname.split(".")
    for cut in range(len(parts), 0, -1):
        module = Path(*parts[:cut]).with_suffix(".py")
        if (ROOT / module).is_file():
            return "::".join([module.as_posix(), *parts[cut:], name])
    raise SystemExit(f"no test module for {classname}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("junit_xml", type=Path, nargs="+")
    parser.add_argument("--over", type=float, default=0.15, help="seconds (default 0.15)")
    args = parser.parse_args()
    times: dict[str, float] = {}
    for report in args.junit_xml:
        root = ET.parse(report).getroot()  # noqa: S314 - our own test run's report
        for case in root.iter("testcase"):
            node = node_id(case.get("classname", ""), case.get("name", ""))
            times[node] = float(case.get("time", "0"))
    timed = [(seconds, node) for node, seconds in times.items()]
    slow = sorted(node for seconds, node in timed if seconds > args.over)
    total = sum(seconds for seconds, _node in timed)
    kept = sum(seconds for seconds, node in timed if seconds <= args.over)
    load = os.getloadavg()[0]
    part = 100 * (total - kept) / total if total else 0
    head = (
        f"# Tests measured over {args.over} s a call (scripts/slow_tests.py; load {load:.1f} at\n"
        "# the end of the run): marked slow by ledger/tests/conftest.py, left out of make\n"
        f"# test-fast. {len(slow)} of {len(timed)} tests, {part:.0f} % of the run's test time.\n"
    )
    LIST.write_text(head + "".join(f"{node}\n" for node in slow), encoding="utf-8")
    print(f"{len(slow)} of {len(timed)} tests listed in {LIST.relative_to(ROOT)}")
    print(f"the rest take {kept:.0f} s of the run's {total:.0f} s of test time")


if __name__ == "__main__":
    main()
