"""The federation: players across clubs, series (ladders) and rating lists (spec ``federation.md``).

``engine`` is the pure rules (series standings and multiplayer Elo ratings); the Django side
(models, services, the officer's screens, results files) lives beside it in this package.
"""
