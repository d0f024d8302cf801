"""People presented one a heading or a line each, and what announces them.

- a heading that is one person's name (a full name, or one capitalised word) under a higher
  heading announcing a role change: "## New Directors" / "### Emily" / "### Yannic"
  (`name_heading`; "## Resigning Directors" ends the role), or under the post's opening
  paragraph announcing one, when no heading is above it;
- a paragraph that is one linked name ("**[A](url)**", `name_line`), or only linked names
  (`linked_names`), under a lead-in that announces the people below it (`announcing`: a word of
  change and a body, "These seven nominees have been elected ... the Board");

`lists.list_claims` reads each as an item of the list the heading or lead-in introduces.
"""

from __future__ import annotations

import re

from extractors.announcements.structure import ONE_WORD, is_name_only
from extractors.document.model import Heading, Item, Para, collapse
from extractors.people import names as _people

ROLE_CUE = re.compile(
    r"\b(?:new(?:ly)?|elected|re-elected|winners?|vote-getters|added|welcome|joined|joining|"
    r"outgoing|retiring|resigning|former|stepping\s+down|appointed|will\s+be|are:|is:|announce)\b",
    re.I,
)
COMMITTEE = re.compile(
    r"\b(?P<body>(?:[\w&'’-]+\s+){0,3}?(?:committee|council|board(?:\s+of\s+directors)?|"
    r"directors?|team\s+leads?|leads?|collaborators?|committers?|maintainers?|reviewers?|pmc|tsc|"
    r"members?|team))\b",
    re.I,
)
NAME_HEADING = -2  # the list number of a name heading read as an item
ASIDE = re.compile(r"\s*\([^()]*\)\s*$")  # "Florian Gilcher (skade)": the handle aside


def linked_line(para: Para) -> bool:
    """A paragraph that is one link and nothing else (a name line, whoever it names)."""
    return len(para.links) == 1 and collapse(para.text) == collapse(para.links[0][0])


def announcing(text: str | None) -> bool:
    """A lead-in or heading that announces people gaining or leaving a role of a body."""
    return bool(text and ROLE_CUE.search(text) and COMMITTEE.search(text))


def name_heading(heading: Heading, parent: Heading | None, opening: str | None = None,
                 prelude: str = "") -> list[Item]:  # fmt: skip
    """A heading that is one person's name (a full name, or one capitalised word) under a
    higher heading that announces a role change ("## New Directors" / "### Emily"), or, with no
    heading above it, a full name under the post's opening paragraph that announces one ("... to
    announce the formation of the inaugural core development team" / "### Josh Cartmell") and
    that the paragraphs above (`prelude`) do not name already (a bio of someone announced there),
    as an item."""
    text = collapse(heading.text)
    if parent is None:
        name = collapse(ASIDE.sub("", text))
        if not announcing(opening) or not is_name_only(text) or name in prelude:
            return []
    elif heading.level <= parent.level or not announcing(parent.text):
        return []
    if not (is_name_only(text) or ONE_WORD.match(text)) or COMMITTEE.search(text):
        return []
    return [Item(quote=heading.text, text=text, links=(), list_no=NAME_HEADING, depth=0,
                 parent=None, line=heading.line)]  # fmt: skip


def name_line(para: Para) -> list[Item]:
    """A paragraph that is nothing but one linked person's name ("**[A](url)**"), as an item."""
    if len(para.links) != 1 or collapse(para.text) != collapse(para.links[0][0]):
        return []
    text, url = collapse(para.links[0][0]), para.links[0][1]
    if not _people.looks_like_name(text):
        return []
    return [Item(quote=para.quote, text=text, links=((text, url),), list_no=-1, depth=0,
                 parent=None, line=para.line)]  # fmt: skip


def linked_names(para: Para) -> list[Item]:
    """A paragraph that is nothing but links, each a person's name, as one item per link."""
    texts = [collapse(text) for text, _ in para.links]
    if len(texts) < 2 or collapse(para.text) != " ".join(texts):
        return []
    if not all(_people.looks_like_name(t) for t in texts):
        return []
    urls = [url for _, url in para.links]
    return [
        Item(quote=t, text=t, links=((t, u),), list_no=-1, depth=0, parent=None, line=para.line)
        for t, u in zip(texts, urls, strict=True)
    ]
