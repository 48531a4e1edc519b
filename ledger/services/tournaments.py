"""Tournaments (issue 21, ``tournament.md``): create, enter players, draw, publish, play, close.

The rules are the pure engine's (``ledger.tournaments.engine``): the draw the director
publishes is the one ``tournament_run`` computes for the same entries, seed and results. This
module only stores what the engine decided and plays each round table as an ordinary table of
the tournament's evening through the table services (``table_open``, ``table_close``).

Every write is one ``writing()`` transaction: ``round_start`` opens every table of the round
and ``round_close`` closes them with the round, all or nothing. The tournament's evening is of
kind tournament: no club role's service opens, counts, closes or settles it.

Choices the spec leaves open, made here:

- The director is the club's admin (no new role).
- A guest is a member row of the club, inactive (he has no log-in and is left out of the
  club's lists), named as entered; his club is the entry's ``club_name``.
- A hand-made change (a swap) is refused when the checker finds an error of the structure
  (unknown, inactive, twice, missing, sizes, bye count) or a second bye while a seated player
  has fewer; a repeat or a broken seeding group is the director's call and stays on the draw
  as a warning.
- The tournament starts (its rate card frozen, its evening opened) when round 1 starts.
"""

from __future__ import annotations

import csv
import datetime
import hashlib
import io
import secrets
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction

from django.core.exceptions import ValidationError
from django.db.models import F, Max
from django.utils import timezone
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from ledger.games.base import SPLIT
from ledger.games.registry import get_game, is_reserved_name
from ledger.models import (
    Bye,
    Club,
    Entry,
    Evening,
    Hand,
    Member,
    Posting,
    Round,
    RoundTable,
    Seat,
    Table,
    Tournament,
    Transfer,
    validate_member_name,
)
from ledger.services import tables as table_services
from ledger.services.errors import LedgerError
from ledger.services.ledger import (
    TableLedger,
    live_postings,
    lock_evening,
    lock_table,
    post_split,
    table_balances,
    touched,
    writing,
)
from ledger.tournaments import engine
from ledger.tournaments.engine.errors import TournamentError
from ledger.tournaments.engine.rules import BEFORE_SPLIT, FINAL, STANDINGS

# Findings of the checker a hand-made change may not leave (the rest are warnings to show).
REFUSED_CODES = frozenset(
    {
        "unknown_player",
        "inactive_player",
        "duplicate_player",
        "missing_player",
        "table_sizes",
        "bye_count",
        "second_bye",
    }
)
MAX_IMPORT_LINES = 2000


def _refuse(error: TournamentError, field: str) -> LedgerError:
    """Return a LedgerError naming ``field`` with every problem of the engine, translated."""
    text = "; ".join(f"{p.field}: {gettext(p.template).format(**p.params)}" for p in error.problems)
    return LedgerError(text, field)


def tournament_params(tournament: Tournament) -> engine.Params:
    """Return the tournament's parameters: the format's defaults with its overrides."""
    return engine.params_for(tournament.tournament_format, tournament.params or None)


# --- the tournament ------------------------------------------------------------------------


def tournament_create(
    *,
    club: Club,
    name: str,
    date: datetime.date,
    game: str,
    tournament_format: str,
    params: dict | None = None,
    seed: str = "",
    by=None,
) -> Tournament:
    """Create a tournament in draft; its parameters are checked by the engine.

    Without a seed, the seed is the tournament's id and date (section 3), fixed here.
    """
    if not name or not name.strip():
        raise LedgerError(_("a tournament needs a name"), "name")
    rules = engine.FORMATS.get(tournament_format)
    if rules is None:
        raise LedgerError(_("unknown tournament format"), "tournament_format")
    if game not in rules.games:
        raise LedgerError(
            _("the format {format} is not played with this game").format(format=tournament_format),
            "game",
        )
    try:
        engine.params_for(tournament_format, params or None)
    except TournamentError as error:
        raise _refuse(error, "params") from error
    with writing():
        tournament = Tournament.objects.create(
            club=club,
            name=name.strip(),
            date=date,
            game=game,
            tournament_format=tournament_format,
            params=dict(params or {}),
            seed=seed.strip(),
            created_by=by,
        )
        if not tournament.seed:
            tournament.seed = f"{tournament.pk}-{date.isoformat()}"
            tournament.save(update_fields=["seed"])
        touched(tournament_id=tournament.pk)
    return tournament


def _lock(tournament: Tournament) -> Tournament:
    """Lock the tournament's row for the service's transaction and raise its ``version``
    (whatever the service then changes: entries, draws, results), so the standings kept by
    the version are read afresh after it commits; its seal is written before it commits."""
    touched(tournament_id=tournament.pk)
    Tournament.objects.filter(pk=tournament.pk).update(version=F("version") + 1)
    return Tournament.objects.select_for_update(of=("self",)).get(pk=tournament.pk)


def _lock_round(round_id: int) -> Round:
    """Lock a round's row for the service's transaction; its tournament's seal is written
    before it commits."""
    round_ = Round.objects.select_for_update(of=("self",)).get(pk=round_id)
    touched(tournament_id=round_.tournament_id)
    return round_


def _check_not_over(tournament: Tournament) -> None:
    if tournament.status in (Tournament.Status.PROVISIONAL, Tournament.Status.FINAL):
        raise LedgerError(_("the tournament is over"), "__all__")


def tournament_finish(*, tournament: Tournament, by=None) -> Tournament:
    """Mark a provisional tournament final: its ranking is the final ranking."""
    with writing():
        tournament = _lock(tournament)
        if tournament.status != Tournament.Status.PROVISIONAL:
            raise LedgerError(_("only a tournament whose last round is closed can finish"))
        tournament.status = Tournament.Status.FINAL
        _log(tournament, "finish", by)
        tournament.save(update_fields=["status", "log"])
    return tournament


def tournament_reopen(*, tournament: Tournament, reason: str, by=None) -> Tournament:
    """Reopen a final tournament (provisional again), with the director's logged reason."""
    if not reason or not reason.strip():
        raise LedgerError(_("reopening needs a reason"), "reason")
    with writing():
        tournament = _lock(tournament)
        if tournament.status != Tournament.Status.FINAL:
            raise LedgerError(_("only a final tournament can be reopened"))
        tournament.status = Tournament.Status.PROVISIONAL
        _log(tournament, "reopen", by, reason=reason.strip()[:500])
        tournament.save(update_fields=["status", "log"])
    return tournament


# --- entries -------------------------------------------------------------------------------


def _next_round(tournament: Tournament) -> int:
    """Return the first round not yet drawn (late entries play from there)."""
    return (tournament.rounds.aggregate(n=Max("number"))["n"] or 0) + 1


def _check_rank(rank, field: str) -> int | None:
    if rank in (None, ""):
        return None
    try:
        value = int(rank)
    except (TypeError, ValueError):
        value = 0
    if value < 1:
        raise LedgerError(_("a ladder rank is a whole number from 1"), field)
    return value


def _entry_for(tournament, member, *, code, club_name, rank, guest, from_round) -> Entry:
    code = (code or "").strip() or str(member.pk)
    if tournament.entries.filter(member=member).exists():
        raise LedgerError(_("{name} is already entered").format(name=member.name), "members")
    if tournament.entries.filter(code=code).exists():
        raise LedgerError(_("the id {code} is already entered").format(code=code), "code")
    return Entry.objects.create(
        tournament=tournament,
        member=member,
        code=code,
        name=member.name,
        club_name=club_name,
        guest=guest,
        ladder_rank=rank,
        from_round=from_round,
    )


def entries_add(*, tournament: Tournament, members: Iterable[Member], by=None) -> list[Entry]:
    """Enter members of the club (a late entry plays from the next round not yet drawn)."""
    members = list(members)
    with writing():
        tournament = _lock(tournament)
        _check_not_over(tournament)
        start = _next_round(tournament)
        entries = []
        for member in members:
            if member.club_id != tournament.club_id:
                raise LedgerError(_("every member must belong to the tournament's club"), "members")
            entries.append(
                _entry_for(
                    tournament,
                    member,
                    code="",
                    club_name=tournament.club.name,
                    rank=None,
                    guest=False,
                    from_round=start,
                )
            )
    return entries


def _guest_member(tournament: Tournament, name: str, field: str) -> Member:
    name = (name or "").strip()
    if not name:
        raise LedgerError(_("a guest needs a name"), field)
    if is_reserved_name(name):
        raise LedgerError(
            _("{name} is the name of a table's account; choose another name").format(name=name),
            field,
        )
    try:
        validate_member_name(name)
    except ValidationError as error:
        raise LedgerError(error.messages[0], field) from error
    if len(name) > Member._meta.get_field("name").max_length:
        raise LedgerError(_("the name is too long"), field)
    if Member.objects.filter(club=tournament.club, name=name).exists():
        raise LedgerError(
            _(
                "{name} is already a member's name in this club; enter the member, or add the "
                "guest's club to the name"
            ).format(name=name),
            field,
        )
    return Member.objects.create(club=tournament.club, name=name, active=False)


def entry_add_guest(
    *,
    tournament: Tournament,
    name: str,
    club_name: str = "",
    ladder_rank=None,
    code: str = "",
    by=None,
) -> Entry:
    """Enter a guest from another club (refused: a pool's name, a member's name)."""
    rank = _check_rank(ladder_rank, "ladder_rank")
    with writing():
        tournament = _lock(tournament)
        _check_not_over(tournament)
        member = _guest_member(tournament, name, "name")
        return _entry_for(
            tournament,
            member,
            code=code,
            club_name=(club_name or "").strip()[:100],
            rank=rank,
            guest=True,
            from_round=_next_round(tournament),
        )


@dataclass(frozen=True)
class LadderRow:
    line: int
    name: str
    club: str
    rank: int | None
    code: str


def parse_ladder(text: str) -> list[LadderRow]:
    """Read a ladder or entry list: one player a line, ``name[,club[,ladder rank[,id]]]``
    (comma, semicolon or tab; a first line ``name,...`` is a header). A bad row raises a
    LedgerError naming its line."""
    lines = text.splitlines()
    if len(lines) > MAX_IMPORT_LINES:
        raise LedgerError(_("a list has at most {n} lines").format(n=MAX_IMPORT_LINES), "ladder")
    sample = "\n".join(lines[:5])
    delimiter = next((d for d in ("\t", ";", ",") if d in sample), ",")
    rows, seen = [], set()
    for number, fields in enumerate(csv.reader(io.StringIO(text), delimiter=delimiter), 1):
        fields = [f.strip() for f in fields]
        if not any(fields):
            continue
        if number == 1 and fields[0].lower() in ("name", "navn", "ime", "név"):
            continue
        if len(fields) > 4:
            raise LedgerError(
                _("line {line}: at most four columns: name, club, ladder rank, id").format(
                    line=number
                ),
                "ladder",
            )
        name, club, rank, code = [*fields, "", "", "", ""][:4]
        if not name:
            raise LedgerError(_("line {line}: the name is missing").format(line=number), "ladder")
        if name in seen:
            raise LedgerError(
                _("line {line}: {name} is on the list twice").format(line=number, name=name),
                "ladder",
            )
        seen.add(name)
        try:
            value = _check_rank(rank, "ladder")
        except LedgerError as error:
            raise LedgerError(
                _("line {line}: {problem}").format(line=number, problem=error.message), "ladder"
            ) from error
        rows.append(LadderRow(number, name, club, value, code))
    return rows


def entries_import(*, tournament: Tournament, text: str, by=None) -> list[Entry]:
    """Enter every player of a pasted or uploaded list (``parse_ladder``): a name of a member
    of the club enters him (with the rank), any other name a guest; an entered player gets his
    rank updated. All or nothing: a bad line names its line and nothing is written."""
    rows = parse_ladder(text)
    if not rows:
        raise LedgerError(_("the list has no player"), "ladder")
    with writing():
        tournament = _lock(tournament)
        _check_not_over(tournament)
        start = _next_round(tournament)
        members = {m.name: m for m in Member.objects.filter(club=tournament.club)}
        entered = {e.member_id: e for e in tournament.entries.all()}
        entries = []
        for row in rows:
            prefix = gettext("line {line}: ").format(line=row.line)
            member = members.get(row.name)
            try:
                if member is not None and member.pk in entered:
                    entry = entered[member.pk]
                    entry.ladder_rank = row.rank
                    entry.club_name = row.club or entry.club_name
                    entry.save(update_fields=["ladder_rank", "club_name"])
                elif member is not None:
                    entry = _entry_for(
                        tournament,
                        member,
                        code=row.code,
                        club_name=row.club or tournament.club.name,
                        rank=row.rank,
                        guest=not member.active,
                        from_round=start,
                    )
                else:
                    entry = _entry_for(
                        tournament,
                        _guest_member(tournament, row.name, "ladder"),
                        code=row.code,
                        club_name=row.club[:100],
                        rank=row.rank,
                        guest=True,
                        from_round=start,
                    )
            except LedgerError as error:
                raise LedgerError(prefix + str(error.message), "ladder") from error
            entries.append(entry)
    return entries


def entry_withdraw(*, entry: Entry, by=None) -> Entry:
    """Withdraw a player after the last round drawn (he keeps what he scored, section 9).

    A round drawn but not yet published should be drawn again (``round_redraw``)."""
    with writing():
        tournament = _lock(entry.tournament)
        _check_not_over(tournament)
        entry = Entry.objects.select_for_update(of=("self",)).get(pk=entry.pk)
        if entry.withdrawn_after is not None:
            raise LedgerError(_("{name} has already withdrawn").format(name=entry.name), "entry")
        last = tournament.rounds.exclude(status=Round.Status.DRAFTED).aggregate(n=Max("number"))[
            "n"
        ]
        if not last or last < entry.from_round:
            raise LedgerError(
                _("before {name} has played, remove the entry instead").format(name=entry.name),
                "entry",
            )
        entry.withdrawn_after = last
        entry.save(update_fields=["withdrawn_after"])
    return entry


def entry_remove(*, entry: Entry, by=None) -> None:
    """Remove an entry that is in no published round (a typing mistake, a no-show before
    round 1); a round drafted with him must be drawn again before it is published."""
    with writing():
        tournament = _lock(entry.tournament)
        code = entry.code
        for r in tournament.rounds.exclude(status=Round.Status.DRAFTED):
            if code in r.byes or any(code in t for t in r.tables):
                raise LedgerError(
                    _("{name} is in a drawn round; withdraw him instead").format(name=entry.name),
                    "entry",
                )
        member = entry.member
        entry.delete()
        if member.active is False and not Seat.objects.filter(member=member).exists():
            if not Entry.objects.filter(member=member).exists():
                member.delete()


# --- the engine's view of a stored tournament ---------------------------------------------


def engine_entries(tournament: Tournament) -> tuple[engine.Entry, ...]:
    """Return the tournament's entries as the engine sees them, in the order entered (read as
    plain values: the standings read them on every request)."""
    rows = tournament.entries.order_by("pk").values_list(
        "code", "name", "club_name", "ladder_rank", "from_round", "withdrawn_after"
    )
    return tuple(
        engine.Entry(
            id=code,
            name=name,
            club=club_name or None,
            ladder_rank=ladder_rank,
            from_round=from_round,
            withdrawn_after=withdrawn_after,
        )
        for code, name, club_name, ladder_rank, from_round, withdrawn_after in rows
    )


def engine_tournament(tournament: Tournament) -> engine.Tournament:
    return engine.Tournament(
        game=tournament.game,
        format_code=tournament.tournament_format,
        seed=tournament.seed,
        params=tournament_params(tournament),
        entries=engine_entries(tournament),
    )


def stored_draw(round_: Round) -> engine.Draw:
    return engine.Draw(
        number=round_.number,
        kind=round_.kind,
        mode=round_.mode,
        tables=tuple(tuple(t) for t in round_.tables),
        byes=tuple(round_.byes),
        groups=dict(round_.groups or {}),
    )


def played_rounds(
    tournament: Tournament, *, through: int | None = None
) -> list[engine.PlayedRound]:
    """Return the closed rounds (up to round ``through``) as the engine sees them (points
    recomputed from the stored table scores, so a stored figure can be checked against
    them)."""
    rounds = tournament.rounds.filter(status=Round.Status.CLOSED).prefetch_related("round_tables")
    if through is not None:
        rounds = rounds.filter(number__lte=through)
    return [
        played_round(tournament, stored_draw(r), [rt.results for rt in r.round_tables.all()])
        for r in rounds.order_by("number")
    ]


def played_round(
    tournament: Tournament, draw: engine.Draw, results: Iterable[dict]
) -> engine.PlayedRound:
    """Return a closed round as the engine sees it: its stored ``draw`` and the points its
    round tables' stored ``results`` (one ``{code: result}`` per table) give now."""
    scores, leavers = {}, set()
    for table_results in results:
        for code, result in table_results.items():
            scores[code] = result["score"]
            if result.get("left"):
                leavers.add(code)
    points = engine.round_points(
        tournament.tournament_format,
        tournament.game,
        draw.tables,
        scores,
        byes=draw.byes,
        leavers=leavers,
    )
    return engine.PlayedRound(draw, points)


def entries_as_of(entries: Sequence[engine.Entry], through: int | None) -> tuple[engine.Entry, ...]:
    """Return the entries as they stood after round ``through`` (None: now): those entered by
    then, a withdrawal only if it came after that round or before."""
    if through is None:
        return tuple(entries)
    return tuple(
        e
        if e.withdrawn_after is None or e.withdrawn_after <= through
        else replace(e, withdrawn_after=None)
        for e in entries
        if e.from_round <= through
    )


def ranking_after(
    tournament: Tournament, *, through: int | None = None
) -> tuple[tuple[engine.StandingRow, ...], list[engine.PlayedRound]]:
    """Return the ranking after the closed rounds (every entry, section 8), or after round
    ``through`` and the closed rounds before it (the entries as they stood then), with the
    rounds it counts."""
    played = played_rounds(tournament, through=through)
    return ranking_of(tournament, engine_entries(tournament), played, through=through), played


def ranking_of(
    tournament: Tournament,
    entries: Sequence[engine.Entry],
    played: Sequence[engine.PlayedRound],
    *,
    through: int | None = None,
) -> tuple[engine.StandingRow, ...]:
    """Return the ranking of ``entries`` (as they stood after round ``through``) over the
    ``played`` rounds (section 8)."""
    return engine.final_ranking(
        format_code=tournament.tournament_format,
        seed=tournament.seed,
        entries=entries_as_of(entries, through),
        rounds=list(played),
    )


def current_standings(tournament: Tournament) -> tuple[engine.StandingRow, ...]:
    """Return the ranking after the closed rounds (every entry, section 8)."""
    return ranking_after(tournament)[0]


# --- the draw ------------------------------------------------------------------------------


def _compute_draw(tournament: Tournament, number: int) -> engine.Draw:
    params = tournament_params(tournament)
    rules = engine.FORMATS[tournament.tournament_format]
    if number > rules.last_round(params.rounds):
        raise LedgerError(
            _("the tournament has no round {number}").format(number=number), "__all__"
        )
    kind = rules.kind_of(number, params.rounds)
    played = played_rounds(tournament)
    entries = engine_entries(tournament)
    order = None
    if kind in (STANDINGS, FINAL):
        rows = engine.standings(
            format_code=tournament.tournament_format,
            seed=tournament.seed,
            entries=entries,
            rounds=played,
        )
        order = [row.id for row in rows]
    return engine.draw_round(
        number=number,
        kind=kind,
        game=tournament.game,
        format_code=tournament.tournament_format,
        seed=tournament.seed,
        entries=entries,
        history=[p.draw.as_past() for p in played],
        standings=order,
        params=params,
    )


def _draw_fields(draw: engine.Draw) -> dict:
    return {
        "kind": draw.kind,
        "mode": draw.mode,
        "tables": [list(t) for t in draw.tables],
        "byes": list(draw.byes),
        "groups": dict(draw.groups),
        "warnings": [v.as_dict() for v in sorted(draw.violations, key=_violation_key)],
    }


def _violation_key(v: engine.Violation):
    return (v.severity, v.code, repr(v.details))


def _log(row: Round | Tournament, action: str, by, **details) -> None:
    """Append the director's act to a round's or the tournament's log (who, when, what)."""
    row.log = [
        *row.log,
        {
            "action": action,
            "by": getattr(by, "username", None),
            "at": timezone.now().isoformat(timespec="seconds"),
            **details,
        },
    ]


def round_draw(*, tournament: Tournament, by=None) -> Round:
    """Draw the next round with the engine (the seed makes it reproducible) and store it,
    unpublished, with the checker's findings. The previous round must be closed."""
    with writing():
        tournament = _lock(tournament)
        _check_not_over(tournament)
        last = tournament.rounds.order_by("-number").first()
        if last is not None and last.status != Round.Status.CLOSED:
            raise LedgerError(
                _("round {number} is not closed yet").format(number=last.number), "__all__"
            )
        number = last.number + 1 if last else 1
        if not tournament.entries.exists():
            raise LedgerError(_("enter the players first"), "__all__")
        draw = _compute_draw(tournament, number)
        if not draw.tables:
            raise LedgerError(_("too few players for one table"), "__all__")
        fields = _draw_fields(draw)
        params = tournament_params(tournament)
        round_ = Round(
            tournament=tournament,
            number=number,
            time_limit_min=engine.time_limit_min(params, draw.kind),
            computed={"tables": fields["tables"], "byes": fields["byes"], "mode": draw.mode},
            **fields,
        )
        _log(round_, "draw", by, mode=draw.mode)
        round_.save()
    return round_


def round_redraw(*, round_: Round, by=None) -> Round:
    """Draw an unpublished round again (after a late entry or a withdrawal, section 9)."""
    with writing():
        tournament = _lock(round_.tournament)
        round_ = _lock_round(round_.pk)
        if round_.status != Round.Status.DRAFTED:
            raise LedgerError(_("a published draw never changes"), "__all__")
        draw = _compute_draw(tournament, round_.number)
        fields = _draw_fields(draw)
        for key, value in fields.items():
            setattr(round_, key, value)
        round_.computed = {"tables": fields["tables"], "byes": fields["byes"], "mode": draw.mode}
        _log(round_, "redraw", by, mode=draw.mode)
        round_.save()
    return round_


def _history_before(tournament: Tournament, number: int) -> list[engine.PastRound]:
    return [
        stored_draw(r).as_past()
        for r in tournament.rounds.filter(number__lt=number).order_by("number")
    ]


def round_set_draw(
    *,
    round_: Round,
    tables: Sequence[Sequence[str]],
    byes: Sequence[str] = (),
    by=None,
    action: str = "manual",
) -> Round:
    """Replace an unpublished round's draw by a hand-made one, checked again (section 5.5).

    Refused, naming the player: one seated twice or missing, unknown or inactive, tables of
    the wrong sizes, the wrong number of byes, a second bye while a seated player has fewer.
    The computed draw stays in ``computed``, the change in the log.
    """
    with writing():
        _lock(round_.tournament)
        round_ = _lock_round(round_.pk)
        if round_.status != Round.Status.DRAFTED:
            raise LedgerError(_("a published draw never changes"), "__all__")
        draw, problems = _checked(round_, tables, byes)
        if problems:
            raise LedgerError(problems, "tables")
        fields = _draw_fields(draw)
        fields["groups"] = round_.groups  # the groups are the players', whatever their table
        for key, value in fields.items():
            setattr(round_, key, value)
        _log(round_, action, by, tables=fields["tables"], byes=fields["byes"])
        round_.save()
    return round_


def _checked(round_: Round, tables, byes) -> tuple[engine.Draw, str]:
    """Return ``tables`` and ``byes`` as a hand-made draw of ``round_`` checked against the
    entries now (section 13), and its refused findings in words ("" when none)."""
    tournament = round_.tournament
    draw = engine.manual_draw(
        number=round_.number,
        kind=round_.kind,
        game=tournament.game,
        format_code=tournament.tournament_format,
        seed=tournament.seed,
        entries=engine_entries(tournament),
        tables=[list(t) for t in tables],
        byes=list(byes),
        history=_history_before(tournament, round_.number),
        params=tournament_params(tournament),
    )
    refused = [v for v in draw.violations if v.code in REFUSED_CODES]
    if not refused:
        return draw, ""
    names = dict(tournament.entries.values_list("code", "name"))
    return draw, "; ".join(violation_text(v, names) for v in sorted(refused, key=_violation_key))


def _check_still_valid(round_: Round) -> None:
    """Refuse to publish a draft that no longer fits the entries (one removed, withdrawn or
    entered since it was drawn): the checker's errors of structure, named; draw it again."""
    _draw, problems = _checked(round_, round_.tables, round_.byes)
    if problems:
        raise LedgerError(
            _("the entries changed since this round was drawn ({problems}): draw it again").format(
                problems=problems
            ),
            "__all__",
        )


def round_swap(*, round_: Round, first: str, second: str, by=None) -> Round:
    """Swap two players (entry codes) of an unpublished draw: seats or a bye; checked again."""
    if first == second:
        raise LedgerError(_("choose two different players"), "second")
    tables = [list(t) for t in round_.tables]
    byes = list(round_.byes)
    places = {}
    for i, table in enumerate(tables):
        for j, code in enumerate(table):
            places[code] = ("t", i, j)
    for j, code in enumerate(byes):
        places[code] = ("b", 0, j)
    for field, code in (("first", first), ("second", second)):
        if code not in places:
            raise LedgerError(_("this player is not in the draw"), field)

    def put(place, code):
        kind, i, j = place
        if kind == "t":
            tables[i][j] = code
        else:
            byes[j] = code

    a, b = places[first], places[second]
    put(a, second)
    put(b, first)
    return round_set_draw(
        round_=round_, tables=tables, byes=byes, by=by, action=f"swap {first} {second}"
    )


def round_publish(*, round_: Round, by=None) -> Round:
    """Publish a round's draw: from now on it never changes (section 5.5)."""
    with writing():
        _lock(round_.tournament)
        round_ = _lock_round(round_.pk)
        if round_.status != Round.Status.DRAFTED:
            raise LedgerError(_("the draw is already published"), "__all__")
        _check_still_valid(round_)
        round_.status = Round.Status.PUBLISHED
        round_.published_at = timezone.now()
        _log(round_, "publish", by)
        round_.save(update_fields=["status", "published_at", "log"])
        RoundTable.objects.bulk_create(
            RoundTable(round=round_, number=i, seats=list(seats), token=new_link_token())
            for i, seats in enumerate(round_.tables, 1)
        )
        entries = {e.code: e for e in round_.tournament.entries.all()}
        Bye.objects.bulk_create(Bye(round=round_, entry=entries[c]) for c in round_.byes)
    return round_


def _start_tournament(tournament: Tournament, by) -> Tournament:
    """Freeze the rate card (the club's when it plays this game, else the game's defaults)
    and open the tournament's evening (of kind tournament: no club role touches it)."""
    game = get_game(tournament.game)
    card = tournament.club.rate_card if tournament.club.game == tournament.game else {}
    frozen = game.rate_card(card or {}).as_dict()
    evening = table_services.evening_open(
        club=tournament.club,
        date=tournament.date,
        by=by,
        game_code=tournament.game,
        card=frozen,
        kind=Evening.Kind.TOURNAMENT,
    )
    with writing():
        locked = _lock(tournament)
        locked.rate_card = frozen
        locked.evening = evening
        locked.status = Tournament.Status.RUNNING
        locked.save(update_fields=["rate_card", "evening", "status"])
    return locked


def round_start(*, round_: Round, by=None) -> Round:
    """Start a published round: open each round table as an ordinary table of the
    tournament's evening (seats in draw order, seat 1 deals first) and start the clock, in
    one transaction (every table and the round, or nothing)."""
    round_ = Round.objects.select_related("tournament__club").get(pk=round_.pk)
    tournament = round_.tournament
    if round_.status != Round.Status.PUBLISHED:
        raise LedgerError(_("only a published round that has not started can start"), "__all__")
    if tournament.evening_id is None:
        tournament = _start_tournament(tournament, by)
    entries = {e.code: e for e in tournament.entries.select_related("member")}
    with writing():
        # The lock order of the round services: the tournament, the round, the evening, then
        # its tables by id.
        tournament = _lock(tournament)
        round_ = _lock_round(round_.pk)
        if round_.status != Round.Status.PUBLISHED:
            raise LedgerError(_("only a published round that has not started can start"), "__all__")
        evening = lock_evening(tournament.evening_id)
        for rt in round_.round_tables.filter(table__isnull=True).order_by("number"):
            members = [entries[c].member for c in rt.seats]
            table = table_services.round_table_open(
                evening=evening, members=members, first_dealer=members[0], by=by
            )
            RoundTable.objects.filter(pk=rt.pk).update(table=table)
        round_.status = Round.Status.PLAYING
        round_.started_at = timezone.now()
        _log(round_, "start", by)
        round_.save(update_fields=["status", "started_at", "log"])
    return round_


def new_link_token() -> str:
    """Return a new secret for a round table's own link (unguessable, URL-safe)."""
    return secrets.token_urlsafe(24)


def table_ended_by(rt: RoundTable, params: engine.Params, game: str) -> str:
    """Return why a round table's round ended (section 10): ``short`` when a player left and
    too few stayed for the game, ``target`` when it played its hands target, else ``time``."""
    staying = Seat.objects.filter(table_id=rt.table_id, left=False).count()
    short = staying < get_game(game).features.min_seats
    return engine.ended_by(
        params=params,
        table_size=len(rt.seats),
        hands_played=hands_played(rt.table_id),
        short=short,
    )


def hands_played(table_id: int) -> int:
    """Return the hands of a table that count for its target: every hand not voided (an
    annulled deal counts, section 10)."""
    return Hand.objects.filter(table_id=table_id).exclude(status=Hand.Status.VOIDED).count()


def check_hand_target(
    table: Table, *, begun_before_signal: bool = False, now=None
) -> RoundTable | None:
    """Refuse a new hand at a round table that has played its round's hands target, or once
    the round's time and its entry grace are over (section 10, ``engine.admit_hand``: hands
    still being typed are taken until the grace ends), or a hand marked begun before the
    signal when the rules refuse it (before the signal, a second one, ``at_signal`` =
    ``abort``). An ordinary table takes any number of hands. Called by ``hand_record`` under
    the table's lock.

    Return the round table when the hand is the one begun before the signal (``hand_record``
    notes its number there, in the same transaction), else None.
    """
    rt = RoundTable.objects.filter(table_id=table.pk).select_related("round__tournament").first()
    if rt is None:
        if begun_before_signal:
            raise LedgerError(_("only a tournament's table has a signal"), "begun_before_signal")
        return None
    round_ = rt.round
    elapsed = 0
    if round_.started_at is not None:
        elapsed = int(((now or timezone.now()) - round_.started_at).total_seconds())
    admission = engine.admit_hand(
        params=tournament_params(round_.tournament),
        kind=round_.kind,
        table_size=len(rt.seats),
        hands_played=hands_played(table.pk),
        seconds_elapsed=max(0, elapsed),
        begun_before_signal=begun_before_signal,
        begun_marked=int(rt.signal_hand is not None),
        field="begun_before_signal",
    )
    if not admission.accepted and admission.problem is not None:
        problem = admission.problem
        field = problem.field if admission.ended_by is None else "__all__"
        raise LedgerError(gettext(problem.template).format(**problem.params), field)
    return rt if begun_before_signal else None


def note_begun_hand(round_table: RoundTable, number: int) -> None:
    """Note hand ``number`` as the table's one hand begun before the signal (section 10);
    inside ``hand_record``'s transaction."""
    RoundTable.objects.filter(pk=round_table.pk).update(signal_hand=number)


def table_scores(table: Table) -> dict[int, tuple[int, int, bool]]:
    """Return each seated member's (before_split, final, left) of a closed table, by member
    id: ``final`` his balance after the close, ``before_split`` that less his share of the
    split (the close's moves of reason ``SPLIT``; a Slovenian radelc penalty of the close
    counts before the split, section 6)."""
    balances = table_balances(table.pk)
    split = Posting.objects.filter(
        table=table, kind=Posting.Kind.SPLIT, reversed_by__isnull=True
    ).first()
    net: dict[str, int] = {}
    if split is not None:
        shares = Transfer.objects.filter(posting=split, reason=SPLIT)
        for t in shares.select_related("source", "target"):
            net[t.source.code] = net.get(t.source.code, 0) - t.points
            net[t.target.code] = net.get(t.target.code, 0) + t.points
    result = {}
    for seat in Seat.objects.filter(table=table):
        final = balances.get(seat.name, 0)
        result[seat.member_id] = (final - net.get(seat.name, 0), final, seat.left)
    return result


def round_results(round_: Round, round_tables: Sequence[RoundTable]):
    """Return what the closed tables of a round give (section 6): per round table the results
    of its seats ({code: {score, place, points, first, left}}), the byes' points and the
    players who left. Read from each table's close, in the format's basis; ``round_close``
    stores it and ``verify_ledger`` compares it with what was stored.

    Raise LedgerError for a tournament player with a result at a table the draw did not seat
    him at, or a drawn player without one (a substitute's result counts for no one).
    """
    tournament = round_.tournament
    entries = {e.member_id: e for e in tournament.entries.all()}
    basis = engine.FORMATS[tournament.tournament_format].basis
    flat: dict[str, int] = {}
    leavers: set[str] = set()
    for rt in round_tables:
        seated = set(rt.seats)
        for member_id, (before, final, left) in table_scores(rt.table).items():
            entry = entries.get(member_id)
            if entry is None:
                continue  # a substitute
            if entry.code not in seated:
                raise LedgerError(
                    _("{name} has a result at table {number} but is not seated there").format(
                        name=entry.name, number=rt.number
                    ),
                    "__all__",
                )
            flat[entry.code] = before if basis == BEFORE_SPLIT else final
            if left:
                leavers.add(entry.code)
    try:
        points = engine.round_points(
            tournament.tournament_format,
            tournament.game,
            [tuple(rt.seats) for rt in round_tables],
            flat,
            byes=tuple(round_.byes),
            leavers=leavers,
        )
    except TournamentError as error:
        raise _refuse(error, "__all__") from error
    seats = {s.player: s for s in points.seats}
    results = {
        rt.pk: {
            code: {
                "score": seats[code].score,
                "place": seats[code].place,
                "points": str(seats[code].points),
                "first": seats[code].first,
                "left": seats[code].left,
            }
            for code in rt.seats
        }
        for rt in round_tables
    }
    return results, str(points.bye_points), leavers


def _check_seating(tournament: Tournament, round_tables: Sequence[RoundTable]) -> None:
    """Refuse a round whose tables do not seat the draw: a tournament player at a table the
    draw did not seat him at, or a drawn player who has no seat at his table."""
    entries = {e.member_id: e for e in tournament.entries.all()}
    at: dict[int, set[str]] = {rt.table_id: set() for rt in round_tables}
    numbers = {rt.table_id: rt for rt in round_tables}
    for seat in Seat.objects.filter(table_id__in=list(at)).order_by("table_id", "position"):
        entry = entries.get(seat.member_id)
        if entry is None:
            continue  # a substitute
        rt = numbers[seat.table_id]
        if entry.code not in rt.seats:
            raise LedgerError(
                _("{name} has a result at table {number} but is not seated there").format(
                    name=entry.name, number=rt.number
                ),
                "__all__",
            )
        at[seat.table_id].add(entry.code)
    names = {e.code: e.name for e in entries.values()}
    for rt in round_tables:
        for code in rt.seats:
            if code not in at[rt.table_id]:
                raise LedgerError(
                    _("{name} is drawn at table {number} but has no seat there").format(
                        name=names.get(code, code), number=rt.number
                    ),
                    "__all__",
                )


def round_close(*, round_: Round, by=None) -> Round:
    """Close a playing round in one transaction: close every table still open (the game's
    close), take each seated player's table score in the format's basis and store places and
    points; every table and the round, or nothing (a crash or a retry never half-closes it).

    Refused, writing nothing: a tournament player at a table the draw did not seat him at, or
    a drawn player missing from his table. A substitute (not an entry of the table) plays for
    the table and his result counts for no one (section 9).
    """
    round_ = Round.objects.select_related("tournament").get(pk=round_.pk)
    tournament = round_.tournament
    if round_.status != Round.Status.PLAYING:
        raise LedgerError(_("only a round being played can close"), "__all__")
    with writing():
        # The lock order of the round services: the tournament, the round, the evening, then
        # its tables by id (a hand being saved holds its table: the close waits for it).
        locked_t = _lock(tournament)
        round_ = _lock_round(round_.pk)
        if round_.status != Round.Status.PLAYING:
            raise LedgerError(_("only a round being played can close"), "__all__")
        round_tables = list(round_.round_tables.select_related("table").order_by("number"))
        for rt in round_tables:
            if rt.table is None:
                raise LedgerError(
                    _("table {number} was never opened").format(number=rt.number), "__all__"
                )
        _check_seating(locked_t, round_tables)
        evening = lock_evening(locked_t.evening_id)
        for rt in sorted(round_tables, key=lambda r: r.table_id):
            table = lock_table(rt.table_id)
            table.evening = evening
            if table.status == Table.Status.OPEN:
                table_services.close_locked(table, by=by)
            rt.table = table
        results, bye_points, leavers = round_results(round_, round_tables)
        params = tournament_params(locked_t)
        for rt in round_tables:
            rt.results = results[rt.pk]
            rt.hands_played = hands_played(rt.table_id)
            rt.ended_by = table_ended_by(rt, params, locked_t.game)
            rt.save(update_fields=["results", "hands_played", "ended_by"])
        round_.bye_rows.update(points=bye_points)
        for code in leavers:
            Entry.objects.filter(tournament=locked_t, code=code).update(
                withdrawn_after=round_.number
            )
        round_.status = Round.Status.CLOSED
        round_.closed_at = timezone.now()
        _log(round_, "close", by)
        round_.save(update_fields=["status", "closed_at", "log"])
        last = engine.FORMATS[locked_t.tournament_format].last_round(params.rounds)
        if round_.number >= last:
            locked_t.status = Tournament.Status.PROVISIONAL
            locked_t.save(update_fields=["status"])
    return round_


# --- the table's own link, late players and substitutes (sections 9 and 10) ----------------

LINK_ROUNDS = (Round.Status.PUBLISHED, Round.Status.PLAYING)


def device_digest(secret: str) -> str:
    """Return what a round table stores of the device holding its link: a digest of the
    device's secret (kept in that device's session), never the secret itself."""
    return hashlib.sha256(secret.encode()).hexdigest()


def round_table_claim(*, round_table: RoundTable, secret: str) -> bool:
    """Let the device with ``secret`` hold the table's link, if no other device holds it.

    Return whether it holds it now (it did already, or it took it); one conditional update,
    so two phones opening the link at once never both hold it. Refused once the round has
    closed: the link is for one round's hands.
    """
    digest = device_digest(secret)
    with writing():
        rt = RoundTable.objects.select_related("round").get(pk=round_table.pk)
        if rt.round.status not in LINK_ROUNDS:
            raise LedgerError(_("the round is over: this table's link is closed"), "token")
        if rt.device == digest:
            return True
        return bool(RoundTable.objects.filter(pk=rt.pk, device="").update(device=digest))


def round_table_release(*, round_table: RoundTable, by=None) -> RoundTable:
    """Hand the table's link over: the device that held it loses it and the next device to
    open the link takes it (a flat battery, another phone). Logged on the round."""
    with writing():
        round_ = _lock_round(round_table.round_id)
        rt = RoundTable.objects.select_for_update(of=("self",)).get(pk=round_table.pk)
        if round_.status not in LINK_ROUNDS:
            raise LedgerError(_("the round is over: this table's link is closed"), "token")
        rt.device = ""
        rt.save(update_fields=["device"])
        _log(round_, "release", by, table=rt.number)
        round_.save(update_fields=["log"])
    return rt


def round_table_report_missing(*, round_table: RoundTable, codes: Sequence[str]) -> RoundTable:
    """Record the players the table says are not there (from its own link), for the
    director's progress screen; an empty list says everyone is there."""
    with writing():
        rt = RoundTable.objects.select_for_update(of=("self",)).get(pk=round_table.pk)
        unknown = [c for c in codes if c not in rt.seats]
        if unknown:
            raise LedgerError(_("only a player drawn at this table can be missing"), "missing")
        rt.missing = [c for c in rt.seats if c in set(codes)]
        rt.save(update_fields=["missing"])
    return rt


def round_substitute(
    *,
    round_table: RoundTable,
    absent: str,
    member: Member | None = None,
    guest_name: str = "",
    by=None,
) -> RoundTable:
    """Seat a substitute in the place of a drawn player who is not there or has left
    (section 9): a member of the club or a new guest, who is not an entry of the tournament.
    His hands count for the table and his result for no one; the absent player keeps his
    seat's result from the close and takes the last place at his table (he is scored as one
    who left) and is withdrawn after the round. The round must be playing and the table open.
    """
    rt = RoundTable.objects.select_related("round__tournament", "table").get(pk=round_table.pk)
    round_, tournament = rt.round, rt.round.tournament
    if round_.status != Round.Status.PLAYING or rt.table is None:
        raise LedgerError(_("a substitute is seated at a table of a round being played"), "absent")
    entry = tournament.entries.select_related("member").filter(code=absent).first()
    if entry is None or absent not in rt.seats:
        raise LedgerError(_("choose a player drawn at this table"), "absent")
    if absent in rt.substitutes:
        raise LedgerError(_("{name} already has a substitute").format(name=entry.name), "absent")
    if member is None and not (guest_name or "").strip():
        raise LedgerError(_("choose a member or type a guest's name"), "member")
    if member is not None:
        if member.club_id != tournament.club_id:
            raise LedgerError(_("every member must belong to the tournament's club"), "member")
        if tournament.entries.filter(member=member).exists():
            raise LedgerError(
                _("{name} is entered in the tournament; a substitute is not").format(
                    name=member.name
                ),
                "member",
            )
    with writing():
        # The lock order of every tournament service: the round, then the evening and table.
        round_ = _lock_round(rt.round_id)
        locked = RoundTable.objects.select_for_update(of=("self",)).get(pk=rt.pk)
        if round_.status != Round.Status.PLAYING:
            raise LedgerError(
                _("a substitute is seated at a table of a round being played"), "absent"
            )
        if absent in locked.substitutes:
            raise LedgerError(
                _("{name} already has a substitute").format(name=entry.name), "absent"
            )
        if member is None:
            member = _guest_member(tournament, guest_name, "guest_name")
        table_services.substitute_locked(rt.table, leaving=entry.member, joining=member, by=by)
        locked.substitutes = {
            **locked.substitutes,
            absent: {
                "member": member.pk,
                "name": member.name,
                "at_hand": hands_played(rt.table_id),
                "by": getattr(by, "username", None),
                "at": timezone.now().isoformat(timespec="seconds"),
            },
        }
        locked.missing = [c for c in locked.missing if c != absent]
        locked.save(update_fields=["substitutes", "missing"])
        _log(round_, "substitute", by, table=rt.number, absent=absent, substitute=member.name)
        round_.save(update_fields=["log"])
    return locked


def round_unpublish(*, round_: Round, by=None) -> Round:
    """Withdraw a published draw that has not started (section 9: a player cannot play, so
    the round is drawn again): the round is a draft again; its tables were never opened."""
    with writing():
        _lock(round_.tournament)
        round_ = _lock_round(round_.pk)
        if round_.status != Round.Status.PUBLISHED:
            raise LedgerError(_("only a published round that has not started can be withdrawn"))
        if round_.round_tables.filter(table__isnull=False).exists():
            raise LedgerError(_("only a published round that has not started can be withdrawn"))
        round_.round_tables.all().delete()
        round_.bye_rows.all().delete()
        round_.status = Round.Status.DRAFTED
        round_.published_at = None
        _log(round_, "unpublish", by)
        round_.save(update_fields=["status", "published_at", "log"])
    return round_


# --- corrections after a round closed (section 11) ----------------------------------------

CORRECTION_MINUTES_AFTER_LAST = 30


def correction_period_over(round_: Round, *, now=None) -> bool:
    """Return whether round ``round_``'s correction period has ended: when the next round
    started (its clock), or for the last round 30 minutes after it closed (section 11)."""
    now = now or timezone.now()
    following = round_.tournament.rounds.filter(number=round_.number + 1).first()
    if following is not None:
        return following.started_at is not None
    params = tournament_params(round_.tournament)
    last = engine.FORMATS[round_.tournament.tournament_format].last_round(params.rounds)
    if round_.number < last or round_.closed_at is None:
        return False
    return now >= round_.closed_at + datetime.timedelta(minutes=CORRECTION_MINUTES_AFTER_LAST)


def tournament_hand_correct(
    *,
    hand: Hand,
    record: dict,
    reason: str,
    override: bool = False,
    override_reason: str = "",
    by=None,
):
    """Correct a hand of a closed round's table in one transaction (section 11): reverse the
    table's close, correct the hand (re-settling its later hands), close the table again and
    recompute the round's table scores, places and points; the standings after it follow
    (they are computed from the rounds). A published draw never changes.

    After the correction period only with the director's ``override`` and its reason; the
    correction is logged on the round, marked when it came after the period.
    """
    if not reason or not reason.strip():
        raise LedgerError(_("a correction needs a reason"), "reason")
    from ledger.services import hands as hand_services  # hands asks this module for targets

    rt = (
        RoundTable.objects.filter(table_id=hand.table_id)
        .select_related("round__tournament")
        .first()
    )
    if rt is None:
        raise LedgerError(_("this hand is not of a tournament's table"), "hand")
    late = correction_period_over(rt.round)
    if late and not override:
        raise LedgerError(
            _(
                "the correction period of round {number} is over; only the director's override "
                "with a reason may correct it"
            ).format(number=rt.round.number),
            "override",
        )
    if late and not (override_reason or "").strip():
        raise LedgerError(_("an override needs a reason"), "override_reason")
    with writing():
        _lock(rt.round.tournament)
        round_ = _lock_round(rt.round_id)
        if round_.status != Round.Status.CLOSED:
            raise LedgerError(_("the round is not closed: correct the hand at its table"), "hand")
        lock_evening(round_.tournament.evening_id)
        table = lock_table(hand.table_id)
        if table.evening.status != Evening.Status.OPEN:
            raise LedgerError(_("the evening is closed; a treasurer must reopen it first"))
        ledger = TableLedger(table)
        for posting in live_postings(table):
            if posting.kind == Posting.Kind.SPLIT:
                ledger.reverse(posting, by=by, note=reason)
        changed = hand_services.correct_locked(table, hand, record, reason, by=by)
        post_split(table, by)
        round_tables = list(round_.round_tables.select_related("table").order_by("number"))
        for other in round_tables:
            if other.pk == rt.pk:
                other.table = table
        results, bye_points, _leavers = round_results(round_, round_tables)
        params = tournament_params(round_.tournament)
        for other in round_tables:
            fields = {"results": results[other.pk]}
            if other.pk == rt.pk:  # a voided hand may change what the table played
                fields["hands_played"] = hands_played(table.pk)
                fields["ended_by"] = table_ended_by(other, params, round_.tournament.game)
            changed_fields = [k for k, v in fields.items() if getattr(other, k) != v]
            for key in changed_fields:
                setattr(other, key, fields[key])
            if changed_fields:
                other.save(update_fields=changed_fields)
        round_.bye_rows.update(points=bye_points)
        _log(
            round_,
            "correct",
            by,
            table=rt.number,
            hand=hand.number,
            reason=reason.strip()[:500],
            after_period=late,
            override_reason=(override_reason or "").strip()[:500],
        )
        round_.save(update_fields=["log"])
    return changed


# --- texts ---------------------------------------------------------------------------------

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


def points_of(text: str) -> Fraction:
    """Return stored points (an exact rational as a string) as a Fraction."""
    return Fraction(text or "0")
