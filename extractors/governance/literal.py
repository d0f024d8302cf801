"""Literal blocks (a fenced or indented code block) that list people, for the governance reader.

Two shapes: a block of bare names, one a line ("Jane Roe"), and a block of records written as
code, one a line: a tuple, a struct or a dict literal of quoted `key = "value"` / `key: "value"`
fields (`(github="jroe", org="Example Labs")`), read as a data file's entry is
(`blocks.record_entry`) when a field names a person (`blocks.RECORD_NAME`, `RECORD_HANDLE`).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

from extractors.document.model import Code, Record
from extractors.governance import blocks as _role_blocks
from extractors.governance.decide import Context
from extractors.people.entries import Entry
from ingest.models import Claim

Reader = Any  # extractors.governance.reader.Reader (not imported: no cycle inside extractors)

MIN_PEOPLE = 3  # fewer lines than this that read as people: not a list of them
CODE_MIN_SHARE = 0.8  # a literal block is a list of names when this share of its lines are
CODE_NAME = re.compile(r"^(?:[^\W\d_][\w.'’-]*\.?\s+){0,4}[^\W\d_][\w'’-]*\.?$")
FIELD = re.compile(r"""(?<![\w.])([A-Za-z_]\w*)\s*(?:=|:|=>)\s*(?:"([^"\n]*)"|'([^'\n]*)')""")
PERSON_KEYS = frozenset((*_role_blocks.RECORD_NAME, *_role_blocks.RECORD_HANDLE))


def names(code: Code) -> list[tuple[int, str]]:
    """The (line number, name) of a block of bare names, or [] when it is not one."""
    lines = [line.strip() for line in code.lines if line.strip()]
    found = [(i, line) for i, line in enumerate(lines, 1) if CODE_NAME.match(line)]
    if len(found) < MIN_PEOPLE or len(found) < CODE_MIN_SHARE * len(lines):
        return []
    return found


def records(code: Code) -> list[tuple[int, Record]]:
    """The (line number, record) of each line written as a person's record, or [] when fewer
    than `MIN_PEOPLE` lines are (a block of code that only mentions a name now and then)."""
    found: list[tuple[int, Record]] = []
    for number, line in enumerate(code.lines, 1):
        fields = {m.group(1): m.group(2) if m.group(2) is not None else m.group(3)
                  for m in FIELD.finditer(line)}  # fmt: skip
        if len(fields) < 2 or not any(fields.get(k) for k in PERSON_KEYS):
            continue
        record = Record(line.strip(), (), {k: v or None for k, v in fields.items()}, None,
                        len(found) + 1)  # fmt: skip
        found.append((number, record))
    return found if len(found) >= MIN_PEOPLE else []


def read(self: Reader, code: Code) -> Iterator[Claim]:
    """A literal block's people: its records (`records`), else its bare names (`names`)."""
    if rows := records(code):  # `(github="jroe", org="Example Labs"),` a line
        number = self._count("code")
        self.ctx = Context("record", len(rows))
        for at, record in rows:
            entry, role = _role_blocks.record_entry(record, self.document)
            if entry is not None:
                locator = f"{self._where()} > literal block {number} > line {at}"
                yield from self._emit(entry, locator, record.quote, role=role)
        return
    if not (found := names(code)):
        return
    number = self._count("code")
    self.ctx = Context("code", len(found))
    for index, line in found:
        locator = f"{self._where()} > literal block {number} > line {index}"
        yield from self._emit(Entry(name=line), locator, line)
