"""What if: an evening's or a season's stored hands replayed under another rate card (a preset
or a rates file), or a tournament's closed rounds ranked under another format, printed as JSON
beside the points, money and rank as played. Read-only."""

import json
import sys

from ledger.games.errors import Problem, RulesError
from ledger.models import Evening, Season, Tournament
from ledger.selectors import whatif

from ._engine import EXIT_REFUSED, EngineCommand


class Command(EngineCommand):
    """The engine commands' input and refusals (``read_json``, exit 2), its own arguments."""

    help = (
        "Replay an evening's or a season's stored hands under another rate card (--rates FILE "
        "or --preset NAME), or rank a tournament's rounds under another --format, and print "
        '{"members": [...], "unscored": [...]}: each member\'s points, money and rank as '
        "played and as they would have been. Writes nothing; "
        'refused input prints {"errors": [...]} and exits 2.'
    )

    def add_arguments(self, parser):
        scope = parser.add_mutually_exclusive_group(required=True)
        scope.add_argument("--evening", type=int, help="an evening's id")
        scope.add_argument("--season", type=int, help="a season's id (its closed club evenings)")
        scope.add_argument(
            "--tournament", type=int, help="a tournament's id (its closed rounds; with --format)"
        )
        card = parser.add_mutually_exclusive_group()
        card.add_argument("--rates", help="a tarokclub.rates/1 file, or - for standard input")
        card.add_argument("--preset", help="the name of a preset of the evenings' game")
        card.add_argument(
            "--format", help="a tournament format to rank the tournament's rounds under"
        )

    def handle(self, *args, **options):
        try:
            if options["tournament"] is not None:
                result = self.tournament(options)
                self.stdout.write(json.dumps(result.as_json(), ensure_ascii=False, indent=2))
                return
            if options["format"]:
                raise RulesError(
                    [Problem("--format", "--format ranks a tournament: give --tournament ID")]
                )
            if not (options["rates"] or options["preset"]):
                raise RulesError(
                    [Problem("--preset", "give --preset NAME or --rates FILE for an evening")]
                )
            evenings, default_game = self.evenings(options)
            game = whatif.game_of_evenings(evenings, default_game)
            if options["preset"]:
                card = whatif.card_from_preset(game, options["preset"])
            else:
                data = self.read_json(options["rates"], "--rates")
                card = whatif.card_from_data(game, data)
            result = whatif.compare(evenings, card)
        except RulesError as error:
            self.stdout.write(json.dumps(error.as_json(), ensure_ascii=False, indent=2))
            sys.exit(EXIT_REFUSED)
        self.stdout.write(json.dumps(result.as_json(), ensure_ascii=False, indent=2))

    def tournament(self, options):
        """Return the tournament's ranking under ``--format`` beside its own."""
        tournament = Tournament.objects.filter(pk=options["tournament"]).first()
        if tournament is None:
            raise RulesError(
                [Problem("--tournament", "no tournament {id}", {"id": options["tournament"]})]
            )
        if not options["format"]:
            raise RulesError(
                [
                    Problem(
                        "--format",
                        "a tournament is ranked under another format: give --format, one of "
                        "{names}",
                        {"names": ", ".join(whatif.formats_for(tournament))},
                    )
                ]
            )
        return whatif.compare_tournament(tournament, options["format"])

    def evenings(self, options) -> tuple[list[Evening], str]:
        """Return the evenings the scope names and their club's game; RulesError naming the
        option when it names nothing."""
        if options["evening"] is not None:
            evening = Evening.objects.filter(pk=options["evening"]).select_related("club").first()
            if evening is None:
                raise RulesError(
                    [Problem("--evening", "no evening {id}", {"id": options["evening"]})]
                )
            return [evening], evening.game
        season = Season.objects.filter(pk=options["season"]).select_related("club").first()
        if season is None:
            raise RulesError([Problem("--season", "no season {id}", {"id": options["season"]})])
        return whatif.season_evenings_closed(season), season.club.game
