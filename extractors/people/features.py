"""Features of a candidate person and a candidate affiliation (pure: candidate -> feature dict).

The governance reader proposes candidates from structure (a list item, a table row, a record, a
card, a heading, a sentence); `extractors.people.model` scores them with weights fitted on the
gold of every labelled corpus. Every feature is a named number (mostly 0/1), so a fitted model
is a readable table of weights:

person (`person_features`)
    name:*       the printed name: name-like (`names.looks_like_name`), one word, lower-case,
                 digits, a path ("cmd/"), group words (committee, subcommittee, partners, ...),
                 organisation words (the ROR word list, `ror_words`), equal to the handle, a
                 company of the registry (`orgs.ror_company`), a term and its definition
                 ("Label: a sentence of ten or more words."), a name but for an organisation's
                 word ("Phillip Cloud"): the last two were vetoes (`entries.read(propose=True)`);
                 an entry of one word only in a list (`lone`: a login, a given name), and the
                 share of its list's entries read as people (`lone_people`)
    acct:*       account signals: a GitHub handle, linked to its profile, printed with its "@",
                 an e-mail, the handle being the page's own organisation (`kubeflow` on
                 Kubeflow's page)
    kind:*       where it was read (li, row, record, paragraph, card, dt, heading, code)
    list:*       the list around it: long (over 20), the share of its entries with a handle
                 and this one lacking one, nested, a parent item of other items
    sect:*       its section: none, a label line, says a role, emeritus; `hw:<word>` the words
                 of the section heading (the model keeps those seen in two projects or more)
affiliation (`affiliation_features`)
    org:*        the printed organisation: ROR words, a company of the ROR registry
                 (`orgs.ror_company`: the strong "this is an organisation" signal), a person's
                 name with no organisation's word in it ("@handle - Full Name"), read from a
                 column or field headed as one, proposed by the entry's reading (training also
                 gives every area, scope and section of a person as a candidate: what an
                 organisation is told from), a legal suffix, name-like, group words, seat words
                 (council, committee, team, members...), job-title words, a seat's or a
                 project part's words on a proposed organisation ("DEI Working Group",
                 "Responses API" after a name), the share of its words the page's headings
                 print, equal to a heading
                 of the page (and a seat name too), its length. Not where it was read (a list
                 item, a row): that says more of the project than of the organisation.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache, lru_cache
from pathlib import Path

from extractors.people import names as _names
from extractors.people import orgs as _orgs

ror_company = _orgs.ror_company  # (the registry's companies: `extractors.people.orgs`)
ROR_WORDS_FILE = Path(__file__).resolve().parent / "data" / "ror_words.txt"
GROUP_WORDS = re.compile(
    r"\b(?:committee|subcommittee|council|partners?|team|teams|group|groups|working|board|"
    r"members|sig|wg|foundation|institutional|staff|project|program|office)\b",
    re.I,
)
SEAT_WORDS = re.compile(  # what a seat, a body or a group of a project is called
    r"\b(?:committee|subcommittee|council|board|team|teams|group|groups|working|members|"
    r"member|sig|wg|steering|partners?|staff|seat|general|executive|advisory|subproject)\b",
    re.I,
)
TITLE_WORDS = re.compile(
    r"\b(?:engineer|manager|director|lead|leader|principal|developer|maintainer|chair|"
    r"secretary|officer|architect|advocate|head|president)\b",
    re.I,
)
WORD = re.compile(r"[^\W\d_]{3,}")
PATH_AFTER = r"(?:^|[\s`'\"(])@?{}/"
# every "name/" of a quote at once (a name without those boundary characters matches PATH_AFTER
# exactly when it is one of these): a paragraph naming N people is one quote for N candidates,
# and a search of it per candidate made reading it quadratic
_PATHS = re.compile(r"(?:^|(?<=[\s`'\"(]))@?([^\s`'\"(/@][^\s`'\"(/]*)/")
_PATH_UNSAFE = re.compile(r"[\s`'\"(/@]")


@cache
def ror_words() -> frozenset[str]:
    """The shipped word list (scripts/derive_people_ror_words.py), read once."""
    lines = ROR_WORDS_FILE.read_text(encoding="utf-8").splitlines()
    return frozenset(line for line in lines if line and not line.startswith("#"))


@dataclass
class Candidate:
    """One proposed person: what the entry gives and where the reader found it."""

    name: str
    github: str | None
    email: str | None
    quote: str
    kind: str  # li, row, record, paragraph, card, dt, heading, code
    section: str | None  # the heading or label above, as printed
    section_label: bool = False  # a label line, not a heading
    section_role: bool = False  # the section's words name a role
    emeritus: bool = False
    list_size: int = 1
    list_handle_share: float = 0.0
    nested: bool = False
    parent_item: bool = False  # a list item that other items are nested under
    owner: str | None = None  # the page's organisation (a GitHub owner, the project)
    defined: bool = False  # a term and its definition ("Label: a sentence of ten words.")
    org_word: bool = False  # a name but for an organisation's word in it
    lone: bool = False  # an entry of one word only, proposed in a list ("atrons", "Ankit")
    list_people_share: float = 0.0  # the share of the list's entries read as people


def _ror_share(text: str) -> float:
    words = [w.lower() for w in WORD.findall(text)]
    if not words:
        return 0.0
    known = ror_words()
    return sum(w in known for w in words) / len(words)


@lru_cache(maxsize=64)
def _quote_view(quote: str) -> tuple[str, frozenset[str]]:
    """The quote lower-cased, and the names it prints before a "/" (paths: `cmd/`, `web/`)."""
    return quote.lower(), frozenset(m.group(1) for m in _PATHS.finditer(quote))


def _before_path(name: str, quote: str) -> bool:
    bare = name.lstrip("@")
    if not bare or _PATH_UNSAFE.search(bare):  # a name of several words: search, when it can be
        return f"{bare}/" in quote and bool(re.search(PATH_AFTER.format(re.escape(bare)), quote))
    return bare in _quote_view(quote)[1]


def person_features(c: Candidate) -> dict[str, float]:
    name = c.name.strip()
    quote_lower = _quote_view(c.quote)[0]
    words = name.split()
    handle = (c.github or "").lower()
    f: dict[str, float] = {
        "name:like": float(_names.looks_like_name(name)),
        "name:one_word": float(len(words) == 1),
        "name:lower": float(name == name.lower()),
        "name:digits": float(any(ch.isdigit() for ch in name)),
        "name:group_words": float(bool(GROUP_WORDS.search(name))),
        "name:ror": _ror_share(name),
        "name:is_handle": float(bool(handle) and name.lower().lstrip("@") == handle),
        "name:long": float(len(words) > 4),
        "name:defined": float(c.defined),
        "name:org_word": float(c.org_word),
        "name:lone": float(c.lone),
        "name:lone_people": c.list_people_share if c.lone else 0.0,
        "name:ror_name": float(ror_company(name)),  # a company of the registry ("Red Hat")
        "acct:handle": float(bool(handle)),
        "acct:email": float(bool(c.email)),
        "acct:linked": float(bool(handle) and f"github.com/{handle}" in quote_lower),
        "acct:owner": float(bool(handle) and handle == (c.owner or "").lower()),
        "acct:at": float(bool(handle) and f"@{handle}" in quote_lower),
        "name:path": float(_before_path(name, c.quote)),
        f"kind:{c.kind}": 1.0,
        "list:long": float(c.list_size > 20),
        "list:handles": c.list_handle_share,
        "list:lacks_handle": float(c.list_handle_share > 0.5 and not handle),
        "list:nested": float(c.nested),
        "list:parent": float(c.parent_item),
        "sect:none": float(c.section is None),
        "sect:label": float(c.section_label),
        "sect:role": float(c.section_role),
        "sect:emeritus": float(c.emeritus),
        "quote:long": float(len(c.quote) > 160),
    }
    for word in {w.lower() for w in WORD.findall(c.section or "")}:
        f[f"hw:{word}"] = 1.0
    return {k: v for k, v in f.items() if v}


@lru_cache(maxsize=256)
def _heading_share(text: str, headings: frozenset[str]) -> float:
    """The share of the text's words that the page's headings print ("DEI Working Group" under
    "Standing Committees and Working Groups", "DEI Standing Committee": a seat, not an employer);
    a heading printing it in parentheses ("Jane Roe (Example GmbH)") is the person's own."""
    words = [w.lower() for w in WORD.findall(text)]
    if not words or not headings:
        return 0.0
    own = f"({' '.join(text.lower().split())})"
    known = {w.lower() for h in headings if own not in h for w in WORD.findall(h)}
    return sum(w in known for w in words) / len(words)


def affiliation_features(
    org: str,
    kind: str,
    headings: frozenset[str],
    *,
    field: bool = False,
    proposed: bool = True,
) -> dict[str, float]:
    """`headings`: the page's heading texts, folded (a seat name is often one of them); `kind`
    (where it was read) is not a feature (see the module docstring), kept for callers;
    `field`: read from a column or data field headed as an organisation ("Company");
    `proposed`: the entry's reading gave it as an organisation (always, when reading; in
    training, an area or a section of the person is a candidate too, not proposed)."""
    text = org.strip()
    words = text.split()
    last = words[-1].strip(".,") if words else ""
    company = ror_company(text)
    areas = any(w.strip(".,()").lower() in _orgs.AREA_WORDS for w in words)
    f: dict[str, float] = {
        "org:ror": _ror_share(text),
        "org:suffix": float(bool(_orgs.ORG_SUFFIX.match(last))),
        "org:name_like": float(_names.looks_like_name(text)),
        "org:group_words": float(bool(GROUP_WORDS.search(text))),
        "org:title_words": float(bool(TITLE_WORDS.search(text))),
        "org:proposed_seat": float(proposed and bool(SEAT_WORDS.search(text))),
        "org:proposed_area": float(proposed and areas),
        "org:heading_words": _heading_share(text, headings),
        "org:heading": float(" ".join(text.lower().split()) in headings),
        "org:one_word": float(len(words) == 1),
        "org:long": float(len(words) > 4),
        "org:lower": float(text == text.lower()),
        "org:comma": float("," in text or "/" in text),
        "org:ror_name": float(company),
        "org:personal": float(  # a person's name, no word of an organisation's in it
            _names.looks_like_name(text) and not company and not _ror_share(text)
        ),
        "org:seat_words": float(bool(SEAT_WORDS.search(text))),
        "org:area_words": float(areas),  # a part of a project ("Responses API", "Docs")
        "org:proposed": float(proposed),
        "org:field": float(field),
        "org:heading_seat": float(
            bool(SEAT_WORDS.search(text)) and " ".join(text.lower().split()) in headings
        ),
    }
    return {k: v for k, v in f.items() if v}
