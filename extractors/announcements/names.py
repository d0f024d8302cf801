"""People in a sentence: found, then replaced by numbered placeholders for the patterns.

Found in this order: link texts whose target is a person (a GitHub user, a LinkedIn or Twitter
profile: "[Jane Roe](https://github.com/janeroe)", "[@handle]"), then runs of 2-4 capitalised
tokens (lower-case particles allowed; never inside quotation marks; four capitalised tokens
without a particle are two glued names and are skipped). A name may carry a parenthesis right
after it ("Oliver Scherer (oli-obk)", "Jane Roe (@jroe)", "Ann Lee (AWS)"): a handle in it is the
person's GitHub login when the link or the bare handle says so; the parenthesis is part of the
placeholder, so "A (x), B (y) and C (z)" stays a list.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from extractors.document.model import Links, collapse, github_login


def _word_set(words: str) -> frozenset[str]:
    return frozenset(words.split())


NAME_TOKEN = re.compile(
    r"^(?:[A-Z][a-z]?\.|(?:Mc|O['’])?[A-Z][^\W\d_A-Z]+(?:[-'’][A-Z][^\W\d_]+)*|[A-Z][a-z]+[A-Z][a-z]+)$"
)
NAME_TOKEN_UNICODE = re.compile(r"^[^\W\d_]+(?:[-'’][^\W\d_]+)*$")
PARTICLES = frozenset({"van", "von", "de", "der", "den", "da", "di", "du", "del", "della", "le",
                       "la", "ten", "ter", "bin", "ibn", "al", "dos", "das", "y",
                       "St."})  # fmt: skip
NOT_NAME_WORDS = _word_set(
    """
    a an the this that these those we our us you your i my she they their it its and or but so
    if as at in on of for to by with from into onto after before since during until about today
    yesterday tomorrow please join welcome congratulations congrats thanks thank hi hello dear
    all everyone team folks both here there also meet new next last first final lead core
    maintainer maintainers module modules library libraries emeritus former current conference
    summit workshop symposium session sessions keynote keynotes panel panelist panelists
    program programme chair chairs co-chair speaker speakers developer developers community
    foundation linux open source day days release live tutorial paper blog post forum mailing
    list discussion discussions update updates announcement announcing governance technical
    europe asia america north south east west paris san francisco new york january
    february march april may june july august september october november december monday
    tuesday wednesday thursday friday saturday sunday board directors director committee
    council steering election elections results project projects members member leadership
    moderation infrastructure infra compiler chief officer president vice secretary treasurer
    twitter github linkedin website homepage read more one two three four five six seven eight
    nine ten congratulate annual general meeting proceedings organizing organising prize award
    awards technical talks talk tutorials posters poster lightning quick student panels
    representative representatives executive engineer engineering senior principal head
    distinguished staff manager software research scientist professor university
    corp corporation inc ltd llc gmbh labs technologies systems networks cloud group company
    working special interest sig wg office hours meeting meetup contributors contributor
    """
)
FIRST_NAME = re.compile(r"(?<![\w@.])[A-Z][a-z]{2,}(?![\w@])")
INITIALS = re.compile(r"^[A-Z]{2}$")  # "TJ Fontaine": initials before a name
SURNAME_INITIAL = re.compile(r"[B-HJ-Z]")  # "Faseela K": a surname printed as its initial
AFTER_INITIAL = re.compile(r"\s*(?:$|[(,])")
MAX_NAME_TOKENS = 4
MAX_CAPITALISED = 3
PERSON_MARK = "\ue000"
PERSON_END = "\ue001"
QUOTE_MARK = "\ue002"
QUOTE_END = "\ue003"
QUOTED = re.compile(r"“([^“”]{2,200})”|\"([^\"]{2,200})\"")
PERSON_LINK = re.compile(
    r"^https?://(?:www\.)?(?:github\.com/[\w-]+/?$|linkedin\.com/(?:in|pub)/|twitter\.com/|"
    r"x\.com/)",
    re.IGNORECASE,
)
HANDLE = re.compile(r"^@?([A-Za-z0-9][A-Za-z0-9-]{0,38})$")
# a nickname printed inside a name: "Yuan (Terry) Tang", "Lee 'friedbob' Lowder", "Alyssa "Nick" C."
NICKNAME = re.compile(
    r"(?<![\w@])(?P<first>[A-Z][^\W\d_]+)\s+(?:\((?P<p>[^\W\d][\w-]{1,24})\)|"
    r"['‘\"“](?P<q>[^\W\d][\w-]{1,24})['’\"”])\s+(?P<last>[A-Z][^\W\d_]+(?:[-'’][A-Z][^\W\d_]+)*)"
    r"(?![\w@])"
)
SUFFIX = re.compile(r",?\s(?:Jr\.|Sr\.|Jr|Sr|II|III|IV)(?![\w])")
AFTER_NAME = re.compile(r"\s*\((?P<inner>[^()]{1,60})\)")
BARE_HANDLE = re.compile(r"^@?([a-z0-9]+(?:-[a-z0-9]+)+|[a-z][a-z0-9]*[0-9][a-z0-9]*)$")


@dataclass(frozen=True)
class Person:
    name: str
    github: str | None = None
    note: str | None = None  # the parenthesis printed after the name, when not a handle


def mask(
    display: str, links: Links = (), known: dict[str, Person] | None = None
) -> tuple[str, list[Person], list[str]]:
    """The sentence with quoted spans and people replaced by numbered placeholders; `known`
    maps the first names of people the post named before to them ("Luca joined ...")."""
    quotes: list[str] = []

    def quote_mark(match: re.Match[str]) -> str:
        quotes.append(match.group(1) or match.group(2))
        return f"{QUOTE_MARK}{len(quotes) - 1}{QUOTE_END}"

    masked = QUOTED.sub(quote_mark, display)
    resolved: dict[int, Person] = {}
    spans = _link_spans(masked, links)
    spans += [n for n in _nickname_spans(masked) if not any(n[0] < e and b < n[1]
              for b, e, _ in spans)]  # fmt: skip
    taken = [(b, e) for b, e, _ in spans]
    for begin, end in _name_spans(masked):
        if not any(begin < e and b < end for b, e in taken):
            spans.append((begin, end, None))
    if known:
        taken = [(b, e) for b, e, _ in spans]
        for match in FIRST_NAME.finditer(masked):
            whole = known.get(match.group(0))
            if whole and not any(match.start() < e and b < match.end() for b, e in taken):
                spans.append((match.start(), match.end(), whole.github))
                resolved[match.start()] = whole
    spans.sort()
    people: list[Person] = []
    out: list[str] = []
    position = 0
    for begin, end, github in spans:
        if begin < position:
            continue
        suffix = SUFFIX.match(masked, end)
        if suffix and github is None:  # "Guy L. Steele, Jr.": the suffix is the name's
            end = suffix.end()
        name = masked[begin:end].lstrip("@")
        after = AFTER_NAME.match(masked, end)
        note = None
        if after and not re.search(r"\d{4}", after.group("inner")):
            inner = after.group("inner").strip()
            login = _handle_in(inner, links)
            if login and not github:
                github = login
            elif not login:
                note = inner
            end = after.end()
        if github is None:
            github = _link_github(name, links)
        out.append(masked[position:begin])
        whole = resolved.get(begin)
        people.append(Person(whole.name, github, note) if whole else Person(name, github, note))
        out.append(f"{PERSON_MARK}{len(people) - 1}{PERSON_END}")
        position = end
    out.append(masked[position:])
    return "".join(out), people, quotes


def remember(known: dict[str, Person], people: list[Person]) -> None:
    """Learn the first names of people named in full; a first name two people share is no one's."""
    for person in people:
        tokens = person.name.split()
        if len(tokens) < 2 or not FIRST_NAME.fullmatch(tokens[0]):
            continue
        if tokens[0] in known and known[tokens[0]].name != person.name:
            known[tokens[0]] = Person("")  # ambiguous
        else:
            known[tokens[0]] = person


def indexes(people: str) -> list[int]:
    return [int(n) for n in re.findall(rf"{PERSON_MARK}(\d+){PERSON_END}", people)]


def quoted_index(text: str) -> int | None:
    found = re.search(rf"{QUOTE_MARK}(\d+){QUOTE_END}", text)
    return int(found.group(1)) if found else None


def looks_like_person(text: str) -> bool:
    """A text that is one person's name as the sentence reader finds it."""
    spans = _name_spans(text)
    return len(spans) == 1 and spans[0] == (0, len(text))


def without_nickname(text: str) -> str:
    """The name with a nickname printed inside it left out ("Yuan (Terry) Tang" -> "Yuan Tang")."""
    return NICKNAME.sub(lambda m: f"{m.group('first')} {m.group('last')}", text)


def printed_name(text: str, name: str) -> str:
    """The name as the text prints it, with the nickname inside it, when it does."""
    for match in NICKNAME.finditer(text):
        if f"{match.group('first')} {match.group('last')}" == name:
            return match.group(0)
    return name


def with_suffix(text: str, name: str) -> str:
    """The name with the suffix the text prints after it ("Guy L. Steele, Jr."), if any."""
    at = text.find(name)
    suffix = SUFFIX.match(text, at + len(name)) if at >= 0 else None
    return name + suffix.group(0) if suffix else name


def _nickname_spans(text: str) -> list[tuple[int, int, str | None]]:
    return [(m.start(), m.end(), None) for m in NICKNAME.finditer(text)]


def _link_spans(text: str, links: Links) -> list[tuple[int, int, str | None]]:
    spans: list[tuple[int, int, str | None]] = []
    for label, target in links:
        label = collapse(label)
        if not label or not PERSON_LINK.match(target.strip()):
            continue
        if not (HANDLE.match(label) or looks_like_person(without_nickname(label))):
            continue
        for match in re.finditer(rf"(?<![\w@]){re.escape(label)}(?![\w])", text):
            if any(match.start() < e and b < match.end() for b, e, _ in spans):
                continue
            spans.append((match.start(), match.end(), github_login(target)))
            break
    return spans


def _handle_in(inner: str, links: Links) -> str | None:
    for label, target in links:
        if collapse(label) == inner:
            login = github_login(target)
            if login:
                return login
    match = BARE_HANDLE.match(inner) or (re.match(r"^@([A-Za-z0-9][A-Za-z0-9-]{0,38})$", inner))
    return match.group(1).lower() if match else None


def _link_github(name: str, links: Links) -> str | None:
    for label, target in links:
        if name and name in collapse(label).lstrip("@"):
            login = github_login(target)
            if login:
                return login
    return None


def _name_spans(text: str) -> list[tuple[int, int]]:
    tokens = [(m.start(), m.end(), m.group(0)) for m in re.finditer(r"[^\s,;:()\[\]!?\"“”]+", text)]
    spans: list[tuple[int, int]] = []
    run: list[tuple[int, int, str]] = []

    def close() -> None:
        while run and run[-1][2] in PARTICLES:
            run.pop()
        capitals = [t for t in run if t[2] not in PARTICLES]
        if 2 <= len(run) <= MAX_NAME_TOKENS and len(capitals) <= MAX_CAPITALISED:
            spans.append((run[0][0], run[-1][1]))
        run.clear()

    for start, _end, token in tokens:
        word = token.rstrip(".")
        word = token if re.fullmatch(r"[A-Z][a-z]?\.", token) else word
        contiguous = not run or text[run[-1][1] : start] == " "
        ends_sentence = token.endswith(".") and word != token
        if not contiguous:
            close()
        if INITIALS.match(word) and not run and _next_is_name(tokens, start):
            run.append((start, start + len(word), word))
        elif _is_name_token(word):
            run.append((start, start + len(word), word))
            if ends_sentence:
                close()
        elif run and word in PARTICLES:
            run.append((start, start + len(word), word))
        elif len(run) == 1 and _surname_initial(text, token, _end):
            run.append((start, _end, token))
            close()
        else:
            close()
    close()
    return spans


def _surname_initial(text: str, token: str, end: int) -> bool:
    """ "Faseela K": one capital letter after a first name ends the name, when nothing but the
    text's end, a parenthesis or a comma follows ("A" and "I" are words, not initials)."""
    return bool(SURNAME_INITIAL.fullmatch(token)) and bool(AFTER_INITIAL.match(text, end))


def _next_is_name(tokens: list[tuple[int, int, str]], start: int) -> bool:
    following = [t for t in tokens if t[0] > start][:1]
    return bool(following) and _is_name_token(following[0][2].rstrip(".,"))


def _is_name_token(word: str) -> bool:
    if word.casefold() in NOT_NAME_WORDS or len(word) < 2:
        return False
    if not word[0].isupper() or any(ch.isdigit() for ch in word):
        return False
    if NAME_TOKEN.match(word):
        return True
    return bool(NAME_TOKEN_UNICODE.match(word)) and word[1:].replace("-", "").islower()
