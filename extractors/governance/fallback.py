"""The fallback reader (issue 24): a page whose readers gave nobody, though it holds people.

When the role-list reader (`reader.Reader`) gives no person, the page's repeated structures are
walked again with the readers' structural gates off (the share of a list that must name people,
the minimum of people, the layouts a reader knows): each list item, table row, definition-list
entry, data-file record, line of a paragraph or literal block ("Jane Roe <jroe@example.org>",
"Jane Roe (@jroe)"; a Markdown paragraph's source lines), each paragraph or item of `key: value`
lines (a card: "Name: ...", "GitHub: ...") and each name line followed by its contact lines is a
candidate, read by `entries.read(propose=True, lone=True)` as a list item is. Whether a
candidate is a person is the learned people decision's (`decide.Judge`, the shipped model);
since that decision was fitted on what the readers propose, the fallback asks more of it:

- the candidate's logit must reach `MIN_LOGIT`, or `MIN_LOGIT_ACCOUNT` when it prints a handle or
  an address (chosen on every labelled page read by the fallback alone, leave one project out:
  scripts/measure_governance_fallback.py --cv, the people precision it gives);
- a structure (one list, one table, the paragraphs or literal block under one heading or label)
  gives people only when at least `GROUP_MIN` of its candidates pass and they fill at least
  `GROUP_SHARE` of its slots (items, rows, lines; a prose paragraph is one slot): one name in a
  changelog line, a duty list with a name in it, a paragraph's words are no roster. A card is
  one slot: a table that is one person's card (the name in its first row, a bio below) or a
  name with its contact lines, alone under its heading; a page gives people only when it gives
  `GROUP_MIN` or more in all;
- nobody is read under a quiet heading (`quiet.heading`: sponsors, thanks, a release's
  credits) or one of `QUIET_HERE` right above (speakers, keynotes, users, adopters, commits, a
  programme), nor from a page titled or filed as a release (`quiet.RELEASE_CONTEXT`, a version
  number).

Claims are the reader's (`Reader._emit`: role, status, affiliation as for any list); their
`confidence` is at most `CONFIDENCE`, the precision the fallback alone measures on the labelled
pages (the model's own calibration is of the readers' claims, not of these). The section is the
nearest heading as printed, else none (never the page's title or a lead-in sentence).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator
from typing import Any

from extractors.document.model import Code, Heading, Item, Para, Record, Row, Term
from extractors.governance import blocks as _role_blocks
from extractors.governance import quiet as _quiet
from extractors.governance import sentences as _sentences
from extractors.governance.decide import Context
from extractors.governance.reader import MEMBER_KEYS
from extractors.people import entries as _entries
from extractors.people import tables as _tables
from extractors.people.entries import Entry
from ingest.models import Claim

Reader = Any  # extractors.governance.reader.Reader (not imported: no cycle inside extractors)

MIN_LOGIT = 3.0  # the people decision's logit a fallback candidate needs
MIN_LOGIT_ACCOUNT = 2.0  # ... when it prints an account (a handle, an address)
GROUP_MIN = 2  # people a structure must give to give any
GROUP_SHARE = 0.6  # ... and the share of its slots they fill
CONFIDENCE = 0.9  # the fallback's measured people precision: its claims' confidence at most
LINE_MAX_CHARS = 120  # a longer line is prose, not an entry
MD_LINK = re.compile(r"\[([^\]]*)\]\([^)]*\)")  # a Markdown link in a paragraph's source line
MAX_SLOTS = 2000  # a structure's slots read (the readers read a long list that names people)
CARD_MAX_LINES = 4  # a paragraph card: a name line and its contact lines
QUIET_HERE = re.compile(
    r"\b(?:speakers?|talks?|keynotes?|attendees?|users|adopters|companies"
    r"|organi[sz]ations|commits|changes|changelog|fixes|bug ?fixes|program|schedule|agenda)\b",
    re.IGNORECASE,
)
VERSION = re.compile(r"\bv?\d+\.\d+\.\d+\b|\bv\d+\.\d+\b")  # a release's title: "Node.js 10.14.2"
LOGIN = re.compile(r"[A-Za-z0-9](?:[A-Za-z0-9-]{0,38})")  # a GitHub login's shape
KEY_LINE = re.compile(r"^\s*[-*]?\s*\**([A-Za-z][\w .-]{0,24}?)\**\s*[:=]\s*(.+?)\s*$")

# entry, quote, locator tail, context, what `Reader._emit` is told (a row's role, a key's section)
Candidate = tuple[Entry, str, str, Context, dict[str, Any]]


def after(make: Callable[[], Reader]) -> Iterator[Claim]:
    """The claims of a reader `make()` gives, then, when none named a person, the fallback's
    (read by a second, fresh reader: the first one's frames and counts are spent)."""
    found = False
    for claim in make().claims():
        found = found or claim.predicate == "maintainer"
        yield claim
    if not found:
        yield from claims(make())


def names_people(found: Iterable[Claim]) -> bool:
    """Some claim names a person in a role (not an affiliation only); stops at the first."""
    return any(claim.predicate == "maintainer" for claim in found)


def claims(reader: Reader) -> Iterator[Claim]:
    """The fallback alone over the reader's document (see the module docstring)."""
    document = reader.document
    context = [document.title or "", reader.snapshot.url.rsplit("/", 1)[-1]]
    if any(_quiet.RELEASE_CONTEXT.search(t) or VERSION.search(t) for t in context if t):
        return
    blocks = document.blocks
    out: list[Claim] = []  # held: a page giving fewer than GROUP_MIN people gives none
    index = 0
    while index < len(blocks):
        block = blocks[index]
        if isinstance(block, Heading):
            reader._heading(block.level, block.text)
            index += 1
            continue
        if isinstance(block, Para) and (label := _label(reader, block)):
            level = reader.frame.level + 1 if reader.frame else 1
            reader._heading(level, label, label=True)  # "Keynotes:", "General maintainers:"
            index += 1
            continue
        if isinstance(block, Para):  # the paragraphs up to the next heading, label or block
            run: list[Any] = []
            while index < len(blocks) and isinstance(blocks[index], Para):
                if run and _label(reader, blocks[index]):
                    break
                run.append(blocks[index])
                index += 1
        else:
            run = _role_blocks.run(blocks, index)
            index += len(run)
        if not _quiet_here(reader):  # (a structure's first MAX_SLOTS: a hostile page is no roster)
            slots, found = _candidates(reader, run[:MAX_SLOTS])
            out.extend(_judged(reader, slots, found))
        if reader.frames and reader.frames[-1].label:
            reader.frames.pop()  # a label names the one structure after it
    people = {(c.subject.github, c.subject.name) for c in out if c.predicate == "maintainer"}
    if len(people) >= GROUP_MIN:
        yield from out


def _label(reader: Reader, para: Para) -> str | None:
    """A label line ("General maintainers:", "**Release Managers**" over a table)."""
    return _role_blocks.label_of(para.text) or _sentences.bold_label(reader, para)


def _quiet_here(reader: Reader) -> bool:
    """Under a quiet heading (`quiet.heading`), or one of `QUIET_HERE` right above (a label, the
    nearest heading: a "Committers" list of a page titled "Contributors" is a role list)."""
    nearest = [f for f in reader.frames[-1:]]
    nearest += [f for f in reversed(reader.frames) if not f.label][:1]
    return any(f.quiet for f in reader.frames) or any(QUIET_HERE.search(f.text) for f in nearest)


def _candidates(reader: Reader, run: list[Any]) -> tuple[int, list[Candidate]]:
    """The structure's slots (its items, rows, entries, lines) and the candidates they give."""
    first = run[0]
    found: list[Candidate] = []
    if isinstance(first, Item):
        ctx = Context("li", len(run))
        for number, item in enumerate(run, 1):
            lines = item.quote.split("\n")  # a data file read as text: "- name: A\n  github: a"
            card = _card(reader, lines, item.quote) if len(lines) > 1 else None
            people = (
                [card] if card else _entries.read(item.text, item.links, propose=True, lone=True)
            )
            for entry in people:
                found.append((entry, item.quote, f"li {number}", _nested(ctx, item.depth > 0), {}))
        return len(run), found
    if isinstance(first, Row):
        ctx = Context("row", len(run))
        for row in _tables.read(run, in_role_section=True):
            role = _role_blocks.row_role(row.role, reader.frame.role if reader.frame else None)
            told = {"role": role, "section": row.section, "emeritus": row.emeritus}
            found.append((row.entry, row.row.quote, f"table row {row.row.row_no}", ctx, told))
        body = [r for r in run if not r.header]
        if len(body) > 1 and len(found) == 1 and found[0][1] == body[0].quote:
            entry, quote, _where, _ctx, told = found[0]  # one person's card: name, then a bio
            return 1, [(entry, quote, f"card row {body[0].row_no}", ctx, told)]
        return len(body), found
    if isinstance(first, Term):
        ctx = Context("dt", len(run))
        for number, term in enumerate(run, 1):
            people, label = _role_blocks.term_people(term)
            for entry in people:
                if label:
                    _role_blocks.label_entry(entry, label)
                found.append((entry, term.quote, f"dt {number}", ctx, {}))
        return len(run), found
    if isinstance(first, Record):
        ctx = Context("record", len(run))
        grouped = _role_blocks.role_sections(run)  # a top-level list grouped by `role`
        for record in run:
            person, role = _role_blocks.record_entry(record, reader.document)
            if person is not None:
                told = {"role": role, "section": _record_section(record, grouped)}
                found.append((person, record.quote, f"entry {record.record_no}", ctx, told))
        return len(run), found
    if isinstance(first, Code):
        return _lines([(line, ()) for line in first.lines[:MAX_SLOTS]], "code")
    return _paragraphs(reader, run)


def _record_section(record: Record, grouped: dict[int, str]) -> str | None:
    """A data file's key above the entry, as the reader takes it (`Reader._records`)."""
    section = record.path[-1] if record.path else grouped.get(record.record_no)
    inner = record.path[-2:-1]  # (teams >) Core > members: the team's name
    if section in MEMBER_KEYS and inner and (len(record.path) > 2 or inner[0] not in MEMBER_KEYS):
        return inner[0]
    return section


def _nested(ctx: Context, nested: bool) -> Context:
    return Context(ctx.kind, ctx.size, nested=nested) if nested else ctx


def _paragraphs(reader: Reader, paras: list[Para]) -> tuple[int, list[Candidate]]:
    """A paragraph of `key: value` lines, or a name line with its contact lines, naming a person
    is one record (a card); any other paragraph's lines are entries, one a line (a paragraph
    none of whose lines reads as one is prose: one slot)."""
    found: list[Candidate] = []
    slots = cards = lines = 0
    for para in paras:
        source = _source_lines(para)
        card = _card(reader, source, para.quote) or _contact_card(para, source)
        if card is not None:
            cards += 1
            found.append((card, para.quote, f"card {cards}", Context("card", len(paras)), {}))
            slots += 1
            continue
        pairs = [(line, tuple(k for k in para.links if k[0] and k[0] in line)) for line in source]
        count, more = _lines(pairs, "li", lines)
        lines += count
        slots += count if more else 1
        found.extend(more)
    ctx = Context("li", lines)  # a line's list: every line of the structure's paragraphs
    return slots, [(e, q, w, ctx if w.startswith("line") else c, t) for e, q, w, c, t in found]


def _source_lines(para: Para) -> list[str]:
    """The paragraph's lines: as displayed when it breaks them, else as written (Markdown
    joins the lines of a paragraph; a file of "Name <mail>" lines means one entry a line)."""
    if "\n" in para.text or "\n" not in para.quote:
        return para.text.split("\n")
    lines = (MD_LINK.sub(r"\1", line).rstrip("\\ ").strip() for line in para.quote.split("\n"))
    return [line.strip("*_") for line in lines]


def _contact_card(para: Para, source: list[str]) -> Entry | None:
    """A name line, then its contact lines ("Jane Roe" / "jroe@example.org (email), jroe
    (GitHub)"): read together, one person with an account whose name is the first line's."""
    lines = [line.strip() for line in source if line.strip()]
    if not 2 <= len(lines) <= CARD_MAX_LINES or any(len(t) > LINE_MAX_CHARS for t in lines):
        return None
    people = _entries.read(", ".join(lines), para.links, propose=True)
    if len(people) != 1 or not (people[0].github or people[0].email):
        return None
    return people[0] if people[0].name and people[0].name in lines[0] else None


def _card(reader: Reader, lines: list[str], quote: str) -> Entry | None:
    """Lines that are all `key: value` ("Name: Jane Roe", "GitHub: jroe"), one of the keys a
    name's or an account's: one record, read as a data file's (`blocks.record_entry`)."""
    fields: dict[str, str] = {}
    for line in lines:
        match = KEY_LINE.match(line)
        if match is None:
            return None
        value = match.group(2).strip(" \"'[]{},")  # a data file's quoting, read as text
        fields[match.group(1).strip().lower().replace(" ", "_")] = value
    keys = set(fields)
    if len(fields) < 2 or not keys & {*_role_blocks.RECORD_NAME, *_role_blocks.RECORD_HANDLE}:
        return None
    return _role_blocks.record_entry(Record(quote, (), fields, None, 0), reader.document)[0]


def _lines(lines: list[tuple[str, Any]], kind: str, before: int = 0) -> tuple[int, list[Candidate]]:
    """Each line that is not blank an entry (a line of prose, too long for one, a slot all the
    same: a paragraph of sentences is no roster)."""
    kept = [(t.strip(), links) for t, links in lines if t.strip()][:MAX_SLOTS]
    ctx = Context(kind, len(kept))
    found: list[Candidate] = []
    for number, (text, links) in enumerate(kept, before + 1):
        if len(text) > LINE_MAX_CHARS:
            continue
        for entry in _entries.read(text.lstrip("-*+ "), links, propose=True, lone=True):
            found.append((entry, text, f"line {number}", ctx, {}))
    return len(kept), found


def _logins_in_parentheses(found: list[Candidate]) -> None:
    """One convention per structure: when most of its `Name (x)` entries read `x` as a login,
    a one-word `x` read as an organisation is a login too ("Juan Linietsky (reduz)" beside
    "Paul Batty (Paulb23)": a page printing logins in parentheses)."""
    printed = [e for e, q, *_ in found if e.github and f"({e.github})" in q]
    single = [e for e, q, *_ in found if _one_word_org(e, q)]
    if len(printed) >= GROUP_MIN and len(printed) >= 2 * len(single):
        for entry in single:
            entry.github, entry.affiliation, entry.org_field = entry.affiliation, None, False


def _one_word_org(entry: Entry, quote: str) -> bool:
    org = entry.affiliation
    return bool(org and not entry.github and LOGIN.fullmatch(org) and f"({org})" in quote)


def _judged(reader: Reader, slots: int, found: list[Candidate]) -> Iterator[Claim]:
    """The structure's people, when enough of its slots name one (see the module docstring)."""
    _logins_in_parentheses(found)
    kept = []
    for candidate in found:
        entry, quote, _where, ctx, _told = candidate
        verdict = reader.judge.person(entry, quote, ctx, reader.frame)
        least = MIN_LOGIT_ACCOUNT if entry.github or entry.email else MIN_LOGIT
        if verdict.keep and reader.judge.model.person.logit(verdict.features) >= least:
            kept.append(candidate)
    people_slots = len({where for _e, _q, where, _c, _t in kept})
    # one card with an account (a name line and its contact lines) under its own heading: the
    # page's other cards are weighed at the end (`claims`: GROUP_MIN people in all)
    # (or a table that is one person's card: the name in its first row, a bio in the others)
    card = slots == 1 and any(
        where.startswith("card row") or (where.startswith("card") and (e.github or e.email))
        for e, _q, where, _c, _t in kept
    )
    if (len(kept) < GROUP_MIN and not card) or people_slots < GROUP_SHARE * slots:
        return
    for entry, quote, where, ctx, told in kept:
        reader.ctx = ctx
        for claim in reader._emit(entry, f"{reader._where()} > {where}", quote, **told):
            confidence = claim.qualifiers.get("confidence")
            if isinstance(confidence, float | int):
                claim.qualifiers["confidence"] = round(min(float(confidence), CONFIDENCE), 3)
            yield claim
