"""The one refusal of the ledger's services: ``LedgerError``, carrying ``Problem``s as the
engines' ``RulesError`` does (``games/errors.py``).

A problem is a field (a path such as ``rate_card.fee`` or ``events[2].factor``), a message
template and its parameters; the template is translated when the refusal is shown (``message``,
``as_json``), in the reader's language, so a refusal raised in one language and read in another
reads right. A service raises ``LedgerError(_("the short name {slug} is taken"), "slug",
slug=slug)`` for one problem, ``LedgerError(problems=...)`` for several (every problem of a
rate card; every refused name of a pasted list), ``LedgerError.of_rules`` for an engine's
refusal and ``LedgerError.of_validation`` for a model's ``full_clean``. Nothing translates or
fills a refusal's text when raising it (``ledger/tests/services/test_refusal_templates.py``):
a parameter that is words itself is written when shown too (``error.shown()`` for a refusal
inside another, ``later(func, ...)``), and Django's ``%(name)s`` templates are filled as such.
The web layer shows it with one helper (``ledger.web.refusals.refuse``): on a form, each
problem on its field, or as ``{"errors": [{"field", "message"}, ...]}`` to a script.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

from django.utils.functional import lazy
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from ledger.games.errors import Problem, RulesError

if TYPE_CHECKING:
    from django_stubs_ext import StrOrPromise

ALL = "__all__"


def problem_text(problem: Problem) -> str:
    """A problem's message in the active language: its template translated, then filled (a
    ``{name}`` template by ``str.format``; Django's ``%(name)s`` style by ``%``)."""
    template = problem.template
    text = gettext(template) if isinstance(template, str) else str(template)
    if not problem.params:
        return text
    return text % problem.params if "%(" in text else text.format(**problem.params)


def problem(field: str, template: StrOrPromise, **params) -> Problem:
    """One problem of a refusal (``LedgerError(problems=[...])``): its field, its template (a
    lazy ``_("...")``, or ``later(...)``) and the template's parameters."""
    return Problem(field, cast(str, template), params)


def _called(func, *args) -> str:
    return str(func(*args))


_later = lazy(_called, str)


def later(func, *args) -> StrOrPromise:
    """A refusal's parameter (or template) written when it is shown, in the reader's language,
    by calling ``func(*args)`` then: an engine finding's sentence, another refusal's message.
    ``func`` reads no database."""
    return _later(func, *args)


def with_path(problem: Problem, field: str) -> Problem:
    """An engine's problem under ``field``, its message led by the engine's own field
    (``rule.best_of: a rule sets ...``), still translated when shown."""
    return Problem(
        field, "{path}: {problem}", {"path": problem.field, "problem": later(problem_text, problem)}
    )


class LedgerError(Exception):
    """Raised when a service refuses a write; names the field and the rule, and writes nothing.

    ``LedgerError(template, field, **params)`` is one problem; ``problems=`` gives several (the
    first names ``field``)."""

    def __init__(self, message=None, field: str = ALL, *, problems=None, **params):
        if problems is None:
            problems = (Problem(field, message, params),)
        self.problems: tuple[Problem, ...] = tuple(problems)
        if not self.problems:
            raise ValueError("a refusal names at least one problem")
        super().__init__("; ".join(f"{p.field}: {p.template}" for p in self.problems))

    def __str__(self) -> str:
        """Each problem as ``field: message``, in the active language (for a log or a test)."""
        return "; ".join(f"{f}: {m}" for f, m in self.messages())

    @property
    def field(self) -> str:
        """The field of the first problem (``__all__``: the whole form)."""
        return self.problems[0].field

    @property
    def message(self) -> str:
        """Every problem's message, translated, in one sentence."""
        return "; ".join(problem_text(p) for p in self.problems)

    def shown(self) -> StrOrPromise:
        """Every problem's message as ``message``, written when shown (a parameter of another
        refusal: ``line {line}: {problem}``)."""
        return later(_message_of, self)

    def messages(self) -> list[tuple[str, str]]:
        """Each problem as (field, translated message)."""
        return [(p.field, problem_text(p)) for p in self.problems]

    def as_json(self) -> dict:
        """``{"errors": [{"field", "message"}, ...]}``, as the commands and the engines answer."""
        return {"errors": [{"field": f, "message": m} for f, m in self.messages()]}

    @classmethod
    def of_rules(cls, error: RulesError, prefix: str = "") -> LedgerError:
        """An engine's refusal as the services': each problem kept, its field under ``prefix``
        (``rate_card``: ``rate_card.fee``)."""
        return cls(
            problems=[
                Problem(f"{prefix}.{p.field}" if prefix else p.field, p.template, p.params)
                for p in error.problems
            ]
        )

    @classmethod
    def of_validation(cls, error, prefix: str = "", field: str = ALL) -> LedgerError:
        """A model's or a validator's ``ValidationError`` (from ``full_clean``) as a refusal:
        each message on its field (``field`` for one without fields), its template and
        parameters kept, so it too is translated when shown."""
        found = (
            error.error_dict.items()
            if hasattr(error, "error_dict")
            else [(field, error.error_list)]
        )
        return cls(
            problems=[
                Problem(
                    f"{prefix}{name}" if name != ALL else ALL, one.message, dict(one.params or {})
                )
                for name, errors in found
                for one in errors
            ]
        )


def _message_of(error: LedgerError) -> str:
    return error.message


class EveningClosedError(LedgerError):
    """Raised on any write to a closed evening (or a closed table)."""

    def __init__(self, field: str = "__all__"):
        super().__init__(_("the evening is closed; a treasurer must reopen it first"), field)


class TournamentEveningError(LedgerError):
    """Raised when a club role's service (open a table, seat, count jetons, adjust, close,
    reopen, file under a season) is asked to change a tournament's evening: its tables are
    opened and closed only by the tournament's round services."""


class SeatingError(LedgerError):
    """Raised when seating or leaving breaks the table's rules (3 to 5, each once)."""


class CupNegativeError(LedgerError):
    """Raised when a posting would take a cup below zero."""


class JetonDifferenceError(LedgerError):
    """Raised when an evening with unconfirmed jeton differences is closed."""


class StaleFormError(LedgerError):
    """Raised when a form was previewed against a slot or table state that has moved on: the
    hand number was taken from another device, the table changed, or a hand was corrected
    meanwhile. ``hand_number`` names the hand to look at."""

    def __init__(
        self, message, field: str = "__all__", *, hand_number: int | None = None, **params
    ):
        super().__init__(message, field, **params)
        self.hand_number = hand_number


class BusyError(LedgerError):
    """Raised when a service could not have its locks in time (another write held them past
    ``TAROK_LOCK_TIMEOUT``) or a statement ran past ``TAROK_STATEMENT_TIMEOUT``: nothing is
    written, and the same write may be sent again after ``retry_after`` seconds."""

    def __init__(self, field: str = "__all__", *, retry_after: int = 2):
        super().__init__(_("another save is under way; try again in a moment"), field)
        self.retry_after = retry_after
