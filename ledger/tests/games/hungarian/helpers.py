"""Shared helpers of the Hungarian Tarokk tests."""

from __future__ import annotations

import copy

from ledger.tests import conftest

SEATS4 = ["Anna", "Bo", "Carl", "Dorte"]
SEATS5 = ["Anna", "Bo", "Carl", "Dorte", "Erik"]


def load_example(name: str):
    """Load a spec example (conftest finds the spec's folder, else the shipped copy)."""
    return conftest.load_example(name)


def example_hand(name: str) -> dict:
    """Return a fresh copy of ``examples/<name>.hand.json``."""
    return copy.deepcopy(load_example(f"{name}.hand.json"))


def hand(**fields) -> dict:
    """Return a valid partner game (HU1's table) with ``fields`` replaced."""
    data = {
        "format": "tarokclub.hand/1",
        "game": "hungarian_tarokk",
        "seats": list(SEATS4),
        "dealer": "Dorte",
        "bid": "ketto",
        "declarer": "Anna",
        "partner": "Carl",
        "card_points": 58,
        "kontra": 0,
    }
    data.update(fields)
    return data


def triples(settlement, *, claims: bool | None = None) -> list[tuple[str, str, int]]:
    """Return the transfers as (from, to, points); ``claims`` keeps only / drops claims."""
    return [
        (t.source, t.target, t.points)
        for t in settlement.transfers
        if claims is None or (t.reason == "tarokk_claim") == claims
    ]


def netted_pairs(settlement, *, claims: bool) -> list[tuple[str, str, int]]:
    """Net the transfers per pair of members, in the order each pair first appears."""
    flows: dict[frozenset | tuple, list] = {}
    for t in settlement.transfers:
        if (t.reason == "tarokk_claim") != claims:
            continue
        key = frozenset((t.source, t.target)) if not claims else (t.source, t.target)
        if key not in flows:
            flows[key] = [t.source, t.target, 0]
        flow = flows[key]
        flow[2] += t.points if flow[0] == t.source else -t.points
    out = []
    for source, target, points in flows.values():
        if points < 0:
            source, target, points = target, source, -points
        if points:
            out.append((source, target, points))
    return out
