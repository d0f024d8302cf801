"""The generic governance reader: a document's blocks -> claims (the rules are in
`extractors.governance.generic`'s docstring, the extractor that uses it)."""

from __future__ import annotations

import re
import weakref
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from extractors.document import file_name
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
)
from extractors.governance import blocks as _role_blocks
from extractors.governance import literal as _literal
from extractors.governance import paras as _paras
from extractors.governance import quiet as _quiet
from extractors.governance import seats as _seats
from extractors.governance import sentences as _sentences
from extractors.governance.decide import Context, Judge, Sink, page_owner
from extractors.governance.project import page_title, project_of, url_role
from extractors.people import entries as _entries
from extractors.people import names as _people
from extractors.people import orgs as _orgs
from extractors.people import tables as _tables
from extractors.people.entries import Entry
from extractors.people.model import Model, shipped
from ingest.models import Claim, Evidence, Snapshot, Subject

NAME = "governance"
# 16: lines of entries in one paragraph, open seats, past-named data files, refitted with
#    real-probe-10; 14: labelled contacts ("jroe (GitHub)"), P: entries, lenient TOML, Markdown
#    by name, reST field lists, "X was the <seat>", refitted with real-probe-9; 13: records
#    written as code, one-word list entries weighed, "X is the <seat>"; 12: fitted on
#    all the gold; 11: header cells, article headers, data cards, bold labels; 10-8: TOML, jobs
VERSION = 16
TAG = f"{NAME}/{VERSION}"

PEOPLE_LIST_MIN_SHARE = 0.5  # a list names people when at least this share of items do
LIST_SAMPLE = 1000  # ... of its first items
MIN_PEOPLE = 3  # a page with fewer people in its lists is not read as a role page by content
MEMBER_KEYS = ("members", "people", "team", "persons", "contributors")  # keys saying "who is in it"
DATA_ROLES = {"codeowners": "code owner", "maintainers": "maintainer"}
PAST_FILE_FORMATS = frozenset(("csv", "tsv", "json", "yaml", "toml"))  # no heading names the list


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
    label: bool = False  # a label line or lead-in sentence, not a heading
    says_role: bool = False  # its own words name a role ("Maintainers", not "Projects")
    quiet: bool = False  # sponsors, thanks, a person's bio: nobody listed here holds a role


@dataclass
class Reader:
    document: Document
    snapshot: Snapshot
    latest: weakref.WeakValueDictionary[tuple[str, str], Claim] = field(
        default_factory=weakref.WeakValueDictionary
    )
    frames: list[_Frame] = field(default_factory=list)
    counts: dict[str, int] = field(default_factory=dict)
    last_role: dict[int, str] = field(default_factory=dict)  # heading level -> its own role
    model: Model | None = None  # None: the shipped model
    sink: Sink | None = None  # every candidate, for training
    ctx: Context = field(default_factory=Context)
    past_file: bool = False  # a data file named as a past list ("emeritus.csv"): all its people

    def __post_init__(self) -> None:
        title = page_title(self.document)
        self.project = project_of(title, self.snapshot.url)
        owner = page_owner(self.snapshot.url, self.project)
        self.judge = Judge(self.model or shipped(), self.document, owner, self.sink)
        self.title = title or self.project
        role = self._role_of(title) if title else None
        fmt = self.document.format
        self.page_role = DATA_ROLES.get(fmt) or role or url_role(self.snapshot.url) or "member"
        self.areas = fmt in DATA_ROLES  # every heading of these files is an area
        stem = file_name(self.snapshot.url).rsplit(".", 1)[0].replace("_", " ").replace("-", " ")
        self.past_file = fmt in PAST_FILE_FORMATS and _people.is_emeritus(stem)  # "emeritus.csv"

    def _role_of(self, text: str) -> str | None:
        """The heading's role word, without the project's name ("Pebblestore maintainers")."""
        role = _people.role_of(text)
        prefix = self.project.lower() + " "
        if role and role.lower().startswith(prefix):
            rest = role[len(prefix) :]
            return role if _people.is_generic(rest) else rest  # "Releases WG member" stays
        return role

    # ---- driving ----------------------------------------------------------------------------
    def claims(self) -> Iterator[Claim]:
        blocks = self.document.blocks
        index = 0
        while index < len(blocks):
            block = blocks[index]
            if isinstance(block, Heading):
                person = self._person_heading(blocks, index)
                if person is not None:
                    yield from person
                else:
                    self._heading(block.level, block.text)
                index += 1
                continue
            if self.frame is not None and self.frame.quiet and not _role_blocks.represents(block):
                index += 1
                continue
            run = _role_blocks.run(blocks, index)
            index += len(run)
            if isinstance(block, Item):
                yield from self._list([b for b in run if isinstance(b, Item)])
            elif isinstance(block, Row):
                yield from self._table([b for b in run if isinstance(b, Row)])
            elif isinstance(block, Term):
                yield from self._terms([b for b in run if isinstance(b, Term)])
            elif isinstance(block, Record):
                yield from self._records([b for b in run if isinstance(b, Record)])
            elif isinstance(block, Code):
                yield from self._code(block)
            elif isinstance(block, Para):
                used, found = _paras.read(self, blocks, index - 1, MIN_PEOPLE)
                index += used - 1
                yield from found
                continue
            if self.frames and self.frames[-1].label:
                self.frames.pop()  # a label line or lead-in names the one list after it

    def _heading(self, level: int, text: str, *, label: bool = False) -> None:
        while self.frames and (self.frames[-1].level >= level or self.frames[-1].label):
            self.frames.pop()
        parent = self.frames[-1] if self.frames else None
        own = self._role_of(text)
        inherited = parent.role if parent else None
        sibling = self.last_role.get(level)
        if own is None and sibling and _people.is_emeritus(text):
            inherited = sibling  # "Emeritus" after "Core team": former core team members
        # a generic word ("Members") says no more than the page: the heading above, else
        # the page title, names the role
        role = own if own and not _people.is_generic(own) else inherited
        emeritus = _people.is_emeritus(text) or bool(parent and parent.emeritus)
        tier = _people.level_of(text) or (parent.tier if parent else None)
        scope = parent.scope if parent else None
        words = {w.lower() for w in re.findall(r"\w+", text)}
        area = own is None and inherited and not words & _people.STATUS_WORDS
        if self.areas and not label:
            scope = text
        elif area and tier not in ("lead", "core"):  # an area sub-heading under a people heading
            tier, scope = "module", text
        above = [self.title, *(f.text for f in self.frames)]
        quiet = _quiet.heading(text, self.snapshot.url, above)
        quiet = quiet or bool(parent and parent.quiet and not own)
        self.frames.append(
            _Frame(level, text, role, tier, emeritus, scope, label, own is not None, quiet)
        )
        if not label:
            self.last_role = {k: v for k, v in self.last_role.items() if k <= level}
            if own and not _people.is_generic(own):
                self.last_role[level] = own
            self.counts = {}

    def _person_heading(self, blocks: list[Block], index: int) -> Iterator[Claim] | None:
        """A heading that is a person's name, one of several under a role heading ("## Board"
        then "### Jane Roe", a bio, "### Max Muster", ...): that person, listed under the role
        heading; what follows (the bio) names nobody else."""
        heading = blocks[index]
        assert isinstance(heading, Heading)
        parents = [f for f in self.frames if f.level < heading.level and not f.label]
        parent = parents[-1] if parents else None
        entry = _role_blocks.heading_person(heading)
        if entry is None or self.areas or parent is None or not parent.says_role or parent.quiet:
            return None  # (a MAINTAINERS section title is an area, whatever it reads like)
        after = (blocks[i] for i in range(index + 1, len(blocks)))  # read in place, not copied
        before = (blocks[i] for i in range(index - 1, -1, -1))
        siblings = [
            next((b for b in run if isinstance(b, Heading)), None) for run in (after, before)
        ]
        if not any(
            s and s.level == heading.level and _role_blocks.heading_person(s) for s in siblings
        ):
            return None
        if not _role_blocks.handle_heading(heading) and _role_blocks.lists_under(blocks, index):
            return None  # a group's name ("NumFOCUS Subcommittee"): its members listed under it
        # (an @account heading is a person whatever follows: "## @jroe" then the areas they know)
        while self.frames and (self.frames[-1].level >= heading.level or self.frames[-1].label):
            self.frames.pop()
        self.ctx = Context("heading", 2)
        if not self.judge.person(entry, heading.text, self.ctx, self.frame).keep:
            return None  # a group's name ("NumFOCUS Subcommittee"): a heading after all
        number = self._count("person heading")
        claims = list(self._emit(entry, f"{self._where()} > person {number}", heading.text))
        bio = _Frame(heading.level, heading.text, None, None, False, None, quiet=True)
        self.frames.append(bio)
        return iter(claims)

    def _count(self, kind: str) -> int:
        self.counts[kind] = self.counts.get(kind, 0) + 1
        return self.counts[kind]

    # ---- context ----------------------------------------------------------------------------
    @property
    def frame(self) -> _Frame | None:
        return self.frames[-1] if self.frames else None

    def _where(self) -> str:
        heading = next((f for f in reversed(self.frames) if not f.label), None)
        return f"h{heading.level} '{heading.text}'" if heading else "document"

    def _qualifiers(self, entry: Entry, role: str | None, section: str | None,
                    emeritus: bool) -> dict[str, Any]:  # fmt: skip
        frame = self.frame
        scope = entry.area or (frame.scope if frame else None)
        tier = frame.tier if frame else None
        if entry.lead:
            tier = "lead"
        elif tier is None and scope:
            tier = "module"
        base = role or (frame.role if frame else None) or self.page_role
        titles = [t for t in entry.titles if t.lower() not in base.lower()]
        q: dict[str, Any] = {"role": "; ".join([base, *titles])}
        if tier:
            q["level"] = tier
        where = section if section is not None else (frame.text if frame else None)
        if where:  # a list printed under no heading has no section (not the page's title)
            q["section"] = where
        if scope and tier not in ("lead", "core"):
            q["scope"] = scope
        emeritus = emeritus or entry.emeritus or bool(frame and frame.emeritus) or self.past_file
        q["status"] = "emeritus" if emeritus else "current"
        return q

    def _emit(self, entry: Entry, locator: str, quote: str, *, role: str | None = None,
              section: str | None = None, emeritus: bool = False) -> Iterator[Claim]:  # fmt: skip
        if _people.BOT.search(entry.github or entry.name):
            return  # a bot account ("dependabot[bot]", "k8s-ci-robot") holds no role
        verdict = self.judge.person(entry, quote, self.ctx, self.frame)
        subject = Subject(name=entry.name, github=entry.github, email=entry.email)
        evidence = Evidence(
            url=self.snapshot.url, sha256=self.snapshot.sha256, locator=locator, quote=quote
        )
        qualifiers = self._qualifiers(entry, role, section, emeritus)
        qualifiers["confidence"] = verdict.confidence
        claim = Claim(subject=subject, predicate="maintainer", object=self.project,
                      qualifiers=qualifiers, evidence=evidence, extractor=TAG)  # fmt: skip
        self.judge.record("person", verdict, claim)
        if not verdict.keep:
            return
        self.latest[("", entry.name)] = claim  # the person's latest claim, for a chair named later
        yield claim
        if self.judge.collecting:  # training: an area is what an organisation is told from
            areas = (entry.area, qualifiers.get("scope"), qualifiers.get("section"))  # "Board"
            for text in dict.fromkeys(areas):
                if not text or text == entry.affiliation or not _orgs.looks_like_org(text):
                    continue  # (only what could be read as one)
                area = Claim(subject=subject, predicate="affiliation", object=text,
                             evidence=evidence.model_copy(), extractor=TAG)  # fmt: skip
                verdict = self.judge.affiliation(text, self.ctx, proposed=False)
                self.judge.record("affiliation", verdict, area)
        if entry.affiliation:
            org = self.judge.affiliation(entry.affiliation, self.ctx, field=entry.org_field)
            affiliation = Claim(
                subject=subject,
                predicate="affiliation",
                object=entry.affiliation,
                qualifiers={"affiliation_text": entry.affiliation,
                            "source_section": qualifiers.get("section", self.title),
                            "confidence": round(org.confidence * verdict.confidence, 3)},
                evidence=evidence.model_copy(),
                extractor=TAG,
            )  # fmt: skip
            self.judge.record("affiliation", org, affiliation)
            if org.keep:
                yield affiliation

    # ---- lists ------------------------------------------------------------------------------
    def _list(self, items: list[Item]) -> Iterator[Claim]:
        # a list of handles: most items start with a word printed as a handle (not "Redis, ...")
        handle_list = sum(_entries.printed_as_handle(i.text.split(" ", 1)[0].strip(":,"))
                          for i in items) * 2 > len(items)  # fmt: skip
        # whether the list names people is judged on its first LIST_SAMPLE items; the entries
        # are then read again as they are given, so a long list is never held read in full
        sample = items[:LIST_SAMPLE]
        found = [_entries.read(i.text, i.links, handle_list=handle_list, propose=True, lone=True)
                 for i in sample]  # fmt: skip
        named = [_entries.names_somebody(f) for f in found]
        top = [n for n, i in zip(named, sample, strict=True) if i.depth == 0]
        nested = [n for n, i in zip(named, sample, strict=True) if i.depth > 0]
        share = _seats.people_share(named, sample)  # (its empty seats not counted)
        if len(nested) >= 2 and not any(top):  # "- area:" items, the people nested under them
            share = _role_blocks.share(nested)
        elif top and nested:  # people at the top, notes nested under them ("- GPG key: ...")
            share = max(share, _role_blocks.share(top))
        if not any(named) or share < PEOPLE_LIST_MIN_SHARE:
            return
        first = self.counts.get("li", 0)
        self.counts["li"] = first + len(items)
        entries = [e for people in found for e in people]
        handles = _role_blocks.share([bool(e.github) for e in entries])
        parents = {i.parent for i in sample if i.parent}
        # "- Area: what it is", "- `cmd`" with people (their accounts) nested under it: no one
        quotes = {i.text: i.quote for i in sample if i.text in parents}
        labels = {
            i.parent: label
            for i, people in zip(sample, found, strict=True)
            if i.depth > 0 and i.parent
            and (any(e.github or e.email for e in people) or _entries.AT_HANDLE.search(i.text))
            and (label := _role_blocks.described_label(quotes.get(i.parent, i.parent)))
        }  # fmt: skip
        kind = "record" if self.areas else "li"  # a CODEOWNERS rule's owners, a MAINTAINERS M:
        for offset, item in enumerate(items, 1):
            if offset <= len(found):
                people = found[offset - 1]
            else:
                people = _entries.read(item.text, item.links, handle_list=handle_list,
                                       propose=True, lone=True)  # fmt: skip
            self.ctx = Context(kind, len(items), handles, item.depth > 0, item.text in parents,
                               share)  # fmt: skip
            if item.text in labels:
                continue
            for entry in people:
                under = item.depth > 0 and bool(item.parent) and entry.area is None
                if under and item.parent in labels:
                    entry.area = labels[item.parent]
                elif under and not _entries.read(item.parent or ""):
                    entry.area = _role_blocks.area_label(item.parent or "")
                yield from self._emit(entry, f"{self._where()} > li {first + offset}", item.quote)

    def _terms(self, terms: list[Term]) -> Iterator[Claim]:
        found: list[tuple[Term, list[Entry], str | None]] = []
        for term in terms:
            found.append((term, *_role_blocks.term_people(term)))
        if sum(bool(p) for _t, p, _l in found) <= PEOPLE_LIST_MIN_SHARE * len(terms):
            return  # a tie ("Social Media" beside "Brand and design") is not a list of people
        self.ctx = Context("dt", len(terms))
        for term, people, label in found:
            number = self._count("dt")
            for entry in people:
                if label:
                    _role_blocks.label_entry(entry, label)
                yield from self._emit(entry, f"{self._where()} > dt {number}", term.quote)

    # ---- tables -----------------------------------------------------------------------------
    def _table(self, rows: list[Row]) -> Iterator[Claim]:
        table_no = self._count("table")
        frame = self.frame
        in_role = frame is None or frame.says_role or frame.label
        self.ctx = Context("row", len(rows))
        for found in _tables.read(rows, in_role_section=bool(in_role)):
            locator = f"{self._where()} > table {table_no} > row {found.row.row_no}"
            role = _role_blocks.row_role(found.role, self.frame.role if self.frame else None)
            yield from self._emit(found.entry, locator, found.row.quote, role=role,
                                  section=found.section, emeritus=found.emeritus)  # fmt: skip

    # ---- data files -------------------------------------------------------------------------
    def _records(self, records: list[Record]) -> Iterator[Claim]:
        self.ctx = Context("record", len(records))
        grouped = _role_blocks.role_sections(records)  # a top-level list grouped by `role`
        for record in records:
            entry, role = _role_blocks.record_entry(record, self.document)
            if entry is None:
                continue
            where = " > ".join(record.path) or "document"
            locator = f"{where} > entry {record.record_no}"
            section = record.path[-1] if record.path else grouped.get(record.record_no)
            inner = record.path[-2:-1]  # (teams >) Core > members: the team's name
            if (
                section in MEMBER_KEYS
                and inner
                and (len(record.path) > 2 or inner[0] not in MEMBER_KEYS)
            ):
                section = inner[0]  # (but `people > members` is the page's own list)
            yield from self._emit(entry, locator, record.quote, role=role, section=section)

    # ---- literal blocks ---------------------------------------------------------------------
    def _code(self, code: Code) -> Iterator[Claim]:
        return _literal.read(self, code)

    # ---- prose (extractors.governance.sentences) -------------------------------------------
    def _para(self, para: Para) -> Iterator[Claim]:
        return _sentences.para(self, para)
