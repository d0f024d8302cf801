"""Line labels from the gold: every page-1 line of a training PDF labelled title / author /
affiliation / email / note / other by what of its gold file it prints.

    page_lines(pdf, url) -> [Line]                 page 1's lines, as the extractor reads them
    label_lines(lines, gold) -> [label]

A line is `email` when it prints a gold e-mail (or an address pattern), `author` or
`affiliation` by which of the gold's names or affiliations covers more of its words (an
affiliation line is a part of a gold affiliation, or holds one), `title` when it is a part of the
gold title, `note` for the footnote phrases of equal contribution, correspondence and "work done
while at", else `other`.
"""

from __future__ import annotations

from typing import Any

from extractors.papers.linefeatures import EMAIL_RE, NOTE_RE
from extractors.papers.pages import PageReader, open_pdf, quiet_pypdf
from extractors.papers.text import Line
from ingest.names import fold

MIN_PART = 4  # folded characters a line must have to be a part of a gold string
MIN_COVER = 0.5  # share of a line's words a gold string must cover


def page_lines(pdf: bytes, url: str) -> list[Line]:
    with quiet_pypdf():
        pages = PageReader(open_pdf(pdf, url), url).pages(1, layout=False)
    return [line for line in pages.lines if line.page == 1]


def _plain(line: Line) -> str:
    return fold(" ".join(c.plain for c in line.cells))


def _cover(text: str, parts: list[str]) -> float:
    """Share of the words of `text` inside one of `parts` found in it."""
    words = text.split()
    if not words:
        return 0.0
    hit = [False] * len(words)
    padded = f" {text} "
    for part in parts:
        if not part or f" {part} " not in padded:
            continue
        n = len(part.split())
        for i in range(len(words) - n + 1):
            if " ".join(words[i : i + n]) == part:
                for j in range(i, i + n):
                    hit[j] = True
    return sum(hit) / len(words)


def _inside(text: str, wholes: list[str]) -> bool:
    return len(text) >= MIN_PART and any(f" {text} " in f" {w} " for w in wholes)


def label_lines(lines: list[Line], gold: dict[str, Any]) -> list[str]:
    authors = gold["authors"]
    names = [fold(a["name"]) for a in authors]
    surnames = [n.split()[-1] for n in names if n.split()]
    affs = sorted({fold(x) for a in authors for x in a["affiliations"]}, key=len, reverse=True)
    emails = [e.lower() for a in authors for e in a.get("emails", [])]
    title = fold(gold.get("title") or "")
    out: list[str] = []
    for line in lines:
        text = _plain(line)
        raw = line.text.lower()
        if not text:
            out.append("other")
            continue
        if any(e in raw or e.split("@")[0] in raw.split() for e in emails) or (
            EMAIL_RE.search(raw) and len(out) < 60
        ):
            out.append("email")
            continue
        name_cover = _cover(text, names)
        if name_cover < MIN_COVER and len(text.split()) <= 2 and text.split()[-1:] == surnames[:1]:
            name_cover = 1.0  # a name broken over two lines
        aff_cover = 1.0 if _inside(text, affs) else _cover(text, affs)
        if name_cover >= MIN_COVER and name_cover >= aff_cover:
            out.append("author")
        elif aff_cover >= MIN_COVER:
            out.append("affiliation")
        elif title and _inside(text, [title]):
            out.append("title")
        elif NOTE_RE.search(raw):
            out.append("note")
        else:
            out.append("other")
    return out
