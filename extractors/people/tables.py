"""Who a table lists: its columns sorted by what their header says and what their cells hold.

The people column is the one whose cells name people (`_entries.read`), whatever its header
says ("Name", "Representative", "Member", "Staff Contact", none at all); among several, a header
that names people wins. The other columns are read by their header words: a handle column, an
e-mail column, an organisation column (Affiliation, Company, Organization, Employer; in a table
without a header, a column whose cells read as organisations), a role column (Role, Position,
Title), a status column, an area column (Area, Component, Scope, Repository; and a "Name"
column that does not hold people: a working group's name). Term, date and time-zone columns are
not read.

A cell that names several people (lines joined by `<br>`, a comma list) gives each of them, and
the row's first other column is then their section (a term: "June 1st, 2025 - May 31, 2026");
when one such row says it is the current one, the others are past.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

from extractors.document.model import Cell, Row, collapse, github_login
from extractors.people import entries as _entries
from extractors.people import names as _people
from extractors.people import orgs as _orgs
from extractors.people.entries import Entry

COLUMNS: tuple[tuple[str, frozenset[str]], ...] = (
    ("avatar", frozenset({"avatar", "photo", "picture", "image"})),
    ("handle", frozenset({"github", "handle", "username", "gh", "login", "account", "profile"})),
    ("email", frozenset({"email", "e-mail", "mail"})),
    ("affiliation", frozenset({"affiliation", "company", "employer", "organization",
                               "organisation", "org", "institution", "affiliations"})),
    ("term", frozenset({"term", "terms", "since", "start", "year", "years", "date", "ends",
                        "zone", "timezone", "tz", "location", "locale", "country", "region",
                        "city", "elected", "appointed"})),
    ("status", frozenset({"status", "state", "active"})),
    ("role", frozenset({"role", "roles", "position", "title", "seat"})),
    ("person", frozenset({"maintainer", "maintainers", "member", "members", "person", "people",
                          "who", "committer", "committers", "reviewer", "owner", "owners",
                          "contributor", "representative", "representatives", "contact",
                          "lead", "leads", "chair", "delegate", "liaison"})),
    ("name", frozenset({"name", "names"})),
    ("area", frozenset({"area", "areas", "scope", "component", "components", "module",
                        "modules", "focus", "expertise", "subsystem", "responsibility",
                        "responsibilities", "project", "projects", "team", "group", "sig", "wg",
                        "working"})),
    ("repository", frozenset({"repository", "repositories", "repo", "repos"})),
)  # fmt: skip
# a value that says it is not filled in (a cell "-", `company: UNKNOWN`, "n/a", "TBD")
PEOPLE_SHARE = 0.5
MEMBERSHIP = re.compile(r"\bmembers?\W*$", re.I)  # a membership class, not an employer
says_empty = _people.says_empty  # a placeholder for nothing ("TBD", "n/a", "vacant")
CURRENT = re.compile(r"\bcurrent\b", re.I)


@dataclass
class Found:
    entry: Entry
    row: Row
    role: str | None  # the row's role cell
    section: str | None  # a label cell, for rows that list several people
    emeritus: bool


def column_kind(header: str) -> str | None:
    words = set(re.findall(r"[\w-]+", header.lower()))
    for kind, names in COLUMNS:
        if words & names:
            return kind
    return None


def _entries_of(cell: Cell, *, commas_part_people: bool = False) -> list[Entry]:
    """The people a cell names: one a line (`<br>`); several joined by commas when the table
    keeps organisations in a column of their own (else "Jane Roe, Red Hat" is one person and her
    employer), when three or more parts all read as people, or when each part names an account."""
    if says_empty(cell.text):
        return []
    if len(cell.lines) > 1:
        found = []
        for line in cell.lines:
            links = tuple(link for link in cell.links if link[0] and link[0] in line)
            found.extend(_entries.read(line, links))
        card = _card(cell, found)
        return [card] if card is not None else found
    parts = [p.strip() for p in cell.text.split(", ") if p.strip()]
    if len(parts) >= 2:
        people = [
            _entries.read(p, tuple(x for x in cell.links if x[0] and x[0] in p)) for p in parts
        ]
        # "Jane Roe (jroe), Max Muster (mmuster)": each part names its own account, where "Jane
        # Roe, Red Hat" names one
        marked = all(len(p) == 1 and p[0].github for p in people)
        if (commas_part_people or len(parts) >= 3 or marked) and all(
            len(p) == 1 and _named(p) for p in people
        ):
            return [p[0] for p in people]
    return _entries.read(cell.text, cell.links)


def _card(cell: Cell, found: list[Entry]) -> Entry | None:
    """A cell that is one person's card, its fields a line each ("Jane Roe", "jroe",
    "Committer, PMC member", "/in/jroe", "@jroe"): one line reads as a name and the others name
    nobody but an account. The handle is a GitHub profile linked from the card, else a bare
    login printed on a line of its own; an "@x" linked to another site (Twitter, Mastodon) is
    that site's account, not a GitHub login."""
    named = [e for e in found if _people.looks_like_name(e.name) and e.name != e.github]
    if len(named) != 1 or len(found) - 1 > len(cell.lines) // 2:
        return None  # several names, or several accounts standing for people
    entry = named[0]
    if cell.lines[0].strip() != entry.name and not cell.lines[0].startswith(entry.name):
        return None  # a card opens with its name
    if entry.github is None:
        logins = [github_login(target) for _label, target in cell.links]
        lines = [line.strip() for line in cell.lines[1:]]
        labels = [label.strip() for label, _target in cell.links]
        bare = [  # a login on a line of its own that is not (only) a link's text
            line
            for line in lines
            if _entries.HANDLE_TOKEN.match(line)
            and line == line.lower()
            and not line.startswith("@")
            and lines.count(line) > labels.count(line)
        ]
        entry.github = next((x for x in logins if x), None) or (bare[0] if bare else None)
    return entry


def _named(entries: list[Entry]) -> bool:
    return any(e.github or e.email or _people.looks_like_name(e.name) for e in entries)


def _linked_people(row: Row) -> bool:
    """Every cell of the row with text is a person linked to a profile (a row of cards)."""
    cells = [c for c in row.cells if c.text.strip()]
    return len(cells) >= 2 and all(
        column_kind(c.text) is None and any(e.github for e in _entries_of(c)) for c in cells
    )


def _is_header(row: Row) -> bool:
    if row.header:  # a first row of linked people is the grid's first row, not its header
        return not _linked_people(row)
    kinds = [column_kind(c.text) for c in row.cells if c.text.strip()]
    if any(_named(_entries_of(c)) for c in row.cells):
        return False
    # a header row printed as plain cells ("Name | Email | Locale | PGP Key ID"): all its cells
    # are column names, or a name column leads most of them
    known = [k for k in kinds if k]
    return bool(kinds) and (
        len(known) == len(kinds)
        or (kinds[0] in ("name", "person") and len(known) >= 2 and 2 * len(known) > len(kinds))
    )


def read(rows: list[Row], *, in_role_section: bool = True) -> Iterator[Found]:
    """The people of a table. Outside a section that names a role, a table whose people column
    is only headed "Name" (or not at all) must say more of them (a handle, e-mail, organisation
    or role column): a table of projects or documents has names too."""
    if not rows:
        return
    header = rows[0] if _is_header(rows[0]) else None
    body = [r for r in rows if r is not header and not (r.header and _is_header(r))]
    if not body:
        return
    width = max(len(r.cells) for r in body)
    kinds = [column_kind(c.text) for c in header.cells] if header else []
    kinds += [None] * (width - len(kinds))
    commas = "affiliation" in kinds  # organisations have their own column
    cells = [[_entries_of(r.cells[i], commas_part_people=commas) if i < len(r.cells) else []
              for i in range(width)]
             for r in body]  # fmt: skip
    if header is None and (captioned := list(_captioned(body, cells))):
        yield from captioned  # rows of person cards, each with a row of captions below it
        return
    share = [sum(_named(row[i]) for row in cells) / len(body) for i in range(width)]
    candidates = [i for i in range(width) if share[i] >= PEOPLE_SHARE and kinds[i] != "email"]
    if not candidates and width == 1 and len(body) > 1 and len(cells[0][0]) == 1:
        card = cells[0][0][0]  # one person's card as a table: their name, then text about them
        yield Found(card, body[0], None, None, card.emeritus)
        return
    if not candidates:
        return
    orgs = [sum(_org_cell(r.cells[i].text) for r in body if i < len(r.cells)) for i in range(width)]
    grid = all(count < PEOPLE_SHARE * len(body) for count in orgs)
    empty = [i for i in range(width) if all(_blank(r, i) for r in body)]  # photos, spacers
    if header is None and grid and len(candidates) >= 2 and len(candidates) + len(empty) == width:
        yield from _cards(body, cells)  # a grid of person cards: every cell is a person
        return
    by_header = [i for i in candidates if kinds[i] == "person"]
    by_header = by_header or [i for i in candidates if kinds[i] == "name"]
    names_first = [i for i in candidates if kinds[i] not in ("handle", "affiliation", "role")]
    people = (by_header or names_first or candidates)[0]
    column = {kind: i for i, kind in reversed(list(enumerate(kinds))) if kind and i != people}
    supported = {"handle", "email", "affiliation", "role"} & set(column)
    if not in_role_section and kinds[people] != "person" and not supported:
        return
    for kind in ("name", "repository"):  # a working group's name before its repository
        if kind in column:
            column.setdefault("area", column.pop(kind))
    if "handle" not in column and (at := _profile_column(body, people, column)) is not None:
        column["handle"] = at  # "Name | URL" with github.com/<login> links: the handle column
    if header is None:  # an organisation column is known by its cells
        for i in range(width):
            if i != people and i not in column.values():
                texts = [r.cells[i].text for r in body if i < len(r.cells)]
                texts = [t for t in texts if not says_empty(t)]
                org_cells = sum(_org_cell(t) for t in texts)
                if texts and org_cells >= PEOPLE_SHARE * len(texts):
                    column.setdefault("affiliation", i)
    several = sum(len(row[people]) > 1 for row in cells) >= PEOPLE_SHARE * len(body)
    # a row listing several people is labelled by a column that is not an area, organisation or
    # role: a term ("June 1st, 2025 - May 31, 2026"), or one the header does not name
    label_at = next(
        (i for i in range(width) if i != people and kinds[i] in (None, "term", "avatar")), None
    )
    current_rows = [
        r
        for r in body
        if several and label_at is not None and label_at < len(r.cells)
        and CURRENT.search(r.cells[label_at].text)
    ]  # fmt: skip
    for row, found in zip(body, cells, strict=True):
        section = None
        if several and label_at is not None and label_at < len(row.cells):
            section = collapse(row.cells[label_at].text) or None
        past = bool(current_rows) and row not in current_rows
        for entry in found[people]:
            yield _fill(entry, row, column, section, past)


def _captioned(body: list[Row], cells: list[list[list[Entry]]]) -> Iterator[Found]:
    """A grid of person cards whose rows alternate with caption rows ("Eric Holscher" |
    "Anthony Johnson", then "All teams" | "All teams"): each person, the caption below their
    cell as their area. Every other row is a row of linked people, every caption row follows
    one and names nobody."""
    people = [i for i, row in enumerate(body) if _linked_people(row)]
    others = [i for i in range(len(body)) if i not in people]
    if (
        len(people) < 2
        or not others
        or any(i - 1 not in people or any(_named(c) for c in cells[i]) for i in others)
    ):
        return
    for i in people:
        below = body[i + 1] if i + 1 in others else None
        for column, entries in enumerate(cells[i]):
            caption = None
            if below is not None and column < len(below.cells):
                caption = collapse(below.cells[column].text) or None
            for entry in entries:
                if caption and entry.area is None:
                    entry.area = caption
                yield Found(entry, body[i], None, None, entry.emeritus)


def _blank(row: Row, i: int) -> bool:
    return i >= len(row.cells) or not row.cells[i].text.strip()


def _org_cell(text: str) -> bool:
    head = text.split(" (")[0]
    return _orgs.looks_like_org(head) and not _people.looks_like_name(head)


def _cards(body: list[Row], cells: list[list[list[Entry]]]) -> Iterator[Found]:
    for row, found in zip(body, cells, strict=True):
        for entries in found:
            for entry in entries:
                yield Found(entry, row, None, None, entry.emeritus)


def _profile_column(body: list[Row], people: int, column: dict[str, int]) -> int | None:
    """A column whose header says nothing known ("URL", "Web") and whose filled cells (two or
    more; the others "-" or empty) are each one link to a GitHub profile."""
    width = max(len(r.cells) for r in body)
    for i in range(width):
        if i == people or i in column.values():
            continue
        cells = [r.cells[i] for r in body if i < len(r.cells) and not says_empty(r.cells[i].text)]
        profiles = [c for c in cells if _profile_login(c)]
        if len(profiles) >= 2 and len(profiles) == len(cells):
            return i
    return None


def _profile_login(cell: Cell) -> str | None:
    """The login of a cell that is one GitHub profile link, or its bare URL."""
    if len(cell.links) == 1:
        return github_login(cell.links[0][1])
    return None if cell.links else github_login(cell.text.strip())


def _cell(row: Row, column: dict[str, int], kind: str) -> Cell | None:
    at = column.get(kind)
    if at is None or at >= len(row.cells):
        return None
    cell = row.cells[at]
    return None if says_empty(cell.text) else cell


def _fill(entry: Entry, row: Row, column: dict[str, int], section: str | None,
          past: bool) -> Found:  # fmt: skip
    handle = _cell(row, column, "handle")
    if handle is not None and entry.github is None:
        logins = [github_login(target) for _label, target in handle.links]
        text = handle.text.strip().lstrip("@")
        entry.github = (
            next((x for x in logins if x), None)
            or github_login(text)
            or (text.lower() if _entries.HANDLE_TOKEN.match(text) else None)
        )
    email = _cell(row, column, "email")
    if email is not None and entry.email is None:
        match = _people.find_email(email.text)
        entry.email = match.group(1) if match else None
    org = _cell(row, column, "affiliation")
    if org is not None and not MEMBERSHIP.search(org.text):  # ("General Members": a class)
        entry.affiliation = collapse(org.text)
        entry.org_field = True
    area = _cell(row, column, "area")
    if area is not None and entry.area is None:
        entry.area = collapse(area.text)
    emeritus = past or entry.emeritus
    status = _cell(row, column, "status")
    if status is not None and _people.is_emeritus(status.text):
        emeritus = True
    role = None
    role_cell = _cell(row, column, "role")
    if role_cell is not None:
        value = collapse(role_cell.text)
        if _people.is_emeritus(value):
            emeritus = True
        elif _entries.LEAD_TAG.fullmatch(value.lower().strip(" *")) or re.fullmatch(
            r"(?:vice[- ])?chair(?:person)?", value.strip(" *"), re.I
        ):
            entry.lead = entry.lead or not value.lower().startswith("vice")
            entry.titles.append(value.lower().strip(" *"))  # "Chair": a title on the list's role
        elif _people.role_of(value) or _orgs.TITLE_WORDS.search(value):
            role = value
        elif entry.area is None:
            entry.area = value  # "Scheduler": what the person looks after
    return Found(entry, row, role, section, emeritus)
