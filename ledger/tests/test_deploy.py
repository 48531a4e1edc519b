"""deploy/: the systemd units start what exists (the production start, the backup and
verify_ledger commands), each timer has its service, and systemd finds nothing wrong with
them but the installation paths this machine lacks."""

from __future__ import annotations

import configparser
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from django.conf import settings
from django.core.management import get_commands

from ledger.tests.helpers import found

DEPLOY = Path(settings.BASE_DIR) / "deploy"
UNITS = sorted(p.name for p in DEPLOY.glob("tarokclub*.service")) + sorted(
    p.name for p in DEPLOY.glob("tarokclub*.timer")
)


class UnitParser(configparser.ConfigParser):
    """A systemd unit's parser: its keys keep their case (``TimeoutStopSec``)."""

    def optionxform(self, optionstr: str) -> str:
        return optionstr


def unit(name: str) -> configparser.ConfigParser:
    parser = UnitParser(interpolation=None, strict=False)
    parser.read(DEPLOY / name, encoding="utf-8")
    return parser


def test_the_units_are_there():
    """The site, the nightly backup and the nightly verification, each timer with a service."""
    assert UNITS == [
        "tarokclub-backup.service",
        "tarokclub-verify.service",
        "tarokclub.service",
        "tarokclub-backup.timer",
        "tarokclub-verify.timer",
    ]


def test_the_units_start_what_exists():
    """The site starts scripts/serve-production.sh; the others run management commands that
    exist; every unit reads the documented environment file."""
    site = unit("tarokclub.service")["Service"]
    assert site["ExecStart"] == "/srv/tarokclub/scripts/serve-production.sh"
    assert (Path(settings.BASE_DIR) / "scripts" / "serve-production.sh").exists()
    commands = get_commands()
    for name, command in (("backup", "backup"), ("verify", "verify_ledger")):
        service = unit(f"tarokclub-{name}.service")["Service"]
        assert re.search(rf"manage\.py {command}\b", service["ExecStart"]), service["ExecStart"]
        assert command in commands
        assert service["Type"] == "oneshot"
    for name in UNITS:
        if name.endswith(".service"):
            assert unit(name)["Service"]["EnvironmentFile"] == "/etc/tarokclub/env"


def test_the_site_stops_after_gunicorn_finishes_its_requests():
    """systemd waits longer than gunicorn's graceful stop before it kills the workers."""
    site = unit("tarokclub.service")["Service"]
    script = (Path(settings.BASE_DIR) / "scripts" / "serve-production.sh").read_text()
    graceful = int(found(r"GUNICORN_GRACEFUL_TIMEOUT:-(\d+)", script).group(1))
    assert int(site["TimeoutStopSec"]) > graceful


@pytest.mark.skipif(not shutil.which("systemd-analyze"), reason="needs systemd-analyze")
@pytest.mark.parametrize("name", UNITS)
def test_systemd_accepts_the_unit(name):
    """systemd-analyze verify finds no fault but the missing /srv/tarokclub of this machine."""
    result = subprocess.run(
        ["systemd-analyze", "verify", "--man=no", str(DEPLOY / name)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    faults = [
        line
        for line in (result.stdout + result.stderr).splitlines()
        if line.strip() and "/srv/tarokclub/" not in line
    ]
    assert faults == []
