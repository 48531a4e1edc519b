"""The tournaments' words for the screens and sheets: the checker's findings as sentences in the
reader's language (the web side of the tournament engine, as a game's ``web.py`` is of its
engine)."""

from __future__ import annotations

import re

from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

# The log-in a round table's own link writes as (``services.tournaments.links``): made when the
# draw is published, never able to log in; it names the tournament, the round and the table.
LINK_AUTHOR = "tarokclub-link-{tournament}-{round}-{table}"
LINK_AUTHOR_NAME = re.compile(r"tarokclub-link-(\d+)-(\d+)-(\d+)")


def author_text(user) -> str:
    """Return who wrote a row as a reader sees it: a person's log-in as it is, a round table's
    link as "the link of round 2, table 3"; "" for nobody. ``user`` is a User or a username."""
    if user is None:
        return ""
    name = str(getattr(user, "username", user) or "")
    found = LINK_AUTHOR_NAME.fullmatch(name)
    if found is None:
        return name
    return gettext("the link of round {round}, table {table}").format(
        round=found.group(2), table=found.group(3)
    )


_VIOLATION_TEXTS = {
    "unknown_player": _("{player} is in the draw but has no entry"),
    "inactive_player": _("{player} is in the draw but does not play this round"),
    "duplicate_player": _("the draw seats {player} twice"),
    "missing_player": _("the draw leaves out {player}"),
    "table_sizes": _("the tables have {got} seats; the plan has {expected}"),
    "bye_count": _("the draw has {got} byes; the plan has {expected}"),
    "seeding_groups": _("table {table} lacks one of each seeding group ({groups})"),
    "repeat_opponents": _("table {table}: {pair} met already in round {rounds}"),
    "club_together": _("table {table}: {pair} are both of {club}"),
    "second_bye": _("{player} gets a second bye while a seated player has had fewer"),
}


def violation_text(violation, names: dict[str, str]) -> str:
    """Return one finding of the checker as a sentence in the reader's language, players by
    name. ``violation`` is an engine Violation or its stored dict."""
    data = violation.as_dict() if hasattr(violation, "as_dict") else dict(violation)

    def name(code) -> str:
        return names.get(code, str(code))

    def listed(value) -> str:
        if isinstance(value, list | tuple):
            return ", ".join(str(v) for v in value)
        return str(value)

    template = _VIOLATION_TEXTS.get(str(data.get("code")), "{code}")
    pair = data.get("pair") or ()
    return str(template).format(
        code=data.get("code"),
        player=name(data.get("id")),
        got=listed(data.get("got")),
        expected=listed(data.get("expected")),
        table=data.get("table"),
        groups=listed(data.get("groups")),
        pair=" & ".join(name(p) for p in pair),
        rounds=listed(data.get("rounds")),
        club=data.get("club"),
    )
