"""The gain of the django-tables2 signature memo (``ledger/web/tables2_speed.py``), measured
on django-tables2 alone: a standings-like table of 138 rows (a tournament's field) whose
columns use what django-tables2 calls through ``call_with_appropriate`` (``render_<column>``,
``linkify``, callable ``td`` attributes, callable row attributes), rendered with the stock
template, without the memo and with it. docs/upstream-tables2.md quotes its output.

    .venv/bin/python bench/tables2_signature.py

No project settings, database or template of tarokclub take part, so the figures are
django-tables2's own.
"""

from __future__ import annotations

import inspect
import statistics
import sys
import time
from pathlib import Path

import django
from django.conf import settings

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

ROWS = 138
REPEAT = 30


def configure() -> None:
    settings.configure(
        INSTALLED_APPS=["django.contrib.contenttypes", "django_tables2"],
        TEMPLATES=[
            {
                "BACKEND": "django.template.backends.django.DjangoTemplates",
                "APP_DIRS": True,
                "OPTIONS": {"context_processors": ["django.template.context_processors.request"]},
            }
        ],
        USE_I18N=False,
    )
    django.setup()


def standings_table():
    import django_tables2 as tables

    class Standings(tables.Table):
        place = tables.Column(attrs={"td": {"class": "num"}})
        name = tables.Column(linkify=lambda record: f"/member/{record['id']}/")
        points = tables.Column(
            attrs={"td": {"class": lambda record: "num neg" if record["points"] < 0 else "num"}}
        )
        evenings = tables.Column(attrs={"td": {"class": "num"}})
        hands = tables.Column(attrs={"td": {"class": "num"}})
        average = tables.Column()
        money = tables.Column(
            attrs={"td": {"class": lambda record: "num neg" if record["money"] < 0 else "num"}}
        )

        class Meta:
            template_name = "django_tables2/table.html"
            orderable = False
            row_attrs = {"data-member": lambda record: record["name"]}

        def render_points(self, value):
            return f"{value:+d}"

        def render_average(self, value, record):
            return f"{value / max(record['evenings'], 1):+.1f}"

        def render_money(self, value):
            return f"{value / 100:+.2f}"

    data = [
        {
            "id": i,
            "place": i + 1,
            "name": f"Player {i}",
            "points": (i * 37) % 400 - 200,
            "evenings": 1 + i % 12,
            "hands": 20 + i % 90,
            "average": (i * 37) % 400 - 200,
            "money": ((i * 37) % 400 - 200) * 25,
        }
        for i in range(ROWS)
    ]
    return lambda: Standings(data)


def measure(render) -> tuple[float, int]:
    """Return the median time of one rendering (ms) and how often it asks inspect.signature."""
    asked = 0
    original = inspect.signature

    def counting(*args, **kwargs):
        nonlocal asked
        asked += 1
        return original(*args, **kwargs)

    inspect.signature = counting
    try:
        render()
    finally:
        inspect.signature = original
    times = []
    for _ in range(REPEAT):
        start = time.perf_counter()
        render()
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times), asked


def main() -> None:
    configure()
    import django_tables2
    from django.test import RequestFactory
    from django_tables2 import utils

    from ledger.web import tables2_speed

    make = standings_table()
    request = RequestFactory().get("/standings/")

    def render():
        return make().as_html(request)

    render()  # templates compiled, imports done
    assert utils.signature is tables2_speed._original
    plain, plain_asked = measure(render)
    tables2_speed.install()
    memo, memo_asked = measure(render)
    utils.signature = tables2_speed._original
    again, _ = measure(render)
    print(f"django-tables2 {django_tables2.__version__}, Python {sys.version.split()[0]}")
    print(f"{ROWS} rows x 7 columns, median of {REPEAT} renderings (as_html, stock template)")
    print(f"without the memo: {plain:.1f} ms ({plain_asked} inspect.signature calls)")
    print(f"with the memo:    {memo:.1f} ms ({memo_asked} inspect.signature calls)")
    print(f"without, again:   {again:.1f} ms")
    print(f"saved: {(1 - memo / ((plain + again) / 2)) * 100:.0f}% of the rendering")


if __name__ == "__main__":
    main()
