"""Shared input and output of the engine commands ``settle_hand`` and ``settle_evening``."""

import json
import sys

from django.core.management.base import BaseCommand

from ledger.games.errors import Problem, RulesError, _
from ledger.games.registry import GAMES, get_game, is_reserved_name
from ledger.web.jsonin import MAX_BYTES, load_json_safely

EXIT_REFUSED = 2
DEFAULT_GAME = "danish_tarok"  # a file without ``game`` is Danish (hand-format.md)


def game_of(data, field: str = "game"):
    """Return the game a file names in its ``game`` key (none: Danish); refuse an unknown one."""
    code = data.get("game", DEFAULT_GAME) if isinstance(data, dict) else DEFAULT_GAME
    if not isinstance(code, str) or code not in GAMES:
        raise RulesError(
            [
                Problem(
                    field,
                    "unknown game {game}; choose one of {choices}",
                    {"game": code, "choices": ", ".join(GAMES)},
                )
            ]
        )
    return get_game(code)


def reserved_seat_problems(data) -> list[Problem]:
    """Return a problem for each seat of the file (``seats``, ``hands[i].seats``) named like a
    pool of any registered game, in any case or Unicode form: no member may carry one, so a
    file seating one is refused whatever its game (an engine knows only its own pools)."""
    if not isinstance(data, dict):
        return []
    lists = [("seats", data.get("seats"))]
    hands = data.get("hands")
    if isinstance(hands, list):
        lists += [
            (f"hands[{i}].seats", h.get("seats"))
            for i, h in enumerate(hands)
            if isinstance(h, dict)
        ]
    problems = []
    for field, names in lists:
        if not isinstance(names, list):
            continue
        for name in names:
            if isinstance(name, str) and is_reserved_name(name):
                problems.append(
                    Problem(
                        field,
                        _("{name} is the name of a table's account, not of a member"),
                        {"name": name},
                    )
                )
                break
    return problems


class EngineCommand(BaseCommand):
    """Read one JSON file (or ``-``), apply ``--rates``, print JSON; exit 2 on refused input.

    The file's ``game`` key chooses the game; a ``--rates`` card must be of the same game.
    """

    def add_arguments(self, parser):
        parser.add_argument("file", help="a JSON file, or - for standard input")
        parser.add_argument("--rates", help="a tarokclub.rates/1 file (default: the spec's rates)")

    def handle(self, *args, **options):
        try:
            card = self.read_json(options["rates"], "--rates") if options["rates"] else None
            data = self.read_json(options["file"], "file")
            game = game_of(data)
            reserved = reserved_seat_problems(data)
            if reserved:
                raise RulesError(reserved)
            if card is not None and game_of(card).code != game.code:
                raise RulesError(
                    [
                        Problem(
                            "game",
                            "the rate card is of the game {card}, the file of {game}",
                            {"card": game_of(card).code, "game": game.code},
                        )
                    ]
                )
            rates = game.rate_card(card or {})
            result = self.run(game, data, rates)
        except RulesError as error:
            self.stdout.write(json.dumps(error.as_json(), ensure_ascii=False, indent=2))
            sys.exit(EXIT_REFUSED)
        self.stdout.write(json.dumps(result, ensure_ascii=False, indent=2))

    def read_json(self, name: str, field: str):
        """``read_json`` (the module's)."""
        return read_json(name, field)

    def run(self, game, data, rates):
        raise NotImplementedError


def read_json(name: str, field: str):
    """Read ``name`` (or standard input for ``-``) as JSON within ``ledger.web.jsonin``'s
    limits; raise RulesError naming ``field`` when it cannot be read or is refused."""
    try:
        if name == "-":
            stream = getattr(sys.stdin, "buffer", None)
            data = stream.read(MAX_BYTES + 1) if stream else sys.stdin.read(MAX_BYTES + 1)
        else:
            with open(name, "rb") as handle:
                data = handle.read(MAX_BYTES + 1)
    except OSError as error:
        raise RulesError(
            [
                Problem(
                    field,
                    "cannot read {name}: {reason}",
                    {"name": name, "reason": error.strerror},
                )
            ]
        ) from error
    return load_json_safely(data, field)
