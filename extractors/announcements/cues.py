"""What a candidate event is decided on: where its person is printed and what that place says.

A post is cut into *spots*: each sentence of a paragraph, each list item, each definition-list
term, each table row. A spot knows the heading it sits under and, for a list item or a row, the
lead-in its list hangs under ("We're excited to welcome the following new members to the
Committee:") or the item it is nested in. A candidate (a person at a spot, with the rule
readers' proposal if they made one) is described by cues, not by phrases keyed to posts:

- `kind:` the spot's kind; `lead:`, `head:`, `intro:`, `title:` the words of the lead-in, the
  heading, the lead-in above the heading ("keynotes include:" over "Day 1, December 8") and the
  post's title; `sent:` the lower-case words of the sentence itself (capitalised words there
  are names and proper nouns; the words left are verbs, role words and the like);
- `rule:` the class the rule readers proposed (`none` for a person only the person reader found);
- `person:` what the person reader says of the person: the shared learned decision's score
  (`extractors.people.model`, the governance pages' model), a handle, one word, the post's author;
- `first_person`, `date_stated`, `list:` (how many people the spot names).

`extractors.announcements.decision` turns the cues into a class and a confidence.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from extractors.announcements import events, structure
from extractors.announcements.source import Post
from extractors.document.model import Heading, Item, Links, Para, Row, Term, collapse

WORD = re.compile(r"(?<![\w@/.])([a-z][a-z'’-]{1,30})(?![\w@/])")
STOP = frozenset(
    {"the", "and", "of", "to", "in", "a", "an", "for", "on", "at", "by", "is", "as", "with",
     "be", "it", "its", "this", "that", "or", "from", "are", "was", "were", "has", "have", "https",
     "http", "www", "com", "org", "html", "md"}
)  # fmt: skip
FIRST_PERSON = re.compile(r"\b(?:I|I'm|I’m|I've|I’ve|my|me)\b")
FAMILY_CUES = (
    False  # tried: CV recall on the real probes 0.765 -> 0.773 but precision 0.953 -> 0.944
)
CLASSES = ("none", "maintainer", "maintainer/emeritus", "affiliation", "affiliation/emeritus",
           "keynote", "speaker", "program_chair", "organizer", "award")  # fmt: skip


@dataclass(frozen=True)
class Spot:
    """A sentence, list item or term, with what it hangs under."""

    kind: str  # paragraph (one sentence of it), item, term
    sentence: events.Sentence  # its quote (verbatim), display text, links, locator, date
    heading: str | None
    lead: str | None  # a list item's lead-in (or its parent item)
    list_size: int = 1  # the items of the list it is in
    intro: str | None = None  # the last lead-in ending in ":" above the heading it sits under

    @property
    def quote(self) -> str:
        return collapse(self.sentence.quote)

    @property
    def links(self) -> Links:
        return self.sentence.links


def event_class(predicate: str, status: object) -> str:
    """The class of a claim or gold event: its predicate, `/emeritus` when the role ends."""
    ended = str(status or "current") in ("emeritus", "former")
    if predicate in ("maintainer", "affiliation") and ended:
        return f"{predicate}/emeritus"
    return predicate if predicate in CLASSES else "none"


def spots(post: Post) -> list[Spot]:
    """Every spot of the post, in document order (the lead-in logic of `lists.list_claims`)."""
    out: list[Spot] = []
    for section in post.sections:
        heading: str | None = None
        lead: str | None = None
        intro: str | None = None
        current_list: int | None = None
        label: str | None = None
        parent: str | None = None  # the last heading that is not a name alone
        section_lead: str | None = None  # the last sentence paragraph under `parent`
        named_section = False  # under a heading that is a name alone
        sizes: dict[int, int] = {}
        for block in section.blocks:
            if isinstance(block, Item):
                sizes[block.list_no] = sizes.get(block.list_no, 0) + 1
        for number, block in enumerate(section.blocks, start=1):
            line = getattr(block, "line", None)
            where = f"line {line}" if line is not None else f"{section.prefix}block {number}"
            if isinstance(block, Heading):
                if lead and lead.rstrip().endswith(":"):
                    intro = lead
                if structure.is_name_only(block.text):  # a card's or a section's name
                    s = events.Sentence(block.text, block.text, (), where, section.date)
                    out.append(Spot("heading", s, parent, section_lead, 1, intro))
                    named_section = True
                else:
                    parent, section_lead, named_section = block.text, None, False
                heading, lead = block.text, None
                continue
            if isinstance(block, Para):
                if structure.is_line(block.text) and section_lead is not None:
                    s = events.Sentence(block.quote, block.text, block.links, where,
                                        section.date)  # fmt: skip
                    out.append(Spot("line", s, heading, section_lead, 1, intro))
                    lead = block.text
                    continue
                lead = block.text
                if not named_section:
                    section_lead = block.text
                for s in events.sentences(block.quote, block.text, block.links, where,
                                          section.date):  # fmt: skip
                    out.append(Spot("paragraph", s, heading, None))
                continue
            if isinstance(block, Row):  # a table row: its cells, what the table hangs under
                if not block.header and block.cells:
                    text = " | ".join(c.text for c in block.cells)
                    links = tuple(link for c in block.cells for link in c.links)
                    s = events.Sentence(block.quote, text, links, where, section.date)
                    out.append(Spot("row", s, heading, lead or heading))
                continue
            if isinstance(block, Term):
                text = f"{block.term}: {block.text}"
                s = events.Sentence(block.quote, text, block.links, where, section.date)
                out.append(Spot("term", s, heading, lead))
                continue
            if not isinstance(block, Item):
                continue
            if block.list_no != current_list:
                current_list = block.list_no
                label = lead if lead is not None else heading
            own = block.parent if block.depth and block.parent else label
            s = events.Sentence(block.quote, block.text, block.links, where, section.date)
            out.append(Spot("item", s, heading, own, sizes.get(block.list_no, 1), intro))
    return out


def spot_of(quote: str, found: list[Spot]) -> Spot | None:
    """The spot a rule claim quotes: the first that holds its quote, else one its quote holds."""
    text = collapse(quote)
    if not text:
        return None
    for spot in found:
        if text in spot.quote:
            return spot
    for spot in found:
        if spot.quote and spot.quote in text:
            return spot
    return None


def words(text: str | None, *, any_case: bool = False) -> set[str]:
    """The lower-case words of a text (every word, lower-cased, with `any_case`: a heading or
    title is often in title case), a plural's "s" dropped."""
    text = (text or "").lower() if any_case else (text or "")
    found = {w.strip("'’-") for w in WORD.findall(text)} - STOP - {""}
    return {w[:-1] if len(w) > 4 and w.endswith("s") and not w.endswith("ss") else w
            for w in found}  # fmt: skip


def cues(spot: Spot | None, name: str, github: str | None, post: Post, proposal: str,
         person_score: float, named: int, subject: bool = False) -> dict[str, float]:  # fmt: skip
    """The cues of one candidate (see the module docstring)."""
    f: dict[str, float] = {"bias:rule" if proposal != "none" else "bias:reader": 1.0}
    f[f"rule:{proposal}"] = 1.0
    sentence = spot.sentence.display if spot else (post.title or "")
    f[f"kind:{spot.kind if spot else 'title'}"] = 1.0
    for w in words(spot.lead if spot else None, any_case=True):
        f[f"lead:{w}"] = 1.0
    for w in words(spot.heading if spot else None, any_case=True):
        f[f"head:{w}"] = 1.0
    for w in words(spot.intro if spot else None, any_case=True):
        f[f"intro:{w}"] = 1.0
    for w in words(post.title, any_case=True):
        f[f"title:{w}"] = 1.0
    for w in words(sentence.replace(name, " ")):
        f[f"sent:{w}"] = 1.0
    f["person:score"] = person_score
    if github:
        f["person:handle"] = 1.0
    if len(name.split()) == 1:
        f["person:one_word"] = 1.0
    if any(collapse(a) == collapse(name) for a in post.authors):
        f["person:author"] = 1.0
    if FIRST_PERSON.search(sentence):
        f["first_person"] = 1.0
    if spot and spot.sentence.date and re.search(r"\b(?:19|20)\d\d\b", sentence):
        f["date_stated"] = 1.0
    if spot and spot.kind == "item":
        f["list:long"] = float(spot.list_size > 12)
    places = {"sent": sentence, "lead": spot.lead if spot else None,
              "head": spot.heading if spot else None, "intro": spot.intro if spot else None,
              "title": post.title}  # fmt: skip
    f.update(structure.context_cues(places, sentence, name, subject,
                                    spot.links if spot else ()))  # fmt: skip
    f["list:several"] = float(named > 1)
    f["list:many"] = float(named > 4)
    return {k: v for k, v in f.items() if v}
