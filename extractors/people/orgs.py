"""Organisations in role lists: what reads as one ("Red Hat", "IBM UK Ltd", "Datadog, Inc.",
"University of Example") and what a dash or a comma after a name holds (an employer or an area)."""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

from extractors.people.names import wordset

ROR_COMPANIES_FILE = Path(__file__).resolve().parent / "data" / "ror_companies.txt"

ORG_SUFFIX = re.compile(
    r"^(?:inc|inc\.|llc|l\.l\.c\.|ltd|ltd\.|gmbh|s\.a\.|sa|ag|plc|corp|corp\.|co\.|l\.p\.|bv|"
    r"b\.v\.|se|oy|ab|kk|k\.k\.|limited|corporation)$",
    re.I,
)
ORG_WORDS = wordset("""
    university universität université universidad institute institut foundation labs lab
    laboratory laboratories research technologies technology systems software solutions company
    group college school academy consulting networks computing cloud
    """)
AREA_ENDING = re.compile(r"(?:ing|tion|sion|ment|ity|ics|ance|ence|age)$", re.I)
AREA_WORDS = wordset(  # words of a project's parts, not of an employer
    "tag tcg wg sig team group project subproject committee working council board docs api core "
    "release releases build ci infrastructure infra security testing website community "
    "compiler runtime library libraries language tooling tools design"
)
ORG_LOWER = wordset("of and for de du des la le der von & at the y e in")
NOT_ORG = wordset(
    "term terms see note notes tbd tba n/a none vacant open seat seats formerly previously "
    "since until from to and or with also joined"
)  # "joined": a card's tenure ("Joined GMT 6"), not an employer
TITLE_WORDS = re.compile(
    r"\b(?:chair|chairs|chairperson|co-chair|vice[- ]chair|lead|leads|co-lead|leader|bdfl|"
    r"president|secretary|treasurer|director|manager|liaison|pmc|tsc|maintainer|committer|"
    r"member|owner|founder|creator|emeritus|emerita|alumni|alumnus|retired|inactive|observer|"
    r"alternate|representative|reviewer|sponsor|author|editor|admin|coordinator|assistant|"
    r"officer|organi[sz]er|steward|moderator|mentor|developer|engineer|architect|advocate)\b",
    re.I,
)
DOMAIN = re.compile(r"[a-z][a-z0-9-]{1,30}\.(?:[a-z]{2,12}\.)?[a-z]{2,12}")
YEARS = re.compile(
    r"^(?:since\s+|from\s+)?(?:\d{4}|\d{4}\s*[-–—]\s*(?:\d{2,4}|present|now)?)$", re.I
)


def looks_like_org(text: str) -> bool:
    """Capitalised words with no role or description word: "Red Hat", "IBM UK Ltd",
    "TRUMPF Laser SE", "Bloomberg L.P.", "Datadog, Inc.", "University of British Columbia";
    or a domain name printed as the organisation's name ("basis.company": its case is the
    model's feature `org:lower`).
    A job title's word stops it, a rule kept before the learned decision: proposed instead (as
    feature `org:role_words`), cross-validation fell (real-probe-5 affiliation P 1.000 -> 0.934:
    "Coordinator", "Maintainer Native" kept), as only one project's gold has such candidates."""
    text = text.strip(" .,;")
    if DOMAIN.fullmatch(text):
        return True
    words = text.replace(",", " ").split()
    if not words or len(words) > 8 or len(text) > 80 or TITLE_WORDS.search(text):
        return False
    if any(w.lower() in NOT_ORG for w in words) or YEARS.match(text) or "@" in text:
        return False
    for word in words:
        bare = word.strip("().,&'’\"")
        if not bare or bare in ("-", "–", "—", "|", "/"):
            continue
        if bare.lower() in ORG_LOWER or ORG_SUFFIX.match(bare):
            continue
        if not (bare[0].isupper() or bare[0].isdigit()):
            return False
    return True


PLAIN_ORG = re.compile(r"[\w][\w .,&'’()/-]*")  # an organisation's name prints no "!", ";", "|"


def note_org(note: str) -> bool:
    """A record's free-text note (`bio`, `description`) that is an organisation's name and no
    more ("Internet Archive"): not a motto or a list of skills ("Pass the Courvoisi'!",
    "Talk--; Code++;", "React | Graphql | Typescript"), which are capitalised words too."""
    return looks_like_org(note) and PLAIN_ORG.fullmatch(note.strip()) is not None


def names_org(part: str, parts: list[str], index: int) -> bool:
    """A part after a dash is an organisation (not an area) when it is the last part, reads as
    an organisation and names no part of a project: "Jane Roe - QuantStack", "- Example Labs"
    (but "- relay, topi", "- TAG Security", "- Release Team" are areas)."""
    words = {w.strip(".,()").lower() for w in part.split()}
    last = all(not p for p in parts[index + 1 :])
    said = bool(words & ORG_WORDS or any(ORG_SUFFIX.match(w) for w in words))
    if len(words) == 1 and AREA_ENDING.search(part):
        return False  # "Networking", "Documentation", "Security": what they work on
    return last and looks_like_org(part) and (said or not words & AREA_WORDS)


def says_org(part: str, *, registry: bool = True) -> bool:
    """The part says it is an organisation: an organisation's word or a legal suffix, or (with
    `registry`) a company of the registry; not only capitalised words, which a person's name
    and a project's part have too."""
    words = {w.strip(".,()").lower() for w in part.split()}
    said = bool(words & ORG_WORDS or any(ORG_SUFFIX.match(w) for w in words))
    return said or (registry and ror_company(part))


def org_with_suffix(parts: list[str], index: int) -> str:
    org = parts[index]
    if index + 1 < len(parts) and ORG_SUFFIX.match(parts[index + 1].strip()):
        org = f"{org}, {parts[index + 1]}"
    return org


@cache
def ror_companies() -> frozenset[str]:
    """The shipped company names (scripts/derive_people_ror_names.py), read once."""
    lines = ROR_COMPANIES_FILE.read_text(encoding="utf-8").splitlines()
    return frozenset(line for line in lines if line and not line.startswith("#"))


def ror_company(text: str) -> bool:
    """The text names a company of the registry, a legal suffix aside ("Google LLC")."""
    words = text.replace(",", " ").split()
    while len(words) > 1 and ORG_SUFFIX.match(words[-1]):
        words.pop()
    return " ".join(words).lower() in ror_companies()
