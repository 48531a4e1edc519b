"""Import a club's paper score sheet: one ``tarokclub.evening/1`` file becomes one table.

The import goes through the same services as the tablet (``evening_open``, ``table_open``,
``hand_record``, ``evening_close``), so an imported evening is indistinguishable from one
scored live. Every service is a durable transaction of its own, so the import cannot be one
outer transaction; instead the whole file is checked first (the game's ``settle_evening``
with the club's rate card; every name, length and bound; the date; the club's members) and
nothing is written unless all of it passes.
"""

import datetime
import json
import logging
import sys

from django.contrib.auth import get_user_model
from django.utils import timezone

from ledger import selectors, services
from ledger.games.errors import EveningError, Problem, RulesError
from ledger.games.money import signed_points
from ledger.models import Club, Evening, EveningResult, Member
from ledger.services.errors import LedgerError

from ._engine import EXIT_REFUSED, EngineCommand, game_of, reserved_seat_problems

logger = logging.getLogger(__name__)


class Command(EngineCommand):
    help = (
        "Import a tarokclub.evening/1 file (a paper score sheet) into a club: open an evening "
        "and a table, record every hand in order through the services, and with --close close "
        'the evening. All or nothing: refused input prints {"errors": [...]} and exits 2.'
    )

    def add_arguments(self, parser):
        parser.add_argument("file", help="a tarokclub.evening/1 file, or - for standard input")
        parser.add_argument("--club", required=True, help="the club's short name (slug)")
        parser.add_argument(
            "--date", help="the evening's date, YYYY-MM-DD (default: today)", default=None
        )
        parser.add_argument(
            "--create-members",
            "--table-members-create",
            action="store_true",
            dest="create_members",
            help="add names that are not members of the club yet (default: refuse them)",
        )
        parser.add_argument(
            "--close", action="store_true", help="close the evening (split the cups) afterwards"
        )
        parser.add_argument("--by", help="the username the import is recorded by")

    def handle(self, *args, **options):
        try:
            plan = self.plan(options)
        except RulesError as error:
            self.refuse(error.problems)
        progress: dict = {}
        try:
            evening, table = self.write(plan, close=options["close"], progress=progress)
        except (LedgerError, RulesError) as error:
            # Only a concurrent change can get here: the file was checked as a whole first.
            problems = list(
                error.problems
                if isinstance(error, RulesError)
                else [Problem(error.field, str(error.message))]
            )
            if "evening" in progress:
                problems.append(
                    Problem(
                        "__all__",
                        "evening {id} was opened and left open with {done} of {total} hands",
                        {
                            "id": progress["evening"].pk,
                            "done": progress.get("hands", 0),
                            "total": len(plan["hands"]),
                        },
                    )
                )
            self.refuse(problems)
        logger.warning(
            "imported %s hands",
            len(plan["hands"]),
            extra={
                "event": "import",
                "club": evening.club.slug,
                "evening": evening.pk,
                "table": table.pk,
                "closed": not evening.is_open,
            },
        )
        self.summary(evening, table, len(plan["hands"]))

    def refuse(self, problems):
        logger.warning(
            "import refused: %s",
            "; ".join(f"{p.field}: {p.message}" for p in problems[:20]),
            extra={"event": "import", "refused": True},
        )
        self.stdout.write(
            json.dumps({"errors": [p.as_dict() for p in problems]}, ensure_ascii=False, indent=2)
        )
        sys.exit(EXIT_REFUSED)

    def plan(self, options) -> dict:
        """Return what to write, or raise RulesError with every problem; write nothing."""
        problems = []
        club = Club.objects.filter(slug=options["club"]).first()
        if club is None:
            problems.append(
                Problem("club", "no club has the short name {slug}", {"slug": options["club"]})
            )
        date = timezone.localdate()
        if options["date"]:
            try:
                date = datetime.date.fromisoformat(options["date"])
            except ValueError:
                problems.append(
                    Problem(
                        "date", "{value} is not a date (YYYY-MM-DD)", {"value": options["date"]}
                    )
                )
        by = None
        if options["by"]:
            by = get_user_model().objects.filter(username=options["by"]).first()
            if by is None:
                problems.append(Problem("by", "no user is named {name}", {"name": options["by"]}))
        if problems or club is None:
            raise RulesError(problems)

        data = self.read_json(options["file"], "file")
        game = game_of(data)
        if game.code != club.game:
            raise RulesError(
                [
                    Problem(
                        "game",
                        "the file is of the game {game}, the club plays {club_game}",
                        {"game": game.code, "club_game": club.game},
                    )
                ]
            )
        rates = game.rate_card(club.rate_card or {})
        problems.extend(reserved_seat_problems(data))
        try:
            game.settle_evening(data, rates)
        except EveningError as error:
            problems.extend(error.problems)
        if Evening.objects.filter(club=club, date=date, status=Evening.Status.OPEN).exists():
            problems.append(
                Problem("date", "an evening of {date} is already open", {"date": str(date)})
            )
        names = data.get("seats") if isinstance(data, dict) else None
        if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
            raise RulesError(problems)
        members = {m.name: m for m in Member.objects.filter(club=club, name__in=names)}
        unknown = [name for name in names if name not in members]
        if unknown and not options["create_members"]:
            template = (
                "{names} is not a member of {club}"
                if len(unknown) == 1
                else "{names} are not members of {club}"
            )
            problems.append(
                Problem(
                    "seats",
                    template + "; add them first or use --create-members",
                    {"names": ", ".join(unknown), "club": club.name},
                )
            )
        if problems:
            raise RulesError(problems)
        return {
            "club": club,
            "date": date,
            "by": by,
            "seats": names,
            "members": members,
            "unknown": unknown,
            "hands": data["hands"],
        }

    def write(self, plan, *, close: bool, progress: dict):
        """Write the checked evening through the services; return (evening, table).

        ``progress`` tells how far the writing got, should a service refuse after all.
        """
        club, members = plan["club"], dict(plan["members"])
        if plan["unknown"]:
            added = services.members_add(club=club, names=plan["unknown"], by=plan["by"])
            members.update((member.name, member) for member in added)
        seated = [members[name] for name in plan["seats"]]
        hands = plan["hands"]
        first_dealer = members[hands[0]["dealer"]] if hands else None
        evening = services.evening_open(club=club, date=plan["date"], by=plan["by"])
        progress["evening"] = evening
        table = services.table_open(
            evening=evening, members=seated, first_dealer=first_dealer, by=plan["by"]
        )
        for number, hand in enumerate(hands, start=1):
            services.hand_record(table=table, record=hand, by=plan["by"])
            progress["hands"] = number
        if close:
            evening = services.evening_close(evening=evening, by=plan["by"])
        return evening, table

    def summary(self, evening, table, hands: int) -> None:
        def signed(points: dict) -> str:
            return ", ".join(f"{name} {signed_points(value)}" for name, value in points.items())

        self.stdout.write(
            f"Imported evening {evening.pk} ({evening.date:%Y-%m-%d}, {evening.club.name}), "
            f"table {table.number}: {hands} hands."
        )
        seats = selectors.current_seats(table.pk)
        if evening.is_open:
            balances = selectors.table_balances(table.pk)
            self.stdout.write("Balances: " + signed({s.name: balances[s.name] for s in seats}))
            pools = selectors.pool_balances(table.pk)
            if pools:
                self.stdout.write(
                    "Pools: " + ", ".join(f"{code} {value}" for code, value in pools.items())
                )
            return
        results = {r.member_id: r.points for r in EveningResult.objects.filter(evening=evening)}
        self.stdout.write(
            "Closed. Results after the split: "
            + signed({s.name: results[s.member_id] for s in seats})
        )
