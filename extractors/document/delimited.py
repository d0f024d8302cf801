"""CSV and TSV files -> Document: one table (its first record the header row, unless a field of
it holds an account: "@jroe", a URL, an e-mail), each record a `Row` that quotes its line(s); a
field that is a URL is also the cell's link (a GitHub profile column). Read with the standard
library's `csv` (quoted fields, embedded delimiters and line breaks as RFC 4180 has them)."""

from __future__ import annotations

import csv
import io

from extractors.document.model import (
    ACCOUNT,
    Cell,
    Document,
    Row,
    collapse,
)  # (no header prints an account)

URL_PREFIXES = ("http://", "https://", "mailto:")


class Malformed(ValueError):
    """A file the csv module rejects (the message names the line)."""


def document(text: str, delimiter: str) -> Document:
    lines = text.splitlines()
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter, strict=True)
    rows: list[Row] = []
    start = 1  # the first physical line of the next record
    try:
        for record in reader:
            end = reader.line_num
            if any(field.strip() for field in record):
                quote = " ".join(line.strip() for line in lines[start - 1 : end])
                cells = tuple(_cell(field) for field in record)
                header = not rows and not any(ACCOUNT.search(c.text) for c in cells)
                rows.append(Row(quote, cells, 1, len(rows) + 1, header, start))
            start = end + 1
    except csv.Error as exc:
        raise Malformed(f"line {reader.line_num}: {exc}") from None
    return Document(None, list(rows), "csv")


def _cell(field: str) -> Cell:
    text = collapse(field)
    links = ((text, text),) if text.startswith(URL_PREFIXES) and " " not in text else ()
    return Cell(text, links)
