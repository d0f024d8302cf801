"""Words of governance pages: who an entry names, and what a heading says of the people under it.

Person rule (`person`): an entry names a person when, after its markers ("(emeritus)", "(chair)"),
e-mail addresses, "(handle)"/"@handle" and its area ("Name: area", "Name - area") are taken off,
what is left looks like a name: 2 to 6 words, each starting with a capital (or a letter with no
case, as in CJK scripts) or a name particle (van, von, de, ...), no digits, no word of
`NOT_NAME_WORDS` (a "[Security Policy](SECURITY.md)" link is no person). An entry with a GitHub
handle (a github.com/<user> link target, "@user", or a "(user)" group) or an e-mail address is a
person even when the name is one word or missing (the handle then stands as the name).

Heading rule (`role_of`, `level_of`, `is_emeritus`): the role is the page's own word for the
group, singular and lower-cased (acronyms kept): "Current steering council" -> "steering council
member", "Core Team" -> "core team member", "Committers" -> "committer", "Core Developers" ->
"core developer", "Technical Steering Committee (TSC)" -> "technical steering committee member".
Status words (current, emeritus, former, alumni, past, ...) and years are not part of the role.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from extractors.document.model import GITHUB_USER
from extractors.document.model import collapse as _collapse
from extractors.document.model import without_controls as _without_controls


def wordset(text: str) -> frozenset[str]:
    """A word list written as one string (easier to read and extend than a list literal)."""
    return frozenset(text.split())


# --- entry markers --------------------------------------------------------------------------
EMERITUS_MARK = re.compile(r"\(\s*(?:emerit\w*|inactive|retired|former|alumn\w*)\s*\)", re.I)
LEAD_MARK = re.compile(r"\(\s*(?:chair(?:person)?|co-chair|lead|project lead|bdfl)\s*\)", re.I)
EMAIL = re.compile(r"<?\b([A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,})\b>?")
EMAIL_LOCAL_CHARS = frozenset("._%+-0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz")
WORD_EDGE = re.compile(r"\b")
MAILTO = re.compile(r"^mailto:([^?]+)", re.I)
AT_HANDLE = re.compile(r"(?<![\w.])@([A-Za-z0-9][A-Za-z0-9-]{0,38})\b")
HANDLE = re.compile(r"^@?([A-Za-z0-9][A-Za-z0-9-]{0,38})$")
PAREN = re.compile(r"\(([^()]*)\)")
AREA_SPLIT = re.compile(r"\s*(?::\s+|\s[-–—]\s)")
NAME_EDGE = " \t,;:-–—*_`'\"|"
NAME_TOKEN = re.compile(r"^[^\W\d_][\w.'’-]*$")
PARTICLES = wordset(
    "van von der den de del della di da dos das du la le ten ter bin ibn al el y e zu st"
)
NOT_NAME_WORDS = wordset("""
    policy guide code conduct security documentation docs license licence contributing governance
    team teams council committee board project foundation release releases support community
    meeting meetings calendar charter process issues issue roadmap blog news home about faq api
    reference overview introduction install installation tutorial changelog notes maintainers
    maintainer members member committers committer emeritus alumni steering technical core
    developers developer contributors chair responsibilities mailing list lists github discord
    slack chat forum twitter website page pages readme contact contacts table contents section
    election elections vote voting term terms history current former past active inactive
    working group groups owners owner reviewers reviewer see also more other others people
    """)

PLACEHOLDER_WORDS = wordset("""
    name names full your firstname lastname surname tbd tba vacant placeholder someone somebody
    anyone nobody example sample
    """)
BOT = re.compile(r"(?:\[bot\]|[-_](?:ro)?bot|^dependabot|^renovate|^mergify)$", re.I)

ORG_MARKERS = wordset("""
    inc llc ltd gmbh corp corporation co plc ag sa bv limited company companies university
    universität université universidad institute institut foundation labs lab laboratory
    laboratories research technologies technology systems software solutions consulting
    networks computing cloud college school academy
    """)

# --- heading words --------------------------------------------------------------------------
STATUS_WORDS = wordset(
    "current currently active emeritus emeriti former past alumni inactive retired previous"
)
EMERITUS_WORDS = re.compile(r"\b(?:emerit\w*|former|alumni|past|retired|inactive)\b", re.I)
FILLER_WORDS = wordset("the our a an of list term and & members' project's other all")
GROUP_NOUNS = wordset(
    "council committee board team group panel tsc sc body cabinet commission wg sig pmc toc tac"
)
MODIFIER_ROLES = wordset("lead co-lead chief senior")  # "Lead Maintainers": part of the role
ROLE_NOUNS = {
    "maintainers": "maintainer",
    "maintainer": "maintainer",
    "committers": "committer",
    "committer": "committer",
    "developers": "developer",
    "developer": "developer",
    "devs": "dev",
    "owners": "owner",
    "owner": "owner",
    "reviewers": "reviewer",
    "reviewer": "reviewer",
    "members": "member",
    "member": "member",
    "leads": "lead",
    "lead": "lead",
    "leaders": "leader",
    "leader": "leader",
    "chairs": "chair",
    "chair": "chair",
    "moderators": "moderator",
    "editors": "editor",
    "contributors": "contributor",
    "admins": "admin",
    "administrators": "administrator",
    "stewards": "steward",
    "directors": "director",
    "trustees": "trustee",
    "emeriti": "",
    "approvers": "approver",
    "approver": "approver",
    "mentors": "mentor",
    "mentor": "mentor",
    "representatives": "representative",
    "representative": "representative",
    "liaisons": "liaison",
    "liaison": "liaison",
    "alternates": "alternate",
    "alternate": "alternate",
    "observers": "observer",
    "observer": "observer",
    "delegates": "delegate",
    "bdfl": "BDFL",
}
GENERIC_ROLES = frozenset({"member", "people", "person"})
LEAD_WORDS = re.compile(r"\b(?:lead|leads|leader|bdfl|chair|chairs|chairperson)\b", re.I)
CORE_WORDS = re.compile(r"\bcore\b", re.I)
MODULE_WORDS = re.compile(r"\b(?:module|modules|area|areas|component|components)\b", re.I)
YEAR = re.compile(r"^\d{4}(?:[-–]\d{2,4})?$")
ROLE_MAX_WORDS = 4


@dataclass(slots=True)  # one per list item: long lists make many
class Person:
    name: str
    github: str | None = None
    email: str | None = None
    area: str | None = None
    emeritus: bool = False
    lead: bool = False


EMPTY = re.compile(  # a placeholder for nothing
    r"^(?:n/?a|none|nil|null|unknown|tbd|tba|todo|vacant|unspecified|not specified|[-–—?]*)$", re.I
)


def says_empty(text: str) -> bool:
    """The value is a placeholder for nothing (EMPTY)."""
    return EMPTY.match(text.strip()) is not None


def looks_like_name(text: str, *, org_markers: bool = True) -> bool:
    """Two to six capitalised name words; with `org_markers` False, an organisation's word
    ("Cloud", "Labs") does not stop it (`org_word_name`: the model decides)."""
    words = text.replace('"', " ").replace("“", " ").replace("”", " ").split()
    if not 2 <= len(words) <= 6 or len(text) > 70:
        return False
    capitals = 0
    for index, word in enumerate(words):
        if word.lower() in PARTICLES or (word[0] in "'‘" and word[-1] in "'’" and len(word) > 2):
            continue  # a nickname in single quotes ("Christopher J. 'CJ' Wright")
        bare = word.strip("().,")
        folded = bare.lower().removesuffix("'s").removesuffix("’s")
        if not bare or not NAME_TOKEN.match(bare) or folded in NOT_NAME_WORDS:
            return False
        if folded in PLACEHOLDER_WORDS:
            return False  # "Maintainer's Full Name", "Your Name", "TBD"
        if bare[0].islower():
            return False
        acronym = len(bare) >= 3 and bare.isupper() and bare.isalpha()
        ends = index == len(words) - 1 or (index == 0 and len(words) == 2)  # "KINEBUCHI Tomohiko"
        if acronym and not (ends and _surname_in_capitals(words if index else words[::-1])):
            return False  # an acronym ("OSS Fuzzing", "SBOM Everywhere"), not part of a name
        if org_markers and bare.lower() in ORG_MARKERS:
            return False  # "Broadcom Inc.", "Example Labs", "University of Example"
        capitals += 1
    return capitals >= 1


def org_word_name(text: str) -> bool:
    """A name but for an organisation's word in it ("Phillip Cloud", "Example Labs"): proposed
    as a candidate flagged so (`Entry.org_word`, feature `name:org_word`), not vetoed."""
    return not looks_like_name(text) and looks_like_name(text, org_markers=False)


SURNAME_IN_CAPITALS = re.compile(r"^[^\W\d_]*[AEIOUYÀ-ÖØ-Ý][^\W\d_]*$")


def _surname_in_capitals(words: list[str]) -> bool:
    """A family name printed in capitals after (or first before) given names, not an acronym
    ("Pierre PÉRONNET"): five or more letters with a vowel, given names like "Jean-Luc"."""
    *given, surname = [w.strip("().,") for w in words]
    given = [w for w in given if w.lower() not in PARTICLES]
    return (
        1 <= len(given) <= 2
        and len(surname) >= 5
        and surname.lower() not in ORG_MARKERS
        and SURNAME_IN_CAPITALS.match(surname) is not None
        and all(p[:1].isupper() and p[1:].islower() for w in given for p in w.split("-"))
    )


def printed_login(token: str, printed: str) -> bool:
    """A parenthesised word is a login: all small letters ("(jroe)"), a small letter first
    ("(jRoe)": a login as its owner cases it), or the words of the name printed before it run
    together ("Jane Roe (JaneRoe)"); a capitalised word is an organisation ("(Isovalent)")."""
    if token.isdigit():
        return False
    if token == token.lower() or token[:1].islower():
        return True
    before = printed.split(f"({token})", 1)[0]
    words = re.findall(r"[^\W\d_]+", before)
    return any("".join(words[i:]).lower() == token.lower() for i in range(len(words) - 1))


def looks_like_handle(token: str, *, bare: bool) -> bool:
    """A GitHub user name. `bare`: printed without "@" or a link, so a capitalised word
    ("Google", "Docs") is not taken for one."""
    match = HANDLE.match(token)
    if match is None or token.lower() in NOT_NAME_WORDS or not re.search("[A-Za-z]", token):
        return False
    if token.startswith("@"):
        return True
    word_like = token[:1].isupper() and token[1:].islower()
    return not (bare and (word_like or token.isupper()))


def person(
    text: str, links: tuple[tuple[str, str], ...], *, handle_list: bool = False
) -> Person | None:
    """Who a list item (or table name cell) names, or None when it names nobody."""
    emeritus = EMERITUS_MARK.search(text) is not None
    lead = LEAD_MARK.search(text) is not None
    text = LEAD_MARK.sub(" ", EMERITUS_MARK.sub(" ", text))
    github = email = None
    for _label, target in links:
        match = GITHUB_USER.match(target)
        if match and github is None:
            github = match.group(1).lower()
        mail = MAILTO.match(target)
        if mail and email is None:
            email = mail.group(1).strip()
    mail_match = find_email(text)
    if mail_match:
        email = email or mail_match.group(1)
        text = text[: mail_match.start()] + " " + text[mail_match.end() :]
    for group in PAREN.finditer(text):
        inner = group.group(1).strip()
        if looks_like_handle(inner, bare=True) and (
            github is None or inner.lstrip("@").lower() == github
        ):
            github = github or inner.lstrip("@").lower()
            text = text.replace(group.group(0), " ", 1)
            break
    at = AT_HANDLE.search(text)
    if at:
        github = github or at.group(1).lower()
        text = text[: at.start()] + " " + text[at.end() :]
    for label, target in links:  # a link whose text is the handle itself: not part of the name
        if GITHUB_USER.match(target) and github and label.lstrip("@").lower() == github:
            text = re.sub(r"(?<![\w-])" + re.escape(label) + r"(?![\w-])", " ", text, count=1)
    text = PAREN.sub(" ", text)  # what else is in parentheses (an employer, a note) is no name
    text = _collapse(_without_controls(text))
    name, area = _split_area(text)
    name = name.strip(NAME_EDGE)
    bare_handle = looks_like_handle(name, bare=False) and name == name.lower()
    if handle_list and github is None and not looks_like_name(name) and bare_handle:
        github = name.lower()
    if looks_like_name(name):
        return Person(name, github, email, area, emeritus, lead)
    if github and (not name or name.lower() in (github, email)):
        return Person(name or github, github, email, area, emeritus, lead)  # a handle alone
    if (github or email) and len(name.split()) == 1 and NAME_TOKEN.match(name):
        return Person(name, github, email, area, emeritus, lead)
    return None


def find_email(text: str) -> re.Match[str] | None:
    """`EMAIL.search(text)`, in time linear in the text. The search itself tries every word
    start of a run like "a.a.a.a" to the run's end (80 kB took 10 s): here each "@" is tried once,
    from the first word start of the run before it (a later start of the same run meets the same
    "@" and domain, so it cannot match where the first did not)."""
    at = text.find("@")
    while at >= 0:
        start = at
        while start > 0 and text[start - 1] in EMAIL_LOCAL_CHARS:
            start -= 1
        edge = WORD_EDGE.search(text, start, at) if start < at else None
        if edge is not None and edge.start() < at:
            first = edge.start()
            match = EMAIL.match(text, first - 1 if text[first - 1 : first] == "<" else first)
            if match is not None:
                return match
        at = text.find("@", at + 1)
    return None


def _split_area(text: str) -> tuple[str, str | None]:
    match = AREA_SPLIT.search(text)
    if match is None:
        return text, None
    area = text[match.end() :].strip(NAME_EDGE)
    return text[: match.start()], area or None


# ============================================================================================
# headings


def _words(heading: str) -> list[str]:
    text = PAREN.sub(" ", heading)
    words = re.findall(r"[\w'&’-]+", text)
    return [w for w in words if not YEAR.match(w)]


def role_of(heading: str) -> str | None:
    """The page's word for the people listed under the heading, singular; None if it has none."""
    words = [w for w in _words(heading) if w.lower() not in STATUS_WORDS]
    lowered = [w.lower() for w in words]
    for i, word in enumerate(lowered):
        if word in GROUP_NOUNS:
            start = _phrase_start(lowered, i)
            phrase = [_case(w) for w in words[start : i + 1]]
            return " ".join([*phrase, "member"])
    heads = [i for i, w in enumerate(lowered) if w in ROLE_NOUNS and ROLE_NOUNS[w]]
    for i in heads[-1:]:  # the last role noun is the head: "Lead Maintainers" -> maintainer
        start = _phrase_start(lowered, i)
        phrase = [_case(w) for w in words[start:i]]
        return " ".join([*phrase, ROLE_NOUNS[lowered[i]]])
    return None


def _phrase_start(lowered: list[str], end: int) -> int:
    start = end
    while (
        start > 0
        and end - start < ROLE_MAX_WORDS - 1
        and lowered[start - 1] not in FILLER_WORDS
        and (lowered[start - 1] not in ROLE_NOUNS or lowered[start - 1] in MODIFIER_ROLES)
        and lowered[start - 1] not in {"and", "or", "for", "with", "in"}
    ):
        start -= 1
    return start


def _case(word: str) -> str:
    return word if word.isupper() and len(word) > 1 else word.lower()


def is_emeritus(heading: str) -> bool:
    return EMERITUS_WORDS.search(heading) is not None


def level_of(heading: str) -> str | None:
    if LEAD_WORDS.search(heading):
        return "lead"
    if CORE_WORDS.search(heading):
        return "core"
    if MODULE_WORDS.search(heading):
        return "module"
    return None


def is_generic(role: str | None) -> bool:
    return role is None or role in GENERIC_ROLES


NICK = re.compile(r"[A-Z][^\W\d_]+")


def nickname(group: re.Match[str]) -> bool:
    """A nickname in parentheses: quoted ('("Rama")'), or one capitalised word between the
    words of a name ("Jiangjie (Becket) Qin")."""
    inner = group.group(1).strip()
    if inner[:1] in "\"“'‘":
        return True
    before, after = group.string[: group.start()], group.string[group.end() :]
    return (
        bool(NICK.fullmatch(inner))
        and bool(re.search(r"[^\W\d_]\s$", before))
        and bool(re.match(r"\s[^\W\d_]*[A-Z]", after))
    )


def split_outside_parens(text: str) -> list[str]:
    parts, depth, start = [], 0, 0
    for index, char in enumerate(text):
        if char in "([":
            depth += 1
        elif char in ")]":
            depth = max(0, depth - 1)
        elif depth == 0 and (char in ",;" or text.startswith(" and ", index)):
            parts.append(text[start:index])
            start = index + (5 if char == " " else 1)
    parts.append(text[start:])
    return [p.strip() for p in parts if p.strip()]
