"""The games the ledger can settle, each a package behind one contract (``base.Game``).

Pure Python: importing this package, or a game's engine, imports no Django. The games in use
are listed once, in ``settings.TAROK_GAMES``, and found through ``ledger.games.registry``;
callers ask ``get_game(code)`` and the game's ``features``, never "is this Danish?".
"""
