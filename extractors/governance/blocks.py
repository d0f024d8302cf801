"""What the governance reader asks of blocks and entries: runs of blocks, label lines, person
cards and headings, role columns, data-file records (pure functions, used by `governance`)."""

from __future__ import annotations

import re
from itertools import islice
from typing import Any

from extractors.document.model import (
    Block,
    Code,
    Document,
    Heading,
    Item,
    Para,
    Record,
    Row,
    Term,
    github_login,
)
from extractors.governance import quiet as _quiet
from extractors.governance.profile import profile_card
from extractors.people import entries as _entries
from extractors.people import links as _links
from extractors.people import names as _people
from extractors.people import orgs as _orgs
from extractors.people import prose as _prose
from extractors.people import tables as _tables
from extractors.people.entries import Entry

CARD_MAX_CHARS = 160  # a person card's text: a name, a handle, an organisation
LABEL_MAX_WORDS = 8  # "Maintainers for specific parts of the codebase:" is a label
LEAD_IN_MAX_WORDS = 12  # "The current members of the Technical Steering Committee are:"
LEAD_IN = re.compile(
    r"^(?:the\s+)?following\s+(?:\w+\s+){0,3}?(?:are|is)\s+(?:(?:\w+\s+){0,2}?as\s+)?"
    r"(?P<label>.+)$",
    re.IGNORECASE,
)
# what a lead-in says of its list rather than naming it ("The following is a list of developers
# with commit privileges that have contributed ..."): no label (the heading above stays one)
DESCRIPTION = re.compile(r"^(?:an?|the)\s+list\s+of\b|\b(?:that|who|which|whose)\b", re.I)
# a line that only says how the list below is sorted names no group: not a label
ORDER_ONLY = re.compile(
    r"^(?:(?:listed|given|sorted|shown)\s+)?in\s+(?:\w+\s+)?"
    r"(?:alphabetical|chronological|random|particular|no particular)\s+order$"
    r"|^(?:sorted|ordered|listed)\s+(?:alphabetically|by\s+\w+(?:\s+\w+)?)$",
    re.IGNORECASE,
)
# a line of a literal block of names: one to five capitalised words (a list of names may hold a
# one-word name, and words such as "Page" that `_people` does not take for a name elsewhere)
RECORD_NAME = ("name", "full_name", "fullname", "display_name", "displayname")
RECORD_HANDLE = ("github", "gh", "handle", "login", "username", "user", "github_handle",
                 "gh_login", "github_login", "github_username", "github_user")  # fmt: skip
RECORD_ORG = ("company", "affiliation", "organization", "organisation", "employer", "org",
              "organizations", "organisations", "affiliations", "companies")  # fmt: skip
RECORD_ROLE = ("role", "title", "position")
RECORD_NOTE = ("description", "bio", "about", "note", "notes")  # free text about the person
TRUE = frozenset((True, "true", "yes", "y", "1"))
FALSE = frozenset((False, "false", "no", "n", "0"))
# --- object ---------------------------------------------------------------------------------


def cards(blocks: list[Block], start: int) -> list[tuple[Para, Entry]]:
    """The paragraphs from `start` on that each are one person's card ("Jane Roe" with a
    profile link, "Jane Roe, Example Labs"): short, naming one person and little else."""
    found: list[tuple[Para, Entry]] = []
    for index in range(start, len(blocks)):
        block = blocks[index]
        if not isinstance(block, Para) or len(block.text) > CARD_MAX_CHARS:
            break
        people = _entries.read(block.text, block.links)
        if len(people) != 1 or not _people.looks_like_name(people[0].name):
            break
        linked = bool(people[0].github or people[0].email or block.links)
        if (
            len(people[0].name) * 2 < len(block.text)
            and not linked
            and not (found and (found[-1][1].github or found[-1][1].email or found[-1][0].links))
        ):  # a sentence that happens to start with a name (not a card in a run of linked ones)
            break
        found.append((block, people[0]))
    return found


def is_card_run(blocks: list[Block], start: int, cards: list[tuple[Para, Entry]],
                least: int) -> bool:  # fmt: skip
    """A run of person cards from `start`: `least` of them, or cards that each give a profile or
    an e-mail address: two, or one alone under its heading (the one former member of a team)."""
    if len(cards) >= least:
        return True
    if not cards or not all(e.github or e.email for _p, e in cards):
        return False
    after = start + len(cards)
    alone = (start > 0 and isinstance(blocks[start - 1], Heading)) and (
        after >= len(blocks) or isinstance(blocks[after], Heading)
    )
    return len(cards) >= 2 or alone


def term_people(term: Term) -> tuple[list[Entry], str | None]:
    """The people a definition list's term names, with what its description says of the one
    it names ("Jane Roe" : "Chair, Example Labs"); else those its description names, under the
    term as their label (None: the term names them)."""
    people = _entries.read(term.term, term.links)
    if len(people) == 1 and term.text and len(term.text) <= CARD_MAX_CHARS:
        said = _entries.read(f"{term.term}, {term.text}", term.links)
        if len(said) == 1 and said[0].name == people[0].name:
            people[0].affiliation = people[0].affiliation or said[0].affiliation
            people[0].titles.extend(t for t in said[0].titles if t not in people[0].titles)
    if people:
        return people, None
    return _entries.read(term.text, term.links), term.term


def heading_person(heading: Heading) -> Entry | None:
    """The person a heading names: a name ("### Jane Roe") or an account alone ("## @jroe")."""
    if _people.role_of(heading.text) or _quiet.QUIET_HEADING.search(heading.text):
        return None
    people = _entries.read(heading.text)
    if len(people) != 1 or people[0].area is not None:
        return None
    if _people.looks_like_name(people[0].name) or handle_heading(heading):
        return people[0]
    return None


def handle_heading(heading: Heading) -> bool:
    """The heading is an @account alone ("@jroe"): a person, never a group's name."""
    text = heading.text.strip()
    return text.startswith("@") and _entries.HANDLE_TOKEN.match(text) is not None


def share(flags: list[bool]) -> float:
    return sum(flags) / len(flags) if flags else 0.0


def run(blocks: list[Block], start: int) -> list[Block]:
    """The blocks of one list, table, definition list or data array from `start` on (read in
    place: a copy of the rest of the document per run made long pages quadratic)."""
    first = blocks[start]
    if isinstance(first, Para | Code):
        return [first]
    out: list[Block] = [first]
    for index in range(start + 1, len(blocks)):
        block = blocks[index]
        if type(block) is not type(first) or group(block) != group(first):
            break
        out.append(block)
    return out


def group(block: Block) -> Any:
    if isinstance(block, Item | Term):
        return block.list_no
    if isinstance(block, Row):
        return block.table_no
    if isinstance(block, Record):
        return block.path
    return None


def label_of(text: str, *, lead_in: bool = False) -> str | None:
    """A line that labels the list after it: "General maintainers:", "The following people
    are recognized as current committers." -> "current committers". `lead_in` (a list under
    no heading): a sentence that leads into it and names its role ("The current maintainers
    are:") is its label too, as printed without its colon (under a heading, the heading is)."""
    if len(text) > 160 or "\n" in text:
        return None
    stripped = text.strip()
    if ORDER_ONLY.match(stripped.rstrip(".:").strip(" *_()")):
        return None
    words = re.findall(r"[\w'-]+", stripped.lower())
    sentence = {"is", "are", "were"} & set(words) or _prose.PROSE_INTRO.search(stripped)
    if stripped.endswith(":") and len(words) <= LABEL_MAX_WORDS and not sentence:
        return stripped.rstrip(":").strip(" *_")
    label = stripped.rstrip(":").strip(" *_")
    lead = lead_in and stripped.endswith(":") and len(words) <= LEAD_IN_MAX_WORDS
    if lead and (_people.role_of(label) or _people.is_emeritus(label)):
        return label
    match = LEAD_IN.match(stripped.rstrip(".:"))
    if match and (_people.role_of(match.group("label")) or _people.is_emeritus(stripped)):
        said = match.group("label").strip()
        return None if DESCRIPTION.search(said) else said
    return None


def represents(block: Block) -> bool:
    """An item naming an organisation's representative ("Example Labs. Representative Jane
    Roe."): a person holding a seat, though listed among partners, sponsors or funders."""
    return isinstance(block, Item) and _links.REPRESENTED.match(block.text) is not None


def lists_under(blocks: list[Block], index: int) -> bool:
    """The heading at `index` has a list or a table under it (before the next heading): what a
    group's heading holds, where a person's heading holds a bio."""
    for i in range(index + 1, len(blocks)):
        block = blocks[i]
        if isinstance(block, Heading):
            return False
        if isinstance(block, Item | Row):
            return True
    return False


def described_label(text: str) -> str | None:
    """The label of an item that names a part, not a person: "Label: what it is" (an area
    with its description, "Batch Runner: The OpenAI-compatible batch runner") or a bare code
    span ("`cmd`"), when it carries no handle, address or link (a person's item says "Jane
    Roe: @jroe")."""
    if "@" in text or "](" in text or "http" in text:
        return None
    bare = text.strip()
    if re.fullmatch(r"`[^`]+`:?", bare):
        return bare.strip("`:")
    label, sep, rest = bare.partition(": ")
    label = label.strip(" *_`")
    if not sep or not label or len(rest.split()) < 2:
        return None
    return label


def area_label(text: str) -> str:
    return text.strip().rstrip(":").strip(" *_`")


def label_entry(entry: Entry, label: str) -> None:
    if _orgs.TITLE_WORDS.search(label):
        entry.titles.append(label)
        entry.lead = entry.lead or bool(_entries.LEAD_TAG.search(label))
    else:
        entry.area = entry.area or label


def row_role(value: str | None, frame_role: str | None) -> str | None:
    if not value:
        return None
    own = _people.role_of(value)
    if own and not _people.is_generic(own):
        return acronyms(" ".join(w if w.isupper() else w.lower() for w in value.split()))
    word = value.strip().lower()
    if frame_role and word not in ("member", "members") and len(word.split()) == 1:
        head = frame_role.rsplit(" ", 1)[0] if " " in frame_role else ""
        return f"{head} {word}".strip()
    return None


def acronyms(text: str) -> str:
    return " ".join(w.upper() if w.lower() in ("pmc", "tsc", "toc", "tac", "wg") else w
                    for w in text.split())  # fmt: skip


def org_from_prose(entry: Entry, sentence: str) -> None:
    at = sentence.find(entry.name)
    if at < 0:
        return
    match = re.match(r"\s*\(([^()]{2,60})\)", sentence[at + len(entry.name) :])
    if match and _orgs.looks_like_org(match.group(1)):
        entry.affiliation = match.group(1).strip()


def record_entry(record: Record, document: Document) -> tuple[Entry | None, str | None]:
    fields = {k.lower(): v for k, v in record.fields.items()}
    role = None
    if set(fields) == {"value"}:
        value = str(fields["value"] or "").strip()
        entry = None
        if record.comment:
            people = _entries.read(record.comment)
            entry = people[0] if people else None
        if _entries.HANDLE_TOKEN.match(value):
            entry = entry or Entry(name=value)
            entry.github = value.lstrip("@").lower()
            if not _people.looks_like_name(entry.name):
                entry.name = value
        elif entry is None:
            found = _entries.read(value, propose=True)
            entry = found[0] if found else None
    else:
        name = next((str(fields[k]) for k in RECORD_NAME if fields.get(k)), None)
        handle = next((str(fields[k]) for k in RECORD_HANDLE if fields.get(k)), None)
        if name is None and handle is None and (linked := profile_card(fields)):
            name, handle = linked  # a site card: its printed text and its profile link
        if name is None and (named := card_title_name(record, document)):
            name = named  # a Hugo card page: `title = "Jane Roe"`, `github = "jroe"`
            fields = {k: v for k, v in fields.items() if k != "title"}
        if handle and "/" in handle:  # a profile URL (`socials: {github: https://...}`)
            handle = github_login(handle)
        org_word = bool(not handle and name and _people.org_word_name(name))
        if not handle and not (name and _people.looks_like_name(name)) and not org_word:
            return None, None
        entry = Entry(name=name or handle or "", org_word=org_word)  # "Phillip Cloud": weighed
        entry.github = handle.lstrip("@").lower() if handle else None
        email = fields.get("email")
        entry.email = str(email) if isinstance(email, str) else None
        org = next((_first(fields[k]) for k in RECORD_ORG if _first(fields.get(k))), None)
        if org and _tables.says_empty(org):  # `company: UNKNOWN`: the field is not filled in
            org = None
        entry.affiliation = org
        entry.org_field = org is not None
        if org is None:  # `description: Internet Archive`: a note that reads as an organisation
            note = next((fields[k] for k in RECORD_NOTE if isinstance(fields.get(k), str)), None)
            if note and not _tables.says_empty(note) and _orgs.note_org(note):
                entry.affiliation = note.strip()
        title = next((fields[k] for k in RECORD_ROLE if isinstance(fields.get(k), str)), None)
        if title and card(record, document):  # a card's own role field is its role
            own = _people.role_of(str(title))
            role = own if own and not _people.is_generic(own) else None
            entry.lead = bool(_entries.LEAD_TAG.search(str(title)))
        elif title:
            label_entry(entry, str(title))
        entry.area = referenced(fields, document)
        status = fields.get("status")
        if isinstance(status, str) and _people.is_emeritus(status):  # `status: Inactive`
            entry.emeritus = True
        if flagged_emeritus(fields):  # `emeritus: true`, `active: false`
            entry.emeritus = True
    if entry is None:
        return None, None
    key = record.path[-1] if record.path else ""
    if key and _people.is_emeritus(key.replace("_", " ").replace("-", " ")):
        entry.emeritus = True
    if key:
        own = _people.role_of(key.replace("_", " ").replace("-", " "))
        role = own if own and not _people.is_generic(own) else None
    return entry, role


def flagged_emeritus(fields: dict[str, Any]) -> bool:
    """A record's flag says the person is past: an emeritus-like key set true
    (`emeritus: true`, `retired: yes`) or `active` / `current` set false."""
    for key, value in fields.items():
        if not isinstance(value, str | bool | int):
            continue
        flag = value.lower() if isinstance(value, str) else value
        if key in ("active", "current") and flag in FALSE:
            return True
        if _people.is_emeritus(key.replace("_", " ")) and flag in TRUE:
            return True
        if isinstance(value, str) and _entries.PAST_NOTE.search(value):  # `subtext: "(retired)"`
            return True
    return False


def _first(value: Any) -> str | None:
    """A field's text: the value, or a list's first string (`organizations = ["A", "B"]`)."""
    if isinstance(value, list):
        value = next((v for v in value if isinstance(v, str) and v.strip()), None)
    return str(value) if value else None


def card(record: Record, document: Document) -> bool:
    """The record is the whole document: one person's card (a TOML card, a page's front
    matter), whose role field says the role itself, not a title within a list's role."""
    if record.path or record.record_no != 1:
        return False
    records = (b for b in document.blocks if isinstance(b, Record))
    return len(list(islice(records, 2))) == 1


def card_title_name(record: Record, document: Document) -> str | None:
    """A card's `title` field when it is the person's name (a page per person: the front
    matter's title is who the page is about, not a role), else None."""
    title = record.fields.get("title")
    if not isinstance(title, str) or not card(record, document):
        return None
    title = " ".join(title.split())
    if _people.role_of(title) or not _people.looks_like_name(title):
        return None
    return title


def role_sections(records: list[Record]) -> dict[int, str]:
    """A top-level list of records that all print a role ("PMC", "Committer"): each record's
    role is the group it is listed in (record number -> role). A role only some print
    ("chair" among nulls) is a title, not a group; so is one that most records print in their
    own words (job titles: "Creator", "Staff Frontend Engineer"): groups are shared."""
    found: dict[int, str] = {}
    for record in records:
        fields = {k.lower(): v for k, v in record.fields.items()}
        value = next((fields[k] for k in RECORD_ROLE if isinstance(fields.get(k), str)), None)
        if not value or record.path:
            return {}
        found[record.record_no] = str(value).strip()
    if len(found) >= 3 and len(set(found.values())) * 2 > len(found):
        return {}
    return found


def referenced(fields: dict[str, Any], document: Document) -> str | None:
    """The description of the record another field points to (`roles = ["council-rep-x"]`)."""
    for value in fields.values():
        ids = value if isinstance(value, list) else [value]
        for table in document.tables.values():
            for row in table:
                if row.get("id") in ids:
                    text = row.get("description") or row.get("name") or row.get("title")
                    if isinstance(text, str):
                        return text
    return None
