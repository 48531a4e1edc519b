"""Reads of the clubs' chains: their heads as witnessed outside the database, and a witness
checked against the ledger (``services.seals`` writes the chain; docs/ledger-integrity.md)."""

from __future__ import annotations

import json

from django.db.models import OuterRef, Subquery
from django.utils import timezone

from ledger.models import ChainLink, Club, Seal
from ledger.services import seals

WITNESS_FORMAT = "tarokclub.heads/1"


class WitnessRefused(ValueError):
    """Raised when a witness file cannot be checked: it is not a witness of this format, or it
    was written by another installation (another seal secret)."""


def club_head(club_id: int) -> dict | None:
    """Return the club's head (club, slug, links, head and its short form as sheets print
    it); None before its first evening (one query)."""
    heads = Seal.objects.filter(kind=Seal.Kind.CLUB, object_id=OuterRef("club_id"))
    last = (
        ChainLink.objects.filter(club_id=club_id)
        .annotate(head=Subquery(heads.values("digest")[:1]))
        .order_by("-number")
        .values_list("number", "club__slug", "head")
        .first()
    )
    if last is None or last[2] is None:
        return None
    return {
        "club": club_id,
        "slug": last[1],
        "links": last[0],
        "head": last[2],
        "short": seals.short_head(last[0], last[2]),
    }


def heads() -> dict:
    """Return every club's head as a witness file holds them."""
    clubs = [club_head(pk) for pk in Club.objects.order_by("pk").values_list("pk", flat=True)]
    return {
        "format": WITNESS_FORMAT,
        "installation": seals.installation_id(),
        "written_at": timezone.now().isoformat(timespec="seconds"),
        "clubs": [head for head in clubs if head is not None],
    }


def _parse(text: str) -> list[dict]:
    try:
        data = json.loads(text)
    except ValueError as error:
        raise WitnessRefused(f"the witness is not JSON: {error}") from None
    if not isinstance(data, dict) or data.get("format") != WITNESS_FORMAT:
        raise WitnessRefused(f'the witness is not a "{WITNESS_FORMAT}" file (its "format")')
    if data.get("installation") != seals.installation_id():
        raise WitnessRefused(
            'the witness was written by another installation: its "installation" '
            f"{data.get('installation')!r} is not this one's {seals.installation_id()!r} (another "
            "seal secret)"
        )
    clubs = data.get("clubs")
    if not isinstance(clubs, list):
        raise WitnessRefused('the witness has no list of "clubs"')
    for i, head in enumerate(clubs):
        if not (
            isinstance(head, dict)
            and type(head.get("club")) is int
            and type(head.get("links")) is int
            and head["links"] > 0
            and isinstance(head.get("head"), str)
            and len(head["head"]) == 64
        ):
            raise WitnessRefused(
                f'the witness\'s clubs[{i}] needs "club" (an id), "links" (a count above 0) '
                'and "head" (64 hexadecimal digits)'
            )
    return clubs


def witness_problems(text: str) -> list[str]:
    """Return how the ledger fails to extend each head of the witness ``text`` (a JSON file
    that ``heads`` wrote earlier): the club gone, its chain shorter than the witnessed one, or
    its link at the witnessed length not the one witnessed (a restored older backup, a chain
    rewritten). The chain's own links are checked by ``verify_ledger``. Raise
    ``WitnessRefused`` for a file that is not such a witness."""
    problems = []
    for head in _parse(text):
        label = f"club {head.get('slug', head['club'])}"
        n = head["links"]
        link = (
            ChainLink.objects.filter(club_id=head["club"], number=n)
            .values_list("digest", flat=True)
            .first()
        )
        if link is None:
            have = ChainLink.objects.filter(club_id=head["club"]).count()
            problems.append(
                f"{label}: the ledger does not extend the witnessed head "
                f"{seals.short_head(n, head['head'])}: its chain has {have} links, not the "
                f"{n} witnessed (a restored older backup, or evenings removed)"
            )
        elif seals.head_digest(head["club"], n, link) != head["head"]:
            problems.append(
                f"{label}: the ledger does not extend the witnessed head "
                f"{seals.short_head(n, head['head'])}: its chain's first {n} links are not the "
                "ones witnessed (a restored older backup, or the chain rewritten)"
            )
    return problems
