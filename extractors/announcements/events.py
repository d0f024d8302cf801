"""Claims from the sentences of a post: a sentence gives a claim only when a pattern
(`_announce_patterns`) puts a person in a role or event slot; people merely thanked, quoted or
mentioned give none.

The maintainer "<level> maintainer" families keep their qualifiers (`level`, `scope`, `status`
current / emeritus, `since` / `until`, `event`); the object is the project the sentence
names, else the title's, else the document's. Role changes of any other body carry `role` (the
role words as printed), `level` (lead, core or member) and `date`; their object is the body the
sentence names, else the one the title names. Events carry `date`, and `title` / `session` when a
quoted text names the talk or session.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from extractors.announcements import dates, handovers, names
from extractors.announcements import patterns as pat
from extractors.announcements.bodies import (
    BODY_IN_TITLE,
    OF_BODY,
    TITLE_ROLE_CUES,
    body_name,
    body_of,
    clean_body,
    clean_role,
    host_project,
    owned,
    site_project,
)
from extractors.announcements.source import Post
from extractors.document.model import Links, collapse
from ingest.models import Claim, Evidence, Snapshot, Subject

SENTENCE_END = re.compile(r"[.!?][\"”’)\]*_]*\s+(?=[^\s])")
KEYNOTE = re.compile(r"\bkeynote\b", re.I)
ROLE_WORD = re.compile(rf"\b{pat.ROLE_WORDS}\b")
ABBREVIATIONS = frozenset({"e.g", "i.e", "dr", "mr", "ms", "mrs", "prof", "st", "vs", "etc", "no"})


@dataclass(frozen=True)
class Sentence:
    quote: str  # verbatim: the source text of the sentence, or of its whole block
    display: str
    links: Links
    locator: str
    date: str | None


class Context:
    """What a sentence may fall back on: the post's title, date, author, event and project."""

    def __init__(self, post: Post, snapshot: Snapshot, tag: str) -> None:
        self.post, self.snapshot, self.tag = post, snapshot, tag
        title = post.title or ""
        self.title_event = event_in(names.mask(title)[0]) or (title or None)
        self.title_project = project_in(title)
        opening = " ".join(post.texts()[:200])  # the post's first blocks
        self.document_project = project_in(opening)  # a role's, where it is printed
        self.title_level = level_in(title)
        match = BODY_IN_TITLE.search(title)
        self.title_body = body_name(match.group("body")) if match else None
        self.site = site_project(snapshot.url, opening) or host_project(snapshot.url)
        of_body = OF_BODY.search(title)  # "New core maintainers for Foobar": Foobar
        self.title_of_body = body_name(of_body.group("body")) if of_body else None
        self.title_is_news = bool(TITLE_ROLE_CUES.search(title))
        self.known: dict[str, names.Person] = {}  # first names of people named so far
        names.remember(self.known, [names.Person(n) for n in post.people])  # mail headers
        self.handle_names: dict[str, str] | None = None  # lists.handle names, read once a post
        self.enumerated: str | None = None  # the role people are presented in (sequence)
        self.farewell = False  # after "say goodbye to some departing members" (prose)
        self.paragraph = ""  # the text of the block whose sentences are read

    def claim(self, person: names.Person, predicate: str, obj: str, qualifiers: dict[str, Any],
              locator: str, quote: str) -> Claim:  # fmt: skip
        return Claim(
            subject=Subject(name=person.name, github=person.github),
            predicate=predicate,
            object=obj,
            qualifiers={k: v for k, v in qualifiers.items() if v is not None},
            evidence=Evidence(
                url=self.snapshot.url, sha256=self.snapshot.sha256, locator=locator, quote=quote
            ),
            extractor=self.tag,
        )


def sentences(quote: str, display: str, links: Links, locator: str, when: str | None,
              ) -> Iterator[Sentence]:  # fmt: skip
    """A block's sentences; each quotes its own source text when the source splits the same."""
    shown = split(display)
    source = split(quote)
    paired = len(shown) == len(source)
    for number, text in enumerate(shown, start=1):
        own = source[number - 1] if paired else quote
        yield Sentence(own, text, links, f"{locator}, sentence {number}", when)


def split(text: str) -> list[str]:
    pieces: list[str] = []
    begin = 0
    for match in SENTENCE_END.finditer(text):
        before = text[begin : match.start()].rsplit(None, 1)
        last = before[-1].casefold().rstrip(".") if before else ""
        if last in ABBREVIATIONS or (len(last) == 1 and last.isalpha()):
            continue
        following = text[match.end() : match.end() + 1]
        if following.islower():
            continue
        pieces.append(text[begin : match.end()].strip())
        begin = match.end()
    pieces.append(text[begin:].strip())
    return [piece for piece in pieces if piece]


def sentence_claims(sentence: Sentence, context: Context) -> Iterator[Claim]:
    """The sentence's claims; the people they name are remembered by first name."""
    claims = list(_sentence_claims(sentence, context))
    claimed = {(c.subject.name, c.subject.github) for c in claims}
    names.remember(context.known, [names.Person(n, g) for n, g in claimed])
    yield from claims


def _sentence_claims(sentence: Sentence, context: Context) -> Iterator[Claim]:
    known = {k: v for k, v in context.known.items() if v.name}
    masked, people, quotes = names.mask(sentence.display, sentence.links, known)
    stated = dates.sentence_date(sentence.display, sentence.date)
    if not people or handovers.about_the_author(sentence.display):
        yield from _first_person(sentence, context, stated)
        return
    when = stated.iso if stated else sentence.date
    extra = stated.qualifiers() if stated else {}

    def make(index: int, predicate: str, obj: str, qualifiers: dict[str, Any]) -> Claim:
        return context.claim(people[index], predicate, obj, {**qualifiers, **extra},
                             sentence.locator, sentence.quote)  # fmt: skip

    found = False
    project = (
        project_in(sentence.display)
        or context.title_project
        or context.document_project
        or context.site
    )
    for pattern in pat.SUCCESSION_PATTERNS:
        for match in pattern.finditer(masked):
            if project is None:
                continue
            level = _level(match.group("level"))
            for index in names.indexes(match.group("new")):
                found = True
                yield make(index, "maintainer", project, _joined(level, None, when))
            for index in names.indexes(match.group("old")):
                yield make(index, "maintainer", project, _left(level, None, when))
    emeritus = {
        index
        for pattern in pat.EMERITUS_PATTERNS
        for match in pattern.finditer(masked)
        for index in names.indexes(match.group("people"))
    }
    for family, patterns in (("join", pat.JOIN_PATTERNS), ("left", pat.LEFT_PATTERNS)):
        for pattern in patterns:
            for match in pattern.finditer(masked):
                if project is None:
                    continue
                level = _level(match.group("level"))
                scope = _scope(match, level)
                for index in names.indexes(match.group("people")):
                    if family == "left" and index in emeritus:
                        continue  # "steps back ... and is moving to emeritus": one claim
                    found = True
                    made = _joined if family == "join" else _left
                    yield make(index, "maintainer", project, made(level, scope, when))
    seen_emeritus: set[int] = set()
    for pattern in pat.EMERITUS_PATTERNS:
        for match in pattern.finditer(masked):
            emeritus_level = level_in(sentence.display) or context.title_level
            if project is None or emeritus_level is None:
                continue
            for index in names.indexes(match.group("people")):
                if index in seen_emeritus:
                    continue
                seen_emeritus.add(index)
                found = True
                yield make(index, "maintainer", project,
                           {"level": emeritus_level, "status": "emeritus", "since": when,
                            "event": "emeritus"})  # fmt: skip
    if not found:
        yield from _role_changes(masked, people, sentence, context, when, extra)
    event = clean_body(event_in(masked) or context.title_event)
    if event is None:
        return
    printed = dates.full_date(sentence.display)
    when = printed or sentence.date  # an event is dated by a day printed, else the post's
    extra = {}
    for predicate, pattern in pat.EVENT_PATTERNS:
        for match in pattern.finditer(masked):
            quoted = _quoted(match, masked, quotes)
            qualifiers: dict[str, Any] = {"date": when}
            if predicate in pat.TITLED_PREDICATES:
                qualifiers["title"] = quoted
            elif predicate in pat.SESSION_PREDICATES:
                qualifiers["session"] = quoted
            if predicate == "speaker" and KEYNOTE.search(masked):
                predicate = "keynote"
            for index in names.indexes(match.group("people")):
                yield make(index, predicate, event, qualifiers)
    for match in pat.PRESENTED.finditer(masked):
        talk = match.group("talk")
        if re.search(r"\b(?:talk|keynote|session|tutorial)\b", talk, re.I):
            for index in names.indexes(match.group("people")):
                yield make(index, "speaker", event, {"date": when, "role": collapse(talk)})
    for match in pat.CHAIR_DASH.finditer(masked):
        for index in names.indexes(match.group("people")):
            yield make(index, "program_chair", event, {"date": when, "level": "lead"})


def _role_changes(masked: str, people: list[names.Person], sentence: Sentence, context: Context,
                  when: str | None, extra: dict[str, Any]) -> Iterator[Claim]:  # fmt: skip
    done: set[tuple[int, str]] = set()
    left: dict[int, str] = {}  # the role each person the sentence names leaves
    for status, pattern in (*pat.ROLE_PATTERNS, *handovers.ROLE_PATTERNS):
        for match in pattern.finditer(masked):
            role = clean_role(match.group("role"))
            if not role:
                continue
            for index in names.indexes(match.group("people")):
                if (index, status) in done:
                    continue
                done.add((index, status))
                if status != "current":
                    left.setdefault(index, role)
                yield _role_claim(context, people[index], role, status, when, extra, sentence)
    for index, role, status in handovers.successions(masked, left):
        if (index, status) not in done:
            done.add((index, status))
            yield _role_claim(context, people[index], role, status, when, extra, sentence)
    for match in pat.RECRUITED.finditer(masked):
        org = match.group("org") or context.title_project or _first_capitalised(context)
        for index in names.indexes(match.group("people")):
            if org and not any(i == index for i, _ in done):
                done.add((index, "affiliation"))
                qualifiers = {"role": "recruited", "status": "current", "date": when, **extra}
                yield context.claim(people[index], "affiliation", collapse(org), qualifiers,
                                    sentence.locator, sentence.quote)  # fmt: skip
    for status, pattern in (
        ("current", pat.JOINED_ORG),
        ("emeritus", pat.LEFT_ORG),
        ("current", pat.LEFT_TO_JOIN),
    ):
        for match in pattern.finditer(masked):
            org = collapse(match.group("org")).rstrip(".")
            if ROLE_WORD.search(org):
                continue  # a team, council or committee: a role, read above
            for index in names.indexes(match.group("people")):
                if {(index, "current"), (index, "emeritus"), (index, f"org-{status}")} & done:
                    continue
                done.add((index, f"org-{status}"))
                job = match.groupdict().get("job")
                verb = "joined" if status == "current" else "left"
                qualifiers = {"role": collapse(job) if job else f"{verb} {org}", "status": status,
                              "date": when, **extra}  # fmt: skip
                yield context.claim(people[index], "affiliation", org, qualifiers,
                                    sentence.locator, sentence.quote)  # fmt: skip
    for match in pat.WHO_JOINED.finditer(masked):
        org = collapse(match.group("org"))
        for index in names.indexes(match.group("people")):
            if (index, "affiliation") not in done:
                done.add((index, "affiliation"))
                qualifiers = {"role": f"joined {org}", "status": "current", "date": when, **extra}
                yield context.claim(people[index], "affiliation", body_name(org), qualifiers,
                                    sentence.locator, sentence.quote)  # fmt: skip
    leaving = re.search(r"\band\s+(?:she|he|they)\s+(?:is|are)\s+also\s+stepping\s+down\s+from\s+"
                        r"(?P<role>(?:the\s+)?(?:[A-Z][\w-]*\s*){1,4})", masked)  # fmt: skip
    if leaving and done:
        first = min(i for i, _ in done)
        role = clean_role(leaving.group("role"))
        if role:
            yield _role_claim(context, people[first], role, "emeritus", when, extra, sentence)
    if any(status != "affiliation" for _, status in done):
        return
    if not (context.title_is_news and context.title_body):
        return
    for status, pattern in (*pat.TITLE_ROLE_PATTERNS, *handovers.TITLE_ROLE_PATTERNS):
        for match in pattern.finditer(masked):
            for index in names.indexes(match.group("people")):
                if (index, status) in done:
                    continue
                done.add((index, status))
                role = f"{context.title_body} member"
                yield _role_claim(context, people[index], role, status, when, extra, sentence)


def _role_claim(context: Context, person: names.Person, role: str, status: str,
                when: str | None, extra: dict[str, Any], sentence: Sentence) -> Claim:  # fmt: skip
    predicate = "affiliation" if pat.COMPANY_ROLE.search(role) else "maintainer"
    body = owned(
        clean_body(
            body_of(role)
            or context.title_body
            or context.title_project
            or context.title_of_body
            or context.title_event
        ),
        context.site,
    )
    qualifiers: dict[str, Any] = {
        "role": role,
        "level": None if predicate == "affiliation" else role_level(role),
        "status": "current" if status == "current" else "emeritus",
        "date": when,
        **extra,
    }
    return context.claim(person, predicate, body or role, qualifiers, sentence.locator,
                         sentence.quote)  # fmt: skip


def _first_person(sentence: Sentence, context: Context, stated: dates.When | None,
                  ) -> Iterator[Claim]:  # fmt: skip
    """ "I ... step down as lead of the team": the post's one author leaves (or takes) the role."""
    match = handovers.first_person_left(sentence.display, context.paragraph, context.post.title)
    found = match or handovers.first_person_made(sentence.display)  # "I was made a maintainer"
    if not found or len(context.post.authors) != 1:
        return
    author = context.post.authors[0]
    if not (handovers.author_named(author) or match and handovers.author_may_leave(author, match)):
        return
    role, status = clean_role(found.group("role")), "emeritus" if match else "current"
    yield _role_claim(context, names.Person(author), role, status, sentence.date, {}, sentence)


def _first_capitalised(context: Context) -> str | None:
    match = re.match(r"\s*([A-Z][\w.&-]*(?:\s+[A-Z][\w.&-]*){0,2})", context.post.title or "")
    return match.group(1) if match else None


def role_level(role: str) -> str:
    if pat.LEAD_WORDS.search(role) and not pat.VICE.search(role):
        return "lead"
    if pat.CORE_WORD.search(role):
        return "core"
    return "member"


def _joined(level: str, scope: str | None, when: str | None) -> dict[str, Any]:
    return {"level": level, "scope": scope, "status": "current", "since": when, "event": "joined"}


def _left(level: str, scope: str | None, when: str | None) -> dict[str, Any]:
    # the contract's word for a role someone stepped down from, as the announcement gold has it
    return {"level": level, "scope": scope, "status": "emeritus", "until": when, "event": "left"}


def _level(text: str) -> str:
    return pat.LEVELS[" ".join(text.casefold().split())]


def level_in(text: str) -> str | None:
    match = re.search(rf"\b{pat.LEVEL}\s+(?i:maintainers?)\b", text)
    return _level(match.group("level")) if match else None


def _scope(match: re.Match[str], level: str) -> str | None:
    if level not in ("module", "library") or "scope" not in match.re.groupindex:
        return None
    return match.group("scope")


def _quoted(match: re.Match[str], masked: str, quotes: list[str]) -> str | None:
    marker = match.groupdict().get("quote") or ""
    index = names.quoted_index(marker or masked)
    return quotes[index] if index is not None else None


def project_in(text: str) -> str | None:
    """The project a sentence (or title) prints for a maintainer role (pat.PROJECT_NAMED)."""
    match = pat.PROJECT_NAMED.search(text)
    if match is None:
        return None
    return next(name for name in match.groups() if name)


def event_in(masked: str) -> str | None:
    for match in pat.EVENT_RUN.finditer(masked):
        tokens = match.group(0).rstrip(".").split(" ")
        while tokens and tokens[0].casefold() in pat.EVENT_LEADING:
            tokens.pop(0)
        folded = [token.casefold().strip(".,") for token in tokens]
        if not any(any(ch.isalpha() for ch in t) and t not in pat.MONTHS for t in folded):
            continue
        if any(t in pat.MONTHS for t in folded):
            continue
        has_event_word = len(tokens) > 1 and any(t in pat.EVENT_WORDS for t in folded)
        if has_event_word or any(pat.YEAR.search(t) for t in folded):
            return " ".join(tokens)
    return None
