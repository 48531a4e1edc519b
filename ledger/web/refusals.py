"""Web wording of refused untrusted input (``ledger.web.jsonin``), translated for the page."""

from django.utils.translation import gettext

from ledger.games.errors import RulesError


def refusal_text(error: RulesError, lead: str = "") -> str:
    """Return the problems of ``error`` as one translated sentence, after ``lead`` if given."""
    details = "; ".join(gettext(p.template).format(**p.params) for p in error.problems)
    return f"{lead}: {details}" if lead else details
