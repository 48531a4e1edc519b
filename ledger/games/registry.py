"""The registered games: ``settings.TAROK_GAMES`` lists their packages, once.

Each entry is a game package (``ledger.games.danish``) whose ``GAME`` answers the engine's
contract (``ledger.games.base.Game``) and whose ``web`` module's ``WEB`` answers the web side's
(``ledger.games.web.GameWeb``); its ``features`` also seat its tournaments
(``tournament_catalogue``). The packages are also Django apps (``settings.INSTALLED_APPS``
adds them), so a game's own templates and static files live in its package. The first game
listed is the default of a new club. Settings are read on first use, never at import, and
read again when a test changes them.
"""

from __future__ import annotations

import functools
from collections.abc import Iterator, Mapping
from importlib import import_module

from django.conf import settings
from django.core.signals import setting_changed
from django.dispatch import receiver

from ledger.games.base import Game, normalized_name
from ledger.tournaments.engine.rules import Catalogue, catalogue_of


@functools.cache
def _games() -> dict[str, Game]:
    games: dict[str, Game] = {}
    for path in settings.TAROK_GAMES:
        game = import_module(path).GAME
        games[game.code] = game
    return games


@functools.cache
def _webs() -> dict:
    webs = {}
    for path in settings.TAROK_GAMES:
        web = import_module(f"{path}.web").WEB
        webs[web.code] = web
    return webs


@receiver(setting_changed)
def _forget(*, setting, **kwargs) -> None:
    if setting == "TAROK_GAMES":
        _games.cache_clear()
        _webs.cache_clear()
        reserved_account_names.cache_clear()
        tournament_catalogue.cache_clear()


class _Games(Mapping):
    """The registered games by code, in the order of ``settings.TAROK_GAMES``."""

    def __getitem__(self, code: str) -> Game:
        return _games()[code]

    def __iter__(self) -> Iterator[str]:
        return iter(_games())

    def __len__(self) -> int:
        return len(_games())

    def __repr__(self) -> str:
        return f"GAMES({', '.join(self)})"


GAMES: Mapping[str, Game] = _Games()


def get_game(code: str) -> Game:
    """Return the game named ``code``; KeyError for one that is not registered."""
    return _games()[code]


def get_web(code: str):
    """Return the web side (``GameWeb``) of the game ``code``; KeyError for an unknown one."""
    return _webs()[code]


def default_game() -> str:
    """Return the code of the default game of a new club: the first registered."""
    return next(iter(_games()))


@functools.cache
def reserved_account_names() -> frozenset[str]:
    """Return every pool code of every registered game, normalised (``normalized_name``): no
    member or seat may carry one, whatever its case or Unicode form."""
    return frozenset(
        normalized_name(code) for game in _games().values() for code in game.features.pool_codes
    )


def is_reserved_name(name: str) -> bool:
    """Return whether ``name`` is a pool's name of some game, in any case or Unicode form."""
    return normalized_name(name) in reserved_account_names()


@functools.cache
def tournament_catalogue() -> Catalogue:
    """Return what the tournament engine knows of the registered games: each one's table sizes
    and own formats (``Features.table_sizes``, ``Features.tournament_formats``), and the generic
    formats. ``ledger.apps`` hands it to the engine (``engine.use_games``)."""
    return catalogue_of(
        (code, game.features.table_sizes, game.features.tournament_formats)
        for code, game in _games().items()
    )
