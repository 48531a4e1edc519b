"""Bad and hostile files: ``series_run`` and ``rating_run`` exit 2 with ``{"errors": [...]}``
naming each field, all problems at once, never a traceback (spec section 4)."""

from __future__ import annotations

import json
import os
from fractions import Fraction as F

from hypothesis import given, settings
from hypothesis import strategies as st

from ledger.federation.engine import (
    FederationError,
    read_series,
    run_rating_file,
    run_series_file,
)
from ledger.games.errors import RulesError

from .helpers import RATINGS, SERIES, example, refused, refused_doc, without_expected


def dp():
    return without_expected(example("01_dp_ladder_best_of"))


def elo():
    return without_expected(example("10_rating_tables"))


def test_unreadable_files_name_the_file(tmp_path):
    """A missing file, bad UTF-8, broken JSON, deep nesting, a huge number, NaN and a list:
    each is refused naming ``file``, by both commands."""
    for command in ("series_run", "rating_run"):
        assert refused(command, tmp_path / "nope.json")[0][0] == "file"
        bad = tmp_path / "bad.json"
        bad.write_bytes(b'{"seed": "\xff"}')
        assert refused(command, bad) == [("file", "the JSON is not valid UTF-8 (byte 10)")]
        bad.write_text('{"seed": ', encoding="utf-8")
        assert refused(command, bad)[0][0] == "file"
        bad.write_text("[" * 100_000 + "]" * 100_000, encoding="utf-8")
        assert refused(command, bad) == [("file", "the JSON nests deeper than 64 levels")]
        bad.write_text('{"tables": 1' + "0" * 5000 + "}", encoding="utf-8")
        assert refused(command, bad) == [("file", "the JSON has a number of more than 18 digits")]
        bad.write_text('{"tables": 1e999}', encoding="utf-8")
        assert refused(command, bad) == [
            ("file", "the JSON has a number that is not finite: 1e999")
        ]
        bad.write_text('{"tables": NaN}', encoding="utf-8")
        assert refused(command, bad) == [("file", "the JSON has a number that is not finite: NaN")]
        bad.write_text("[1, 2]", encoding="utf-8")
        assert refused(command, bad) == [("file", "the file must hold a JSON object")]


def test_every_problem_of_a_series_is_named_at_once(tmp_path):
    """best_of with strike_worst, a rank twice, an event id twice, a player twice in one event,
    an impossible date, a zero denominator, a float for points and an unknown key: all named
    in one answer, each by its field path."""
    doc = dp()
    doc["rule"]["strike_worst"] = 2
    doc["events"][0]["ranking"][1]["rank"] = 1
    doc["events"][1]["id"] = "e1"
    doc["events"][1]["ranking"][2]["player"] = "p11"
    doc["events"][2]["date"] = "2026-02-30"
    doc["events"][3]["factor"] = "1/0"
    doc["events"][3]["ranking"][0]["points"] = 4.5
    doc["as_of"] = 5
    doc["surprise"] = 1
    assert refused_doc("series_run", doc, tmp_path) == [
        ("surprise", "unknown key surprise"),
        ("rule.strike_worst", "a rule sets best_of or strike_worst, never both"),
        ("as_of", "as_of must be a date written YYYY-MM-DD"),
        ("events[0].ranking[1].rank", "rank 1 is given twice"),
        ("events[1].id", "the id e1 is used twice"),
        ("events[1].ranking[2].player", "p11 is ranked twice"),
        ("events[2].date", "events[2].date must be a date written YYYY-MM-DD"),
        ("events[3].factor", "events[3].factor has a denominator of 0"),
        (
            "events[3].ranking[0].points",
            "events[3].ranking[0].points must be a whole number or an exact fraction such as 13/2",
        ),
    ]


def test_a_rank_missing_twice_or_out_of_range(tmp_path):
    """Ranks run 1 … N with none shared: a gap (ranks 1 … 9 and 11 of ten rows; 1, 2, 4 … 10
    of nine) names the missing rank at the ranking; a rank given twice is named at its row; a
    rank of 0 and an empty ranking are named."""
    doc = dp()
    doc["events"][0]["ranking"][9]["rank"] = 11
    assert refused_doc("series_run", doc, tmp_path) == [
        ("events[0].ranking", "the ranking has no rank 10")
    ]
    doc = dp()
    del doc["events"][1]["ranking"][9]
    doc["events"][1]["ranking"][2]["rank"] = 10
    assert refused_doc("series_run", doc, tmp_path) == [
        ("events[1].ranking", "the ranking has no rank 3")
    ]
    doc = dp()
    doc["events"][1]["ranking"][2]["rank"] = 4
    assert refused_doc("series_run", doc, tmp_path) == [
        ("events[1].ranking[3].rank", "rank 4 is given twice")
    ]
    doc = dp()
    doc["events"][1]["ranking"][0]["rank"] = 0
    assert refused_doc("series_run", doc, tmp_path) == [
        ("events[1].ranking[0].rank", "events[1].ranking[0].rank must be from 1 to 500")
    ]
    doc = dp()
    doc["events"][2]["ranking"] = []
    assert refused_doc("series_run", doc, tmp_path) == [
        ("events[2].ranking", "a final ranking lists at least one player")
    ]


def test_points_rule_needs_points_and_placement_rule_needs_a_scale(tmp_path):
    """A row without points under ``source: points`` is named; a placement rule without a
    scale, a scale of an unknown kind, a field scale without gaps, a table scale with a bad
    point and an unknown key, and a scale on a points rule are each named."""
    doc = dp()
    del doc["events"][2]["ranking"][0]["points"]
    assert refused_doc("series_run", doc, tmp_path) == [
        ("events[2].ranking[0].points", "a rule by points needs each player's points")
    ]
    cases = [
        ({"source": "placement"}, [("rule.scale", "rule.scale is required")]),
        (
            {"source": "placement", "scale": {"kind": "elo"}},
            [("rule.scale.kind", "unknown scale elo; choose one of table, linear, field")],
        ),
        (
            {"source": "placement", "scale": {"kind": "field", "base": 100}},
            [("rule.scale.gaps", "rule.scale.gaps is required")],
        ),
        (
            {"source": "placement", "scale": {"kind": "table", "points": ["1", "x"], "to": 1}},
            [
                ("rule.scale.to", "unknown key to"),
                (
                    "rule.scale.points[1]",
                    "rule.scale.points[1] must be a whole number or an exact fraction such as 13/2",
                ),
            ],
        ),
        (
            {"source": "points", "scale": {"kind": "linear"}},
            [("rule.scale", "a scale is only used by a rule by placement")],
        ),
        ({"best_of": 2}, [("rule.source", "rule.source is required")]),
        (
            {"source": "votes"},
            [("rule.source", "unknown source votes; choose one of points, placement")],
        ),
        (
            {"source": "points", "best_of": 0, "qualify": -1},
            [
                ("rule.best_of", "rule.best_of must be from 1 to 1000000"),
                ("rule.qualify", "rule.qualify must be from 0 to 1000000"),
            ],
        ),
    ]
    for rule, errors in cases:
        doc = {"seed": "S", "rule": rule, "events": []}
        assert refused_doc("series_run", doc, tmp_path) == errors, rule


def test_a_denominator_above_1000_is_named(tmp_path):
    """ "1/1001" is refused with the limit; "2002/2" is 1001 in lowest terms, accepted."""
    doc = dp()
    doc["events"][0]["ranking"][0]["points"] = "1/1001"
    doc["events"][0]["ranking"][1]["points"] = "2002/2"
    assert refused_doc("series_run", doc, tmp_path) == [
        (
            "events[0].ranking[0].points",
            "events[0].ranking[0].points has a denominator of more than 1000",
        )
    ]


def test_a_factor_must_be_positive_and_exact(tmp_path):
    """A factor of 0, a negative one and a float are refused naming the event's factor."""
    doc = without_expected(example("04_cup_linear_factor"))
    doc["events"][0]["factor"] = "0"
    doc["events"][1]["factor"] = -2
    doc["events"][2]["factor"] = 1.5
    assert refused_doc("series_run", doc, tmp_path) == [
        ("events[0].factor", "events[0].factor must be more than 0"),
        ("events[1].factor", "events[1].factor must be more than 0"),
        (
            "events[2].factor",
            "events[2].factor must be a whole number or an exact fraction such as 13/2",
        ),
    ]


def test_every_problem_of_a_rating_file_is_named_at_once(tmp_path):
    """A negative k, a scale of 0, a text rating, a table of one player, a table id twice, a
    float score and a format of another kind: all named in one answer."""
    doc = elo()
    doc["format"] = "tarokclub.series-example/1"
    doc["params"]["k"] = -5
    doc["params"]["scale"] = 0
    doc["start"]["r01"]["rating"] = "x"
    doc["tables"][0]["scores"] = {"r01": 3}
    doc["tables"][1]["id"] = "t1"
    doc["tables"][2]["scores"]["r07"] = 1.5
    assert refused_doc("rating_run", doc, tmp_path) == [
        ("format", "the format must be tarokclub.rating-example/1"),
        ("params.k", "params.k must be from 0 to 10000"),
        ("params.scale", "params.scale must be more than 0"),
        ("start.r01.rating", "start.r01.rating must be a number"),
        ("tables[0].scores", "a rated table has at least 2 players"),
        ("tables[1].id", "the id t1 is used twice"),
        (
            "tables[2].scores.r07",
            "tables[2].scores.r07 must be a whole number or an exact fraction such as 13/2",
        ),
    ]


def test_a_rating_file_needs_its_tables_and_known_keys(tmp_path):
    """No ``tables``, an unknown parameter and a table of 21 seats are named."""
    assert refused_doc("rating_run", {"params": {"kk": 1}}, tmp_path) == [
        ("params.kk", "unknown key kk"),
        ("tables", "tables is required"),
    ]
    seats = {f"p{i}": i for i in range(21)}
    assert refused_doc("rating_run", {"tables": [{"id": "t", "scores": seats}]}, tmp_path) == [
        ("tables[0].scores", "tables[0].scores has more than 20 items")
    ]


def test_rational_text_forms():
    """Exact figures may be whole numbers or text such as "13/2", "-3/4" or "4.5"; a fraction
    of more than 18 digits a side, spaces, "1/2/3" and a denominator above 1000 (a season
    of many coprime denominators would grow past what can be printed) are refused."""
    doc = dp()
    ranking = doc["events"][0]["ranking"]
    ranking[0]["points"] = "-3/4"
    ranking[1]["points"] = "4.5"
    ranking[2]["points"] = 7
    ranking[3]["points"] = "26/4"
    _seed, _rule, events, _as_of = read_series(doc)
    assert [p.points for p in events[0].ranking[:4]] == [F(-3, 4), F(9, 2), F(7), F(13, 2)]
    rows = {r["player"]: r for r in run_series_file(doc)["standings"]}
    assert "e1" in rows["p04"]["struck"]  # his -3/4 is now his lowest
    for bad in ["1" * 19, "1/" + "7" * 19, " 1", "1/2/3", "1e3", "½", "", "1/1001", "0.0001"]:
        doc = dp()
        doc["events"][0]["ranking"][0]["points"] = bad
        try:
            run_series_file(doc)
        except FederationError as error:
            assert [p.field for p in error.problems] == ["events[0].ranking[0].points"], bad
        else:  # pragma: no cover
            raise AssertionError(bad)


DELETE = object()
JUNK = st.sampled_from(
    [
        None,
        True,
        -1,
        0,
        3,
        10**17,
        1.5,
        "",
        "x",
        "13/2",
        "1/0",
        "2026-10-03",
        "\x07",
        [],
        [1],
        {},
        {"a": 1},
        {"kind": "field"},
        {"rank": 1, "player": "p01"},
        DELETE,
    ]
)


def paths(value, prefix=()):
    """Yield the path of every value inside a JSON document."""
    yield prefix
    if isinstance(value, dict):
        for key, item in value.items():
            yield from paths(item, (*prefix, key))
    elif isinstance(value, list):
        for i, item in enumerate(value):
            yield from paths(item, (*prefix, i))


def replaced(doc, path, junk):
    """Return ``doc`` with the value at ``path`` replaced by ``junk`` (or deleted)."""
    if not path:
        return {} if junk is DELETE else junk
    copy = json.loads(json.dumps(doc))
    target = copy
    for step in path[:-1]:
        target = target[step]
    if junk is DELETE:
        del target[path[-1]]
    else:
        target[path[-1]] = junk
    return copy


DOCS = [without_expected(example(name)) for name in SERIES + RATINGS]


@settings(max_examples=int(os.environ.get("FEDERATION_FUZZ_EXAMPLES", "60")), deadline=None)
@given(st.sampled_from(range(len(DOCS))), st.data(), st.lists(JUNK, min_size=1, max_size=3))
def test_any_junk_anywhere_is_answered_or_refused_with_fields(index, data, junks):
    """Replacing or deleting up to three values anywhere in an example either still runs or
    is refused with named fields; no other exception escapes."""
    doc = DOCS[index]
    every = list(paths(doc))
    for junk in junks:
        doc = replaced(doc, data.draw(st.sampled_from(every)), junk)
        every = list(paths(doc))
    run = run_series_file if index < len(SERIES) else run_rating_file
    try:
        out = run(doc)
    except RulesError as error:
        assert error.problems
        assert all(isinstance(p.field, str) and p.message for p in error.problems)
    else:
        json.dumps(out, ensure_ascii=False, allow_nan=False)
