"""Spreadsheet exports that cannot carry a live formula (CSV and XLSX injection).

Member names and other text typed by users reach the exports raw; a name such as
``=HYPERLINK("http://x","y")`` would be a live formula in Excel or LibreOffice. Every export
goes through ``SafeTableExport``, which prefixes ``'`` to each text cell (and header) that
begins with ``=``, ``+``, ``@``, a tab or a carriage return, or with ``-`` unless the text is
a number. Numbers, dates and empty cells are left alone, so XLSX keeps typed numbers.
"""

from __future__ import annotations

import re
from decimal import Decimal

from django.utils import formats
from django.utils.functional import Promise
from django_tables2.export import TableExport
from tablib import Dataset

FORMULA_STARTS = ("=", "+", "@", "\t", "\r")
# The formats the site exports (docs/treasurer.md); any other ``_export`` is refused
# (web/bounds.py).
FORMATS = (TableExport.CSV, TableExport.XLSX)
NUMBER = re.compile(r"-\d+(?:[.,]\d+)?")
BOM = "\ufeff"  # a CSV's first character: Excel then reads it as UTF-8


def neutralise(value):
    """Return ``value`` with a leading ``'`` when it is text that starts a formula."""
    if isinstance(value, Promise):
        value = str(value)
    if not isinstance(value, str) or not value:
        return value
    if value.startswith(FORMULA_STARTS) or (value.startswith("-") and not NUMBER.fullmatch(value)):
        return "'" + value
    return value


class SafeTableExport(TableExport):
    """django-tables2's TableExport with every text cell neutralised (see the module), in the
    site's formats only."""

    @classmethod
    def is_valid_format(cls, export_format) -> bool:
        return export_format in FORMATS

    def table_to_dataset(self, table, exclude_columns, dataset_kwargs=None):
        dataset = super().table_to_dataset(table, exclude_columns, dataset_kwargs)
        safe = Dataset(
            *[[neutralise(value) for value in row] for row in dataset],
            headers=[neutralise(h) for h in dataset.headers] if dataset.headers else None,
            title=dataset.title,
        )
        return safe

    def export(self):
        """Return the export; a CSV follows the active language's number format and starts
        with a byte-order mark.

        A Danish spreadsheet expects ``;`` between fields and a decimal comma: when the
        language's decimal separator is a comma, the CSV uses ``;`` and writes decimals with
        a comma. Lines end with CRLF. The byte-order mark (U+FEFF, the bytes EF BB BF in the
        UTF-8 response) makes Excel on Windows read the file as UTF-8, so "Beløb" and names
        with æ, ø, å, č or ő arrive intact. XLSX stays typed (numbers are numbers whatever the
        language).
        """
        if self.format != self.CSV:
            return super().export()
        if formats.get_format("DECIMAL_SEPARATOR") != ",":
            return BOM + super().export()
        localised = Dataset(
            *[[_decimal_comma(value) for value in row] for row in self.dataset],
            headers=self.dataset.headers,
            title=self.dataset.title,
        )
        return BOM + localised.export("csv", delimiter=";")

    def content_type(self) -> str:
        """Name the CSV's encoding in its content type (the BOM says it to Excel)."""
        if self.format == self.CSV:
            return "text/csv; charset=utf-8"
        return super().content_type()


def _decimal_comma(value):
    if isinstance(value, Decimal | float):
        return str(value).replace(".", ",")
    return value
