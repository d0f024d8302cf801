"""Role changes told in prose shapes the sentence tables (`patterns`, `handovers`) do not read:
tried on a sentence only when no other reader gave it a claim.

- outgoing members named after a relative clause: "We also want to thank three outgoing
  Steering Committee members who did not participate in the election, A, B and C" (`OUTGOING`);
- joining a named community or project in a role: "A (GitHub ID: a) has officially joined the
  Apache Foo community as a committer" (`JOINED_AS`; the body may read as a name);
- a duty handed over: "I handed over the maintainership of Foo to A", "B passed the leadership
  of Bar to A" (`HANDED_OVER`; the new holder gains the role, a named giver leaves it);
- the writer taking over from someone: "[I'm (login)](https://github.com/login) taking over
  from [Bob (bob)](https://github.com/bob) as maintainer" (`TAKING_OVER`; the writer is the
  linked login, else the post's one author).
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from extractors.announcements import dates, events, names, sequence
from extractors.announcements import patterns as pat
from extractors.announcements.bodies import clean_role
from extractors.document.model import Links, collapse, github_login
from ingest.models import Claim

_PERSON = pat.PERSON
# a body printed before "community", "project": capitalised words, or a run read as a name
_BODY = rf"(?P<body>{_PERSON}|(?:[A-Z][\w.&'’+-]*\s+){{1,5}}?)"
_ROLE_ONLY = rf"(?P<role>{pat.ROLE_WORDS}(?:\s+{pat.ROLE_WORDS})?)\b"
OUTGOING = re.compile(
    rf"(?i:outgoing|departing|retiring)\s+{pat.ROLE_PHRASE}\s+(?:who|that)\s+[^,.;:]{{1,120}}"
    rf"\s*[,:—–]\s*{pat.PEOPLE}"
)
JOINED_AS = re.compile(
    rf"{pat.PEOPLE}{pat.APPOSITIVE}\s+{pat.JOIN_VERB}\s+(?:the\s+)?{_BODY}\s*"
    rf"(?i:community|project|team|organi[sz]ation)\s+as\s+(?:an?\s+|the\s+|its\s+)?{_ROLE_ONLY}"
)
# people forming a body, or joining someone to form it: "A, B, and C join our veteran member D
# to form our first ever dedicated Hardware group"; "A, B and C form our core development team"
_GROUP = (rf"(?P<role>(?:(?:our|the|a|an|its|their)\s+)?(?:[\w.&'’,-]+\s+){{0,7}}?"
          rf"(?:{pat.ROLE_WORDS}|(?i:group|crew|squad))(?:\s+(?:of|for)\s+(?:the\s+)?"
          rf"(?:[A-Z][\w.&'’-]*\s*){{1,5}})?)\b")  # fmt: skip
FORMED = re.compile(
    rf"{pat.PEOPLE}(?:,?\s+and\s+(?P<one>[A-Z][a-z]{{2,20}}))?{pat.APPOSITIVE}\s+"
    rf"(?:(?:will\s+)?(?:join|joins|joined)\s+"
    rf"(?:our\s+|the\s+)?(?:(?P<joined_role>[\w-]+\s+(?i:members?))\s+(?P<joined>{_PERSON})\s+)?"
    rf"[^.{pat.PERSON_MARK}]{{0,40}}?\bto\s+)?(?:form|forms|formed|make\s+up|makes\s+up|"
    rf"made\s+up)\s+{_GROUP}"
)
# a person and their new role as an apposition: "... managed by A, our first-ever development
# lead"; a role that ended: "B, last year's PR Director, was the first to hold it"
NEW_APPOSITION = re.compile(
    rf"(?P<people>{_PERSON})\s*,\s+(?:our|the|its|their)\s+(?i:new|newest|first|first[- ]ever|"
    rf"incoming|newly\s+(?:elected|appointed|named))\s+{pat.ROLE_PHRASE}"
)
OLD_APPOSITION = re.compile(
    rf"(?P<people>{_PERSON})\s*,\s+(?:(?i:last\s+year's|last\s+year’s|(?:our|the|its)\s+"
    rf"(?:former|previous|outgoing|departing|retiring)|former|outgoing))\s+{pat.ROLE_PHRASE}\s*,"
)
# the duty's word and the role it is
DUTIES = {"maintainership": "maintainer", "maintenance": "maintainer", "leadership": "lead",
          "ownership": "owner", "stewardship": "maintainer"}  # fmt: skip
HANDED_OVER = re.compile(
    rf"(?:(?P<old>{_PERSON})|\b(?P<self>I|we)\b)[^.{pat.PERSON_MARK}]{{0,40}}?\b"
    rf"(?:handed|hands|hand|handing|passed|passes|passing|transferred|transfers|gave|gives)\s+"
    rf"(?:over\s+)?(?:the\s+|my\s+|our\s+|his\s+|her\s+|their\s+)?"
    rf"(?P<duty>(?i:maintainership|maintenance|leadership|ownership|stewardship))\s+of\s+"
    rf"(?P<project>{_PERSON}|[\w.+-]+(?:\s+[A-Z][\w.+-]*){{0,3}})\s+(?:over\s+)?to\s+{pat.PEOPLE}"
)
# read on the sentence as printed: the giver may be a linked first name ("Bob (bob)")
TAKING_OVER = re.compile(
    rf"\bI(?:'m|’m|\s+am)(?:\s*\([^()]{{1,40}}\))?\s+(?:now\s+)?(?:taking|took|take)\s+"
    rf"over\s+from\s+(?P<old>[^.,;()]{{1,40}}?(?:\s*\([^()]{{1,40}}\))?)\s+as\s+{pat.ROLE_PHRASE}"
)
# a link whose text starts "I'm" and whose target is a GitHub user: the writer's login
WRITER_LINK = re.compile(r"^I(?:'m|’m|\s+am)\b")
LOGIN_LABEL = re.compile(r"(?P<name>[A-Z][^\W\d_]+(?:\s+[A-Z][^\W\d_]+){0,2})\s*\([\w-]{1,39}\)")


# a sentence that says goodbye to people leaving, and what ends its hold over the sentences after
FAREWELL = re.compile(
    r"\b(?i:say(?:ing)?|bid(?:ding)?)\s+(?i:goodbye|farewell)\s+to\s+[^.!?]{0,40}?"
    r"\b(?i:departing|outgoing|leaving|retiring)\s+(?:[\w-]+\s+){0,2}?"
    rf"(?:{pat.ROLE_WORDS}|(?i:people|folks))"
)
WELCOME_AGAIN = re.compile(r"\b(?i:welcom\w*|new|join\w*|elect\w*|appoint\w*)\b")
# "A, B and C each left a huge impact on our project as core developers": the role they held
HELD_AS = re.compile(rf"{pat.PEOPLE}[^.{pat.PERSON_MARK}]{{0,80}}?\bas\s+{pat.ROLE_PHRASE}")


def sentence_claims(sentence: events.Sentence, context: events.Context) -> Iterator[Claim]:
    """The sentence's claims as the other readers give them, else the shapes above."""
    claims = list(sequence.sentence_claims(sentence, context))
    yield from claims
    if FAREWELL.search(sentence.display):
        context.farewell = True  # the people the next sentences name as holding a role leave it
    elif claims or WELCOME_AGAIN.search(sentence.display):
        context.farewell = False
    if claims:
        return
    found = list(_prose_claims(sentence, context))
    names.remember(context.known, [names.Person(c.subject.name, c.subject.github)
                                   for c in found])  # fmt: skip
    yield from found


def _prose_claims(sentence: events.Sentence, context: events.Context) -> Iterator[Claim]:
    known = {k: v for k, v in context.known.items() if v.name}
    masked, people, _quotes = names.mask(sentence.display, sentence.links, known)
    stated = dates.sentence_date(sentence.display, sentence.date)
    when = stated.iso if stated else sentence.date
    extra = stated.qualifiers() if stated else {}

    def role_claim(person: names.Person, role: str, status: str, dated: bool = True) -> Claim:
        return events._role_claim(context, person, role, status, when if dated else sentence.date,
                                  extra if dated else {}, sentence)  # fmt: skip

    for match in OUTGOING.finditer(masked):
        role = clean_role(match.group("role"))
        for index in names.indexes(match.group("people")):
            yield role_claim(people[index], role, "emeritus")
    for match in FORMED.finditer(masked):
        role = clean_role(_text(match.group("role"), people))
        if not role:
            continue
        one = [names.Person(match.group("one"))] if match.group("one") else []
        for person in [people[i] for i in names.indexes(match.group("people"))] + one:
            yield role_claim(person, f"member of {role}", "current")
        for index in names.indexes(match.group("joined") or ""):
            yield role_claim(people[index], f"{match.group('joined_role')} of {role}", "current")
    for pattern, status in ((NEW_APPOSITION, "current"), (OLD_APPOSITION, "emeritus")):
        for match in pattern.finditer(masked):
            role = clean_role(match.group("role"))
            for index in names.indexes(match.group("people")):
                if role:  # "last year's PR Director": the year the role was held, not the change
                    yield role_claim(people[index], role, status, dated=status == "current")
    for match in HELD_AS.finditer(masked) if context.farewell else ():
        role = clean_role(match.group("role"))
        for index in names.indexes(match.group("people")):
            if role:  # under a goodbye to departing members: a role held, now left
                yield role_claim(people[index], role, "emeritus", dated=False)
    for match in JOINED_AS.finditer(masked):
        body = _text(match.group("body"), people)
        role = f"{clean_role(match.group('role'))} of {body}"
        for index in names.indexes(match.group("people")):
            yield role_claim(people[index], role, "current")
    for match in HANDED_OVER.finditer(masked):
        duty = DUTIES[match.group("duty").casefold()]
        role = f"{duty} of {_text(match.group('project'), people)}"
        for index in names.indexes(match.group("people")):
            yield role_claim(people[index], role, "current")
        for index in names.indexes(match.group("old") or ""):
            yield role_claim(people[index], role, "emeritus")
    for match in TAKING_OVER.finditer(sentence.display):
        role = clean_role(match.group("role"))
        writer = _writer(sentence, context)
        if writer is None or not role:
            continue
        yield role_claim(writer, role, "current")
        giver = _giver(match.group("old"), sentence.links)
        if giver is not None:
            yield role_claim(giver, role, "emeritus")


def _text(found: str, people: list[names.Person]) -> str:
    """A span of the masked sentence with its people's names put back."""
    return re.sub(
        rf"{pat.PERSON_MARK}(\d+){pat.PERSON_END}", lambda m: people[int(m.group(1))].name, found
    ).strip()


def _giver(text: str, links: Links) -> names.Person | None:
    """The person a span names: as the sentence reader finds one, else a link to a GitHub user
    printed as "Name (login)"."""
    _masked, people, _quotes = names.mask(text, links)
    if len(people) == 1:
        return people[0]
    for label, target in links:
        login = github_login(target)
        printed = LOGIN_LABEL.fullmatch(collapse(label))
        if login and printed and collapse(label) == collapse(text):
            return names.Person(printed.group("name"), login)
    return None


def _writer(sentence: events.Sentence, context: events.Context) -> names.Person | None:
    """The writer of a first-person sentence: the GitHub login its "I'm ..." link names, else
    the post's one author when that is a person's name."""
    for label, target in sentence.links:
        login = github_login(target)
        if login and WRITER_LINK.match(label.strip()):
            return names.Person(login, login)
    authors = context.post.authors
    if len(authors) == 1 and names.looks_like_person(authors[0]):
        return names.Person(authors[0])
    return None
