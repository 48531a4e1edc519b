"""A final tournament as a results file, ``tarokclub.results/1`` (``federation.md`` section 5),
the document ``manage.py results_export`` prints and the director downloads; and an imported
event's file again (``imported_document``: ``results_export --imported``, the officer's download).

- ``id`` is fixed by the installation's ledger secret and the tournament (``seals.derived_uuid``):
  the same in every export, another on every other installation; nothing stored to tamper with.
- ``revision`` is 1, raised by every correction made after the tournament was first final and
  by every later finish (a reopened tournament may change anything): counted from the sealed
  logs, so two exports with no change in between say the same, but ``exported_at``.
- ``rounds`` and ``ranking`` are what the ledger stored at each round's close (each table's
  score in the format's basis, place, points, first; the byes' points) and the ranking the
  engine gives from them, as ``tournament_run`` prints it.
"""

from __future__ import annotations

import copy
import datetime

from django.conf import settings
from django.utils.dateparse import parse_datetime
from django.utils.translation import gettext_lazy as _

from ledger.federation.engine.results import RESULTS_FORMAT
from ledger.models import ImportedEvent, Round, Tournament
from ledger.services import seals
from ledger.services import tournaments as service
from ledger.services.errors import LedgerError
from ledger.services.federation.players import federation_of_club


def results_id(tournament: Tournament) -> str:
    """Return the results file id of a tournament of this installation."""
    return seals.derived_uuid("results", str(tournament.pk))


def results_revision(tournament: Tournament, rounds: list[Round] | None = None) -> int:
    """Return the revision of the tournament's results: 1, plus one for every correction
    made after it was first final, plus one for every finish after the first (``rounds``:
    its rounds, when the caller has read them)."""
    finishes = [act["at"] for act in tournament.log if act.get("action") == "finish"]
    if not finishes:
        return 1
    first = parse_datetime(finishes[0])
    later = 0
    for round_ in rounds if rounds is not None else tournament.rounds.all():
        for act in round_.log:
            at = parse_datetime(act.get("at", ""))
            if act.get("action") == "correct" and at is not None and first and at > first:
                later += 1
    return 1 + later + len(finishes) - 1


def _players(tournament: Tournament) -> list[dict]:
    players = []
    for entry in tournament.entries.select_related("player").order_by("pk"):
        row = {
            "id": entry.code,
            "name": entry.name,
            "club": entry.club_name,
            "licence": entry.player.licence if entry.player is not None else "",
            "ladder_rank": entry.ladder_rank,
            "from_round": entry.from_round,
        }
        if entry.withdrawn_after is not None:
            row["withdrawn_after"] = entry.withdrawn_after
        players.append(row)
    return players


def _rounds(closed: list[Round]) -> list[dict]:
    rounds = []
    for round_ in closed:
        tables = []
        for rt in sorted(round_.round_tables.all(), key=lambda t: t.number):
            seats = []
            for code in rt.seats:
                result = rt.results[code]
                seat = {
                    "player": code,
                    "score": result["score"],
                    "place": result["place"],
                    "points": result["points"],
                    "first": result["first"],
                }
                if result.get("left"):
                    seat["left"] = True
                seats.append(seat)
            tables.append({"number": rt.number, "seats": seats})
        byes = {bye.entry.code: bye.points for bye in round_.bye_rows.all()}
        rounds.append(
            {
                "number": round_.number,
                "kind": round_.kind,
                "tables": tables,
                "byes": [{"player": code, "points": byes.get(code, "0")} for code in round_.byes],
            }
        )
    return rounds


def _corrections(rounds: list[Round]) -> list[dict]:
    return [
        {
            "round": round_.number,
            "table": act.get("table", 0) or 1,
            "reason": str(act.get("reason", ""))[:500],
            "at": str(act.get("at", ""))[:40],
            "after_period": bool(act.get("after_period")),
        }
        for round_ in rounds
        for act in round_.log
        if act.get("action") == "correct"
    ]


def results_document(tournament: Tournament, *, exported_at: datetime.datetime) -> dict:
    """Return the final tournament's results file. Raise LedgerError (naming ``tournament``
    or ``federation``) for a tournament that is not final, or of a club of no federation."""
    if tournament.status != Tournament.Status.FINAL:
        raise LedgerError(
            _("only a final tournament has a results file; finish it first"), "tournament"
        )
    federation = federation_of_club(tournament.club)
    if federation is None:
        raise LedgerError(
            _("the club belongs to no federation of its game: a results file goes to one"),
            "federation",
        )
    ranking, _played = service.ranking_after(tournament)
    # The rounds read once (with their tables and byes): the revision, the days, the rounds
    # and the corrections all come from them.
    rounds = list(
        tournament.rounds.order_by("number").prefetch_related("round_tables", "bye_rows__entry")
    )
    closed = [r for r in rounds if r.status == Round.Status.CLOSED]
    days = sorted({r.day for r in closed})
    return {
        "format": RESULTS_FORMAT,
        "id": results_id(tournament),
        "revision": results_revision(tournament, rounds),
        "exported_at": exported_at.astimezone(datetime.UTC).isoformat(timespec="seconds"),
        "source": settings.TAROK_INSTALLATION_NAME,
        "federation": federation.slug,
        "game": tournament.game,
        "tournament_format": tournament.tournament_format,
        "name": tournament.name,
        "dates": [d.isoformat() for d in days] or [tournament.date.isoformat()],
        "seed": tournament.seed,
        "params": dict(tournament.params or {}),
        "players": _players(tournament),
        "rounds": _rounds(closed),
        "ranking": [row.as_dict() for row in ranking],
        "corrections": _corrections(rounds),
    }


def imported_document(event: ImportedEvent, *, exported_at: datetime.datetime) -> dict:
    """Return an imported event's results file, as it was imported (its last revision): the
    source's ``id``, ``revision``, ``seed``, ``source``, ``players``, ``rounds`` and
    ``ranking``; only ``exported_at`` is now. Imported again, it changes nothing."""
    document = copy.deepcopy(event.document)
    document["exported_at"] = exported_at.astimezone(datetime.UTC).isoformat(timespec="seconds")
    return document
