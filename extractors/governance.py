"""Any project's governance page (maintainers, steering council, committers, core team) -> claims.

The fallback for governance pages no project-specific extractor claims (it is the last entry of
the registry). Reads HTML, Markdown, reStructuredText and plain text through one block stream
(`extractors._blocks`), and finds people in four layouts:

- lists under headings: "Name (handle)", "Name <email>", "[Name](https://github.com/handle)",
  "@handle: area", "handle - area"; a list counts when at least half its items name a person
  (`_people.person`), so lists of responsibilities or links yield nothing;
- tables whose header row names a Name or Handle/GitHub column (case-insensitive, `COLUMNS`);
  an Affiliation/Company/Employer column gives an `affiliation` claim per person, a Role/Status
  column can mark a chair (level `lead`) or an emeritus, an Area column gives the scope;
- prose: "The 2026 term steering council consists of: A, B, C, D and E.", "... consists of A, B,
  and C", "Members: A, B", "Chair: A", "A is the chair" (the chair gets level `lead`);
- emeritus: a heading with Emeritus/Former/Alumni/Past/Retired/Inactive (and every heading under
  it), or an "(emeritus)" marker on the entry.

Qualifiers of a `maintainer` claim: `role` = the page's word for the group, singular
(`_people.role_of` on the nearest heading that has one, else the page title, else the URL, else
"member"); `level` only when the words say it (lead/BDFL/chair -> lead, core -> core, an area ->
module); `section` = the nearest heading as printed (the page title when there is none); `scope` =
the area when printed (an "area" sub-heading under a people heading, or "Name: area");
`status` current/emeritus.

Object rule (`project_of`): the page title (HTML <title>, PEP "Title:" header, front matter,
else the first heading) is cut at " | ", " — ", " – ", " - ", ": "; segments that are a PEP number
or a host name are dropped; in the first segment that keeps a word once the generic words
(`TITLE_NOISE`: Governance, Maintainers, Team, Members, Documentation, Language, ...) and version
numbers are taken out, the words left are the project: "Python Language Governance" -> "Python",
"Core team — Foo 2.1 documentation" -> "Foo". With no such title: the repository name of a GitHub
URL, else the site's name from the host, capitalised: the last label before the top-level domain
that is not a generic one ("docs.quarkflow.dev" -> "Quarkflow", "stratumdb.example.org" ->
"Stratumdb").

Evidence: Markdown/reST quote the raw source (item after its marker, table row line, the sentence
as printed); HTML the element's text, whitespace collapsed. Locators: "h2 'Core Team' > li 3"
(items counted under the heading), "table 1 > row 4" (rows counted with the header), "h1 'Current
steering council' > paragraph 1 > name 2".
"""

from __future__ import annotations

import re
import weakref
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

from extractors import _people
from extractors._blocks import (
    Block,
    Document,
    Heading,
    Item,
    Para,
    Row,
    html_document,
    markdown_document,
    rst_document,
)
from extractors._labels import Labels
from extractors._people import Person, wordset
from extractors.pytorch_governance import _collapse, _decode
from ingest.documents import parse_html
from ingest.errors import ExtractionError, RedirectStubError, UnsupportedFormatError
from ingest.models import Claim, Evidence, Snapshot, Subject
from ingest.redirects import stub_target_in
from ingest.sniff import sniff_format

NAME = "governance"
VERSION = 1
TAG = f"{NAME}/{VERSION}"

# --- which URLs and documents are governance pages -------------------------------------------
URL_PATTERN = re.compile(
    r"governance|maintainers|committers|council|steering|/team(?:s)?\b|/people\b|pep-0013"
    r"|/core-?team|/tsc\b",
    re.IGNORECASE,
)
CONTENT_PATTERN = re.compile(
    r"\bmaintainers?\b|steering council|steering committee|\bcommitters?\b|core team"
    r"|\bgovernance\b|\bmembers\b|\btsc\b",
    re.IGNORECASE,
)
READ_FORMATS = ("html", "markdown", "rst", "text")

# --- table header words (folded) -> column kind; the first kind whose words a header has wins --
COLUMNS: tuple[tuple[str, frozenset[str]], ...] = (
    ("handle", frozenset({"github", "handle", "username", "user", "gh", "login", "account"})),
    ("email", frozenset({"email", "e-mail", "mail"})),
    (
        "affiliation",
        frozenset(
            {
                "affiliation",
                "company",
                "employer",
                "organization",
                "organisation",
                "org",
                "institution",
                "sponsor",
            }
        ),
    ),  # fmt: skip
    (
        "name",
        frozenset(
            {
                "name",
                "maintainer",
                "maintainers",
                "member",
                "members",
                "person",
                "who",
                "committer",
                "reviewer",
                "owner",
                "contributor",
            }
        ),
    ),  # fmt: skip
    (
        "area",
        frozenset(
            {
                "area",
                "areas",
                "scope",
                "component",
                "components",
                "module",
                "modules",
                "focus",
                "expertise",
                "subsystem",
                "responsibility",
                "responsibilities",
                "project",
            }
        ),
    ),  # fmt: skip
    ("role", frozenset({"role", "roles", "position", "title", "status", "term"})),
)
EMPTY_CELL = frozenset({"", "-", "–", "—", "n/a", "na", "none", "?"})
PEOPLE_LIST_MIN_SHARE = 0.5  # a list names people when at least this share of items do
PROSE_MIN_SHARE = 0.8  # a "consists of" sentence: this share of its parts must be people
# a Markdown or reST paragraph longer than this (as printed) is not read for names: finding each
# sentence's printed form costs the paragraph's length (HTML prints what it reads: no limit)
PROSE_MAX_CHARS = 8192
HANDLE_ITEM = re.compile(
    r"^\s*@?(?=[a-z0-9-]*[a-z])[a-z0-9][a-z0-9-]{0,38}(?:\s*(?::\s|\s[-–—]\s)|\s*$)"
)

# --- prose ----------------------------------------------------------------------------------
PROSE_INTRO = re.compile(
    r"\b(?:consists? of|is composed of|is made up of|comprises|members are|are as follows)"
    r"\s*:?\s*",
    re.IGNORECASE,
)
PROSE_LABEL = re.compile(r"^(?P<label>[^:.]{1,60}):\s+(?P<rest>.+)$")
CHAIR_AFTER = re.compile(
    r"^(?P<name>.+?)\s+(?:is|serves as|was elected(?: as)?)\s+(?:the\s+)?(?:current\s+)?"
    r"(?:[\w-]+\s+){0,3}?(?:chair|chairperson|lead)\b",
    re.IGNORECASE,
)
CHAIR_BEFORE = re.compile(
    r"\b(?:chair|chairperson|lead)\s+is\s+(?P<name>.+)$|\bchaired by\s+(?P<by>.+)$", re.IGNORECASE
)
LIST_SPLIT = re.compile(r"\s*(?:,\s*(?:and\s+)?|;\s*|\s+and\s+|\s*&\s*)", re.IGNORECASE)
SENTENCE_END = re.compile(r"[.!?](?=\s+|$)")

# --- object ---------------------------------------------------------------------------------
TITLE_SEPARATORS = re.compile(r"\s+[|—–-]\s+|:\s+|\s+·\s+")
TITLE_NOISE = wordset("""
    governance maintainers maintainer team teams members member documentation docs language
    project core steering council committee technical committers committer people the of our
    about who we are manual list current emeritus developers developer contributors board owners
    community and & guide page home tsc pmc organization organisation structure leadership
    """)
SKIPPED_TITLE_SEGMENT = re.compile(r"^(?:pep|rfc|kep|jep|gep)\s*\d+$|^[\w-]+(?:\.[\w-]+)+$", re.I)
VERSION_WORD = re.compile(r"^v?\d+(?:\.\d+)*\w*$")
URL_ROLES = (
    ("maintainers", "maintainer"),
    ("committers", "committer"),
    ("council", "council member"),
)
SITE_PREFIXES = ("www.", "docs.", "peps.", "wiki.", "governance.")
HOST_NOISE = wordset("example co com org net ac gov edu")  # second-level labels, not names


# ============================================================================================
# public interface


def matches(url: str, snapshot: Snapshot | None) -> bool:
    """Governance-looking URLs; with a snapshot, content with a governance heading or title."""
    if snapshot is None:
        return URL_PATTERN.search(urlsplit(url).path) is not None
    try:
        document = _parse(snapshot)
    except ExtractionError:
        return False
    texts = [document.title or ""] + [b.text for b in document.blocks if isinstance(b, Heading)]
    return any(CONTENT_PATTERN.search(text) for text in texts)


def extract(snapshot: Snapshot) -> list[Claim]:
    """Claims for every person the page lists, in document order."""
    return list(iter_claims(snapshot))


def iter_claims(snapshot: Snapshot) -> Iterator[Claim]:
    """`extract`, one claim at a time (a caller may keep only the first N, and count the rest).

    A chair named in prose after the list ("A is the chair") turns the member claim already
    given into a `lead` one: claims may change until the iterator is exhausted."""
    document = _parse(snapshot)
    return _Reader(document, snapshot).claims()


def _parse(snapshot: Snapshot) -> Document:
    fmt = sniff_format(snapshot.body, snapshot.content_type, snapshot.url)
    if fmt not in READ_FORMATS:
        raise UnsupportedFormatError(
            snapshot.url, f"{fmt} is not a format {NAME} reads (HTML, Markdown, reST, text)"
        )
    text = _decode(snapshot.body)
    if fmt == "html":
        tree = parse_html(text)
        target = stub_target_in(tree, snapshot.url) if b"<" in snapshot.body[:2048] else None
        if target:
            raise RedirectStubError(snapshot.url, target)
        return html_document(tree)
    if fmt == "rst":
        return rst_document(text)
    return markdown_document(text)


# ============================================================================================
# the object


def page_title(document: Document) -> str | None:
    if document.title:
        return document.title
    headings = [b for b in document.blocks if isinstance(b, Heading)]
    first = next((h for h in headings if h.level == 1), headings[0] if headings else None)
    return first.text if first is not None else None


def project_of(title: str | None, url: str) -> str:
    """The project a governance page is about (rule in the module docstring)."""
    for segment in TITLE_SEPARATORS.split(title or ""):
        segment = segment.strip()
        if not segment or SKIPPED_TITLE_SEGMENT.match(segment):
            continue
        words = [
            w
            for w in segment.split()
            if w.strip("()[],.").lower() not in TITLE_NOISE and not VERSION_WORD.match(w)
        ]
        if words:
            return " ".join(words).strip("()[],.: ")
    return site_name(url)


def site_name(url: str) -> str:
    parts = urlsplit(url)
    host = (parts.hostname or "").lower()
    segments = [s for s in parts.path.split("/") if s]
    if host in ("github.com", "www.github.com", "raw.githubusercontent.com") and len(segments) > 1:
        return segments[1]
    if host.endswith((".readthedocs.io", ".github.io")):
        return host.split(".")[0]
    for prefix in SITE_PREFIXES:
        host = host.removeprefix(prefix)
    labels = [label for label in host.split(".")[:-1] if label not in HOST_NOISE]
    return (labels[-1] if labels else host).capitalize()


def url_role(url: str) -> str | None:
    path = urlsplit(url).path.lower()
    return next((role for word, role in URL_ROLES if word in path), None)


# ============================================================================================
# blocks -> claims


@dataclass
class _Frame:
    level: int
    text: str
    role: str | None
    tier: str | None  # lead, core, module
    emeritus: bool
    scope: str | None


@dataclass
class _Reader:
    document: Document
    snapshot: Snapshot
    # the latest maintainer claim of each (section, name), for a chair named later in prose;
    # weak: a claim the caller dropped (over its limit) is not kept alive for it
    latest: weakref.WeakValueDictionary[tuple[str, str], Claim] = field(
        default_factory=weakref.WeakValueDictionary
    )
    frames: list[_Frame] = field(default_factory=list)
    item_no: int = 0
    para_no: int = 0
    last_role: dict[int, str] = field(default_factory=dict)  # heading level -> its own role

    def __post_init__(self) -> None:
        title = page_title(self.document)
        self.project = project_of(title, self.snapshot.url)
        self.title = title or self.project
        role = self._role_of(title) if title else None
        self.page_role = role or url_role(self.snapshot.url) or "member"

    def _role_of(self, text: str) -> str | None:
        """The heading's role word, without the project's name ("Pebblestore maintainers")."""
        role = _people.role_of(text)
        prefix = self.project.lower() + " "
        return role[len(prefix) :] if role and role.lower().startswith(prefix) else role

    # ---- driving ----------------------------------------------------------------------------
    def claims(self) -> Iterator[Claim]:
        blocks = self.document.blocks
        index = 0
        while index < len(blocks):
            block = blocks[index]
            if isinstance(block, Heading):
                self._heading(block)
                index += 1
            elif isinstance(block, Item):
                run = list(_same_run(blocks, index, lambda b: isinstance(b, Item)))
                yield from self._list([b for b in run if isinstance(b, Item)])
                index += len(run)
            elif isinstance(block, Row):
                run = list(_same_run(blocks, index, lambda b: isinstance(b, Row)))
                yield from self._table([b for b in run if isinstance(b, Row)])
                index += len(run)
            else:
                self.para_no += 1
                yield from self._para(block)
                index += 1

    def _heading(self, heading: Heading) -> None:
        while self.frames and self.frames[-1].level >= heading.level:
            self.frames.pop()
        parent = self.frames[-1] if self.frames else None
        own = self._role_of(heading.text)
        inherited = parent.role if parent else None
        sibling = self.last_role.get(heading.level)
        if own is None and sibling and _people.is_emeritus(heading.text):
            inherited = sibling  # "Emeritus" after "Core team": former core team members
        role = own if own and not (_people.is_generic(own) and inherited) else inherited
        emeritus = _people.is_emeritus(heading.text) or bool(parent and parent.emeritus)
        tier = _people.level_of(heading.text) or (parent.tier if parent else None)
        scope = parent.scope if parent else None
        words = {w.lower() for w in re.findall(r"\w+", heading.text)}
        area = own is None and inherited and not words & _people.STATUS_WORDS
        if area and tier not in ("lead", "core"):  # an area sub-heading under a people heading
            tier, scope = "module", heading.text
        self.frames.append(_Frame(heading.level, heading.text, role, tier, emeritus, scope))
        self.last_role = {k: v for k, v in self.last_role.items() if k <= heading.level}
        if own and not _people.is_generic(own):
            self.last_role[heading.level] = own
        self.item_no = 0
        self.para_no = 0

    # ---- context ----------------------------------------------------------------------------
    @property
    def frame(self) -> _Frame | None:
        return self.frames[-1] if self.frames else None

    def _where(self) -> str:
        frame = self.frame
        return f"h{frame.level} '{frame.text}'" if frame else "document"

    def _qualifiers(self, person: Person, role: str | None = None) -> dict[str, Any]:
        frame = self.frame
        scope = person.area or (frame.scope if frame else None)
        tier = frame.tier if frame else None
        if person.lead:
            tier = "lead"
        elif tier is None and scope:
            tier = "module"
        q: dict[str, Any] = {"role": role or (frame.role if frame else None) or self.page_role}
        if tier:
            q["level"] = tier
        q["section"] = frame.text if frame else self.title
        if scope and tier not in ("lead", "core"):
            q["scope"] = scope
        emeritus = person.emeritus or bool(frame and frame.emeritus)
        q["status"] = "emeritus" if emeritus else "current"
        return q

    def _emit(
        self,
        person: Person,
        locator: str,
        quote: str,
        role: str | None = None,
        affiliation: str | None = None,
    ) -> Iterator[Claim]:
        subject = Subject(name=person.name, github=person.github, email=person.email)
        evidence = Evidence(
            url=self.snapshot.url, sha256=self.snapshot.sha256, locator=locator, quote=quote
        )
        claim = Claim(
            subject=subject,
            predicate="maintainer",
            object=self.project,
            qualifiers=self._qualifiers(person, role),
            evidence=evidence,
            extractor=TAG,
        )
        self.latest[(claim.qualifiers["section"], person.name)] = claim
        yield claim
        if affiliation:
            yield Claim(
                subject=subject,
                predicate="affiliation",
                object=affiliation,
                qualifiers={
                    "affiliation_text": affiliation,
                    "source_section": self.frame.text if self.frame else self.title,
                },
                evidence=evidence.model_copy(),
                extractor=TAG,
            )

    # ---- lists ------------------------------------------------------------------------------
    def _list(self, items: list[Item]) -> Iterator[Claim]:
        handle_list = sum(bool(HANDLE_ITEM.match(i.text)) for i in items) * 2 > len(items)
        found = [_people.person(i.text, i.links, handle_list=handle_list) for i in items]
        people = sum(p is not None for p in found)
        first = self.item_no
        self.item_no += len(items)
        if not people or people < PEOPLE_LIST_MIN_SHARE * len(items):
            return
        for offset, (item, person) in enumerate(zip(items, found, strict=True), 1):
            if person is not None:
                yield from self._emit(person, f"{self._where()} > li {first + offset}", item.quote)

    # ---- tables -----------------------------------------------------------------------------
    def _table(self, rows: list[Row]) -> Iterator[Claim]:
        if not rows:
            return
        header = rows[0]
        kinds = [_column_kind(cell.text) for cell in header.cells]
        if "name" not in kinds and "handle" not in kinds:
            return
        for row in rows[1:]:
            if row.header:
                continue
            cells = {}
            for kind, cell in zip(kinds, row.cells, strict=False):
                if kind and kind not in cells:
                    cells[kind] = cell
            found = _row_person(cells)
            if found is None:
                continue
            person, role, affiliation = found
            locator = f"table {row.table_no} > row {row.row_no}"
            if self.frame is not None:
                locator = f"{self._where()} > {locator}"
            yield from self._emit(person, locator, row.quote, role=role, affiliation=affiliation)

    # ---- prose ------------------------------------------------------------------------------
    def _para(self, para: Para) -> Iterator[Claim]:
        printed = para.quote == para.text  # HTML: each sentence is printed as read
        if not printed and len(para.quote) > PROSE_MAX_CHARS:
            return
        labels = Labels(para.links)
        name_no = 0
        for sentence in _sentences(para.text):
            for person, role in _prose_people(sentence, labels, self._role_hint(sentence)):
                name_no += 1
                locator = f"{self._where()} > paragraph {self.para_no} > name {name_no}"
                if person.lead and self._mark_lead(person):
                    continue
                quote = sentence if printed else _verbatim(sentence, para.quote)
                yield from self._emit(person, locator, quote, role=role)

    def _role_hint(self, sentence: str) -> str | None:
        frame = self.frame
        if frame is not None and not _people.is_generic(frame.role):
            return None  # the heading's word wins
        intro = PROSE_INTRO.search(sentence)
        return _people.role_of(sentence[: intro.start()]) if intro else None

    def _mark_lead(self, person: Person) -> bool:
        """A chair named apart from the member list: their member claim gets level lead."""
        section = self.frame.text if self.frame else self.title
        claim = self.latest.get((section, person.name))
        if claim is None:
            return False
        claim.qualifiers["level"] = "lead"
        claim.qualifiers.pop("scope", None)
        return True


def _same_run(blocks: list[Block], start: int, same: Any) -> Iterator[Block]:
    """The blocks from `start` on that `same` accepts, in one list or table (read in place: a
    copy of the rest of the document for every run made long pages quadratic)."""
    first = blocks[start]
    for index in range(start, len(blocks)):
        block = blocks[index]
        if not same(block):
            return
        if isinstance(first, Item) and isinstance(block, Item) and block.list_no != first.list_no:
            return
        if isinstance(first, Row) and isinstance(block, Row) and block.table_no != first.table_no:
            return
        yield block


def _column_kind(header: str) -> str | None:
    words = set(re.findall(r"[\w-]+", header.lower()))
    for kind, names in COLUMNS:
        if words & names:
            return kind
    return None


def _row_person(cells: dict[str, Any]) -> tuple[Person, str | None, str | None] | None:
    name_cell, handle_cell = cells.get("name"), cells.get("handle")
    handle = None
    if handle_cell is not None:
        for _label, target in handle_cell.links:
            match = _people.GITHUB_USER.match(target)
            if match:
                handle = match.group(1).lower()
        text = handle_cell.text.strip().lstrip("@")
        if handle is None and _people.HANDLE.match(text) and text.lower() not in EMPTY_CELL:
            handle = text.lower()
    person = None
    if name_cell is not None:
        person = _people.person(name_cell.text, name_cell.links)
        if person is None and handle and name_cell.text.strip():
            person = Person(_collapse(name_cell.text))
    if person is None:
        if handle is None:
            return None
        person = Person(handle)
    person.github = person.github or handle
    email_cell = cells.get("email")
    if email_cell is not None and person.email is None:
        match = _people.find_email(email_cell.text)
        person.email = match.group(1) if match else None
    role = None
    role_cell = cells.get("role")
    if role_cell is not None and role_cell.text.strip():
        value = role_cell.text
        if _people.is_emeritus(value):
            person.emeritus = True
        if _people.LEAD_WORDS.search(value):
            person.lead = True
        role = None if person.lead else _people.role_of(value)
        if role is None and not person.emeritus and not person.lead:
            person.area = person.area or value.strip()
    area_cell = cells.get("area")
    if area_cell is not None and area_cell.text.strip().lower() not in EMPTY_CELL:
        person.area = area_cell.text.strip()
    affiliation_cell = cells.get("affiliation")
    affiliation = None
    if affiliation_cell is not None and affiliation_cell.text.strip().lower() not in EMPTY_CELL:
        affiliation = affiliation_cell.text.strip()
    return person, role, affiliation


def _sentences(text: str) -> Iterator[str]:
    start = 0
    for match in SENTENCE_END.finditer(text):
        word = _last_word(text, start, match.start())
        if len(word) == 1 and word.isupper():
            continue  # an initial: "Gregory P. Smith"
        yield text[start : match.end()].strip()
        start = match.end()
    rest = text[start:].strip()
    if rest:
        yield rest


def _last_word(text: str, start: int, end: int) -> str:
    """`text[start:end].split()[-1]` (or ""), read backwards from `end`: the words before a
    run of initials are not split again at every initial."""
    stop = end
    while stop > start and text[stop - 1].isspace():
        stop -= 1
    begin = stop
    while begin > start and not text[begin - 1].isspace():
        begin -= 1
    return text[begin:stop]


def _prose_people(
    sentence: str, labels: Labels, role_hint: str | None
) -> list[tuple[Person, str | None]]:
    body = sentence.rstrip(".!? ")
    intro = PROSE_INTRO.search(body)
    label = PROSE_LABEL.match(body)
    if intro is not None:
        return _name_list(body[intro.end() :], labels, role_hint, PROSE_MIN_SHARE, at_least=2)
    if label is not None:
        words = label.group("label")
        says = _people.role_of(words) or _people.LEAD_WORDS.search(words)
        if not says and not _people.is_emeritus(words):
            return []
        own = _people.role_of(words)
        found = _name_list(
            label.group("rest"), labels, None if _people.is_generic(own) else own, 1.0, at_least=1
        )
        for person, _role in found:
            person.lead = person.lead or bool(_people.LEAD_WORDS.search(words))
            person.emeritus = person.emeritus or _people.is_emeritus(words)
        return found
    chair = CHAIR_AFTER.match(body) or CHAIR_BEFORE.search(body)
    if chair is not None:
        name = chair.groupdict().get("name") or chair.groupdict().get("by") or ""
        chair_person = _people.person(name, labels.within(name))
        if chair_person is not None and chair_person.area is None:
            chair_person.lead = True
            return [(chair_person, role_hint)]
    return []


def _name_list(
    text: str,
    labels: Labels,
    role: str | None,
    share: float,
    *,
    at_least: int,
) -> list[tuple[Person, str | None]]:
    parts = [p.strip() for p in LIST_SPLIT.split(text) if p.strip()]
    found = [_people.person(p, labels.within(p)) for p in parts]
    people = [(p, role) for p in found if p is not None and p.area is None]
    if len(people) < at_least or len(people) < share * len(parts):
        return []
    return people


def _verbatim(sentence: str, raw: str) -> str:
    """The sentence as the source prints it (line breaks and markup included when it can be
    found word for word), else the raw paragraph."""
    if sentence in raw:
        return sentence
    words = sentence.split()
    pattern = r"\s+".join(re.escape(w) for w in words)
    match = re.search(pattern, raw)
    return match.group(0) if match else raw
