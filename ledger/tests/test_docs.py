"""The manual stays true to the code (issue 29): README.md is short and points into docs/, the
manual (docs/, built by MkDocs from mkdocs.yml) names every management command, and every
command, make target and repository path it names exists. ``make lint`` builds it with
``--strict`` (a broken link or anchor fails); the last test here does the same, so pytest
alone catches it too."""

from __future__ import annotations

import re
import struct
import subprocess
import sys
from pathlib import Path

from django.conf import settings
from django.core.management import get_commands

ROOT = Path(settings.BASE_DIR)
DOCS = ROOT / "docs"
PAGES = sorted(DOCS.glob("*.md"))
OURS = sorted(
    path.stem
    for path in (ROOT / "ledger" / "management" / "commands").glob("*.py")
    if not path.stem.startswith("_")
)
# Paths the manual names that are not in the repository on purpose: the worked example of
# adding a game or a language, and the files a bench run writes (git-ignored).
NOT_FILES = (
    "ledger/games/koenigrufen/",
    "templates/ledger/games/koenigrufen/",
    "static/ledger/games/koenigrufen/",
    "ledger/tests/games/koenigrufen/",
    "locale/de/",
    "tarokclub/formats/de/",
    "bench/bench.sqlite3",
    "bench/results-",
)
REPO_PATH = re.compile(
    r"`((?:ledger|static|templates|bench|scripts|deploy|fixtures|locale|tarokclub)/[^`\s]*)`"
)


# ``make X`` as a command: in backquotes or a code block (after any VAR=value), then its end.
MAKE = re.compile(r"(?:`|^|&& )(?:[A-Z_]+=\S+ )*make ([a-z][a-z-]*)(?=`|\s*(?:#|$))", re.M)


def text_of(path: Path) -> str:
    """The file's text."""
    return path.read_text(encoding="utf-8")


def test_the_readme_is_short_and_points_into_the_manual():
    """README.md keeps what the project is, the two commands and where to read more: it names
    ``make run`` and ``make test``, links every reader's page, and each link resolves."""
    readme = text_of(ROOT / "README.md")
    assert len(readme.splitlines()) <= 60
    assert "make run" in readme and "make test" in readme
    for page in (
        "scorekeeper",
        "treasurer",
        "director",
        "club-admin",
        "federation",
        "operator",
        "developer",
    ):
        assert f"(docs/{page}.md)" in readme, page
    for target in re.findall(r"\]\(([^)#]+)(?:#[^)]*)?\)", readme):
        assert (ROOT / target).exists(), target


def test_the_make_targets_named_exist():
    """Every ``make X`` the README and the manual name is a target of the Makefile."""
    makefile = text_of(ROOT / "Makefile")
    targets = set(re.findall(r"^([a-z][a-z-]*):", makefile, re.M))
    for path in [ROOT / "README.md", *PAGES]:
        for target in MAKE.findall(text_of(path)):
            assert target in targets, f"{path.name}: make {target}"


def test_the_manual_names_every_management_command():
    """Each command of ledger/management/commands is in the commands' reference page and on at
    least one other page that describes it."""
    reference = text_of(DOCS / "commands.md")
    others = "\n".join(text_of(page) for page in PAGES if page.name != "commands.md")
    for command in OURS:
        assert f"`{command}`" in reference, command
        assert command in others, command


def test_every_command_the_manual_runs_exists():
    """Every ``manage.py X`` in the README and the manual is a command of this site (ours or
    Django's), so a renamed or removed command cannot linger in the manual."""
    known = set(get_commands())
    assert set(OURS) <= known
    for path in [ROOT / "README.md", *PAGES]:
        for command in re.findall(r"manage\.py ([a-z_]+)", text_of(path)):
            assert command in known, f"{path.name}: manage.py {command}"


def test_every_repository_path_the_manual_names_exists():
    """A file or folder the manual names in backquotes (``ledger/…``, ``static/…``, …) exists,
    so a moved file cannot leave the manual pointing at nothing."""
    missing = []
    for path in [ROOT / "README.md", *PAGES]:
        for named in REPO_PATH.findall(text_of(path)):
            if any(c in named for c in "<{*") or named.startswith(NOT_FILES):
                continue
            if not (ROOT / named.split("::")[0]).exists():
                missing.append(f"{path.name}: {named}")
    assert not missing


def png_size(path: Path) -> tuple[int, int]:
    """A PNG's width and height, from its IHDR chunk."""
    head = path.read_bytes()[:24]
    assert head[:8] == b"\x89PNG\r\n\x1a\n", path.name
    return struct.unpack(">II", head[16:24])


def test_the_screenshots_are_small_and_each_is_shown():
    """Every PNG under docs/img is at most 1280x800 and under 400 kB, and a page shows it."""
    shown = "\n".join(text_of(page) for page in PAGES)
    for image in sorted((DOCS / "img").glob("*.png")):
        width, height = png_size(image)
        assert width <= 1280 and height <= 800, image.name
        assert image.stat().st_size < 400_000, image.name
        assert f"(img/{image.name})" in shown, image.name


def test_the_manual_builds_with_strict_links(tmp_path):
    """``mkdocs build --strict`` passes: no broken link or anchor, no page outside the
    navigation, no missing image."""
    result = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", tmp_path],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stdout + result.stderr
