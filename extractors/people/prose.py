"""People named in prose: "The council consists of A, B and C.", "Members: A, B", "A is the chair".

A sentence names people when, after an introduction ("consists of", "is composed of", "members
are") or a label that says a role ("Chair:", "Former maintainers:"), at least `PROSE_MIN_SHARE`
of its comma/and-separated parts read as people. Quotes are the sentence as the source prints it.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from extractors.people import names as _people
from extractors.people.labels import Labels
from extractors.people.names import Person

PROSE_MIN_SHARE = 0.8  # a "consists of" sentence: this share of its parts must be people
# a Markdown or reST paragraph longer than this (as printed) is not read for names: finding each
# sentence's printed form costs the paragraph's length (HTML prints what it reads: no limit)
PROSE_MAX_CHARS = 8192
PROSE_INTRO = re.compile(
    r"\b(?:consists? of|is composed of|is made up of|comprises|members are|are as follows"
    r"|(?:is|are)(?: currently)?(?=\s+(?-i:[A-Z@\[]))|includes?)"
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
ROLE_IS = re.compile(  # "Jane Roe is the Benevolent Dictator for Life (BDFL)": one person's seat
    r"^(?P<name>[^,;:]+?)\s+(?P<verb>is|serves as|was|served as)\s+(?:the|our)\s+(?P<role>[^,;:]+)$"
)
PARENTHESISED = re.compile(r"\([^()]*\)")
LIST_SPLIT = re.compile(r"\s*(?:,\s*(?:and\s+)?|;\s*|\s+and\s+|\s*&\s*)", re.IGNORECASE)
SENTENCE_END = re.compile(r"[.!?](?=\s+|$)")
POSSESSIVE = re.compile(r"^(?:[\w.-]+(?:\s+[\w.-]+)?['’]s\s+)")
LEADING_ARTICLE = re.compile(r"^(?:the|our|all|current|currently)\s+", re.I)


def sentences(text: str) -> Iterator[str]:
    start = 0
    for match in SENTENCE_END.finditer(text):
        word = last_word(text, start, match.start())
        if len(word) == 1 and word.isupper():
            continue  # an initial: "Gregory P. Smith"
        yield text[start : match.end()].strip()
        start = match.end()
    rest = text[start:].strip()
    if rest:
        yield rest


def last_word(text: str, start: int, end: int) -> str:
    """`text[start:end].split()[-1]` (or ""), read backwards from `end`: the words before a
    run of initials are not split again at every initial."""
    stop = end
    while stop > start and text[stop - 1].isspace():
        stop -= 1
    begin = stop
    while begin > start and not text[begin - 1].isspace():
        begin -= 1
    return text[begin:stop]


def phrase(text: str) -> str:
    """The group a sentence names, as printed: "Homebrew's Project Leadership Committee is" ->
    "Project Leadership Committee"."""
    text = POSSESSIVE.sub("", text.strip())
    return LEADING_ARTICLE.sub("", text).strip(" ,:;")


def people(
    sentence: str,
    labels: Labels,
    role_hint: str | None,
    *,
    under_role: bool = False,
    heading: str | None = None,
) -> tuple[list[tuple[Person, str | None]], str | None]:
    """The people a sentence names, with their role, and the group phrase (a section). Under a
    heading that names a role (`under_role`), the heading gives both; "Jane Roe is the <seat>"
    under a heading that is that seat's name (`heading`) names its holder."""
    body = sentence.rstrip(".!? ")
    intro = PROSE_INTRO.search(body)
    label = PROSE_LABEL.match(body)
    if intro is not None:
        group = phrase(body[: intro.start()])
        if not group or (len(group.split()) > 8):
            return [], None
        says = _people.role_of(group)
        role = says if says and not _people.is_generic(says) else role_hint
        if under_role:
            role = role_hint
        found = name_list(body[intro.end() :], labels, role, PROSE_MIN_SHARE, at_least=1)
        if len(found) < 2 and not says:
            return [], None
        for person, _role in found:
            person.emeritus = person.emeritus or _people.is_emeritus(group)
        return found, group if says and not under_role else None
    found = _labelled(body, label, labels, role_hint)
    if not found and under_role:
        found = leading_names(body, labels, role_hint)
    if not found and (under_role or heading):
        found = role_is(body, labels, role_hint if under_role else None, heading)
    return found, None


def role_is(
    body: str, labels: Labels, role: str | None, heading: str | None
) -> list[tuple[Person, str | None]]:
    """ "Jane Roe is the <seat>": its one holder, when the seat is a role (under a heading that
    names one) or the heading's own words ("Benevolent Dictator for Life (BDFL)" under
    "Benevolent Dictator for Life")."""
    match = ROLE_IS.match(body)
    if match is None:
        return []
    seat = " ".join(PARENTHESISED.sub(" ", match.group("role")).split())
    titled = " ".join(PARENTHESISED.sub(" ", heading or "").split())  # "... (retired 2022)"
    if seat.lower() != titled.lower():
        past = match.group("verb") in ("was", "served as")  # history, unless the heading's seat
        if past or role is None or _people.role_of(seat) is None:
            return []
    else:
        role = role or seat
    name = match.group("name").strip()
    person = _people.person(name, labels.within(name))
    return [(person, role)] if person is not None and person.area is None else []


def leading_names(body: str, labels: Labels, role: str | None) -> list[tuple[Person, str | None]]:
    """Under a heading that names a role, a sentence that opens with two or more names
    ("Helen Hawkins (IBM UK Ltd), Ron Bodkin and many others who ...") names them."""
    found: list[tuple[Person, str | None]] = []
    for part in LIST_SPLIT.split(body):
        person = _people.person(part.strip(), labels.within(part))
        if (person is None or person.area is not None) and found:
            # the last name and the sentence's verb ("... and Max Muster maintain it")
            name = _before_verb(part.strip())
            person = _people.person(name, labels.within(name)) if name else None
            if person is not None and person.area is None:
                found.append((person, role))
            break
        if person is None or person.area is not None:
            break
        found.append((person, role))
    return found if len(found) >= 2 else []


def _before_verb(part: str) -> str | None:
    """The words before the first lower-case one that is no name particle ("Max Muster
    (@mmuster) maintain this project" -> "Max Muster (@mmuster)"), None when there is none."""
    words = part.split()
    for index, word in enumerate(words):
        if index >= 1 and word[:1].islower() and word.lower() not in _people.PARTICLES:
            return " ".join(words[:index])
    return None


def _labelled(
    body: str, label: re.Match[str] | None, labels: Labels, role_hint: str | None
) -> list[tuple[Person, str | None]]:
    if label is not None:
        words = label.group("label")
        says = _people.role_of(words) or _people.LEAD_WORDS.search(words)
        if not says and not _people.is_emeritus(words):
            return []
        own = _people.role_of(words)
        found = name_list(
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


def name_list(
    text: str,
    labels: Labels,
    role: str | None,
    share: float,
    *,
    at_least: int,
) -> list[tuple[Person, str | None]]:
    parts = [_after_label(p.strip()) for p in LIST_SPLIT.split(text) if p.strip()]
    found = [_people.person(p, labels.within(p)) for p in parts]
    people = [(p, role) for p in found if p is not None and p.area is None]
    if len(people) < at_least or len(people) < share * len(parts):
        return []
    return people


def _after_label(part: str) -> str:
    """ "Homebrew's creator: Max Howell" -> "Max Howell" (the label is no part of the name)."""
    head, colon, rest = part.partition(": ")
    return rest if colon and rest and not _people.looks_like_name(head) else part


def verbatim(sentence: str, raw: str) -> str:
    """The sentence as the source prints it (line breaks and markup included when it can be
    found word for word), else the raw paragraph."""
    if sentence in raw:
        return sentence
    words = sentence.split()
    pattern = r"\s+".join(re.escape(w) for w in words)
    match = re.search(pattern, raw)
    return match.group(0) if match else raw
