"""tarokclub: scores tarok card games for clubs (see README.md and docs/)."""

# The release: shown in the footer and the admin, sent with error reports, answered by
# /healthz/. Raise it with a CHANGELOG.md entry (docs/upgrading.md says how to release).
__version__ = "0.2.0"
