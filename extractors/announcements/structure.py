"""Candidates from structure alone, and the context cues that describe them, whatever the wording.

The rule readers (`events`, `lists`) propose what their sentence patterns have seen; this module
proposes every person-like mention the *layout* of a post offers, and describes its context with
generic cues for the learned decision (`extractors.announcements.decision`) to weigh:

- **spots** beyond sentences and list items (`cues.spots` asks `heading_spot`, `line_lead`): a
  heading that holds only a name (a card's `<h3>Name</h3>`, a `### Name` section per new
  maintainer) with the lead-in of the section above it; a short line that holds only a name
  (`<b>Name</b>` paragraphs under "The newly elected board seats will be filled by:") with the
  lead-in it hangs under;
- **people** the name reader does not take (`extra_people`): a list item or name line that is
  one handle-like token ("- timoreo", "- dada513"), the one-token subject of a sentence that
  holds a role word ("Swirl has stepped down from his role as maintainer");
- **context cues** (`context_cues`): whether the sentence, lead-in, heading, intro and post title
  hold a role or body word (`role:`), a word of change (`change:`: new, welcome, elected, join,
  appointed, replacing...), a word of ending (`ended:`: step down, resign, emeritus, outgoing,
  thanks); how far the name is from the nearest role word in its sentence (`dist:`); whether the
  spot is the name alone (`spot:name_only`), the mention handle-like (`person:handle_like`) or a
  sentence's bare subject (`person:subject`). Word lists here are cues, never verdicts.
- **name cues** (`name_cues`): a capitalised word of the name the post also prints in lower
  case, or a one-word lower-case mention the post prints in its prose (`person:common_word`:
  "Elected Delegate", "Curriculum Advisory", "Open Variant", "(uncontested)" are words of the
  language, not a person's name), and a spot a rule claim of another person
  quotes (`spot:claimed_other`: "(uncontested)" beside the elected officer the rules read).
"""

from __future__ import annotations

import re

from extractors.announcements import names
from extractors.announcements import patterns as pat
from extractors.document.model import collapse
from extractors.people import names as _people

ROLE = re.compile(rf"\b{pat.ROLE_WORDS}\b|\b(?i:keynotes?|speakers?|seats?|elected|emeritus)\b")
CHANGE = re.compile(
    r"\b(?:new|newest|newly|welcom\w*|elect\w*|re-elected|join\w*|appoint\w*|promot\w*|"
    r"nominat\w*|vot(?:ed|e)|replac\w*|becom\w*|addition|added|adds|congratulat\w*|"
    r"incoming|filled|named|selected|chosen|take\s+over|taking\s+over|took\s+over|"
    r"head|now)\b",
    re.IGNORECASE,
)
ENDED = re.compile(
    r"\b(?:step(?:ping|ped|s)?\s+(?:down|back|away)|resign\w*|emeritus|outgoing|retir\w*|"
    r"leav\w*|depart\w*|former|thank\w*|farewell|goodbye|end(?:ed|s)?\s+(?:his|her|their))\b",
    re.IGNORECASE,
)
TOKEN = re.compile(r"[\w@.'’-]+")
CODE_LINK = re.compile(r"/(?:commits?|pull|pulls|issues|compare|tree|blob)/")  # a change log's
NEAR = 6  # tokens: a role word this close to the name is near it
NAME_LINE_MAX = 7  # words: a line holding a name and at most a short aside
# one token that reads as an account name: mixed case inside, a digit, or all lower case
HANDLE_LIKE = re.compile(r"^@?(?=[A-Za-z0-9_-]{3,39}$)(?:[a-z][a-z0-9_-]*[A-Z0-9][\w-]*|"
                         r"[A-Z][a-z0-9]+[A-Z][\w-]*|[a-z][a-z0-9_-]+)$")  # fmt: skip
SUBJECT = re.compile(
    r"(?:^|[.;:,]\s+|\b(?:and|but|so|that)\s+)(?P<who>@?[A-Za-z][\w-]{2,38})\s+"
    r"(?:has|have|had|is|was|will|would|becomes|became|joins|joined|steps|stepped|takes|took)\b"
)
NOT_SUBJECTS = frozenset(
    {"he", "she", "they", "we", "it", "this", "that", "there", "who", "which", "everyone",
     "everybody", "someone", "nobody", "one", "each", "all", "both", "team", "project", "board",
     "today", "now", "here", "what", "why", "how", "when", "where", "these", "those", "you",
     "i", "our", "his", "her", "their", "its", "also", "then", "the", "a", "an", "and", "but",
     "community", "foundation", "committee", "council", "release", "version", "work", "code"}
)  # fmt: skip


def is_name_only(text: str) -> bool:
    """A heading or line that holds a name (and at most an aside in parentheses), nothing else."""
    bare = collapse(re.sub(r"\([^()]*\)", " ", text)).strip(" ,.:;!*_")
    return _people.looks_like_name(bare) and len(text.split()) <= NAME_LINE_MAX


def is_line(text: str) -> bool:
    """A short line that is not a sentence: a name, a label."""
    text = collapse(text)
    return 0 < len(text.split()) <= NAME_LINE_MAX and not re.search(r"[.!?]\s+\S", text)


def handle_like(text: str) -> bool:
    return bool(HANDLE_LIKE.match(collapse(text).strip(" ,.;:*_")))


ONE_WORD = re.compile(r"^[A-Z][a-z0-9]{2,30}$")  # "Scrumplex": a one-word name in a list of names


def extra_people(kind: str, display: str, found: list[names.Person]) -> list[names.Person]:
    """People of a spot the name reader left: a bare handle-like item or line; a sentence's
    one-token subject (when the sentence holds a role word)."""
    text = collapse(display).strip(" ,.;:*_")
    taken = {collapse(p.name).lower() for p in found}
    taken |= {w.lower() for p in found for w in p.name.split()}
    if kind in ("item", "line", "heading"):
        if not found and (handle_like(text) or (kind == "item" and ONE_WORD.match(text))):
            return [names.Person(text.lstrip("@"))]
        return []
    if kind != "paragraph" or not ROLE.search(display):
        return []
    out = []
    for match in SUBJECT.finditer(display):
        who = match.group("who").lstrip("@")
        if who.lower() in NOT_SUBJECTS or who.lower() in taken:
            continue
        if not (who[0].isupper() or handle_like(who)):
            continue
        taken.add(who.lower())
        out.append(names.Person(who))
    return out


def _distance(sentence: str, name: str) -> str | None:
    tokens = TOKEN.findall(sentence)
    first = name.split()[0] if name.split() else name
    at = [i for i, t in enumerate(tokens) if t.strip("@") == first]
    roles = [i for i, t in enumerate(tokens) if ROLE.fullmatch(t)]
    if not at or not roles:
        return None
    gap = min(abs(a - r) for a in at for r in roles)
    return "near" if gap <= NEAR else "far"


def context_cues(places: dict[str, str | None], sentence: str, name: str, subject: bool,
                 links: tuple[tuple[str, str], ...] = ()) -> dict[str, float]:  # fmt: skip
    """The generic cues of a candidate's context (see the module docstring)."""
    f: dict[str, float] = {}
    for where, text in places.items():
        if not text:
            continue
        if ROLE.search(text):
            f[f"role:{where}"] = 1.0
        if CHANGE.search(text):
            f[f"change:{where}"] = 1.0
        if ENDED.search(text):
            f[f"ended:{where}"] = 1.0
    gap = _distance(sentence, name)
    if gap:
        f[f"dist:{gap}"] = 1.0
    rest = collapse(sentence.replace(name, " ")).strip(" ,.;:*_()-")
    rest_tokens = len(TOKEN.findall(rest))
    if rest_tokens <= 1:
        f["spot:name_only"] = 1.0
    elif rest_tokens > 15:
        f["spot:long"] = 1.0
    if any(CODE_LINK.search(target) for _text, target in links):
        f["link:code"] = 1.0
    if " " not in name.strip() and handle_like(name):
        f["person:handle_like"] = 1.0
    if subject:
        f["person:subject"] = 1.0
    return f


LOWER_WORD = re.compile(r"(?<![\w@/.#-])[a-z][a-z'’-]{2,30}(?![\w@/])")
NAME_WORD = re.compile(r"[A-Za-z][\w'’-]+")


def lower_words(texts: list[str]) -> set[str]:
    """The words a post prints in lower case (not in a handle, path or address)."""
    return {w.strip("'’-") for t in texts for w in LOWER_WORD.findall(t)}


def name_cues(name: str, quote: str, lower: set[str], claimed: set[str] | None) -> dict[str, float]:
    """The name cues of a structure candidate (see the module docstring); `claimed`: the quotes
    of the rule claims, None for a person a rule claim names."""
    f: dict[str, float] = {}
    words = [w for w in NAME_WORD.findall(name) if w[0].isupper() and len(w) >= 3]
    if any(w.lower() in lower for w in words) or (name.isalpha() and name.islower()
                                                  and name in lower):  # fmt: skip
        f["person:common_word"] = 1.0  # "(uncontested)" read as a handle: a word of the language
    if claimed is not None and quote and any(q and (quote in q or q in quote) for q in claimed):
        f["spot:claimed_other"] = 1.0
    return f
