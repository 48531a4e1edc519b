"""Importing a results file (``federation.md`` section 5): a tournament played on another
installation becomes a read-only imported event of the file's federation.

The file is read by the pure reader (``ledger.federation.engine.results``: the JSON Schema,
the references, the rounds recomputed by the tournament engine) before anything is written;
then, in one transaction:

- the file's federation is the one of its short name (created, with the game's language, on
  an installation that has none); a federation of that short name but another game, or another
  federation than the one the upload was made to, is refused;
- the same ``id`` and ``revision`` as stored changes nothing and says so; a lower revision is
  refused; a higher one replaces the event's ranking and document, logged with the file's
  corrections;
- each player is matched by licence in the federation, else by exact name and club; a name
  and club that match two players is refused, naming both; an unmatched player becomes a new
  player (of the federation when he has a licence).
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass

from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from ledger.federation.engine import results as reader
from ledger.federation.engine.errors import FederationError
from ledger.games.registry import get_web
from ledger.models import Federation, FederationLog, ImportedEvent, ImportedPlacing, Player
from ledger.services.errors import LedgerError
from ledger.services.federation.ratings import ratings_follow_import
from ledger.services.federation.series import engine_refused
from ledger.services.ledger import in_transaction, writing

CREATED, REPLACED, UNCHANGED = "created", "replaced", "unchanged"


@dataclass(frozen=True)
class ImportResult:
    event: ImportedEvent
    action: str  # created, replaced or unchanged
    new_players: int = 0


def _federation_of(document: dict, federation: Federation | None) -> Federation:
    slug, game = document["federation"], document["game"]
    if federation is not None and federation.slug != slug:
        raise LedgerError(
            _("the file is for the federation {file}, not {ours}"),
            "federation",
            file=slug,
            ours=federation.slug,
        )
    found = Federation.objects.select_for_update().filter(slug=slug).first()
    if found is None:
        language = get_web(game).club_defaults["language"]
        return Federation.objects.create(name=slug, slug=slug, game=game, language=language)
    if found.game != game:
        raise LedgerError(
            _("the federation {name} plays another game than the file's"), "game", name=slug
        )
    return found


def _match(federation: Federation, row: dict, field: str) -> tuple[Player, bool]:
    """Return the file's player ``row`` as a player of the installation, and whether he is new."""
    in_transaction()
    name, club, licence = row["name"].strip(), row["club"].strip(), row["licence"].strip()
    if licence:
        found = Player.objects.filter(federation=federation, licence=licence).first()
        if found is not None:
            return found, False
    same = Player.objects.filter(name__iexact=name).filter(
        Q(club_name__iexact=club) | Q(home_club__name__iexact=club)
    )
    if licence:
        same = same.filter(licence="")
    candidates = list(same.order_by("pk")[:2])
    if len(candidates) == 2:
        first, second = candidates
        raise LedgerError(
            _("{name} ({club}) matches two players, {first} and {second}: merge them first"),
            field,
            name=name,
            club=club,
            first=f"#{first.pk}",
            second=f"#{second.pk}",
        )
    if candidates:
        found = candidates[0]
        if licence:
            found.federation, found.licence = federation, licence
            found.save(update_fields=["federation", "licence"])
        return found, False
    player = Player.objects.create(
        name=name,
        club_name=club,
        federation=federation if licence else None,
        licence=licence,
    )
    return player, True


def results_import(
    *, document: dict, federation: Federation | None = None, by=None
) -> ImportResult:
    """Import a results file (``federation``: the one it was uploaded to, None from the
    command). Raise LedgerError naming the field and writing nothing when it is refused."""
    try:
        reader.recompute(document)
    except FederationError as error:
        raise engine_refused(error) from error
    now = timezone.now()
    with writing():
        federation = _federation_of(document, federation)
        event = (
            ImportedEvent.objects.select_for_update()
            .filter(federation=federation, uid=document["id"])
            .first()
        )
        revision = document["revision"]
        if event is not None and event.revision == revision:
            return ImportResult(event, UNCHANGED)
        if event is not None and revision < event.revision:
            raise LedgerError(
                _("revision {file} is older than the stored revision {stored}"),
                "revision",
                file=revision,
                stored=event.revision,
            )
        players: dict[str, Player] = {}
        rows: dict[int, str] = {}
        new = 0
        for i, row in enumerate(document["players"]):
            player, created = _match(federation, row, f"players[{i}]")
            if player.pk in rows:
                raise LedgerError(
                    _("{first} and {second} of the file are the same player ({name})"),
                    f"players[{i}]",
                    first=rows[player.pk],
                    second=row["id"],
                    name=player.name,
                )
            rows[player.pk] = row["id"]
            players[row["id"]] = player
            new += created
        fields = {
            "revision": revision,
            "source": document["source"],
            "name": document["name"],
            "game": document["game"],
            "tournament_format": document["tournament_format"],
            "date": datetime.date.fromisoformat(document["dates"][0]),
            "seed": document["seed"],
            "document": document,
            "imported_at": now,
        }
        entry = {
            "action": "replace" if event is not None else "import",
            "revision": revision,
            "at": now.isoformat(timespec="seconds"),
            "by": getattr(by, "username", None),
            "corrections": document["corrections"],
        }
        rerate_from = fields["date"] if event is None else min(event.date, fields["date"])
        if event is None:
            event = ImportedEvent.objects.create(
                federation=federation, uid=document["id"], log=[entry], **fields
            )
            action = CREATED
        else:
            for key, value in fields.items():
                setattr(event, key, value)
            event.log = [*event.log, entry]
            event.save()
            event.placings.all().delete()
            action = REPLACED
        ImportedPlacing.objects.bulk_create(
            ImportedPlacing(
                event=event,
                player=players[row["id"]],
                code=row["id"],
                rank=row["rank"],
                points=row["points"],
                status=row["status"],
            )
            for row in document["ranking"]
        )
        FederationLog.objects.create(
            federation=federation,
            action="import",
            details={
                "event": event.pk,
                "id": document["id"],
                "revision": revision,
                "source": document["source"],
                "action": action,
                "new_players": new,
            },
            by=by,
        )
        ratings_follow_import(event, rerate_from)
    return ImportResult(event, action, new)
