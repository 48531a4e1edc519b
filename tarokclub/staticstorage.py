"""The production static-files storage: whitenoise's compressed manifest storage that never
turns a missing ``collectstatic`` into a 500.

``ManifestStaticFilesStorage`` raises ValueError from ``{% static %}`` for a file that is not
in the manifest (or whose collected copy is missing), which makes every page a server
error when ``collectstatic`` was not run. This storage answers the plain, unhashed URL
instead and logs a warning once per file, so the page renders. ``scripts/serve-production.sh``
runs ``collectstatic`` before starting, so in the documented start the fallback is never
needed.
"""

import logging

from whitenoise.storage import CompressedManifestStaticFilesStorage

logger = logging.getLogger(__name__)


class SafeCompressedManifestStaticFilesStorage(CompressedManifestStaticFilesStorage):
    manifest_strict = False

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._warned: set[str] = set()

    def stored_name(self, name):
        try:
            return super().stored_name(name)
        except ValueError:
            if name not in self._warned:
                self._warned.add(name)
                logger.warning(
                    "static file %r is not collected (run manage.py collectstatic); "
                    "serving its plain name",
                    name,
                )
            return name
