"""The interface is Danish first, in four languages: complete Danish, Slovenian and Hungarian
catalogues (English is the messages' source), Danish pages, the others on request."""

from __future__ import annotations

import ast
import datetime
import json
import os
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
from django.apps import apps
from django.conf import settings
from django.contrib import admin
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.urls import reverse
from django.utils import translation
from django.utils.functional import Promise
from django.utils.text import capfirst

from ledger import services
from ledger.models import Member
from ledger.tests import factories
from ledger.tests.conftest import load_example
from ledger.tests.helpers import found, hand_post

LOCALE = Path(settings.BASE_DIR) / "locale"
PO = LOCALE / "da" / "LC_MESSAGES" / "django.po"
MO = PO.with_suffix(".mo")
# Every language of the site but English (the msgids) has a catalogue; with its plural forms.
CATALOGUES = {
    "da": "nplurals=2; plural=(n != 1);",
    "sl": "nplurals=4; plural=(n%100==1 ? 0 : n%100==2 ? 1 : n%100==3 || n%100==4 ? 2 : 3);",
    "hu": "nplurals=2; plural=(n != 1);",
}


def po_of(code: str) -> Path:
    return LOCALE / code / "LC_MESSAGES" / "django.po"


SLUG = "i18n"
BRACE = re.compile(r"\{[a-z_][a-z0-9_]*\}")
PERCENT = re.compile(r"%\([a-z_][a-z0-9_]*\)[sd]")
TAG = re.compile(r"</?[a-z]+>")


def read_po(path: Path) -> list[dict]:
    """Return the catalogue's entries: ``flags`` and the unquoted strings by keyword."""
    entries: list[dict] = []
    for block in path.read_text(encoding="utf-8").split("\n\n"):
        entry: dict[str, Any] = {"flags": set(), "strings": {}}
        keyword = None
        for line in block.strip().splitlines():
            if line.startswith("#,"):
                entry["flags"].update(flag.strip() for flag in line[2:].split(","))
            elif line.startswith("#~"):
                entry["obsolete"] = True
            elif line.startswith("#"):
                continue
            elif line.startswith('"'):
                entry["strings"][keyword] += ast.literal_eval(line)
            else:
                keyword, _, text = line.partition(" ")
                entry["strings"][keyword] = ast.literal_eval(text)
        if entry["strings"] or entry.get("obsolete"):
            entries.append(entry)
    return entries


def messages(entries):
    """Return the entries that are messages (not the header, not obsolete)."""
    return [e for e in entries if e["strings"].get("msgid") and not e.get("obsolete")]


def translations(entry) -> list[str]:
    strings = entry["strings"]
    return [value for key, value in strings.items() if key.startswith("msgstr")]


@pytest.fixture(scope="module", params=sorted(CATALOGUES))
def catalogue(request):
    return request.param, read_po(po_of(request.param))


def test_every_language_of_the_site_has_a_catalogue_or_is_the_source():
    """``LANGUAGES`` is the four languages; each but English (the msgids) has a catalogue."""
    codes = [code for code, _name in settings.LANGUAGES]
    assert codes == ["da", "sl", "hu", "en"]
    assert set(codes) - {"en"} == set(CATALOGUES)
    for code in CATALOGUES:
        assert po_of(code).exists(), code


@pytest.fixture
def compiled(settings):
    """Compile the catalogue when its .mo is missing or older than the .po (``make`` does it).

    Re-setting ``LOCALE_PATHS`` makes Django drop the catalogues it has already loaded.
    """
    for code in CATALOGUES:
        po = po_of(code)
        mo = po.with_suffix(".mo")
        if not mo.exists() or mo.stat().st_mtime < po.stat().st_mtime:
            call_command("compilemessages", locale=[code], ignore_patterns=[".venv"], verbosity=0)
    settings.LOCALE_PATHS = list(settings.LOCALE_PATHS)


def test_catalogue_header_names_its_language_utf8_and_its_plural_forms(catalogue):
    """The header names its language, UTF-8 and the language's plurals (Danish: 1 spil, 2
    spil; Slovenian four forms) and is not fuzzy."""
    code, entries = catalogue
    header = entries[0]
    assert header["strings"]["msgid"] == ""
    text = header["strings"]["msgstr"]
    assert f"Language: {code}\n" in text
    assert "charset=UTF-8" in text
    assert f"Plural-Forms: {CATALOGUES[code]}" in text
    assert "fuzzy" not in header["flags"]


def test_every_message_is_translated_and_checked(catalogue):
    """No message is left untranslated or fuzzy; a plural message has all its forms; every
    catalogue has the same messages."""
    code, entries = catalogue
    entries = messages(entries)
    danish = {e["strings"]["msgid"] for e in messages(read_po(PO))}
    assert {e["strings"]["msgid"] for e in entries} == danish
    assert len(entries) > 400
    untranslated = [e["strings"]["msgid"] for e in entries if not all(translations(e))]
    fuzzy = [e["strings"]["msgid"] for e in entries if "fuzzy" in e["flags"]]
    assert untranslated == []
    assert fuzzy == []
    plurals = [e for e in entries if "msgid_plural" in e["strings"]]
    assert plurals
    for entry in plurals:
        forms = int(CATALOGUES[code].split(";")[0].split("=")[1])
        assert set(entry["strings"]) >= {f"msgstr[{i}]" for i in range(forms)}


def test_translations_keep_every_placeholder_and_tag(catalogue):
    """A translation keeps the msgid's {name} and %(name)s placeholders and its HTML tags."""
    wrong = []
    for entry in messages(catalogue[1]):
        source = entry["strings"]["msgid"] + entry["strings"].get("msgid_plural", "")
        for pattern in (BRACE, PERCENT, TAG):
            expected = set(pattern.findall(source))
            for text in translations(entry):
                if set(pattern.findall(text)) != expected:
                    wrong.append((entry["strings"]["msgid"], text))
    assert wrong == []


@pytest.mark.parametrize("code", sorted(CATALOGUES))
def test_catalogue_passes_msgfmt_format_checks(code):
    """``msgfmt --check-format`` accepts the catalogue (python-format and python-brace-format)."""
    msgfmt = shutil.which("msgfmt")
    if msgfmt is None:
        if os.environ.get("CI"):
            pytest.fail("msgfmt (GNU gettext) is required in CI")
        pytest.skip("msgfmt (GNU gettext) is not installed")
    result = subprocess.run(
        [msgfmt, "--check-format", "--statistics", "-o", os.devnull, str(po_of(code))],
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    assert "untranslated" not in result.stderr
    assert "fuzzy" not in result.stderr


@pytest.mark.django_db
def test_log_in_page_is_danish_by_default(client, compiled):
    """Without a language choice the log-in page speaks Danish."""
    page = client.get(reverse("login")).content.decode()
    assert 'lang="da"' in page
    assert "<h1>Log ind</h1>" in page
    assert "Brugernavn" in page
    assert "Adgangskode" in page
    assert "User name" not in page


@pytest.mark.django_db
def test_log_in_page_is_english_with_the_language_cookie(client, compiled):
    """The language cookie set to "en" switches the same page to English."""
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    page = client.get(reverse("login")).content.decode()
    assert 'lang="en"' in page
    assert "<h1>Log in</h1>" in page
    assert "User name" in page
    assert "Brugernavn" not in page


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("accept", "code", "user_name"),
    [("sl", "sl", "Uporabniško ime"), ("hu-HU,hu;q=0.9", "hu", "Felhasználónév")],
)
def test_log_in_page_speaks_slovenian_and_hungarian_to_such_a_browser(
    client, compiled, accept, code, user_name
):
    """A browser asking for Slovenian or Hungarian reads the log-in page in it; the switch
    offers all four languages, each named in its own language, the current one marked."""
    page = client.get(reverse("login"), HTTP_ACCEPT_LANGUAGE=accept).content.decode()
    assert f'lang="{code}"' in page
    assert user_name in page
    assert "Brugernavn" not in page
    switch = re.findall(r'<button name="language" value="(\w+)"[^>]*>([^<]+)</button>', page)
    assert switch == [
        ("da", "Dansk"),
        ("sl", "Slovenščina"),
        ("hu", "Magyar"),
        ("en", "English"),
    ]
    assert f'value="{code}" class="link current"' in page


@pytest.mark.parametrize(
    ("code", "date", "number"),
    [
        ("sl", "1. 12. 2026", "1.234,50"),
        ("hu", "2026. 12. 01.", "1\xa0234,50"),
        ("da", "01.12.2026", "1.234,50"),
    ],
)
def test_dates_and_numbers_are_written_the_languages_way(code, date, number):
    """Slovenian 1. 12. 2026, Hungarian 2026. 12. 01. (a no-break space groups thousands)."""
    from decimal import Decimal

    from django.utils import formats

    with translation.override(code):
        assert formats.date_format(datetime.date(2026, 12, 1), "SHORT_DATE_FORMAT") == date
        if code == "sl":
            assert formats.date_format(datetime.date(2026, 12, 1)) == "1. december 2026"
        assert formats.number_format(Decimal("1234.50"), 2, force_grouping=True) == number
        field_value = formats.localize_input(datetime.date(2026, 12, 1))
        assert datetime.datetime.strptime(field_value, formats.get_format("DATE_INPUT_FORMATS")[0])


@pytest.fixture
def table(db):
    """An open evening with Anna (scorekeeper, logged-in), Bo and Carl at one table."""
    club = factories.make_club(slug=SLUG)
    anna = factories.make_member(club, "Anna", Member.Role.SCOREKEEPER, login=True)
    members = [anna, factories.make_member(club, "Bo"), factories.make_member(club, "Carl")]
    evening = services.evening_open(club=club, date=datetime.date(2026, 11, 5))
    return services.table_open(evening=evening, members=members)


def refuse(client, table, record) -> str:
    """Post a hand the engine refuses from the tablet; return the page with the messages."""
    assert client.login(username=f"{SLUG}-anna", password=factories.PASSWORD)
    data = hand_post(table, record)
    response = client.post(reverse("hand_new", kwargs={"club": SLUG, "pk": table.pk}), data)
    assert response.status_code == 422
    assert table.hands.count() == 0
    return response.content.decode()


def section(page: str, name: str) -> str:
    return found(rf'<div id="err-{name}"[^>]*>(.*?)</div>', page, re.S).group(1)


def test_rules_engine_messages_are_danish_on_the_tablet(client, table, compiled):
    """The engine's refusals appear in Danish beside their fields, with their figures filled in."""
    hand_1 = load_example("EVENING_E.evening.json")["hands"][0]
    page = refuse(client, table, dict(hand_1, count={"Anna": 50, "Carl": 40}))
    assert "to tællinger kan højst give 78 i alt, ikke 90" in section(page, "count")
    page = refuse(client, table, dict(hand_1, nolo=["Carl"]))  # Carl won the last trick
    assert "Carl tog intet stik (nolo) og kan ikke tage sidste stik" in section(page, "last_trick")
    assert "won no trick" not in page


def test_rules_engine_messages_are_english_with_the_language_cookie(client, table, compiled):
    """With the cookie set to "en" the same refusal reads in English."""
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    hand_1 = load_example("EVENING_E.evening.json")["hands"][0]
    page = refuse(client, table, dict(hand_1, count={"Anna": 50, "Carl": 40}))
    assert "two counts cannot total more than 78, not 90" in section(page, "count")


def test_tablet_labels_and_plurals_are_danish(client, table, compiled):
    """The hand form's script labels and the evening's hand counts are in Danish."""
    services.hand_record(table=table, record=load_example("EVENING_E.evening.json")["hands"][0])
    assert client.login(username=f"{SLUG}-anna", password=factories.PASSWORD)
    form = client.get(reverse("hand_new", kwargs={"club": SLUG, "pk": table.pk})).content
    match = re.search(
        rb'<script id="hand-config" type="application/json">(.*?)</script>', form, re.S
    )
    assert match is not None, "no hand config on the page"
    config = json.loads(match.group(1).decode())
    assert config["labels"]["fines"]["revoke"] == "Kulørsvigt"
    assert config["labels"]["suits"]["clubs"] == "Klør"
    assert config["labels"]["cards"]["knight"] == "Knægt"
    evening = client.get(
        reverse("evening", kwargs={"club": SLUG, "pk": table.evening_id})
    ).content.decode()
    assert "1 spil" in evening
    assert "Bord 1" in evening
    assert "Nyt spil" in evening


@pytest.fixture
def admin_world(db):
    """A club with a season and Evening E, closed (results, splits and a log entry)."""
    club = factories.make_club(slug=SLUG)
    factories.make_season(club)
    evening, _table, _hands = factories.evening_e(club)
    services.evening_close(evening=evening)
    user = get_user_model().objects.create_superuser("root", "root@example.org", "x")
    return user


def english_words(model) -> set[str]:
    """Return how the admin would name ``model`` and its fields in English (capitalised)."""
    with translation.override("en"):
        meta = model._meta
        words = {capfirst(str(meta.verbose_name)), capfirst(str(meta.verbose_name_plural))}
        for field in meta.get_fields():
            if hasattr(field, "verbose_name") and not field.auto_created:
                words.add(capfirst(str(field.verbose_name)))
    with translation.override("da"):
        danish = {capfirst(str(model._meta.verbose_name)), capfirst(str(meta.verbose_name_plural))}
        danish |= {
            capfirst(str(f.verbose_name))
            for f in meta.get_fields()
            if hasattr(f, "verbose_name") and not f.auto_created
        }
    return words - danish  # a word that is the same in Danish ("status") is no proof


def test_every_model_and_field_has_a_translatable_name():
    """Every model of the ledger and every field names itself through gettext (verbose_name)."""
    untranslatable = []
    for model in apps.get_app_config("ledger").get_models():
        meta = model._meta
        if "verbose_name" not in meta.original_attrs:
            untranslatable.append(model.__name__)
        for name in ("verbose_name", "verbose_name_plural"):
            if not isinstance(getattr(meta, name), Promise):
                untranslatable.append(f"{model.__name__}.{name}")
        for field in meta.get_fields():
            if hasattr(field, "verbose_name") and not field.auto_created:
                if not isinstance(field.verbose_name, Promise):
                    untranslatable.append(f"{model.__name__}.{field.name}")
    assert untranslatable == []


def test_the_admin_speaks_danish(client, admin_world, compiled):
    """Each admin page of the ledger (index, changelists, change and add pages) in Danish names
    no model and no field in English: not "Accounts", "Evening logs", "Club:" or "User:"."""
    client.force_login(admin_world)
    english = set()
    for model in admin.site._registry:
        if model._meta.app_label == "ledger":
            english |= english_words(model)
    english |= {"User", "Users"}  # the auth app's, as a field of the ledger names them
    urls = [reverse("admin:index"), reverse("admin:app_list", args=["ledger"])]
    for model in admin.site._registry:
        meta = model._meta
        if meta.app_label != "ledger":
            continue
        urls.append(reverse(f"admin:ledger_{meta.model_name}_changelist"))
        urls.append(reverse(f"admin:ledger_{meta.model_name}_add"))
        first = model._default_manager.order_by("pk").first()
        if first is not None:
            urls.append(reverse(f"admin:ledger_{meta.model_name}_change", args=[first.pk]))
    left = []
    pages = 0
    for url in urls:
        response = client.get(url)
        if response.status_code == 403:  # the ledger's rows are written by the services only
            continue
        assert response.status_code == 200, url
        pages += 1
        page = response.content.decode()
        assert 'lang="da"' in page, url
        for word in english:
            if re.search(rf">\s*{re.escape(word)}:?\s*<", page):
                left.append((url, word))
    assert pages > 20
    assert left == []


def engine_messages() -> list[tuple[str, str]]:
    """Return (file, message) for every refusal the games' engines mark with ``_("...")``."""
    import ast
    from pathlib import Path

    import ledger.games

    root = Path(ledger.games.__file__).parent
    found: list[tuple[str, str]] = []
    for path in [*sorted(root.rglob("engine/*.py")), root / "errors.py", root / "validation.py"]:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Name)
                and node.func.id == "_"
                and node.args
                and isinstance(node.args[0], ast.Constant)
            ):
                message = node.args[0].value
                assert isinstance(message, str), (path, message)
                found.append((str(path.relative_to(root)), message))
    return found


def test_every_refusal_of_every_game_has_a_danish_translation():
    """Each game's engine words its refusals in English; every one of them reads in Danish."""
    from django.utils.translation import gettext

    messages = engine_messages()
    assert len(messages) > 100  # the walk found the engines
    with translation.override("da"):
        missing = [(where, text) for where, text in messages if gettext(text) == text]
    assert missing == []
