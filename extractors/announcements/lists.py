"""Claims from the lists and tables of a post, read by what introduces them.

A list is read when its lead-in (the paragraph or label just before it, the parent item of a
nested list, else the heading above) says what its people gain or leave: "The new Project
Directors are:", "the new team leads for infra will be:", "The top five vote-getters are:",
"**Added new collaborators**:", "Thank you to the outgoing Project Directors", "Program
Committee:", "Keynotes:", "Quick Talks:", "Julia Community Prize Winners". A list under any other
lead-in (contributors thanked, sponsors, features) gives nothing.

- talk sections (keynotes, talks, tutorials, panels, posters): "Title - Speaker, Speaker" items
  give one `keynote` / `speaker` claim per person after the last " - " (role = the section);
- role lists: each item's person (`_entries.read`: "Name (@handle), Company", "[handle](url) -
  Name", "Name (Treasurer)", "Name, co-Chair") gets the lead-in's role; a chair in the item makes it
  a lead; committees of a conference are `organizer` (`program_chair` for a program chair),
  prizes `award`, everything else `maintainer`; "outgoing", "retiring", "former" lead-ins end it.
- agenda tables with a Speakers / Presenters / Panelists column: one claim per person named in
  it, `session` = the Session / Title cell, `date` = the last date line above the table.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

from extractors.announcements import dates, leadins, names, newslist, presented, tables
from extractors.announcements import patterns as pat
from extractors.announcements.bodies import clean_body, owned
from extractors.announcements.events import ROLE_WORD, Context, role_level
from extractors.announcements.presented import COMMITTEE, ROLE_CUE
from extractors.announcements.source import Section
from extractors.announcements.structure import ONE_WORD, handle_like
from extractors.document.model import Heading, Item, Para, Row, collapse
from extractors.people import entries as _entries
from extractors.people import names as _people
from ingest.models import Claim

TALK_SECTION = re.compile(
    r"^\W*(?P<kind>keynotes?|(?:student\s+)?technical\s+talks?|talks?|tutorials?|panels?|"
    r"posters?|lightning\s+talks?|quick\s+talks?|sessions?|presentations?)\b",
    re.I,
)
# a lead-in that ends on what it introduces: "... please allow us to introduce our keynote
# speakers:", "2015 Node.js Interactive keynotes include:"
TALK_LEAD = re.compile(
    r"\b(?P<kind>keynotes?|speakers?|presenters?|talks?|sessions?|presentations?)\b(?:\s+(?:speakers?|include|are|will\s+be))?"
    r"\W*:\W*$",
    re.I,
)
ANAPHORIC_LEAD = re.compile(r"^\W*(?:these|they|those|speakers)\s+(?:include|are)\W*:\W*$", re.I)
TALK_WORD = re.compile(r"\b(?:keynotes?|talks?|speakers?|presentations?|tutorials?)\b", re.I)
NEW_ROLE = re.compile(rf"\bnew(?:ly\s+elected)?\s+((?:[\w-]+\s+){{0,2}}?{pat.ROLE_WORDS})\b")
LEADING_VERBS = re.compile(
    r"^(?:(?:have|has|had|joined|joining|join|been|are|is|will|be|the|our)\s+)+", re.I
)
# a handle's person as the same post prints them: "Lee 'friedbob' Lowder", "Sarah Kim (@sarahk)"
HANDLE_NAME = re.compile(
    r"(?P<nicked>[A-Z][\w-]+\s+['\"‘“](?P<nick>[\w.-]+)['\"’”]\s+[A-Z][\w'-]+)"
    r"|(?P<named>[A-Z][\w'-]+(?:\s+[A-Z][\w'-]+){1,2})\s+\(@(?P<handle>[\w-]+)\)"
)
THANKS = re.compile(r"\b(?:thanks?|grateful|contributors?|sponsors?|shout-?outs?)\b", re.I)
PRIZE = re.compile(r"\b(?:prize|award)\b", re.I)
ENDED = re.compile(r"\b(?:outgoing|retiring|resigning|former|emeritus|stepping\s+down|departing)\b",
                   re.I)  # fmt: skip
CONFERENCE_COMMITTEE = re.compile(r"\b(?:(?:program|programme|organizing|organising|proceedings)"
                                  r"\s+committee|election\s+officers?)\b", re.I)  # fmt: skip
ELECTION = re.compile(r"\b(?:vote-getters|winners|elected)\b", re.I)
# a lead-in of ranked results that says how many were elected ("This year we were electing 2
# governance board members ... full voting results here:"): the items past that rank lost
SEATS = re.compile(
    r"\belect(?:ing|s|ed)?\s+(?P<n>\d|one|two|three|four|five|six|seven)\s+(?:[\w-]+\s+){0,3}?"
    r"(?:members?|seats?|positions?|representatives?|directors?)\b.*\bresults?\b",
    re.I | re.S,
)
NUMBERS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7}
TITLE_BODY = re.compile(r"(?P<body>(?:[A-Z][\w.&'’-]*\s+){0,4}(?:Council|Committee|Board|PMC|TSC))")
SPEAKER_SPLIT = re.compile(r"\s+[-–]\s+|\t+-\s*|:\s+")  # "Title - Speaker", "Title: Speaker"
CHAIR = re.compile(r"\bchair\b", re.I)


def list_claims(section: Section, context: Context) -> Iterator[Claim]:
    lead: str | None = None
    before: str | None = None  # the paragraph before the lead-in ("These include:" needs it)
    intro: str | None = None  # a lead-in ending in ":" above the heading the list is under
    heading: str | None = None
    current_list: int | None = None
    label: str | None = None
    date_line: str | None = None
    header: Row | None = None
    above: str | None = None  # an announcing lead-in above the heading ("Welcome the new ...")
    rank = 0  # the item's place in its list
    parent: Heading | None = None  # the last heading that is not a name alone
    presenter: str | None = None  # the announcing lead-in of people presented a line each
    opening: str | None = None  # an announcing paragraph above the section's first heading
    prelude = ""  # the text above the section's first heading
    for number, block in enumerate(section.blocks, start=1):
        if parent is None and heading is None and not isinstance(block, Heading):
            prelude = f"{prelude} {collapse(getattr(block, 'text', ''))}"
        if isinstance(block, Heading):
            presenter = None
            named = presented.name_heading(block, parent, opening, prelude)
            if named:  # "## New Directors" / "### Emily": one person of the heading's list
                yield from _item_claims(named[0], parent.text if parent else opening, None,
                                        context, section, number)  # fmt: skip
                continue
            parent = block
            if lead and lead.rstrip().endswith(":"):
                intro = lead
            above = lead if lead and ROLE_CUE.search(lead) and COMMITTEE.search(lead) else above
            heading, lead = block.text, None
            if len(block.text) <= 60:  # "Day 1, December 8, 2015": the day of what follows
                date_line = dates.full_date(block.text) or date_line
            continue
        if isinstance(block, Para):
            if parent is None and heading is None:
                opening = opening or (block.text if presented.announcing(block.text) else None)
            grid = presented.linked_names(block) if lead and lead.rstrip().endswith(":") else []
            if grid:  # a grid of linked names under a lead-in: a list without list markup
                for item in grid:
                    yield from _item_claims(item, lead, heading, context, section, number)
                continue
            linked = presented.linked_line(block)
            if presenter is None and not above and linked and presented.announcing(lead):
                presenter = lead  # the people presented a line each below this lead-in
            named = presented.name_line(block) if (above or presenter) else []
            if named:  # a name-only line under the heading after "Welcome the new ...", or
                # after a lead-in that announces the people presented a line each below it
                yield from _item_claims(named[0], above or presenter, heading, context, section,
                                        number)  # fmt: skip
                continue  # one person of the list the lead-in above the heading announced
            if leadins.is_sublabel(lead, block.text):
                continue  # "For Data Carpentry - Ecology" under "Our new Maintainers are:"
            before, lead = lead, block.text
            date_line = dates.standalone_date(block.text) or date_line
            continue
        if isinstance(block, Row):
            if block.header:
                header = block
            elif header is not None:
                yield from tables.row_claims(block, header, context, date_line, section)
                row_items = tables.people_of_row(block, header)
                if row_items and not lead and (above or heading):
                    # a table right under its heading: the heading ("New members") says what
                    # its people gain, else the announcing lead-in above the heading
                    label = heading if heading and ROLE_CUE.search(heading) else above
                    for row_item in row_items if label else ():
                        yield from _item_claims(row_item, label, heading, context, section, number)
                elif row_items and lead:  # a table of people under a lead-in: its list
                    label = (leadins.joined_lead(lead, before, ROLE_CUE)
                             or leadins.titled_lead(lead, context.post.title) or lead)  # fmt: skip
                    for row_item in row_items:
                        yield from _item_claims(row_item, label, heading, context, section, number)
            continue
        if not isinstance(block, Item):
            continue
        entry = list(newslist.entry_claims(block, context, section, number))
        if entry:  # "- 2023-08-19: New Committer, A [@a](url)": an entry of a news list
            yield from entry
            continue
        if block.list_no != current_list:
            current_list, rank = block.list_no, 0
            label = lead if lead is not None else heading
            if lead is None and intro and TALK_LEAD.search(intro):
                label = intro  # the heading only says when ("Day 1, ..."); the lead-in says what
            elif lead and before and ANAPHORIC_LEAD.match(lead):
                label = f"{before} {lead}"  # "... breakout sessions and panels ... These include:"
            elif lead:
                label = leadins.joined_lead(lead, before, ROLE_CUE) or label
        own_label = block.parent if block.depth and block.parent else label
        rank += 0 if block.depth else 1
        seats = SEATS.search(own_label or "") if not block.depth else None
        if seats and rank > NUMBERS.get(seats.group("n").lower(), int(seats.group("n")[0])):
            continue  # ranked below the seats the election filled: not elected
        when = date_line if lead is None and intro and label == intro else None
        yield from _item_claims(block, own_label, heading, context, section, number, when)


def _item_claims(item: Item, label: str | None, heading: str | None, context: Context,
                 section: Section, number: int, day: str | None = None,
                 ) -> Iterator[Claim]:  # fmt: skip
    label = collapse(label or "")
    locator = f"{section.prefix}item {number}" if item.line is None else f"line {item.line}"
    when = day or section.date
    talk = (TALK_SECTION.match(label) or TALK_LEAD.search(label)
            or TALK_SECTION.match(heading or ""))  # fmt: skip
    if (
        talk
        and not (TALK_SECTION.match(label) or TALK_LEAD.search(label))
        and label
        and (not TALK_WORD.search(label))
    ):
        talk = None
    if talk:
        kind = talk.group("kind").lower()
        predicate = "keynote" if kind.startswith("keynote") else "speaker"
        if TALK_LEAD.search(label) and not TALK_SECTION.match(label):
            label = _singular(kind)  # the lead-in is a sentence: the role is what it introduces
        role = _singular(label.split(":")[0].split("(")[0].strip() or kind)
        event = clean_body(context.title_event) or ""
        for person in _speakers(item):
            qualifiers = {"role": role, "date": when}
            yield context.claim(person, predicate, event, qualifiers, locator, item.quote)
        return
    cue_text = f"{label} {heading or ''}" if not ROLE_CUE.search(label) else label
    committee = CONFERENCE_COMMITTEE.search(cue_text)
    prize = PRIZE.search(cue_text) and (heading and PRIZE.search(heading) or PRIZE.search(label))
    body = COMMITTEE.search(label)
    if not (
        committee
        or prize
        or (body and (ROLE_CUE.search(label) or context.title_is_news))
        or (ELECTION.search(label) and context.title_is_news)
    ) or leadins.of_things(label):
        return
    status = "emeritus" if ENDED.search(label) else "current"
    thanked = THANKS.search(label) and not (ROLE_CUE.search(label) or committee or prize)
    if thanked and status == "current":
        return  # "Thanks to our maintainers:", "Sponsors": people thanked hold no new role
    for entry in _item_people(item):
        name = entry.name
        if entry.github and name.lower() == entry.github.lower():  # a bare handle
            name = _handle_names(context).get(name.lower(), name)
        person = names.Person(name, entry.github)
        titles = " ".join(entry.titles)
        extra = _item_role(item.text, entry.name)
        if prize:
            role = collapse(f"{heading or label}")
            award: dict[str, Any] = {"role": role, "date": when}
            yield context.claim(person, "award", clean_body(role) or role, award, locator,
                                item.quote)  # fmt: skip
            continue
        if committee:
            chair = CHAIR.search(extra or "") or CHAIR.search(titles)
            program = re.search(r"program", committee.group(0), re.I)
            predicate = "program_chair" if chair and program else "organizer"
            role = collapse(f"{committee.group(0)}: {extra}" if extra else committee.group(0))
            level = "lead" if chair else "member"
            qualifiers = {"role": role, "level": level, "date": when}
            yield context.claim(person, predicate, clean_body(context.title_event) or role,
                                qualifiers, locator, item.quote)  # fmt: skip
            continue
        role = _role_of(label, body) if body else (context.title_body or "member")
        if ELECTION.search(label) and context.title_body:
            role = f"{context.title_body} member"
        if extra or titles:
            role = f"{role} ({extra or titles})"
        qualifiers = {"role": role, "level": role_level(extra or titles or role),
                      "status": status, "date": when}  # fmt: skip
        found = context.title_body or context.title_project or context.title_event
        obj = owned(clean_body(found), context.site) or role
        yield context.claim(person, "maintainer", obj, qualifiers, locator, item.quote)


def _role_of(label: str, body: re.Match[str]) -> str:
    """The role a lead-in gives: its first role noun, or, when that is only "members" ("the
    following new members to the Project Management Committee:"), the body they are members of."""
    role = LEADING_VERBS.sub("", collapse(body.group("body"))) or collapse(body.group("body"))
    new = NEW_ROLE.search(label)  # "The PMC has invited two new committers:": the committers
    if new and not re.search(r"\bmembers?$", new.group(1), re.I) and new.group(1) not in role:
        return _singular(new.group(1))
    if re.search(r"\bmembers?$", role, re.I):
        later = COMMITTEE.search(label, body.end())
        if later and not re.search(r"\bmembers?$", later.group("body"), re.I):
            found = re.sub(r"^(?:(?:to|of|on|the)\s+)+", "", collapse(later.group("body")))
            return f"{found} member"
    return role


def _handle_names(context: Context) -> dict[str, str]:
    """Handle (lower case) -> the full name the post prints with it, for lists of bare handles
    (the post is read once, on the first bare handle: not once per handle)."""
    if context.handle_names is not None:
        return context.handle_names
    found: dict[str, str] = {}
    for section in context.post.sections:
        for block in section.blocks:
            for m in HANDLE_NAME.finditer(str(getattr(block, "text", ""))):
                handle, name = (m.group("nick"), m.group("nicked")) if m.group("nicked") else (
                    m.group("handle"), m.group("named"))  # fmt: skip
                found.setdefault(handle.lower(), name)
    context.handle_names = found
    return found


def _item_people(item: Item) -> list[_entries.Entry]:
    """Who an item names: as role lists print people, else the name it starts with."""
    found = [
        e
        for e in _entries.read(item.text, item.links)
        if _people.looks_like_name(e.name) or e.github
    ]
    head = collapse(re.split(r"\s*[(,]", item.text, maxsplit=1)[0])
    for entry in found:  # "Alyssa (Nick) Coghlan": the name as printed, nickname and all
        entry.name = names.with_suffix(item.text, names.printed_name(item.text, entry.name))
        if (head != entry.name and head.startswith(entry.name) and not entry.affiliation
                and _people.looks_like_name(head)):  # fmt: skip
            entry.name = head  # "Andrea Gómez Vargas (Website)": the whole name before the aside
    if found:
        return found
    if item.list_no == presented.NAME_HEADING and ONE_WORD.match(item.text):  # "### Emily"
        return [_entries.Entry(name=item.text)]
    if item.list_no != presented.NAME_HEADING and not item.links and handle_like(item.text):
        return [
            _entries.Entry(name=collapse(item.text).strip(" ,.;:*_").lstrip("@"))
        ]  # "- dada513"
    masked, people, _ = names.mask(item.text, item.links)
    if people and masked.startswith(names.PERSON_MARK):
        return [_entries.Entry(name=people[0].name, github=people[0].github)]
    return []


def _item_role(text: str, name: str) -> str | None:
    """The title printed with the name: "Name (Treasurer)", "Name, co-Chair"."""
    rest = text.split(name, 1)[1] if name in text else ""
    paren = re.match(r"\s*\(([^()]{1,40})\)", rest)
    if (
        paren
        and re.search(r"[A-Z]", paren.group(1))
        and (ROLE_WORD.search(paren.group(1)) or pat.LEAD_WORDS.search(paren.group(1)))
        and not re.search(r"\bfor\b|@", paren.group(1))
    ):
        return paren.group(1)
    comma = re.match(r"\s*,\s*([^,;.]{2,60})", rest)
    if comma:
        words = re.sub(r"\s*\b(?:Twitter|GitHub|LinkedIn|Website)\b.*$", "", comma.group(1))
        return words.strip() or None
    return None


def _speakers(item: Item) -> list[names.Person]:
    """ "Title - Speaker, Speaker" items give the speakers after the dash; else the person the
    item opens with ("Name, Title at Company", "**Name** is a Professor of ...")."""
    parts = SPEAKER_SPLIT.split(item.text)
    if len(parts) >= 2:
        tail = parts[-1]
        found = []
        for piece in re.split(r",\s*|\s+and\s+|\s*&\s*", tail):
            piece = collapse(piece).strip(" .")
            if piece and _people.looks_like_name(piece):
                found.append(names.Person(piece))
        if found or not _opens_with_person(item):
            return found
    entries = _entries.read(item.text, item.links)
    found = [names.Person(names.with_suffix(item.text, e.name), e.github)
             for e in entries[:1] if _people.looks_like_name(e.name)]  # fmt: skip
    if found or not _opens_with_person(item):
        return found
    return names.mask(item.text, item.links)[1][:1]


def _opens_with_person(item: Item) -> bool:
    masked, people, _ = names.mask(item.text, item.links)
    return bool(people) and masked.startswith(names.PERSON_MARK)


def _singular(text: str) -> str:
    text = collapse(text)
    return text[:-1] if text.lower().endswith("s") and not text.lower().endswith("ss") else text
