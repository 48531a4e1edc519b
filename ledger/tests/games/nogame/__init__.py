"""Not a game: a package whose GAME answers only part of the contract (for the system check
of TAROK_GAMES, ledger/tests/test_checks.py)."""


class _Half:
    code = "half"
    name = "Half a game"


GAME = _Half()
