"""A release has one version, ``tarokclub.__version__``: the same in pyproject.toml and at the
top of CHANGELOG.md (with its upgrade notes), shown in every page's footer and in the admin."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model

import tarokclub

ROOT = Path(settings.BASE_DIR)


def test_the_version_is_one_fact():
    """__version__ is MAJOR.MINOR.PATCH and pyproject.toml says the same."""
    assert re.fullmatch(r"\d+\.\d+\.\d+", tarokclub.__version__)
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert project["version"] == tarokclub.__version__


def test_the_changelog_opens_with_this_release_and_its_upgrade_notes():
    """CHANGELOG.md's first release heading is this version, dated, and its entry has
    "Upgrade notes"; every release heading is unique."""
    text = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    releases = re.findall(r"^## (\d+\.\d+\.\d+) \((\d{4}-\d{2}-\d{2})\)$", text, re.M)
    assert releases[0][0] == tarokclub.__version__
    assert len({v for v, _ in releases}) == len(releases)
    first = text.split(f"## {tarokclub.__version__} ", 1)[1].split("\n## ", 1)[0]
    assert "### Upgrade notes" in first


@pytest.mark.django_db
def test_the_footer_shows_the_version(client):
    """Every page's footer names the release (here the log-in page)."""
    response = client.get("/login/")
    assert (
        f'<footer class="site-footer">tarokclub {tarokclub.__version__}</footer>'
        in response.content.decode()
    )


@pytest.mark.django_db
def test_the_admin_shows_the_version(client):
    """The admin's header names the release beside its title."""
    user = get_user_model().objects.create_superuser("root", "root@example.dk", "x-1234567890")
    client.force_login(user)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    page = client.get("/admin/").content.decode()
    assert f"tarokclub administration {tarokclub.__version__}" in page
