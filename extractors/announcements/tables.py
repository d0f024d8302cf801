"""Tables of people in a post: a row per person.

- a table whose first column is titled as names ("Name", "Member"), or whose header cells are all
  blank, is a list of people, one item a row (`name_row`), read under the table's lead-in or
  heading by `lists.list_claims`; a transposed one ("| Name | A | B |" then "| github | [@a](url)
  | [@b](url) |"), one item a column, read at its first row (`transposed`);
- agenda tables with a Speakers / Presenters / Panelists column give one claim per person named in
  it, `session` = the Session / Title cell, `date` = the last date line above the table
  (`row_claims`).
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from extractors.announcements import names
from extractors.announcements.events import Context
from extractors.announcements.source import Section
from extractors.document.model import Item, Row, collapse
from extractors.people import names as _people
from ingest.models import Claim

TABLE_PEOPLE_COLUMNS = {"speaker": "speaker", "speakers": "speaker", "presenter": "speaker",
                        "presenters": "speaker", "panelist": "panelist",
                        "panelists": "panelist"}  # fmt: skip
NAME_COLUMNS = frozenset({"name", "names", "member", "members", "person", "who"})
TABLE_SESSION_COLUMNS = frozenset({"session", "sessions", "talk", "talks", "title", "topic"})


ACCOUNT_LABEL = re.compile(r"^\W*(?:github|gh|handles?|logins?|users?(?:names?)?)\W*$", re.I)
TRANSPOSED_MIN = 2  # names across the header row


def people_of_row(row: Row, header: Row) -> list[Item]:
    """The people a table row gives as list items: a row each (`name_row`), or, in a transposed
    table, a column each, given at its first row (`transposed`)."""
    if transposed_names(header):
        return transposed(row, header) if row.row_no == header.row_no + 1 else []
    item = name_row(row, header)
    return [item] if item is not None else []


def transposed_names(header: Row) -> list[str]:
    """The names across a header row whose first cell titles them ("| Name | A | B |")."""
    titles = [collapse(c.text) for c in header.cells]
    if len(titles) <= TRANSPOSED_MIN or titles[0].lower() not in NAME_COLUMNS:
        return []
    found = [t for t in titles[1:] if t]
    return found if all(_people.looks_like_name(t) for t in found) else []


def transposed(row: Row, header: Row) -> list[Item]:
    """A transposed table's people, one item a column: the header's name, with the account the
    same column of this row links when the row is labelled as accounts ("| github | [@a](url)")."""
    accounts = bool(row.cells) and bool(ACCOUNT_LABEL.match(row.cells[0].text))
    out = []
    for column, name in enumerate(transposed_names(header), start=1):
        cell = row.cells[column] if accounts and column < len(row.cells) else None
        text = f"{name} ({collapse(cell.text)})" if cell is not None and cell.text.strip() else name
        links = cell.links if cell else ()
        out.append(Item(quote=header.quote, text=text, links=links, list_no=-2 - header.table_no,
                        depth=0, parent=None, line=header.line))  # fmt: skip
    return out


def name_row(row: Row, header: Row) -> Item | None:
    """A row of a table whose first column is titled as names ("Name", "Member"), as a list
    item: the name, its other cells in brackets ("A (IBM, Fabric)")."""
    titles = [c.text.strip().lower() for c in header.cells]
    if not titles or not row.cells:
        return None
    column = 0 if titles[0] in NAME_COLUMNS else None
    if column is None and not any(titles):  # a header of blank cells ("| ![](img) | Name |
        # Area |" rows): the first cell that is a name alone is the person's
        column = next((i for i, c in enumerate(row.cells)
                       if _people.looks_like_name(collapse(c.text))), None)  # fmt: skip
    if column is None or column >= len(row.cells):
        return None
    name = collapse(row.cells[column].text)
    rest = [collapse(c.text) for c in row.cells[column + 1 : column + 2] if collapse(c.text)]
    text = f"{name} ({', '.join(rest)})" if rest else name
    return Item(
        quote=row.quote,
        text=text,
        links=row.cells[column].links,
        list_no=-2 - header.table_no,
        depth=0,
        parent=None,
        line=row.line,
    )


def row_claims(row: Row, header: Row, context: Context, date_line: str | None,
                section: Section) -> Iterator[Claim]:  # fmt: skip
    titles = [c.text.strip().lower() for c in header.cells]
    people_column = next((i for i, t in enumerate(titles) if t in TABLE_PEOPLE_COLUMNS), None)
    if people_column is None or people_column >= len(row.cells) or not context.post.title:
        return
    session_column = next((i for i, t in enumerate(titles) if t in TABLE_SESSION_COLUMNS), None)
    session = (
        row.cells[session_column].text
        if session_column is not None and session_column < len(row.cells)
        else None
    )
    _, people, _ = names.mask(row.cells[people_column].text)
    locator = f"line {row.line}, table column '{header.cells[people_column].text.strip()}'"
    for person in people:
        qualifiers = {"date": date_line, "session": session}
        yield context.claim(names.Person(person.name), TABLE_PEOPLE_COLUMNS[titles[people_column]],
                            context.post.title, qualifiers, locator, row.quote)  # fmt: skip
