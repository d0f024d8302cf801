"""The author block of a paper's first page(s): names, affiliations and emails, from `Line`s.

Layouts handled (one pass over the block's lines, top to bottom):

- marker layouts: names carry superscript (or inline symbol) markers, "1", "1,2", "*", "†", "α";
  affiliation lines start with a marker, or hold several affiliations split at inline markers
  ("¹Lab X, Univ Y, ²Company" is two affiliations, split at the marker, never at commas);
  unresolved markers are looked up in the page's footnotes;
- structural layouts (no markers): a row of names owns the non-name lines under it until the next
  row of names. Several names in one cell share those lines (group blocks: "A, B, C" over a
  department); names in separate columns (NeurIPS / ACM grids) each own the lines stacked under
  their column; consecutive lines of one column form one affiliation, joined with ", ";
- ACM one-line-per-author: "NAME, Affiliation, Country" (a name, then an institution);
- emails: collected per cell as printed (with the band and column they sit in, and the
  affiliation marker they follow), then assigned by `extractors._emails.assign_emails`.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field

from extractors._emails import (
    EMAIL_HEAD_RE,
    EMAIL_RE,
    EmailGroup,
    assign_emails,
    email_text,
    expand_emails,
)
from extractors._pdf_text import Cell, Line, Segment, join_segments
from extractors._words import INSTITUTION_WORDS, words_of
from ingest.names import fold, same_person_name

# --- named patterns and word lists -------------------------------------------------------------

# Characters used as affiliation / footnote markers.
SYMBOL_MARKERS = "*∗†‡§¶‖⋄◇□■♠♣♦♥♭♮♯#⊥⊤⋆★☆✝✉⊗⊕"
GREEK_MARKERS = "αβγδεζηθικλμνξοπρστυφχψω"
MARKER_CHARS = SYMBOL_MARKERS + GREEK_MARKERS
# Pieces of a superscript run that are marker keys: numbers, single letters, symbols.
MARKER_KEY_RE = re.compile(r"\d+|[^\W\d_]|[^\w\s,;.()\[\]]")
# An inline (full-size) symbol marker inside text ("#1515" is a number, not a marker).
INLINE_MARKER_RE = re.compile(f"#(?!\\d)|[{re.escape(MARKER_CHARS.replace('#', ''))}]")
# A number glued to the capital that starts an affiliation ("1MoE Key Lab"), at the start of a
# cell or after a comma: an unraised numeric marker.
GLUED_NUMBER_RE = re.compile(r"(?:(?<=^)|(?<=[,;]\s)|(?<=[,;]))(\d{1,2})(?=[A-Z][a-z])")
# A single affiliation line whose centre lies this close (fraction of the names' span) to the
# centre of a grid of names belongs to all of them ("Microsoft Research" under four names).
SHARED_CENTRE_TOLERANCE = 0.1
SOFT_WRAP_MARGIN = 2.0  # sizes: a line ending this close to the block's right edge runs on
FOOTNOTE_AFFILIATION_WORDS = 10  # a keyed footnote of at most this many words may be a name
# A footnote's next line starts this close to its left edge (in sizes: the first line may be
# indented by its marker) and lies at most this many sizes below.
FOOTNOTE_ALIGN = 1.2
FOOTNOTE_LEADING = 1.6
SHARED_OVERLAP = 0.25  # ... or lies under at least this much of two names' columns
NAME_SEPARATOR_RE = re.compile(r"\s*(?:,|;|\band\b|&|[·•]|\s{3,})\s*")
# A name's number printed before an affiliation with a space ("1 Laboratoire ..., 2 Synchrotron"),
# at the start of a cell or after a comma: a marker only when a name carries that number.
SPACED_NUMBER_RE = re.compile(r"(?:(?<=^)|(?<=[,;]\s)|(?<=[,;]))(\d{1,2})\s+(?=[A-Z][a-z])")
# Society grades printed after names: ", Student Member, IEEE", ", Fellow, IEEE".
GRADE_RE = re.compile(
    r",?\s*\b(?:Student\s+|Senior\s+|Life\s+)?(?:Member|Fellow)\s*,\s*(?:IEEE|ACM)\b|"
    r",?\s*\b(?:Student\s+|Senior\s+|Life\s+)?(?:Member|Fellow)\s*,?\s*$"
)
LONE_SOCIETY_RE = re.compile(r"\s*,?\s*(?:IEEE|ACM)\s*,?\s*")
# A footnote marker printed as a cell of its own: "1", "a", "*", "†".
LOOSE_MARKER_RE = re.compile(rf"\d{{1,2}}|[a-z]|[{re.escape(SYMBOL_MARKERS)}]")
# Numeric markers printed at full size right after a name: "Ödeen1*", "Håstad2,3 and", "Last135"
NAME_NUMBER_RE = re.compile(r"(?<=[^\W\d_])(\d{1,3}(?:\s?,\s?\d{1,3})*)(?=[\s,;·•*†‡§&]|$)")

NAME_PARTICLES = {
    "van", "von", "der", "den", "de", "del", "della", "di", "da", "dos", "das", "du", "la", "le",
    "bin", "ibn", "al", "el", "ten", "ter", "y", "zu", "af", "st.", "las", "los", "do", "degli",
    "dello", "op", "vom",
}  # fmt: skip
# Systems whose campus follows after a comma: "University of California, Berkeley".
MULTI_CAMPUS = (
    "university of california", "university of illinois", "university of massachusetts",
    "university of texas", "university of wisconsin", "university of colorado",
    "university of maryland", "university of north carolina", "university of missouri",
)  # fmt: skip
URL_RE = re.compile(r"https?://|www\.", re.I)
# Words that never occur in a person's name (folded); they stop a text from being a name.
NOT_NAME_WORDS = set(INSTITUTION_WORDS) | {
    "abstract", "introduction", "keywords", "email", "e-mail", "corresponding", "author",
    "authors", "contribution", "equal", "of", "for", "the", "and", "in", "on", "at", "with",
    "by", "to", "usa", "china", "germany", "france", "uk", "canada", "japan", "india",
    "preprint", "proceedings", "conference", "workshop", "arxiv", "submitted", "draft",
    "dated", "received", "accepted", "published", "journal", "vol", "volume", "track",
    "paper", "work", "done", "during", "internship", "project", "lead", "contact",
}  # fmt: skip
# Footnote and note lines inside author blocks that are not affiliations.
IGNORE_RE = re.compile(
    r"equal(ly)? contribut|contributed equally|corresponding author|work (was )?done|"
    r"these authors|joint first|project lead|^\(?dated\b|^\(?received\b|^preprint\b|"
    r"^\*?\s*(email|e-mail|contact)\b|^code\b|^project page|^homepage|^under review|"
    r"^accepted\b|^published\b|^copyright|^proceedings\b|work performed|performed while|"
    r"done while|while (at|visiting)|internship|^editors?:|^orientador|^co-orientador|"
    r"^(advisor|supervisor)s?\b|\binterns? at\b|supported by|funded by|^\(?©|"
    r"(?-i:^[a-z0-9.-]+\.(com|org|net|edu|gov|io|ai)(\.[a-z]{2})?$)",
    re.I,
)
# Where a footnote's affiliation ends and a note runs on: "Google Inc., USA. Correspondence to"
FOOTNOTE_NOTE_RE = re.compile(
    r"[.;]\s+(?:correspon|proceedings\b|copyright|preprint|work\b|equal\b|under review|"
    r"code\b|e-?mail|contact\b|project\b|accepted\b|published\b|submitted\b|received\b).*$",
    re.I | re.S,
)
# Spacing accents that some TeX fonts draw before the letter ("Teˇsanovi´c" -> "Tešanović").
SPACING_ACCENTS = {
    "\u00b4": "\u0301", "`": "\u0300", "\u02c6": "\u0302", "\u02dc": "\u0303",
    "\u00a8": "\u0308", "\u02c7": "\u030c", "\u02d8": "\u0306", "\u02d9": "\u0307",
    "\u00b8": "\u0327", "\u02da": "\u030a", "\u02dd": "\u030b", "\u00af": "\u0304",
}  # fmt: skip
LIGATURES = str.maketrans(
    {"ﬀ": "ff", "ﬁ": "fi", "ﬂ": "fl", "ﬃ": "ffi", "ﬄ": "ffl", "ﬅ": "ft", "ﬆ": "st"}
)
# An accent drawn after its letter and followed by a space (some publishers' fonts):
# a vowel, its accent, a space, then a consonant (or the end): the accent is the vowel's.
_TRAILING_ACCENT_RE = re.compile(
    f"([AEIOUYaeiouy])([{''.join(SPACING_ACCENTS)}])(\\s+|$)(?=([^\\W\\daeiouyAEIOUY_])|$)"
)
_ACCENT_RE = re.compile(f"([{''.join(SPACING_ACCENTS)}])\\s?([A-Za-zıȷ])")
_JUNK_RE = re.compile(r"[()\[\]\x00-\x1f\ufffd✉]+")
_CONNECTOR_END_RE = re.compile(r"\b(and|of|for|the|&|in|at|de|du|des|der|di|la|le)$", re.I)


# --- values ------------------------------------------------------------------------------------


@dataclass
class Affiliation:
    text: str
    quote: str
    page: int
    index: int = 0  # 1-based, in order of first appearance in the block


@dataclass
class Author:
    name: str
    quote: str = ""  # the name as pypdf extracted it (before accents and spacing are cleaned)
    markers: list[str] = field(default_factory=list)
    affiliations: list[Affiliation] = field(default_factory=list)
    emails: list[str] = field(default_factory=list)
    x0: float = 0.0
    x1: float = 0.0
    page: int = 1


@dataclass
class _Piece:
    keys: list[str]
    text: str
    quote: str
    x: float = 0.0  # where it starts on the line


# --- text helpers ------------------------------------------------------------------------------


def fix_accents(text: str) -> str:
    """Merge TeX's spacing accents into the letter they belong to, then NFC."""

    def merge(m: re.Match[str]) -> str:
        letter = {"ı": "i", "ȷ": "j"}.get(m.group(2), m.group(2))
        return letter + SPACING_ACCENTS[m.group(1)]

    def after(m: re.Match[str]) -> str:  # "Universite´ Paris", "He´ le` ne": on the letter before
        joined = m.group(1) + SPACING_ACCENTS[m.group(2)]
        return joined if (m.group(4) or "").islower() else joined + m.group(3)

    text = _TRAILING_ACCENT_RE.sub(after, text.translate(LIGATURES))
    return unicodedata.normalize("NFC", _ACCENT_RE.sub(merge, text))


def clean(text: str) -> str:
    text = fix_accents(_JUNK_RE.sub(" ", text))
    return re.sub(r"\s+", " ", text).strip(" ,;:")


def institution_score(text: str) -> int:
    return sum(INSTITUTION_WORDS.get(w, 0) for w in words_of(text))


def _strongest(text: str) -> int:
    return max((INSTITUTION_WORDS.get(w, 0) for w in words_of(text)), default=0)


def is_institution(text: str) -> bool:
    return institution_score(text) >= 2


def is_name_like(text: str) -> bool:
    """Capitalised words (initials and particles allowed), no institution words, no digits."""
    text = text.strip()
    if not text or len(text) > 48 or any(ch.isdigit() for ch in text) or "@" in text:
        return False
    parts = text.replace("\u00a0", " ").split()
    if not 2 <= len(parts) <= 6:
        return False
    capitalised = 0
    for part in parts:
        bare = part.strip(".,'’-")
        if not bare:
            return False
        if part.lower() in NAME_PARTICLES:
            continue
        if fold(part) in NOT_NAME_WORDS:
            return False
        if not (bare[0].isupper() or bare[0].isdigit()):
            return False
        if not all(ch.isalpha() or ch in ".-'’" for ch in part):
            return False
        capitalised += 1
    return capitalised >= 2 or (capitalised >= 1 and len(parts) >= 2)


def is_prose(text: str) -> bool:
    words = text.split()
    if len(words) < 8 or "@" in text:
        return False
    lower = sum(1 for w in words if w[:1].islower())
    return lower / len(words) >= 0.6


def organisation_of(text: str) -> str:
    """The most institution-like comma part of an affiliation ("Duke University")."""
    parts = [p.strip() for p in text.split(",") if p.strip()]
    if not parts:
        return text
    best = max(range(len(parts)), key=lambda i: (_strongest(parts[i]), -i))
    org = parts[best]
    if (
        fold(org) in MULTI_CAMPUS
        and best + 1 < len(parts)
        and len(parts[best + 1].split()) <= 2
        and institution_score(parts[best + 1]) == 0
    ):
        org = f"{org}, {parts[best + 1]}"
    return org


def marker_keys(text: str) -> list[str]:
    return MARKER_KEY_RE.findall(text)


# --- the parser --------------------------------------------------------------------------------


class BlockParser:
    """Reads the author block's lines; `authors` holds the result after `parse`."""

    def __init__(self, known_authors: list[str] | None = None) -> None:
        self.known = known_authors or []
        self.authors: list[Author] = []
        self.keyed: dict[str, Affiliation] = {}
        self.affiliations: list[Affiliation] = []
        self.email_groups: list[EmailGroup[Author]] = []
        self._band: list[Author] = []
        self._band_closed = False
        self._last_key: str | None = None
        self._last_key_line = -10
        self._column_aff: dict[int, tuple[Affiliation, int]] = {}
        self._uses_markers = False
        self._alone = False  # the current line holds a single affiliation cell
        self._right = 0.0  # the right edge of the block's text so far
        self._soft_wrap = False  # the last affiliation line ran on to the right edge
        self._paragraph = False  # the affiliations are printed as running text
        self._row_keys: list[tuple[float, str]] = []  # (x, key) of the last keyed row
        self.footnote_emails: list[tuple[str, Author]] = []

    # -- entry point

    def parse(self, lines: list[Line], page_lines: list[Line], page_text: str) -> list[Author]:
        for number, line in enumerate(lines):
            self._line(number, line)
        self._resolve_markers(page_lines, lines)
        for aff_index, aff in enumerate(self.affiliations, start=1):
            aff.index = aff_index
        owners_of = {
            key: [a for a in self.authors if aff in a.affiliations]
            for key, aff in self.keyed.items()
        }
        assign_emails(
            self.authors,
            self.email_groups,
            self.footnote_emails,
            owners_of,
            [aff.text for aff in self.affiliations],
            page_text,
        )
        return self.authors

    # -- per line

    def _line(self, number: int, line: Line) -> None:
        kinds: list[tuple[str, Cell, object]] = []
        self._right = max([self._right, *(c.x1 for c in line.cells)])
        for cell in line.cells:
            _drop_grades(cell)
            text = cell.text
            if not text or IGNORE_RE.search(cell.plain or text) or URL_RE.search(text):
                kinds.append(("skip", cell, None))
                continue
            names_part, email_groups = self._split_email(cell)
            if names_part is None:
                kinds.append(("email", cell, email_groups))
                continue
            names = self._names(names_part)
            # a line under a keyed affiliation, without markers, continues it ("South Africa")
            running = self._last_key is not None and number - self._last_key_line <= 1
            if names is not None and not (running and not any(a.markers for a in names)):
                kinds.append(("names", cell, (names, email_groups)))
                continue
            inline = None if self.keyed else self._name_and_affiliation(names_part)
            if inline is not None:
                kinds.append(("inline", cell, inline))
                continue
            kinds.append(("aff", cell, None))
        if any(kind == "names" for kind, _, _ in kinds) and not any(
            kind == "aff" for kind, _, _ in kinds
        ):
            self._names_row(number, [(c, v) for k, c, v in kinds if k == "names"])
        self._alone = sum(1 for kind, _, _ in kinds if kind == "aff") == 1
        for kind, cell, value in kinds:
            if kind == "inline":
                assert isinstance(value, tuple)
                self._inline(cell, value)
            elif kind == "aff" or (kind == "names" and any(k == "aff" for k, _, _ in kinds)):
                self._affiliation_cell(number, cell)
            elif kind == "email":
                assert isinstance(value, list)
                self._emails(cell, value)
            elif kind == "names":
                assert isinstance(value, tuple)
                if value[1]:
                    self._emails(cell, value[1], band_only=True)

    def _split_email(self, cell: Cell) -> tuple[list[Segment] | None, list[list[str]]]:
        """(segments before any email, email groups); None for the first when all is email."""
        segs = cell.segments
        at = next((i for i, s in enumerate(segs) if "@" in s.text), None)
        if at is None:
            return segs, []
        start = at
        while (
            start > 0
            and not segs[start].text[:1].isspace()
            and not (
                segs[start - 1].text.rstrip().endswith(",")
                and "@" not in segs[start - 1].text
                and segs[start - 1].text.rstrip(",").strip().isalpha()
                and segs[start - 1].text.strip()[:1].isupper()
                and not segs[start - 1].text.strip().isupper()
            )
        ):
            start -= 1
        head = segs[:start]
        groups = expand_emails(email_text(join_segments(segs[start:])))
        head_text = join_segments(head)
        if not head_text or EMAIL_HEAD_RE.fullmatch(head_text):
            return None, expand_emails(email_text(join_segments(segs)))
        return head, groups

    # -- names

    def _tokens(
        self,
        segments: list[Segment],
        *,
        glued_numbers: bool,
        name_numbers: bool = False,
        spaced_numbers: bool = False,
    ) -> list[tuple[str, str, float]]:
        """("M", marker, x) and ("T", text, x) tokens; x where the token starts (estimated
        within a segment by its share of the characters)."""
        tokens: list[tuple[str, str, float]] = []
        for seg in segments:
            if seg.sup:
                tokens.append(("M", seg.text, seg.x))
                continue
            text = seg.text
            if name_numbers:
                text = NAME_NUMBER_RE.sub(lambda m: "\x01" + m.group(1) + "\x02", text)
            if glued_numbers:
                text = GLUED_NUMBER_RE.sub(lambda m: "\x01" + m.group(1) + "\x02", text)
            if spaced_numbers:
                text = SPACED_NUMBER_RE.sub(self._named_number, text)
            pos = 0
            step = (seg.end - seg.x) / max(len(text), 1)
            for m in re.finditer(f"\x01([\\d,\\s]+)\x02|{INLINE_MARKER_RE.pattern}", text):
                if m.start() > pos:
                    tokens.append(("T", text[pos : m.start()], seg.x + pos * step))
                tokens.append(("M", m.group(1) or m.group(0), seg.x + m.start() * step))
                pos = m.end()
            if pos < len(text):
                tokens.append(("T", text[pos:], seg.x + pos * step))
        return tokens

    def _named_number(self, m: re.Match[str]) -> str:
        """A spaced number before an affiliation, as a marker when a name carries it."""
        if any(m.group(1) in a.markers for a in self.authors):
            return "\x01" + m.group(1) + "\x02"
        return m.group(0)

    def _names(self, segments: list[Segment]) -> list[Author] | None:
        """The names of a names cell, with their markers; None when the cell is not names."""
        items: list[Author] = []
        raw: list[str] = []
        buffer = ""

        def flush() -> bool:
            nonlocal buffer
            for raw_part in NAME_SEPARATOR_RE.split(buffer):
                part = clean(raw_part)
                if not part:
                    continue
                # the end of a name broken across lines: "Lee" of "...Germain / Lee4"
                fragment = not items and _is_name_fragment(part)
                if not fragment and not self._is_name(part):
                    return False
                items.append(Author(name=part, quote=raw_part.strip(" ,;:")))
                raw.append(part)
            buffer = ""
            return True

        tokens = self._tokens(segments, glued_numbers=False, name_numbers=True)
        if len(tokens) > 1 and tokens[0][0] == "M" and tokens[1][1].strip()[:1].isupper():
            return None  # "¹ South African Astronomical Observatory": a marker leads affiliations
        for kind, text, _x in tokens:
            if kind == "T":
                buffer += text
                continue
            if not flush():
                return None
            keys = marker_keys(text)
            if items and keys:
                items[-1].markers.extend(keys)
        if not flush() or not items:
            return None
        if len(items) == 1 and len(items[0].name.split()) == 1:
            return None  # a lone word is not a names line
        x0 = segments[0].x
        x1 = max(s.end for s in segments)
        for item in items:
            item.x0, item.x1 = x0, x1
        return items

    def _is_name(self, text: str) -> bool:
        if self.known and any(same_person_name(text, k) for k in self.known):
            return True
        return is_name_like(text)

    def _name_and_affiliation(
        self, segments: list[Segment]
    ) -> tuple[list[Author], str, str] | None:
        """ACM's 'NAME, Affiliation, Country' line (or 'NAME and NAME, Affiliation') ->
        (authors, affiliation text, quote)."""
        text = "".join(s.text for s in segments if not s.sup)
        head, sep, rest = text.partition(",")
        heads = [p for p in NAME_SEPARATOR_RE.split(head) if clean(p)]
        if not sep or not heads or not all(self._is_name(clean(p)) for p in heads):
            return None
        if not rest.strip():
            return None
        rest_parts = [clean(p) for p in NAME_SEPARATOR_RE.split(rest) if clean(p)]
        if rest_parts and all(self._is_name(p) for p in rest_parts):
            return None
        fonts_differ = len({s.font for s in segments if s.text.strip() and not s.sup}) > 1
        if not (is_institution(rest) or fonts_differ):
            return None
        x0, x1 = segments[0].x, max(s.end for s in segments)
        authors = [Author(name=clean(p), quote=p.strip(" ,"), x0=x0, x1=x1) for p in heads]
        return authors, clean(rest), rest.strip(" ,")

    def _names_row(self, number: int, cells: list[tuple[Cell, object]]) -> None:
        new: list[Author] = []
        for cell, value in cells:
            assert isinstance(value, tuple)
            names = value[0]
            for author in names:
                author.page = cell.page
            new.extend(names)
        if not new:
            return
        if any(a.markers for a in new):
            self._uses_markers = True
        # a name broken across lines: "... Benjamin Charles Germain" / "Lee4, Jacob Carlson3"
        if (
            self._band
            and not self._band_closed
            and self._uses_markers
            and not self._band[-1].markers
            and new[0].markers
            and len(new[0].name.split()) == 1
            and len(cells) == 1
        ):
            last = self._band[-1]
            last.name = f"{last.name} {new[0].name}"
            last.quote = f"{last.quote} {new[0].quote}"
            last.markers = new[0].markers
            new = new[1:]
        new = [a for a in new if len(a.name.split()) > 1 or self._is_name(a.name)]
        if not new:
            return
        if self._band_closed:
            self._band = []
            self._band_closed = False
            self._column_aff = {}
        else:
            self._stack(new)
        self._band.extend(new)
        self.authors.extend(new)

    def _stack(self, new: list[Author]) -> None:
        """Names run on under names (a long list wrapped): a cell lying under exactly one of the
        band's columns joins that column, so the lines below belong to all of it."""
        columns = sorted({(a.x0, a.x1) for a in self._band})
        for span in sorted({(a.x0, a.x1) for a in new}):
            under = [c for c in columns if c[0] < span[1] and span[0] < c[1]]
            if len(under) != 1:
                continue
            merged = (min(under[0][0], span[0]), max(under[0][1], span[1]))
            for author in [*self._band, *new]:
                if (author.x0, author.x1) in (under[0], span):
                    author.x0, author.x1 = merged
            columns = [merged if c == under[0] else c for c in columns]

    def _inline(self, cell: Cell, value: tuple[list[Author], str, str]) -> None:
        authors, text, quote = value
        aff = self._new_affiliation(text, quote, cell.page)
        for author in authors:
            author.page = cell.page
            author.affiliations.append(aff)
        self.authors.extend(authors)
        self._band = list(authors)
        self._band_closed = True

    # -- affiliations

    def _new_affiliation(self, text: str, quote: str, page: int) -> Affiliation:
        for aff in self.affiliations:
            if aff.text == text:
                return aff
        aff = Affiliation(text=text, quote=quote, page=page)
        self.affiliations.append(aff)
        return aff

    def _pieces(self, cell: Cell, *, in_block: bool = False) -> list[_Piece]:
        pieces: list[_Piece] = []
        segments = _merged_plain(cell.segments) if in_block else cell.segments
        for kind, text, x in self._tokens(segments, glued_numbers=True, spaced_numbers=in_block):
            if kind == "M":
                keys = marker_keys(text)
                if not keys:
                    continue
                if pieces and not pieces[-1].text.strip():
                    pieces[-1].keys.extend(keys)
                else:
                    pieces.append(_Piece(keys=keys, text="", quote="", x=x))
            else:
                if not pieces:
                    pieces.append(_Piece(keys=[], text="", quote="", x=x))
                pieces[-1].text += text
                pieces[-1].quote += text
        return [p for p in pieces if clean(p.text) or p.keys]

    def _affiliation_cell(self, number: int, cell: Cell) -> None:
        pieces = self._pieces(cell, in_block=True)
        soft_wrap = self._soft_wrap
        # affiliations printed as a paragraph (a marker mid-line: "...Austin; 2Dept. of ...")
        # run on from a line that reaches the block's right edge into the next
        if any(p.keys for p in pieces[1:]):
            self._paragraph = True
        self._soft_wrap = self._paragraph and cell.x1 >= self._right - SOFT_WRAP_MARGIN * cell.size
        for index, piece in enumerate(pieces):
            text = piece.text.strip()
            if index + 1 < len(pieces):  # "1Lab X and 2Lab Y": the "and" belongs to neither
                text = re.sub(r"\s*\band\s*$", "", text)
            text = clean(text)
            quote = piece.quote.strip().rstrip(",;").strip()
            if not text:
                continue
            if piece.keys:
                self._uses_markers = True
                key = piece.keys[0]
                if key in self.keyed and self._last_key == key:
                    continue
                aff = Affiliation(text=text, quote=quote, page=cell.page)
                for k in piece.keys:
                    self.keyed.setdefault(k, aff)
                if self._last_key_line != number:
                    self._row_keys = []
                end = pieces[index + 1].x if index + 1 < len(pieces) else cell.x1
                self._row_keys.append(((piece.x + end) / 2, key))
                self._last_key, self._last_key_line = key, number
                continue
            if self._last_key is not None and number - self._last_key_line <= 1:
                # a wrapped keyed affiliation: the one above it when several share a row
                side_by_side = len(self._row_keys) > 1 and not self._alone
                key = self._key_above(cell) if side_by_side else self._last_key
                aff = self.keyed[key]
                aff.text = clean(f"{aff.text} {text}") if soft_wrap else _join(aff.text, text)
                aff.quote = f"{aff.quote}\n{quote}"
                self._last_key_line = number
                continue
            if self._uses_markers and self.keyed:
                continue  # stray text in a marker layout
            self._structural(number, cell, text, quote)

    def _key_above(self, cell: Cell) -> str:
        """Of the keyed affiliations side by side on the row above, the one whose centre is
        nearest the cell's."""
        return min(self._row_keys, key=lambda item: abs(item[0] - cell.center))[1]

    def _structural(self, number: int, cell: Cell, text: str, quote: str) -> None:
        band = self._band
        if not band:
            return
        self._band_closed = True
        columns = sorted({(a.x0, a.x1) for a in band})
        if len(columns) > 1 and self._alone and _shared(cell, columns):
            column, owners = -1, band  # one line centred under a grid of names: everyone's
        elif len(columns) > 1:
            column = min(
                range(len(columns)),
                key=lambda i: abs((columns[i][0] + columns[i][1]) / 2 - cell.center),
            )
            owners = [a for a in band if (a.x0, a.x1) == columns[column]]
        else:
            column, owners = 0, band
        previous = self._column_aff.get(column)
        if previous is not None and previous[1] == number - 1:
            aff = previous[0]
            aff.text = _join(aff.text, text)
            aff.quote = f"{aff.quote}\n{quote}"
            self._column_aff[column] = (aff, number)
            return
        aff = Affiliation(text=text, quote=quote, page=cell.page)
        self.affiliations.append(aff)
        for owner in owners:
            owner.affiliations.append(aff)
        self._column_aff[column] = (aff, number)

    def _resolve_markers(self, page_lines: list[Line], block: list[Line]) -> None:
        wanted = {k for a in self.authors for k in a.markers if k not in self.keyed}
        marked = {k for a in self.authors for k in a.markers}
        if marked:  # footnotes further down the page: affiliations, or one author's email
            below = [line for line in page_lines if line not in block]
            for number, line in enumerate(below):
                loose: list[str] = []  # a marker printed apart, before its footnote: "1   Dept."
                for cell in line.cells:
                    if LOOSE_MARKER_RE.fullmatch(cell.text):
                        loose = marker_keys(cell.text)
                        continue
                    pieces = self._pieces(cell)
                    if loose and pieces and not pieces[0].keys:
                        pieces[0].keys = loose
                    loose = []
                    spaced = SPACED_NUMBER_RE.match(cell.text)
                    rest = cell.text[spaced.end() :] if spaced else ""
                    if (  # "1 Department of ..." set with a space
                        spaced
                        and spaced.group(1) in wanted
                        and not any(p.keys for p in pieces)
                        and is_institution(rest)
                    ):
                        share = spaced.end() / max(len(cell.text), 1)
                        x = cell.x0 + share * (cell.x1 - cell.x0)
                        pieces = [_Piece([spaced.group(1)], rest, rest, x)]
                    if pieces and pieces[-1].keys and pieces[-1].text.rstrip().endswith(("-", ",")):
                        _run_on(pieces[-1], cell, below[number + 1 : number + 4])
                    for piece in pieces:
                        text = clean(FOOTNOTE_NOTE_RE.sub("", piece.text)).rstrip(".")
                        emails = EMAIL_RE.findall(piece.text)
                        owners = [
                            a for a in self.authors if piece.keys and piece.keys[0] in a.markers
                        ]
                        if emails and len(owners) == 1:
                            self.footnote_emails.append((emails[0].lower(), owners[0]))
                        if (
                            "@" not in text
                            and piece.keys
                            and piece.keys[0] in wanted
                            and _footnote_affiliation(text)
                            and not IGNORE_RE.search(text)
                        ):
                            quote = FOOTNOTE_NOTE_RE.sub("", piece.quote).strip()
                            aff = Affiliation(text=text, quote=quote, page=cell.page)
                            for k in piece.keys:
                                self.keyed.setdefault(k, aff)
                                wanted.discard(k)
        ordered: list[Affiliation] = []
        for author in self.authors:
            for key in author.markers:
                keyed = self.keyed.get(key)
                if keyed is not None and keyed not in author.affiliations:
                    author.affiliations.append(keyed)
        for aff in self.keyed.values():
            if aff not in ordered:
                ordered.append(aff)
        # with one printed affiliation and no markers on names, it belongs to everyone
        if len(ordered) == 1 and not any(a.markers for a in self.authors):
            for author in self.authors:
                if not author.affiliations:
                    author.affiliations.append(ordered[0])
        rest = [a for a in self.affiliations if a not in ordered]
        self.affiliations = ordered + rest

    # -- emails

    def _emails(self, cell: Cell, groups: list[list[str]], *, band_only: bool = False) -> None:
        band = list(self._band)
        columns = sorted({(a.x0, a.x1) for a in band})
        after = None if band_only else self._last_key
        text = cell.text.lower()
        for group in groups:
            column: list[Author] = []
            if len(columns) > 1:
                # where the group sits in the cell, scaled to the cell's estimated width
                at = max(text.find(group[0].split("@")[0]), 0)
                x = cell.x0 + (cell.x1 - cell.x0) * (at + len(group[0]) / 2) / max(len(text), 1)
                x0, x1 = min(columns, key=lambda c: abs((c[0] + c[1]) / 2 - x))
                column = [a for a in band if (a.x0, a.x1) == (x0, x1)]
            self.email_groups.append(EmailGroup(group, band, column, after))


def _footnote_affiliation(text: str) -> bool:
    """A keyed footnote that reads as an affiliation: institution words, or a short
    capitalised phrase ("UC Berkeley", "Mila"), not a sentence or a link."""
    words = text.split()
    if is_institution(text):
        return True
    return (
        0 < len(words) <= FOOTNOTE_AFFILIATION_WORDS
        and text[:1].isupper()
        and not is_prose(text)
        and not URL_RE.search(text)
        and sum(1 for w in words if w[:1].islower()) <= len(words) // 3
    )


def _drop_grades(cell: Cell) -> None:
    """Society grades after names ("Qiang Yang, Fellow, IEEE") removed from the cell's text."""
    if not GRADE_RE.search(cell.text):
        return
    for seg in cell.segments:
        seg.text = GRADE_RE.sub("", seg.text)
        if LONE_SOCIETY_RE.fullmatch(seg.text):
            seg.text = ""
    cell.segments = [s for s in cell.segments if s.text] or cell.segments


def _merged_plain(segments: list[Segment]) -> list[Segment]:
    """Neighbouring full-size segments as one (a bold "1" and its affiliation), so that a
    number printed before an affiliation is seen with the text it introduces."""
    out: list[Segment] = []
    for seg in segments:
        if out and not seg.sup and not out[-1].sup and not seg.column_start:
            last = out[-1]
            out[-1] = Segment(last.text + seg.text, False, last.x, last.size, last.font)
        else:
            out.append(seg)
    return out


def _run_on(piece: _Piece, cell: Cell, following: list[Line]) -> None:
    """A footnote affiliation that wraps ("Shanghai Jiao Tong Univer-" / "sity. Corresp...")
    takes the start of the next line printed at the same left edge."""
    for line in following:
        size = max(cell.size, line.size)
        if line.page != cell.page or cell.y - line.y > FOOTNOTE_LEADING * size:
            return
        for other in line.cells:
            left = piece.x or cell.x0  # where the footnote's text starts, after its marker
            if min(abs(other.x0 - left), abs(other.x0 - cell.x0)) > FOOTNOTE_ALIGN * size:
                continue
            if not other.text:
                continue
            first = other.text.split("  ")[0]
            if piece.text.rstrip().endswith("-") and first[:1].islower():
                piece.text = piece.text.rstrip()[:-1] + first
            else:
                piece.text = f"{piece.text.rstrip()} {first}"
            piece.quote = f"{piece.quote}\n{first}"
            return


def _shared(cell: Cell, columns: list[tuple[float, float]]) -> bool:
    """The cell sits centred under the columns' span, or straddles two or more of them."""
    left, right = columns[0][0], max(c[1] for c in columns)
    if abs(cell.center - (left + right) / 2) <= SHARED_CENTRE_TOLERANCE * (right - left):
        return True
    under = [
        c
        for c in columns
        if min(c[1], cell.x1) - max(c[0], cell.x0) >= SHARED_OVERLAP * (c[1] - c[0])
    ]
    return len(under) >= 2


def _is_name_fragment(text: str) -> bool:
    return (
        len(text.split()) == 1
        and text[:1].isupper()
        and all(ch.isalpha() or ch in "-'’" for ch in text)
        and fold(text) not in NOT_NAME_WORDS
    )


def _join(first: str, second: str) -> str:
    """A wrapped affiliation's lines: a phrase that runs on (a line ending in a connector or
    punctuation, or a next line starting in lower case) joins with a space, else ", "."""
    if first.endswith("-") and second[:1].islower():
        return clean(first[:-1] + second)
    if first.endswith((",", ";")) or _CONNECTOR_END_RE.search(first) or second[:1].islower():
        return clean(f"{first} {second}")
    return clean(f"{first}, {second}")
