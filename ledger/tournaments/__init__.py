"""Tournament mode: an event of several rounds at drawn tables, ranked by tournament points.

``engine`` is the pure rules (spec ``tournament.md``); the Django side (models, services,
sheets) will live beside it in this package.
"""
