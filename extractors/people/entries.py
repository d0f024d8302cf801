"""Who a list item (or a table cell, a data-file entry) names, in the shapes role lists use.

An entry is read by its parts, not by a pattern per page:

1. bracket tags (`[TOC Chair]`, `[GB-appointed]`) and parenthesised groups are taken out first
   and sorted: a GitHub handle (`(handle)`, `(@handle)`, a link to github.com), e-mail addresses,
   an emeritus/chair/PMC marker, years and terms, an organisation (`(Red Hat)`: capitalised words,
   no role or description word), or a note (`(Lightning founder)`), which is dropped;
2. what is left is cut at separators (" — ", " -- ", " - ", ": ", ", ", " | "); the first part
   that reads as a name is the name, `@handle` parts give the handle, a part after the name that
   reads as an organisation ("- [handle](url), Google LLC") the affiliation, parts after a dash
   or colon the area ("@handle - area, area"), and a part before a colon a label ("`area`: A, B",
   "**Role Title**: Name");
3. an item naming several people ("`area`: A (<mail> / @a), B (<mail> / @b)") gives each of them,
   with the label as their area.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from extractors.document.model import Links, collapse, github_login, without_controls
from extractors.people import contacts as _contacts
from extractors.people import names as _people
from extractors.people.links import only_document_link, represented
from extractors.people.orgs import (
    ORG_SUFFIX,
    TITLE_WORDS,
    YEARS,
    looks_like_org,
    names_org,
    org_with_suffix,
    says_org,
)

TAG = re.compile(r"\[([^\[\]]{1,60})\](?!\()")
DEFINITION_WORDS = 10
PAREN = re.compile(r"\(([^()]{0,200})\)")
TERM = re.compile(r"\bterm\b|\bstart date\b|\d{1,2}/\d{1,2}/\d{2,4}", re.I)
SEPARATORS = re.compile(r"\s+(?:—|–|--|-|\|)\s+|:\s+|,\s+|\s+/\s+")
DESCRIBED = re.compile(  # what a note after a dash says of a person (not an area)
    r"\b(?:founder|co-founder|creator|emeritus|emerita|leader|lead|chair|bdfl|president)\b", re.I
)
STATUS_TAG = re.compile(r"\b(?:emerit\w*|inactive|retired|former|alumn\w*|past)\b", re.I)
PAST_NOTE = re.compile(r"\((?:[^()]*\s)?(?:emerit\w*|retired|inactive|former|alumn\w*)\)", re.I)
LEAD_TAG = re.compile(r"\b(?:chair(?:person)?|co-chair|lead|project lead|bdfl|leader)\b", re.I)
PMC_TAG = re.compile(r"^\s*pmc\s*$", re.I)
# an @handle, not a team mention ("@kubeflow/kubeflow-steering-committee" names a GitHub team)
AT_HANDLE = re.compile(r"(?<![\w.])@([A-Za-z0-9](?:[A-Za-z0-9]|-(?=[A-Za-z0-9])){0,38})(?![\w/-])")
# the words before an entry's first "<e-mail>" or "(@handle)": "Fu Wei <fu@x.org> (@fuweid) pkg:*"
NAME_BEFORE_ASIDE = re.compile(r"^\s*([^<>()\[\]@,:|*`]{3,60}?)\s*(?:<[^<>\s@]+@|\(@)")
LONE_WORD = re.compile(r"^[^\W\d_][\w'’.-]{1,38}$")  # a one-word entry: a login, a given name
HANDLE_TOKEN = re.compile(r"^(?:@[0-9]{3,39}|@?(?=[\w-]*[A-Za-z])[A-Za-z0-9][A-Za-z0-9-]{0,38})$")


@dataclass(slots=True)
class Entry:
    name: str
    github: str | None = None
    email: str | None = None
    affiliation: str | None = None
    area: str | None = None
    titles: list[str] = field(default_factory=list)  # role titles on the entry ("TOC Chair")
    emeritus: bool = False
    lead: bool = False
    label: str | None = None  # the text before a colon that is not a name ("Role Title")
    aside: str | None = None  # a name in parentheses ("@jroe (Jane Roe, Example Labs)")
    org_field: bool = False  # the affiliation is a column or field headed as one ("Company")
    # flags the learned decision weighs (features `name:defined`, `name:org_word`), once vetoes:
    defined: bool = False  # "Term: a sentence of its own (ten words or more)." (`_defined`)
    org_word: bool = False  # the name holds an organisation's word ("Phillip Cloud")
    lone: bool = False  # one word only ("atrons", "Ankit"), proposed in a list (`read(lone=)`)


def _handle_from(text: str, links: Links) -> str | None:
    for label, target in links:
        login = github_login(target)
        if login and (not label or label.lstrip("@").lower() in text.lower()):
            return login
    return None


def _org_not_name(part: str) -> bool:
    """An organisation, not a person's name: it says so, or reads as one and not as a name."""
    return looks_like_org(part) and (says_org(part) or not _people.looks_like_name(part))


def _employer(part: str) -> str:
    """The organisation of "Senior Engineer at Example Labs" (the part itself otherwise)."""
    head, at, tail = part.rpartition(" at ")
    return tail.strip() if at and head and looks_like_org(tail) else part


def _sort_paren(inner: str, entry: Entry, links: Links, printed: str = "") -> bool:
    """Take what a parenthesised group says into the entry; False when it is a note."""
    text = inner.strip()
    if not text:
        return True
    if STATUS_TAG.search(text) and len(text.split()) <= 3:
        entry.emeritus = True
        return True
    if PMC_TAG.match(text):
        entry.titles.append("PMC member")
        return True
    if LEAD_TAG.fullmatch(text.lower()) or re.fullmatch(r"(?:co-)?chair(?:person)?", text, re.I):
        entry.lead = True
        entry.titles.append(text)
        return True
    emails = _contacts.emails(text)
    parts = [p.strip() for p in re.split(r"\s*/\s*|,\s*|\s+", text) if p.strip()]
    found = False
    for part in parts:
        if part.startswith("@") and HANDLE_TOKEN.match(part):
            entry.github = entry.github or part[1:].lower()
            found = True
    if emails:
        entry.email = entry.email or emails[0]
        found = True
    if found:  # "(Example Labs, @jroe)": what is left beside the handle may be the employer
        left = [p.strip() for p in text.split(",")]
        left = [p for p in left if p and not p.startswith("@") and p not in emails]
        if len(left) == 1 and _org_not_name(left[0]):
            entry.affiliation = entry.affiliation or left[0]
        return True
    login = _handle_from(text, links)  # "([amason](github.com/ajm188))": the linked login
    linked = HANDLE_TOKEN.match(text) and any(x.strip("@ ") == text.strip("@") for x, _ in links)
    if login and (text.lstrip("@").lower() == login or linked):
        entry.github = entry.github or login
        return True
    elsewhere = AT_HANDLE.search(printed.replace(f"({inner})", " "))  # "@jroe (independent)"
    if text.lower() in _contacts.UNAFFILIATED and elsewhere:  # "Jane Roe, @jroe (independent)"
        entry.affiliation = entry.affiliation or text
        return True
    if HANDLE_TOKEN.match(text) and _people.printed_login(text, printed) and not elsewhere:
        entry.github = entry.github or text.lstrip("@").lower()
        entry.label = "paren-handle"  # a handle only when a name stands beside it
        return True
    if YEARS.match(text) or TERM.search(text):
        return True
    first, _, rest = text.partition(", ")
    if _people.looks_like_name(first) and (not rest or looks_like_org(rest)):
        entry.aside = text  # a name (when only a handle stands outside) or an organisation
        return True
    if looks_like_org(text):
        entry.affiliation = entry.affiliation or text
        return True
    return False


def read(text: str, links: Links = (), *, handle_list: bool = False,
         propose: bool = False, lone: bool = False) -> list[Entry]:  # fmt: skip
    """The people an entry names (usually one), or [] when it names nobody. With `propose`, an
    entry that reads as a term and its definition, or a name but for an organisation's word in
    it, is given flagged (`Entry.defined`, `Entry.org_word`) for the learned decision to weigh
    (`names_somebody` tells the structure readers it names nobody); with `lone`, so is a one-word
    entry (a login, a given name: `Entry.lone`)."""
    text = collapse(without_controls(text))
    if not text:
        return []
    if (agent := represented(text, links, _one)) is not None:  # "Example Labs. Representative A"
        return [agent]
    text = _contacts.without_term(text)  # "Jane Roe Term: March 2024 – Present"
    label, body = _label(text)
    if label is not None:
        many = _several(body, links)
        titled = len(many) == 1 and _people.looks_like_name(many[0].name)  # "Title: Name [@h]"
        # "Title: Name": the body marks the person (a handle, a link), or the label is a job
        # title and the body is not ("Operations Manager: Jane Roe")
        title = bool(TITLE_WORDS.search(label)) and not TITLE_WORDS.search(body)
        if len(many) >= 2 or (titled and (_says_who(body) or title) and not _says_who(label)):
            for entry in many:
                _label_entry(entry, label)
            return many
    if " & " in text or " and " in text:
        many = _several(text.replace(" & ", ", "), links)
        if len(many) >= 2:
            return many
    one = _one(text, links, handle_list=handle_list)
    if one is None and propose and label is None and _people.org_word_name(_clean_name(text)):
        one = Entry(name=_clean_name(text), org_word=True)  # "Phillip Cloud" in a list of names
    if one is None and lone and label is None and _lone(word := _clean_name(text)):
        one = Entry(name=word, lone=True)  # "atrons", "Ankit" in a list of names: weighed
    if one is not None and label is not None and _defined(label, body, one):
        if not propose:
            return []  # "**Sub-team Formation:** Proposers must specify ...": a term, defined
        one.defined = True
    return [one] if one is not None else []


def _lone(word: str) -> bool:
    lowered = word.lower()  # (a page's word, a placeholder: "TBD" in a council's list)
    ok = bool(LONE_WORD.match(word)) and lowered not in _people.NOT_NAME_WORDS
    return ok and not _people.says_empty(word)


def names_somebody(people: list[Entry]) -> bool:
    """What the structure readers count: an entry read without a flag of `read(propose=True)`."""
    return any(not (e.defined or e.org_word or e.lone) for e in people)


def _defined(label: str, body: str, entry: Entry) -> bool:
    """A term and its definition: the name is (in) the label, the rest sentences of their own
    (DEFINITION_WORDS or more, ending with a full stop) that say nothing of a person: no handle,
    address or link (a person's "Jane Roe: @jroe, docs" or "Jane Roe (Example): CI")."""
    words = len(body.split())
    return (
        entry.name in label
        and not (entry.github or entry.email or _says_who(label) or _says_who(body))
        and words >= DEFINITION_WORDS
        and body[:1].isupper()  # a sentence of its own ("Proposers must ..."), not "maintains ..."
        and body.rstrip().endswith(".")
    )


def _says_who(text: str) -> bool:
    """The text carries a handle, an e-mail address or a link (what marks the person)."""
    return bool(AT_HANDLE.search(text) or "@" in text or "](" in text)


def _label_entry(entry: Entry, label: str) -> None:
    """A label before a colon: a title ("Role Title"), an organisation when its words say so
    ("Example Corp: A, B"), else the area the people after it look after ("Documentation: @a,
    @b"): of the capitalised labels read as organisations on the labelled pages (vLLM's
    "Documentation", "FlashInfer", "NIXL"...), none was one."""
    if TITLE_WORDS.search(label):
        entry.titles.append(label)
        entry.lead = entry.lead or bool(LEAD_TAG.search(label))
    elif looks_like_org(label) and says_org(label, registry=False):
        entry.affiliation = entry.affiliation or label
    else:
        entry.area = entry.area or label


def _label(text: str) -> tuple[str | None, str]:
    """("label", rest) for "label: rest" (the label may be a name-like title or organisation:
    the caller keeps it only when the rest names the people)."""
    match = re.match(r"^([^:()\[\]]{1,80}?)\s*:\s+(.+)$", text)
    if match is None:
        return None, text
    head = match.group(1).strip(" *`_")
    if head.startswith("@") or not head:
        return None, text
    return head, match.group(2)


def _several(body: str, links: Links) -> list[Entry]:
    parts = _people.split_outside_parens(body)
    found = []
    for part in parts:
        entry = _one(part, tuple(link for link in links if link[0] and link[0] in part))
        if entry is None or not (
            entry.github or entry.email or _people.looks_like_name(entry.name)
        ):
            return []
        found.append(entry)
    return found


def _one(text: str, links: Links, *, handle_list: bool = False) -> Entry | None:
    entry = Entry(name="")
    if text.count("(") == text.count(")") + 1 and text.rfind("(") > text.rfind(")"):
        text += ")"  # "Jane Roe ([jroe](url) jane@example.org": its closing parenthesis lost
    printed = text
    text, entry.github, entry.email = _contacts.labelled(text)  # "jroe (GitHub)"
    for tag in TAG.findall(text):
        tag = tag.strip()
        if tag.startswith("@") and HANDLE_TOKEN.match(tag):
            entry.github = entry.github or tag[1:].lower()
        elif STATUS_TAG.search(tag):
            entry.emeritus = True
        elif TITLE_WORDS.search(tag) and not re.search(r"appointed|elected", tag, re.I):
            entry.titles.append(tag)
            entry.lead = entry.lead or bool(LEAD_TAG.search(tag))
    text = TAG.sub(" ", text)
    link_login = _handle_from(text, links)
    rest = text
    for group in list(PAREN.finditer(text)):
        if _people.nickname(group):
            continue  # part of the name as printed ('Ganesan Ramalingam ("Rama")')
        if _sort_paren(group.group(1), entry, links, text):
            rest = rest.replace(group.group(0), " ", 1)
    rest = PAREN.sub(lambda m: m.group(0) if _people.nickname(m) else " ", rest)
    if entry.affiliation and len(AT_HANDLE.findall(rest)) >= 2:  # "@a, @b (Responses API)":
        entry.area, entry.affiliation = entry.area or entry.affiliation, None  # the list's area
    for email in _contacts.emails(rest):
        entry.email = entry.email or email
        rest = rest.replace(email, " ")
    rest = rest.replace("<>", " ").replace("< >", " ")
    rest = collapse(rest)
    inline = AT_HANDLE.findall(rest)
    if inline and not rest.startswith("@"):
        entry.github = entry.github or inline[0].lower()
        # "Jane Roe - @jroe": the separator the handle followed goes with it
        rest = collapse(AT_HANDLE.sub(" ", rest)).rstrip(" -–—|:,")
    if not entry.github and only_document_link(rest, links):
        return None  # (a name linked to the person's commits, then "@jroe", is a person)
    parts = [p.strip(" *_`'\"|,;") for p in SEPARATORS.split(rest)]
    separators = SEPARATORS.findall(rest)
    name_at = None
    weak_org = False  # the affiliation read from a comma part is only capitalised words
    for index, part in enumerate(parts):
        if not part:
            continue
        bare = part.lstrip("@")
        if part.startswith("@") and HANDLE_TOKEN.match(part):
            entry.github = entry.github or bare.lower()
            if name_at is None and index == 0:
                name_at = index  # "@handle: area"
            continue
        if link_login and bare.lower() == link_login:
            entry.github = entry.github or link_login
            if name_at is None and (index == 0 or not any(map(_people.looks_like_name, parts))):
                name_at = index  # "[handle](url), Company": the handle stands for the name
            continue
        if name_at is None and _people.looks_like_name(part):
            entry.name, name_at = _clean_name(part), index
            continue
        if name_at is None and index == 0 and (_is_handle_word(part, handle_list) or link_login):
            if link_login and bare.lower() != link_login and _people.looks_like_name(part):
                entry.name, name_at = part, index
            elif _is_handle_word(part, handle_list):
                entry.github = entry.github or bare.lower()
                name_at = index
            continue
        joined_by = separators[index - 1].strip() if 0 < index <= len(separators) else ""
        if (
            name_at is not None
            and not entry.name
            and joined_by in ("-", "—", "–", "--", "|")
            and _people.looks_like_name(part)
            and not (names_org(part, parts, index) and says_org(part))
        ):
            entry.name = _clean_name(part)  # "[handle](url) - **Full Name** <mail>"
            continue
        if name_at is not None:
            sep = separators[index - 1] if index - 1 < len(separators) else ""
            if sep.strip() in ("-", "—", "–", "--", "|") and names_org(part, parts, index):
                entry.affiliation = entry.affiliation or part  # "Name - Company Inc."
                continue
            employer = _employer(part)  # ("Senior Engineer at Example Labs": the org's part)
            if "," in sep and looks_like_org(employer) and (not entry.affiliation or weak_org):
                # "Jane Roe, Principal Engineer, Example Labs Ltd": a later part that says it is
                # an organisation wins over one that is only capitalised words (a job title)
                if not entry.affiliation or (says_org(part) and not ORG_SUFFIX.match(part)):
                    entry.affiliation = _employer(org_with_suffix(parts, index))
                    weak_org = not says_org(entry.affiliation)
            elif "," in sep and len(part.split()) <= 4 and LEAD_TAG.search(part):
                entry.titles.append(part)  # "Jane Roe, @jroe, Team leader" (a card's fields)
                entry.lead = True
            elif ":" in sep or "-" in sep or "—" in sep or "–" in sep:
                said = ", ".join(p for p in parts[index:] if p) or None
                if said and STATUS_TAG.search(said):
                    entry.emeritus = True
                if said and DESCRIBED.search(said):
                    entry.titles.append(said)  # "-- project founder / emeritus leader"
                else:
                    entry.area = said
                break
    entry.github = entry.github or link_login
    paren_only = entry.label == "paren-handle" and not (link_login or AT_HANDLE.search(printed))
    entry.label = None
    if entry.aside:  # "@jroe (Jane Roe, Example Labs)" or "Jane Roe (Red Hat)"
        first, _, rest = entry.aside.partition(", ")
        if not entry.name or entry.name == entry.github:
            entry.name = first
            entry.affiliation = entry.affiliation or rest or None
        elif looks_like_org(entry.aside):
            entry.affiliation = entry.affiliation or entry.aside
    if not entry.name or entry.name == entry.github:  # words after the asides hid the name?
        lead = NAME_BEFORE_ASIDE.match(printed)
        if lead and _people.looks_like_name(lead.group(1)):
            entry.name = _clean_name(lead.group(1))
    if not entry.name:
        if entry.github and not paren_only:
            entry.name = entry.github
            return entry
        return None
    return entry


def printed_as_handle(word: str) -> bool:
    """A word printed as a handle is: "@jroe", or a lower-case login ("jroe", "j-roe2")."""
    return bool(HANDLE_TOKEN.match(word)) and (word.startswith("@") or word == word.lower())


def _is_handle_word(part: str, handle_list: bool) -> bool:
    return (
        bool(HANDLE_TOKEN.match(part))
        and (part.startswith("@") or (handle_list and (part == part.lower() or part[0].islower())))
        and part.lstrip("@").lower() not in _people.NOT_NAME_WORDS
        and not part.isdigit()
    )


def _clean_name(text: str) -> str:
    return text.strip(_people.NAME_EDGE)
