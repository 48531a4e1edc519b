"""Fuzzing: malformed input is refused with clear errors and leaves the database unchanged."""

import copy
import io
import json

import pytest
from django.core.management import call_command
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ledger.games.danish import GAME
from ledger.games.danish.engine import EveningError, HandError, parse_hand
from ledger.tests.conftest import load_example
from ledger.tests.factories import make_club
from ledger.tests.helpers import hand_post, ledger_snapshot

EVENING = load_example("EVENING_E.evening.json")
HAND = load_example("X7.hand.json")

json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-(10**30), max_value=10**30)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=12)
    | st.sampled_from(["Anna", "Bo", "Carl", "Zoe", "king", "pagat", "other", "revoke"]),
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4)
    ),
    max_leaves=12,
)


def paths(value, prefix=()):
    """Yield every path into a JSON value."""
    yield prefix
    if isinstance(value, dict):
        for key, child in value.items():
            yield from paths(child, (*prefix, key))
    elif isinstance(value, list):
        for index, child in enumerate(value):
            yield from paths(child, (*prefix, index))


@st.composite
def mutated(draw, base):
    """Return ``base`` with a few random replacements, deletions and unknown keys."""
    data = copy.deepcopy(base)
    for _ in range(draw(st.integers(1, 4))):
        all_paths = [p for p in paths(data) if p]
        if not all_paths:
            return draw(json_values)
        path = draw(st.sampled_from(all_paths))
        parent = data
        for step in path[:-1]:
            parent = parent[step]
        action = draw(st.sampled_from(["replace", "delete", "unknown"]))
        if action == "replace":
            parent[path[-1]] = draw(json_values)
        elif action == "delete" and isinstance(parent, dict):
            del parent[path[-1]]
        elif action == "delete":
            parent.pop(path[-1])
        elif isinstance(parent, dict):
            parent[draw(st.text(min_size=1, max_size=8))] = draw(json_values)
    return data


def assert_clear(problems):
    assert problems
    for problem in problems:
        assert isinstance(problem.field, str)
        assert problem.message and isinstance(problem.message, str)


@settings(max_examples=300, deadline=None)
@given(mutated(HAND))
def test_engine_refuses_malformed_hands_clearly(data):
    """A mutated hand settles or is refused with field and message; never another exception."""
    try:
        parse_hand(data)
    except HandError as error:
        assert_clear(error.problems)


@settings(max_examples=200, deadline=None)
@given(mutated(EVENING))
def test_engine_refuses_malformed_evenings_clearly(data):
    """A mutated evening settles or is refused with field and message; never another exception."""
    try:
        GAME.settle_evening(data)
    except EveningError as error:
        assert_clear(error.problems)


@pytest.mark.slow
@pytest.mark.django_db
@settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(data=mutated(EVENING))
def test_import_refuses_malformed_files_and_writes_nothing(tmp_path, data):
    """import_hands: refused input exits 2 with JSON errors and the database is unchanged."""
    from ledger.models import Club

    club = Club.objects.filter(slug="fuzz").first() or make_club(slug="fuzz")
    for name in ("Anna", "Bo", "Carl"):
        club.members.get_or_create(name=name)
    path = tmp_path / "evening.json"
    path.write_text(json.dumps(data))
    before = ledger_snapshot()
    out = io.StringIO()
    try:
        call_command("import_hands", str(path), "--club", "fuzz", stdout=out)
    except SystemExit as exited:
        assert exited.code == 2
        errors = json.loads(out.getvalue())["errors"]
        assert errors and all(e["field"] is not None and e["message"] for e in errors)
        assert ledger_snapshot() == before


TABLE_HAND = {k: v for k, v in EVENING["hands"][1].items()}


@pytest.mark.slow
@pytest.mark.django_db
@settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    record=mutated(TABLE_HAND) | json_values.map(lambda v: v),
    raw=st.booleans(),
    junk=st.text(max_size=40),
)
def test_hand_form_refuses_malformed_input_and_writes_nothing(client, record, raw, junk):
    """The tablet's hand form answers malformed input with errors (never a 500), writing nothing."""
    from django.urls import reverse

    from ledger.models import Club, Table
    from ledger.tests.factories import evening_e, make_member

    club = Club.objects.filter(slug="formfuzz").first()
    if club is None:
        club = make_club(slug="formfuzz")
        evening_e(club)
        make_member(club, "Skriver", role="scorekeeper", login=True)
    client.force_login(club.members.get(name="Skriver").user)
    table = Table.objects.get(evening__club=club)
    url = reverse("hand_new", kwargs={"club": club.slug, "pk": table.pk})
    before = ledger_snapshot()
    body = junk if raw else json.dumps(record)
    response = client.post(url, hand_post(table, body, junk[:30]))
    assert response.status_code in (200, 302, 400, 422)
    if response.status_code != 302:
        assert ledger_snapshot() == before
