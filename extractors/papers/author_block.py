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
  affiliation marker they follow), then assigned by `extractors.papers.emails.assign_emails`.
"""

from __future__ import annotations

import re

from extractors.papers.cells import (
    drop_grades,
    ends_with_country,
    join_wrapped,
    merged_plain,
    shared_by_grid,
)
from extractors.papers.emails import (
    EmailGroup,
    assign_emails,
    split_email,
)
from extractors.papers.markers import resolve_markers
from extractors.papers.names import (
    is_name,
    name_and_affiliation,
    read_names,
    tokens_of,
)
from extractors.papers.patterns import (
    IGNORE_RE,
    URL_RE,
    clean,
    marker_keys,
)
from extractors.papers.text import Cell, Line, Segment
from extractors.papers.values import Affiliation, Author, Piece

SOFT_WRAP_MARGIN = 2.0  # sizes: a line ending this close to the block's right edge runs on


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
            drop_grades(cell)
            text = cell.text
            if not text or IGNORE_RE.search(cell.plain or text) or URL_RE.search(text):
                kinds.append(("skip", cell, None))
                continue
            names_part, email_groups = split_email(cell)
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

    # -- names

    def _tokens(
        self,
        segments: list[Segment],
        *,
        glued_numbers: bool,
        name_numbers: bool = False,
        spaced_numbers: bool = False,
    ) -> list[tuple[str, str, float]]:
        named = {k for a in self.authors for k in a.markers} if spaced_numbers else set()
        return tokens_of(
            segments,
            glued_numbers=glued_numbers,
            name_numbers=name_numbers,
            spaced_numbers=spaced_numbers,
            named=named,
        )

    def _names(self, segments: list[Segment]) -> list[Author] | None:
        return read_names(segments, self.known)

    def _is_name(self, text: str) -> bool:
        return is_name(text, self.known)

    def _name_and_affiliation(
        self, segments: list[Segment]
    ) -> tuple[list[Author], str, str] | None:
        return name_and_affiliation(segments, self.known)

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
        # a surname hyphenated across lines: "... Mario Guajardo-" / "Céspedes, Steve Yuan"
        elif (
            self._band
            and not self._band_closed
            and self._band[-1].name.endswith("-")
            and len(new[0].name.split()) == 1
        ):
            last = self._band[-1]
            last.name = f"{last.name}{new[0].name}"
            last.quote = f"{last.quote}\n{new[0].quote}"
            last.markers += new[0].markers
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

    def _pieces(self, cell: Cell, *, in_block: bool = False) -> list[Piece]:
        pieces: list[Piece] = []
        segments = merged_plain(cell.segments) if in_block else cell.segments
        for kind, text, x in self._tokens(segments, glued_numbers=True, spaced_numbers=in_block):
            if kind == "M":
                keys = marker_keys(text)
                if not keys:
                    continue
                if pieces and not pieces[-1].text.strip():
                    pieces[-1].keys.extend(keys)
                else:
                    pieces.append(Piece(keys=keys, text="", quote="", x=x))
            else:
                if not pieces:
                    pieces.append(Piece(keys=[], text="", quote="", x=x))
                pieces[-1].text += text
                pieces[-1].quote += text
        return [p for p in pieces if clean(p.text) or p.keys]

    def _affiliation_cell(self, number: int, cell: Cell) -> None:
        pieces = _trailing_keys(self._pieces(cell, in_block=True))
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
                aff.text = (
                    clean(f"{aff.text} {text}") if soft_wrap else join_wrapped(aff.text, text)
                )
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
        if len(columns) > 1 and self._alone and shared_by_grid(cell, columns):
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
        complete = previous is not None and ends_with_country(previous[0].text)
        if (
            previous is not None
            and previous[1] == number - 1
            and not (
                complete and text[:1].isupper()  # an address ended: the next line is another
            )
        ):
            aff = previous[0]
            aff.text = join_wrapped(aff.text, text)
            aff.quote = f"{aff.quote}\n{quote}"
            self._column_aff[column] = (aff, number)
            return
        aff = Affiliation(text=text, quote=quote, page=cell.page)
        self.affiliations.append(aff)
        for owner in owners:
            owner.affiliations.append(aff)
        self._column_aff[column] = (aff, number)

    def _resolve_markers(self, page_lines: list[Line], block: list[Line]) -> None:
        self.affiliations, found = resolve_markers(
            self.authors, self.keyed, self.affiliations, page_lines, block, self._pieces
        )
        self.footnote_emails += found

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


def _trailing_keys(pieces: list[Piece]) -> list[Piece]:
    """An affiliation whose marker follows it ("Mozilla Corporation∗", PLDI's block) keyed by
    that marker, as if printed before it."""
    if len(pieces) == 2 and not pieces[0].keys and pieces[1].keys and not clean(pieces[1].text):
        head, tail = pieces
        return [Piece(keys=tail.keys, text=head.text, quote=head.quote, x=head.x)]
    return pieces
