"""Typed errors of the games' engines, shared by every game.

Every problem names the field it concerns and the rule it breaks. Messages are
English templates marked with ``_`` so that Django's ``makemessages`` extracts
them; the web layer translates a problem with ``gettext(problem.template)``.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass


def _(template: str) -> str:
    """Mark a message template for translation without importing Django."""
    return template


@dataclass(frozen=True)
class Problem:
    """One broken rule: the field (a path such as ``count.Anna`` or ``fines[0].type``) and why."""

    field: str
    template: str
    # dataclasses.field spelled out: in this class body the bare name is the attribute above
    params: dict = dataclasses.field(default_factory=dict, compare=False)

    @property
    def message(self) -> str:
        return self.template.format(**self.params)

    def as_dict(self) -> dict:
        return {"field": self.field, "message": self.message}


class RulesError(Exception):
    """Raised when input breaks a rule; carries every problem found, not just the first."""

    def __init__(self, problems):
        self.problems = tuple(problems)
        super().__init__("; ".join(f"{p.field}: {p.message}" for p in self.problems))

    def as_json(self) -> dict:
        return {"errors": [p.as_dict() for p in self.problems]}


class RateCardError(RulesError):
    """Raised when a rate card has an unknown key, a negative amount or a bad option."""


class HandError(RulesError):
    """Raised when a hand record breaks a rule of the hand format or of the game."""


class EveningError(RulesError):
    """Raised when an evening file is malformed or one of its hands is refused."""


class Problems:
    """Collect problems while validating, then raise them all at once."""

    def __init__(self, prefix: str = ""):
        self.items: list[Problem] = []
        self.prefix = prefix

    def add(self, field: str, template: str, **params) -> None:
        self.items.append(Problem(self.prefix + field, template, params))

    def extend(self, problems) -> None:
        self.items.extend(problems)

    def __bool__(self) -> bool:
        return bool(self.items)

    def raise_if_any(self, error_class: type[RulesError]) -> None:
        if self.items:
            raise error_class(self.items)
