"""A bound on what the HTML parser builds.

An HTML parser checks a start tag's scope by walking its stack of open elements, so a document
nested N deep costs O(N) a tag: "<ul><li>Name (handle)" 100,000 times (3.4 MB, no tag closed)
nests 200,000 deep, and lexbor took minutes over it. Browsers bound the depth for this reason
(Blink: 512). The parser also re-opens, at each run of text, the formatting elements a block
closed ("<p><b>a<p>b": the second paragraph is bold too), so 2,000 unclosed `<b id=N>` and
2,000 "<p>x" (29 kB) build 4 million elements (1.8 GB).

`bounded_nesting` follows the parser's stack of open elements and list of active formatting
elements (a model of the HTML standard's tree construction, as far as depth goes: implied end
tags, scopes, markers, the adoption agency, the Noah's Ark clause) and, where the document would
nest deeper than MAX_HTML_DEPTH, keep more than MAX_ACTIVE formatting elements active or
re-open more than MAX_REOPENED (plus two a start tag) in all, first writes the end tags that
close them: what lies deeper becomes a sibling, as in a browser. The text is kept. On ordinary
pages the model's depth stays within a few levels of the parser's (checked on 759 real pages),
far from the bound, and the document is returned as it is. Linear: a few microseconds a tag
the model reads, under a microsecond a tag its loop reads itself (the common ones), and a run of
closed items that leaves the model as it was is one match of the tokenizer (1.2 ms for the
54 kB PyTorch page, against 4.7 for the model alone).
"""

from __future__ import annotations

import functools
import itertools
import re
from collections.abc import Iterator

MAX_HTML_DEPTH = 512
MAX_ACTIVE = 100  # active formatting elements after the last marker
MAX_REOPENED = 10_000  # formatting elements re-opened in all, beyond two for every start tag


def _names(text: str) -> frozenset[str]:
    return frozenset(text.split())


VOID_ELEMENTS = _names("""
    area base basefont bgsound br col embed frame hr image img input keygen link meta param
    source track wbr""")
RAW_TEXT_ELEMENTS = _names("script style xmp iframe noembed noframes textarea title")
NEVER_NESTED = _names("html head body frameset")  # one each, whatever the document says
HEADINGS = _names("h1 h2 h3 h4 h5 h6")
FORMATTING = _names("a b big code em font i nobr s small strike strong tt u")
MARKERS = _names("applet caption marquee object td th template")
SCOPE_BOUNDARIES = _names("applet caption marquee object table td th template")
SPECIAL = _names("""
    address applet area article aside base basefont bgsound blockquote body br button caption
    center col colgroup dd details dir div dl dt embed fieldset figcaption figure footer form
    frame frameset h1 h2 h3 h4 h5 h6 head header hgroup hr html iframe img input keygen li link
    listing main marquee menu meta nav noembed noframes noscript object ol p param plaintext pre
    script search section select source style summary table tbody td template textarea tfoot th
    thead title tr track ul wbr xmp""")
LIST_ITEM_STOPS = SPECIAL - {"address", "div", "p"}  # where the search for an open <li> ends
CLOSES_P = _names("""
    address article aside blockquote center details dialog dir div dl fieldset figcaption figure
    footer header hgroup main menu nav ol p search section summary ul h1 h2 h3 h4 h5 h6 pre
    listing form li dd dt plaintext table hr xmp""")
REOPENING_SPECIAL = _names("applet marquee object area br embed img keygen wbr input select")
TABLE_PARTS = _names("table caption colgroup tbody tfoot thead tr td th")
TABLE_SECTIONS = ("tbody", "tfoot", "thead")
OTHER_IMPLIED_ENDS = _names("li dd dt option optgroup button a nobr")
FOREIGN_ROOTS = ("svg", "math")

# what a tag name is, as bits (a name in none of the sets: an ordinary inline element)
_SPECIAL, _STOP, _SCOPE, _MARKER, _FORMAT, _VOID, _REOPENS, _IMPLIES, _NEVER = (
    1 << n for n in range(9)
)
_FLAGS: dict[str, int] = {}
for _bit, _set in (
    (_SPECIAL, SPECIAL),
    (_STOP, LIST_ITEM_STOPS),
    (_SCOPE, SCOPE_BOUNDARIES),
    (_MARKER, MARKERS),
    (_FORMAT, FORMATTING),
    (_VOID, VOID_ELEMENTS),
    (_IMPLIES, CLOSES_P | HEADINGS | TABLE_PARTS | OTHER_IMPLIED_ENDS),
    (_NEVER, NEVER_NESTED),
):
    for _name in _set:
        _FLAGS[_name] = _FLAGS.get(_name, 0) | _bit
for _name in _FLAGS:
    if not _FLAGS[_name] & _SPECIAL or _name in REOPENING_SPECIAL:
        _FLAGS[_name] |= _REOPENS
_INLINE = _REOPENS

# the next token: a tag (end tag mark, name, attributes), else a comment, a doctype or
# processing instruction, or (when the tag never ends) the rest of the document
_ATTRS = r"(?:[^>=]++|=\s*+\"[^\"]*+\"|=\s*+'[^']*+'|=)*+"
_AFTER_LT = rf"(/?)([A-Za-z][^\s/>]*)({_ATTRS})>|(!--)|[!?]|/?[A-Za-z]"
_TOKEN = re.compile(f"<(?:{_AFTER_LT})")
# elements whose start tag, with no formatting element active, only opens them: the formatting
# ones and those in no set (named here: a regular expression lists them)
_LEAF_NAMES = sorted(
    FORMATTING | _names("span abbr cite kbd samp var dfn sub sup q mark time data bdi bdo ins del"),
    key=lambda name: (-len(name), name),
)


# the attributes of a tag in a run: as _ATTRS, without "<" (every "</" in a run is an end tag,
# so that they count its start tags); written as text between the "=" values (one repeat a
# value, not one a piece: the same match)
_RUN_ATTRS = r"[^<>=]*+(?:(?:=\s*+\"[^\"<]*+\"|=\s*+'[^'<]*+'|=)[^<>=]*+)*+"
# the commonest list item, as Sphinx and Markdown print it, matched by a pattern without groups
# or lookarounds before the general one is tried: "<li><p>Jane Roe (<a class="reference"
# href="...">jroe</a>)</p></li>" (a bare <li>, links of double-quoted attributes with no "/",
# quote or space around "=" outside the values, at most one bare <p>). Where it matches, the
# general item pattern matches the same text (tests/test_html_nesting_equivalence.py), so a run
# ends where it ended before; it is only quicker (0.7 ms of the 2.14 PyTorch page's run search
# became 0.45).
_QUIET_ATTRS = r"[^<>\"'=/]*+(?:=\"[^\"<]*+\"[^<>\"'=/]*+)*+"
_QUIET_LINK = rf"<a\s{_QUIET_ATTRS}>[^<]*+</a>"
_QUIET_PARA = rf"<p>[^<]*+(?:{_QUIET_LINK}[^<]*+)*+</p>"


def _quiet_item(lt: str = "<") -> str:
    return rf"{lt}li>[^<]*+(?:{_QUIET_LINK}[^<]*+)*+(?:{_QUIET_PARA}[^<]*+)?</li>"


def _alternation(names: list[str]) -> str:
    """`names` as one alternation factored by their first letters ("b(?:d(?:i|o)|ig)?" for
    b, bdi, bdo, big): the same names (each followed by a delimiter where it is used, so one
    matches at most), without trying thirty alternatives at every "<" of a run."""
    if "" in names and len(names) == 1:
        return ""
    heads: dict[str, list[str]] = {}
    for name in names:
        if name:
            heads.setdefault(name[0], []).append(name[1:])
    alts = [re.escape(head) + _alternation(sorted(rests)) for head, rests in sorted(heads.items())]
    if len(alts) == 1 and "" not in names:
        return alts[0]
    return f"(?:{'|'.join(alts)})" + ("?" if "" in names else "")


def _leaf(group: str, lt: str = "<") -> str:
    """A closed leaf: "<b class=x>text</b>" (no "/>": `<svg/>` is void)."""
    names = _alternation(_LEAF_NAMES)
    return (
        rf"{lt}(?P<{group}>{names})(?=[\s/>]){_RUN_ATTRS}(?<!/)>[^<]*+"
        rf"</(?P={group})(?=[\s/>]){_RUN_ATTRS}>"
    )


def _block(name: str, inside: str, lt: str = "<", end: str = "") -> str:
    """An element of text and `inside`, its content in an atomic group: what a backtrack gave
    back would end at a "<" starting an element, never at its end tag, so none is tried (not
    `*+`: Python 3.11 raises SystemError on a possessive repeat holding a group, gh-101955).
    Written as text, then (element, text) repeated, as the run itself is: the same matches as
    (text | element) repeated, and quicker in `re` (0.05 ms of the 2.14 PyTorch page's 0.9)."""
    return (
        rf"{lt}{name}(?=[\s/>]){_RUN_ATTRS}(?<!/)>[^<]*+(?>(?:(?:{inside})[^<]*+)*)"
        rf"</{end or name}(?=[\s/>]){_RUN_ATTRS}>"
    )


def _items(groups: Iterator[str], lt: str = "<") -> str:
    """A leaf; a paragraph or heading of text and leaves; a list item of text, leaves and such
    paragraphs; a list of such items (its groups named by `groups`)."""

    def leaf(lt: str = "<") -> str:
        return _leaf(next(groups), lt)

    def para(lt: str = "<") -> str:
        return _block("p", leaf(), lt)

    def item(lt: str = "<") -> str:
        return f"{_quiet_item(lt)}|" + _block("li", f"{leaf()}|{para()}", lt)

    heading, kind = next(groups), next(groups)
    return "|".join(
        [
            leaf(lt),
            para(lt),
            item(lt),
            _block(rf"(?P<{kind}>[uo]l)", item(), lt, end=f"(?P={kind})"),  # one pattern, not two
            _block(rf"(?P<{heading}>h[1-6])", leaf(), lt, end=f"(?P={heading})"),
        ]
    )


# the containers a run holds whole, one level deep (the sections of a documentation page, each
# a heading and its list): special, and their start tag closes an open <p> and nothing else (a
# <div> is no stop of the search for an open <li>: an <li> in one is a block `_BLOCK_IN_RUN`
# sees, as any <li> in a run)
_RUN_CONTAINERS = ("div", "section")


def _run_element(groups: Iterator[str], lt: str = "<") -> str:
    """What `_items` matches, or a container of text and such elements."""
    container = next(groups)
    names = "|".join(_RUN_CONTAINERS)
    whole = _block(rf"(?P<{container}>{names})", _items(groups), lt, end=f"(?P={container})")
    return f"{_items(groups, lt)}|{whole}"


# a run of closed list items, lists of them, paragraphs and headings of text and closed leaves,
# and containers of those ("<li><p>Jane Roe (<a href=..>jroe</a>)</p></li>" ...): with no
# formatting element active, no <p> open, no <li> the next one would end, no heading open as the
# current node and room for five levels, it leaves the model as it found it but for its start
# tags (one for every end tag in it); else it is read a token at a time. The pattern starts
# with "<" outside any group (so that the search skips to the next "<"); its names are in lower
# case (a case-insensitive match costs 80% more: capitals are read as tokens); its repeats are
# atomic groups (see `_block`).
_GROUPS = (f"g{n}" for n in itertools.count())
_RUN_OR_TOKEN_TEXT = (
    f"<(?:((?:{_run_element(_GROUPS, '')})[^<]*+(?>(?:(?:{_run_element(_GROUPS)})[^<]*+)*))"
    f"|{_AFTER_LT})"
)


@functools.cache
def _run_or_token() -> re.Pattern[str]:
    """The pattern above, compiled when the first HTML page is read: its compilation (40-80 ms)
    was most of this module's import, paid by every command that reads no HTML."""
    return re.compile(_RUN_OR_TOKEN_TEXT)


# where the text of a raw text element ends (compiled once, not looked up per element)
_RAW_TEXT_ENDS = {
    name: re.compile(rf"</{name}[\s/>]", re.IGNORECASE) for name in sorted(RAW_TEXT_ELEMENTS)
}
_BLOCK_IN_RUN = re.compile(rf"<(?:p|li|ul|ol|h[1-6]|{'|'.join(_RUN_CONTAINERS)})[\s/>]")
_RUN_DEPTH = 5  # the levels a run opens at most (section > ul > li > p > b)
_COMMENT_END = re.compile(r"--!?>")
_ABRUPT_COMMENT = re.compile(r"<!---?>")


class _Entry:
    """An active formatting element (a marker is None in the list)."""

    __slots__ = ("name", "key", "pos", "listed")

    def __init__(self, name: str, key: str) -> None:
        self.name, self.key = name, key
        self.pos = -1  # its place in the stack of open elements; -1: closed
        self.listed = True  # still in the list


class _Nesting:
    """The parser's stack of open elements and its active formatting elements, as far as the
    depth goes. `start`, `end` and `text` take the next token; `start` and `text` return the
    names of the elements to end before it (none, on ordinary pages)."""

    def __init__(self, document: str = "") -> None:
        self.document = document  # (the start tags of `runs` are counted in it when needed)
        self.names: list[str] = []  # the stack (html, head, body left out)
        self.entries: list[_Entry | None] = []  # each open element's formatting entry
        self.at: dict[str, list[int]] = {}  # name -> its places in the stack, ascending
        self.special: list[int] = [-1]  # places of special elements
        self.stops: list[int] = [-1]  # places of LIST_ITEM_STOPS elements
        self.scopes: list[int] = [-1]  # places of scope boundaries
        self.active: list[_Entry | None] = []
        self.reopened = 0
        self.starts = 0  # start tags read, but for those of `runs`
        self.runs: list[tuple[int, int]] = []  # spans of runs read whole, their tags not counted
        self.holes = 0  # places of elements taken out of the middle of the stack ("")

    # ---- the stack of open elements ------------------------------------------------------
    @property
    def depth(self) -> int:
        return len(self.names) - self.holes

    def last(self, name: str) -> int:
        found = self.at.get(name)
        return found[-1] if found else -1

    def in_scope(self, name: str, bound: int) -> int:
        """The place of the last open `name` when it is in scope (no scope boundary above it,
        nor above `bound`), else -1."""
        pos = self.last(name)
        return pos if pos >= self.scopes[-1] and pos >= bound else -1

    def foreign(self) -> bool:
        return bool(self.at.get("svg") or self.at.get("math"))

    def push(self, name: str, entry: _Entry | None = None) -> None:
        pos = len(self.names)
        self.names.append(name)
        self.entries.append(entry)
        places = self.at.get(name)
        if places is None:
            self.at[name] = [pos]
        else:
            places.append(pos)
        flags = _FLAGS.get(name, _INLINE)
        if flags & _SPECIAL:
            self.special.append(pos)
            if flags & _STOP:
                self.stops.append(pos)
        if flags & _SCOPE:
            self.scopes.append(pos)
            if flags & _MARKER:
                self.active.append(None)
        if entry is not None:
            entry.pos = pos

    def pop(self) -> None:
        name = self.names.pop()
        entry = self.entries.pop()
        if not name:
            self.holes -= 1
            return
        self.at[name].pop()
        pos = len(self.names)
        if self.special[-1] == pos:
            self.special.pop()
            if self.stops[-1] == pos:
                self.stops.pop()
        if self.scopes[-1] == pos:
            self.scopes.pop()
            if name in MARKERS:  # the formatting elements up to the last marker are forgotten
                while self.active and (gone := self.active.pop()) is not None:
                    gone.listed = False
        if entry is not None:
            entry.pos = -1

    def pop_to(self, pos: int) -> None:
        while len(self.names) > pos:
            self.pop()

    def take_out(self, pos: int) -> None:
        """Take an element out of the middle of the stack (its place stays, empty)."""
        self.at[self.names[pos]].remove(pos)
        self.names[pos], self.entries[pos] = "", None
        self.holes += 1

    def end_current(self) -> list[str]:
        """End the current node, as its end tag does (a formatting element leaves the list)."""
        name, entry = self.names[-1], self.entries[-1]
        self.pop()
        if entry is not None:
            self._unlist(entry)
        return [name] if name else []

    # ---- active formatting elements ------------------------------------------------------
    def _unlist(self, entry: _Entry) -> None:
        self.active.remove(entry)
        entry.listed = False

    def _since_marker(self) -> list[_Entry]:
        """The entries after the last marker, the latest first."""
        found: list[_Entry] = []
        for entry in reversed(self.active):
            if entry is None:
                break
            found.append(entry)
        return found

    def _latest(self, name: str) -> _Entry | None:
        for entry in reversed(self.active):
            if entry is None:
                return None
            if entry.name == name:
                return entry
        return None

    def _reopen_or_drop(self, room: int) -> tuple[list[_Entry], list[str]]:
        """The entries the next text or inline tag re-opens (the closed ones after the last open
        one), or the end tags that drop them instead when they would nest deeper than `room` or
        go over MAX_REOPENED."""
        due: list[_Entry] = []
        for entry in reversed(self.active):
            if entry is None or entry.pos >= 0:
                break
            due.append(entry)
        if not due:
            return due, []
        if self.runs:  # (counted only here, where the count is read: most pages never come)
            self.starts += sum(self.document.count("</", at, end) for at, end in self.runs)
            self.runs.clear()
        budget = MAX_REOPENED + 2 * self.starts
        if self.reopened + len(due) <= budget and self.depth + len(due) <= room:
            self.reopened += len(due)
            return due, []
        for entry in due:  # "</b>" drops the latest b of the list: a closed one, here
            self._unlist(entry)
        return [], [entry.name for entry in due]

    def _reopen(self, due: list[_Entry]) -> None:
        for entry in reversed(due):
            if entry.listed:  # (the start tag of an <a> drops an earlier one)
                self.push(entry.name, entry)

    def _adopt(self, entry: _Entry) -> None:
        """A formatting element's end (the adoption agency, as far as the depth goes)."""
        self._unlist(entry)
        pos, entry.pos = entry.pos, -1
        if pos < 0:
            return
        if pos > self.special[-1]:
            self.pop_to(pos)
        else:  # a block inside it: the block moves under a copy of it, which ends in turn
            self.take_out(pos)

    def _add_entry(self, name: str, attrs: str) -> _Entry:
        key = " ".join(attrs.split())
        same = [e for e in self._since_marker() if e.name == name and e.key == key]
        if len(same) >= 3:  # the Noah's Ark clause: the earliest of three alike goes
            self._unlist(same[-1])
        entry = _Entry(name, key)
        self.active.append(entry)
        return entry

    # ---- tokens --------------------------------------------------------------------------
    def text(self) -> list[str]:
        due, dropped = self._reopen_or_drop(MAX_HTML_DEPTH)
        self._reopen(due)
        return dropped

    def start(self, name: str, attrs: str) -> list[str]:
        self.starts += 1
        flags = _FLAGS.get(name, _INLINE)
        if flags & _NEVER or (name == "form" and self.at.get("form")):
            return []  # (a form inside a form is dropped)
        void = flags & _VOID or (attrs.endswith("/") and (name in FOREIGN_ROOTS or self.foreign()))
        ended: list[str] = []
        if flags & _FORMAT:
            since = self._since_marker()
            if len(since) >= MAX_ACTIVE:
                ended.append(since[0].name)
                self._adopt(since[0])
        due: list[_Entry] = []
        if self.active and flags & _REOPENS:
            due, dropped = self._reopen_or_drop(MAX_HTML_DEPTH - (0 if void else 1))
            ended += dropped
        while not void and self.names and self.depth + len(due) >= MAX_HTML_DEPTH:
            ended += self.end_current()
        if flags & _IMPLIES:
            self._implied_ends(name)
        if due:
            self._reopen(due)
        if not void:
            self.push(name, self._add_entry(name, attrs) if flags & _FORMAT else None)
        return ended

    def _implied_ends(self, name: str) -> None:
        if name in CLOSES_P and self.at.get("p"):
            pos = self.in_scope("p", self.last("button"))
            if pos >= 0:
                self.pop_to(pos)
        if name in HEADINGS and self.names and self.names[-1] in HEADINGS:
            self.pop()
        elif name in ("li", "dd", "dt"):
            stop = self.stops[-1]
            items = ("li",) if name == "li" else ("dd", "dt")
            if stop >= 0 and self.names[stop] in items:
                self.pop_to(stop)
        elif name in TABLE_PARTS:
            self._table_ends(name)
        elif name in ("option", "optgroup"):
            if self.names and self.names[-1] == "option":
                self.pop()
            if name == "optgroup" and self.names and self.names[-1] == "optgroup":
                self.pop()
        elif name == "button":
            pos = self.in_scope("button", -1)
            if pos >= 0:
                self.pop_to(pos)
        elif name in ("a", "nobr"):
            entry = self._latest(name)
            if entry is not None:
                self._adopt(entry)

    def _table_ends(self, name: str) -> None:
        table = self.last("table")
        if table < 0:
            return
        cell = max(self.last("td"), self.last("th"), self.last("caption"))
        if name == "table":
            if table > cell:  # a table directly inside a table ends it
                self.pop_to(table)
            return
        if cell > table:
            self.pop_to(cell)
        if name not in ("td", "th") and self.last("tr") > table:
            self.pop_to(self.last("tr"))
        if name not in ("td", "th", "tr"):
            section = max(self.last(s) for s in TABLE_SECTIONS)
            if section > table:
                self.pop_to(section)

    def end(self, name: str) -> None:
        flags = _FLAGS.get(name, _INLINE)
        if flags & _FORMAT and self.active:
            entry = self._latest(name)
            if entry is not None:
                self._adopt(entry)
                return
        if name in HEADINGS:
            pos = max(self.last(h) for h in HEADINGS)
            pos = pos if pos >= self.scopes[-1] else -1
        elif not self.at.get(name) or flags & _NEVER:
            return
        elif name == "p":
            pos = self.in_scope("p", self.last("button"))
        elif name == "li":
            pos = self.in_scope("li", max(self.last("ul"), self.last("ol")))
        elif name in TABLE_PARTS:
            pos = self.last(name)
            pos = pos if pos >= max(self.last("table"), self.last("template")) else -1
        elif flags & _SPECIAL:
            pos = self.in_scope(name, -1)
        else:  # any other end tag: the latest such element, when no special one is above it
            pos = self.last(name)
            pos = pos if pos > self.special[-1] else -1
        if pos >= 0:
            self.pop_to(pos)


def bounded_nesting(text: str) -> str:
    """The HTML with end tags written where it would nest too deep (see above); the text itself
    when it never does."""
    if text.count("<") < MAX_HTML_DEPTH // 2:
        return text
    return _bounded_nesting(text)


# the start tags whose implied ends are only the closing of an open <p> (`_implied_ends`)
_CLOSE_P_ONLY = CLOSES_P - HEADINGS - TABLE_PARTS - OTHER_IMPLIED_ENDS
_P_OR_LI = _CLOSE_P_ONLY | {"li"}


@functools.lru_cache(maxsize=1)  # one page is read by several extractors in turn (`choose`)
def _bounded_nesting(text: str) -> str:
    """The loop over the tokens. The common ones are handled here as the model's methods handle
    them, on its own lists (an end tag of the current node; a start tag that nests within the
    bound, re-opens nothing and implies no end; text with nothing to re-open): one function's
    local names instead of a few method calls a token. Every other token goes to the model.
    (tests/test_html_nesting_equivalence.py checks this against the model alone.)"""
    model = _Nesting(text)
    names, entries, places = model.names, model.entries, model.at
    special, stops, scopes, active = model.special, model.stops, model.scopes, model.active
    flags_of = _FLAGS.get
    pieces: list[str] = []
    done = 0  # text[:done] is in pieces
    pos = 0

    def write(at: int, ended: list[str]) -> None:
        nonlocal done
        pieces.extend([text[done:at], *(f"</{name}>" for name in ended)])
        done = at

    fast, plain = _run_or_token().finditer, _TOKEN.finditer
    tokens, limit = fast, len(text)  # (plain up to `limit`: a run read a token at a time)
    finished = False  # the rest of the document is text (or a comment, a tag never ended)
    while not finished:  # a new search from `pos` after a comment, raw text or "<!"
        for token in tokens(text, pos, limit):
            at, end = token.span()
            if token.lastindex == 1:  # a run of closed items (see _RUN_OR_TOKEN_TEXT)
                if (
                    not active
                    and len(names) - model.holes < MAX_HTML_DEPTH - _RUN_DEPTH
                    and (
                        not (
                            places.get("p")
                            or (stops[-1] >= 0 and names[stops[-1]] == "li")
                            or (names and names[-1] in HEADINGS)
                        )
                        or _BLOCK_IN_RUN.search(text, at, end) is None
                    )
                ):
                    model.runs.append((at, end))  # its start tags, one an end tag
                    pos = end
                    continue
                tokens, limit = plain, end  # its tokens one by one, from `pos`
                break
            if at > pos and active:  # text: something to re-open when the latest entry is closed
                latest = active[-1]
                if latest is not None and latest.pos < 0 and (ended := model.text()):
                    write(pos, ended)
            end_mark, name, attrs, comment = token.groups()[-4:]
            if name is None:
                if comment:
                    close = _ABRUPT_COMMENT.match(text, at) or _COMMENT_END.search(text, at + 4)
                    if close is None:
                        finished = True  # the rest is a comment
                        break
                    pos = close.end()
                    break
                elif token.group(0) in ("<!", "<?"):
                    pos = text.find(">", at) + 1
                    finished = not pos
                else:
                    finished = True  # a tag that never ends: the rest of the document is in it
                break
            pos = end
            name = name.lower()
            flags = flags_of(name, _INLINE)
            if end_mark:
                if not names or names[-1] != name or flags & _SCOPE:
                    model.end(name)
                    continue
                entry = entries[-1]
                if active and flags & _FORMAT:  # the adoption agency, for the current node
                    if entry is None or active[-1] is not entry:
                        model.end(name)
                        continue
                    active.pop()
                    entry.listed = False
                # the current node ends (what every branch of `end` comes to for it): `pop`
                names.pop()
                entries.pop()
                places[name].pop()
                top = len(names)
                if special[-1] == top:
                    special.pop()
                    if stops[-1] == top:
                        stops.pop()
                if scopes[-1] == top:  # (not a scope boundary: a place left by one, were there any)
                    scopes.pop()
                if entry is not None:
                    entry.pos = -1
                continue
            if (
                flags & (_NEVER | _SCOPE)
                or (active and flags & (_REOPENS | _FORMAT))
                or attrs[-1:] == "/"
                or name == "form"
                or len(names) - model.holes >= MAX_HTML_DEPTH
            ):
                if ended := model.start(name, attrs):
                    write(at, ended)
            else:  # `start`, when it nests within the bound and re-opens nothing
                model.starts += 1
                # implied ends (an <a> or <nobr> ends an earlier one in the list: it is empty)
                if flags & _IMPLIES and not flags & _FORMAT:
                    if places.get("p") or name not in _P_OR_LI:
                        model._implied_ends(name)
                    elif name == "li":  # no <p> to close: the end of an open <li>, if any
                        stop = stops[-1]
                        if stop >= 0 and names[stop] == "li":
                            model.pop_to(stop)
                if not flags & _VOID:
                    top = len(names)
                    names.append(name)
                    if flags & _FORMAT:
                        entry = _Entry(name, " ".join(attrs.split()))
                        entry.pos = top
                        active.append(entry)
                        entries.append(entry)
                    else:
                        entries.append(None)
                    found = places.get(name)
                    if found is None:
                        places[name] = [top]
                    else:
                        found.append(top)
                    if flags & _SPECIAL:
                        special.append(top)
                        if flags & _STOP:
                            stops.append(top)
            if not flags & _SPECIAL:
                continue  # (raw text and plaintext elements are special)
            if name in RAW_TEXT_ELEMENTS and not model.foreign():
                close = _RAW_TEXT_ENDS[name].search(text, pos)
                finished = close is None  # (the rest is its text)
                if close is not None:
                    pos = close.start()
                break
            elif name == "plaintext":
                finished = True
                break
        else:  # no more tokens (up to the end of the run read a token at a time)
            if limit == len(text):
                break
            tokens, limit = fast, len(text)
    if not pieces:
        return text
    pieces.append(text[done:])
    return "".join(pieces)
