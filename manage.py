#!/usr/bin/env python
"""Django's command-line utility for administrative tasks."""

import os
import sys


def main():
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tarokclub.settings")
    # The developer's entry point runs in DEBUG unless told otherwise; the production entry
    # points (tarokclub/wsgi.py, asgi.py) do not, so there DEBUG is off by default.
    os.environ.setdefault("DJANGO_DEBUG", "1")
    from django.core.management import execute_from_command_line

    execute_from_command_line(sys.argv)


if __name__ == "__main__":
    main()
