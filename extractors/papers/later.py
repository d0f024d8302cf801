"""An affiliation list printed on a later page ("Author details" at the end of a BMC article).

Some templates print only the first author's affiliation on page 1 ("Full list of author
information is available at the end of the article") and the numbered list later:

    Author details
    1Department of Animal Ecology, Uppsala University, Norbyvägen 18D, S-752
    36 Uppsala, Sweden. 2Department of Evolutionary Organismal Biology, ...

`author_notes(pages, names)` reads the notes a magazine prints after the references, for a page 1
with names and no affiliation: "Andrew Head (andrewhead@berkeley.edu), University of California,
Berkeley, CA, USA."

`later_affiliations(texts, wanted)` finds such a heading in the given page texts and returns the
numbered entries it lists (the lines joined as the running text they are), keyed by number, for
the keys wanted. Pure: texts in, values out; the caller reads the pages only when page 1 left
markers unresolved.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from extractors.papers.patterns import clean, is_institution

# The heading of an affiliation list, alone on its line.
LIST_HEADING_RE = re.compile(
    r"^\s*(?:author details|author information|authors? affiliations?|affiliations)\s*:?\s*$",
    re.I | re.M,
)
# A numbered entry starts the list or follows the previous entry's full stop or semicolon.
ENTRY_RE = re.compile(r"(?:^|(?<=[.;]\s))(\d{1,2})\s?(?=[A-Z])")
# The list ends at the next heading: a short line without a full stop ("Authors' contributions").
HEADING_LINE_RE = re.compile(r"^[A-Z][\w’' ]{2,40}$")
MAX_LIST_LINES = 40
MAX_ENTRY_CHARS = 300


def later_affiliations(texts: Iterable[str], wanted: set[str]) -> dict[str, tuple[str, str, int]]:
    """Numbered affiliations (key -> (text, verbatim quote, page number)) from an affiliation
    list in `texts` (the texts of pages 2, 3, ..., read one at a time until the list is found)."""
    for page, text in enumerate(texts, start=2):
        heading = LIST_HEADING_RE.search(text)
        if heading is None:
            continue
        found = _entries(_list_text(text[heading.end() :]))
        if found and wanted & set(found):
            return {key: (entry, quote, page) for key, (entry, quote) in found.items()}
    return {}


def _list_text(after: str) -> str:
    """The list's lines, up to the next heading, as printed."""
    lines: list[str] = []
    for line in after.strip().splitlines()[:MAX_LIST_LINES]:
        line = line.strip()
        if lines and HEADING_LINE_RE.fullmatch(line) and lines[-1].endswith("."):
            break
        lines.append(line)
    return "\n".join(lines)


def _unwrap(raw: str) -> str:
    """A list entry's lines joined as the running text they are (soft line breaks)."""
    joined = re.sub(r"-\n(\w)", lambda m: m.group(1) if m.group(1).islower() else m.group(0), raw)
    return clean(joined.replace("\n", " "))


def _entries(text: str) -> dict[str, tuple[str, str]]:
    marks = list(ENTRY_RE.finditer(text))
    if not marks or marks[0].start() != 0:
        return {}
    out: dict[str, tuple[str, str]] = {}
    for m, nxt in zip(marks, [*marks[1:], None], strict=True):
        raw = text[m.end() : nxt.start() if nxt else len(text)].strip()
        entry = _unwrap(raw).rstrip(".;").strip()
        if entry and len(entry) <= MAX_ENTRY_CHARS:
            out.setdefault(m.group(1), (entry, raw.rstrip(".;")))
    return out


# --- author notes at the end of the paper ------------------------------------------------------

# "Andrew Head (andrewhead@berkeley.edu), University of California, Berkeley, CA, USA." (a
# magazine's research highlight prints its authors so, after the references): the name, its
# e-mail in parentheses, the affiliation up to the sentence's end.
NOTE_AFTER_NAME = r"\s*\((?P<email>[^()\s]+@[^()\s]+)\)\s*,?\s*(?P<aff>[^\n]+?(?:\n[^\n]+?){0,3}?)"
NOTE_END = r"(?:\.(?=\s*(?:\n|$|[A-Z]))|;)"
MAX_LAST_PAGES = 2  # pages read from the end for such notes


def author_notes(
    pages: list[tuple[int, str]], names: list[str]
) -> dict[str, tuple[str, str, str, int]]:
    """For each name printed in the given (page number, text) pages as "Name (email),
    Affiliation.": name -> (affiliation, e-mail, verbatim quote, page)."""
    out: dict[str, tuple[str, str, str, int]] = {}
    for page, text in pages:
        for name in names:
            if name in out:
                continue
            pattern = r"\s+".join(re.escape(w) for w in name.split())
            m = re.search(pattern + NOTE_AFTER_NAME + NOTE_END, text)
            if m is None:
                continue
            aff = _unwrap(m.group("aff")).strip(" ,;.")
            if aff and len(aff) <= MAX_ENTRY_CHARS and is_institution(aff):
                out[name] = (aff, m.group("email").lower(), m.group("aff").strip(), page)
    return out
