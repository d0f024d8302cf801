"""arXiv paper PDFs -> `author_of` and `affiliation` claims.

For each author found on the page, in order: an `author_of` claim (object the work, qualifiers
title, published and position; quote the name as printed), then one `affiliation` claim per
printed affiliation.

Reads the first page (and the second only when the author block runs on), with pypdf's
positioned text runs (`extract_text(visitor_text=...)`: position, size and font of each run), so
superscript markers are told apart by size and rise, and side-by-side author columns by their
x positions. Pages, title and block are found by `extractors.papers.pages`; the block between the
title and the abstract is parsed by `extractors.papers.author_block.BlockParser` (layouts listed
there), its markers resolved in footnotes (`extractors.papers.footnotes`) and "... are with ..."
sentences (`extractors.papers.notes`); the margin stamp "arXiv:2103.15348v2 [cs.CV] 21 Jun 2021"
gives the work and its date.

    parse_paper(pdf_bytes, known_authors=None) -> ParsedPaper      (pure; raises PdfReadFailure)

The line model (`extractors.papers.linemodel`, read by `extractors.papers.learned`) reads when the
template rules find no names, and in their place when it backs their names weakly and reads more
itself; either way a page with a byline gives its authors, "affiliations not found" when none
are printed.
    extract(snapshot) -> list[Claim]
    extract_with_metadata(snapshot, authors=[...], work="arXiv:...", date="YYYY-MM-DD")

With `known_authors` (arXiv metadata), those spellings are the names and the PDF gives the
affiliations and emails: printed names are matched to them ignoring case and accents, so an
ALL-CAPS header ("MARTI A. HEARST") still finds "Marti A. Hearst".

Failures raise ExtractionError subclasses naming the URL and the cause: non-PDF bytes
(UnsupportedFormatError), corrupt or truncated files, encrypted files that an empty password does
not open, pages without a text layer (scanned), pages without an author block, and oversized
content streams. pypdf's log messages are captured, never printed.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from extractors.papers.author_block import BlockParser
from extractors.papers.lastpages import attach_later, attach_notes, unresolved
from extractors.papers.learned import Labelled, affiliation_score, read_header, support
from extractors.papers.linemodel import LineModel
from extractors.papers.names import semicolon_byline
from extractors.papers.notes import attach_are_with, attach_parenthesised
from extractors.papers.pages import (
    PDF_MAGIC,
    PageReader,
    Pages,
    PdfReadFailure,
    glued_row,
    open_pdf,
    quiet_pypdf,
)
from extractors.papers.patterns import clean, fix_accents, organisation_of, tidy_affiliation
from extractors.papers.sidebar import without_sidebar
from extractors.papers.text import Line
from extractors.papers.values import Author
from ingest.models import Claim, Evidence, Snapshot, Subject
from ingest.names import fold, same_person_name

NAME = "arxiv_pdf"
# 4: the learned header reader of issue 26 (fallback reader, confidences); 5: Viterbi line
# labels, the model's reading over weakly backed rules, "are with" footnotes for it, affiliations
# without trailing e-mails and with their spaces back, trailing affiliation markers, run-on
# numbered footnotes split, author notes of the last pages
VERSION = 5

# https://arxiv.org/pdf/2103.15348v2, /pdf/2103.15348.pdf, /pdf/cond-mat/0601001v1
ARXIV_PDF_URL_RE = re.compile(
    r"^https?://(?:www\.|export\.)?arxiv\.org/pdf/"
    r"(?P<id>\d{4}\.\d{4,5}|[a-z][a-z.-]*/\d{7})(?P<version>v\d+)?(?:\.pdf)?/?(?:[?#].*)?$",
    re.I,
)
DOI_RE = re.compile(
    r"\b(?:doi\.org/|doi:\s*|DOI:?\s*|Digital Object Identifier(?: no\.)?\s*)"
    r"(10\.\d{4,9}/[^\s\"<>]+[^\s\"<>.,;])",
    re.I,
)
MAX_PAGES_READ = 2
# The rules' names the line model backs less than this (mean P(author) of their lines): the
# learned reader's reading is taken instead when it finds more names, better backed.
LOW_SUPPORT = 0.3


@dataclass
class AffiliationLine:
    text: str  # the whole printed affiliation, its lines joined with ", "
    organisation: str  # the institution: the most institution-like comma part
    locator: str  # "page 1, author block, affiliation 2"
    quote: str  # verbatim text as pypdf extracted it
    confidence: float = 0.5  # calibrated on the cross-validation (extractors.papers.linemodel)


@dataclass
class ParsedAuthor:
    name: str
    affiliations: list[AffiliationLine] = field(default_factory=list)
    emails: list[str] = field(default_factory=list)
    quote: str | None = None  # the name verbatim as extracted; None when not found on the page
    locator: str | None = None  # "page 1, author block, author 3"


@dataclass
class ParsedPaper:
    title: str | None
    arxiv_id: str | None  # with its version, from the stamp: "2103.15348v2"
    date: str | None  # ISO date of the stamp
    authors: list[ParsedAuthor] = field(default_factory=list)
    doi: str | None = None
    reader: str = "rules"  # "rules" (template rules) or "model" (the learned header reader)

    @property
    def affiliations_found(self) -> bool:
        return any(a.affiliations for a in self.authors)


def matches(url: str, snapshot: Snapshot | None) -> bool:
    if ARXIV_PDF_URL_RE.match(url or ""):
        return True
    return snapshot is not None and snapshot.body.lstrip()[:4] == PDF_MAGIC


def _authors(pages: Pages, known_authors: list[str] | None) -> list[Author]:
    text = "\n".join(pages.texts)
    in_block = {id(line) for line in pages.block}
    outside = [line for line in pages.lines if id(line) not in in_block]  # footnotes, notes
    found = semicolon_byline(pages.block, known_authors)
    if found:
        return found
    found = BlockParser(known_authors).parse(pages.block, outside, text)
    trimmed = without_sidebar(pages.block, found)
    if trimmed is not None:  # a margin column beside the block (correspondence, funding)
        pages.block = trimmed
        found = BlockParser(known_authors).parse(pages.block, outside, text)
    attach_are_with(found, outside)
    attach_parenthesised(found, outside)
    return found


def parse_paper(
    pdf: bytes,
    *,
    known_authors: list[str] | None = None,
    max_pages: int = 2,
    url: str = "<pdf>",
    model: LineModel | None = None,
    reader_choice: str = "auto",
) -> ParsedPaper:
    """Title, stamp and authors (with affiliations and emails) of an arXiv paper's PDF.
    `model`: the line model (default: the shipped one). It labels page 1's lines (Viterbi over
    its per-line probabilities), reads the header when the rules find nothing, overrules the
    rules when it backs their names weakly (mean P(author) of their lines < LOW_SUPPORT) and
    itself reads more names, and scores every affiliation's confidence. `reader_choice`:
    "auto" (that), "rules" (never overruled) or "model" (the learned reader only; diagnostics)."""
    model = model or LineModel.shipped()
    reader_kind = "rules"
    with quiet_pypdf():
        reader = PageReader(open_pdf(pdf, url), url)
        pages = reader.pages(max_pages, layout=False)
        if glued_row(pages.block):
            pages = reader.pages(max_pages, layout=True)
        found = _authors(pages, known_authors)
        if not found and not pages.layout:  # nothing read: try again with the columns cut
            pages = reader.pages(max_pages, layout=True)
            found = _authors(pages, known_authors)
        if not found and pages.title:  # a journal's masthead taken for the title: the next one
            retry = reader.pages(max_pages, layout=pages.layout, after=pages.start)
            if retry.title:
                pages, found = retry, _authors(retry, known_authors)
        first = [line for line in pages.lines if line.page == 1]
        labelled = model.label(first)
        if (
            reader_choice == "model"
            or not found
            or not _finish(found, known_authors, "\n".join(pages.texts))
        ):
            found, reader_kind = _model_reading(pages, first, labelled, known_authors), "model"
        elif reader_choice == "auto" and support(found, first, labelled) < LOW_SUPPORT:
            alt = _model_reading(pages, first, labelled, known_authors)
            if len(alt) > len(found):
                found, reader_kind = alt, "model"
        if unresolved(found) and len(reader.reader.pages) > 1:  # a list on a later page
            attach_later(found, reader)
        if found and not any(a.affiliations for a in found) and len(reader.reader.pages) > 1:
            attach_notes(found, reader)  # author notes printed at the end
    text = "\n".join(pages.texts)
    authors = _finish(found, known_authors, text)
    for author in authors:
        for aff in author.affiliations:
            aff.confidence = model.confidence(affiliation_score(aff.text, first, labelled))
    if not authors:
        raise PdfReadFailure(url, "no author block found on page 1")
    doi_match = DOI_RE.search(pages.texts[0])
    return ParsedPaper(
        title=pages.title,
        arxiv_id=pages.arxiv_id,
        date=pages.date,
        authors=authors,
        doi=doi_match.group(1) if doi_match else None,
        reader=reader_kind,
    )


def _model_reading(
    pages: Pages, first: list[Line], labelled: Labelled, known: list[str] | None
) -> list[Author]:
    """The learned reader's authors, with the footnotes' "... are with ..." affiliations."""
    found = read_header(first, labelled, known)
    attach_are_with(found, pages.lines)
    attach_parenthesised(found, pages.lines)
    return found


def _display_name(name: str, page_text: str) -> str:
    """An ALL-CAPS name in its mixed-case spelling from elsewhere on the page, if printed."""
    name = clean(name)
    if not name.isupper():
        return name
    pattern = r"\s+".join(re.escape(p) for p in name.split())
    for m in re.finditer(pattern, page_text, re.I):
        if not m.group(0).isupper():
            return re.sub(r"\s+", " ", m.group(0))
    return name.title()


def _verbatim(quote: str, page_text: str) -> str | None:
    """`quote` as it stands in the page text: itself, or with the page's own line breaks and
    spacing between its words (a name drawn in several runs); None when it is not there."""
    if quote and quote in page_text:
        return quote
    words = quote.split()
    if not words:
        return None
    m = re.search(r"\s*".join(re.escape(w) for w in words), page_text)
    return m.group(0) if m else None


def _finish(found: list[Author], known: list[str] | None, page_text: str) -> list[ParsedAuthor]:
    order = {id(a): i for i, a in enumerate(found, start=1)}

    def convert(author: Author, name: str) -> ParsedAuthor:
        return ParsedAuthor(
            name=name,
            quote=_verbatim(author.quote or author.name, page_text),
            locator=f"page {author.page}, author block, author {order[id(author)]}",
            affiliations=[
                AffiliationLine(
                    text=tidy_affiliation(fix_accents(aff.text)),
                    organisation=organisation_of(tidy_affiliation(fix_accents(aff.text))),
                    locator=f"page {aff.page}, author block, affiliation {aff.index}",
                    quote=aff.quote,
                )
                for aff in author.affiliations
            ],
            emails=list(author.emails),
        )

    if not known:
        return [convert(a, _display_name(a.name, page_text)) for a in found]
    result: list[ParsedAuthor] = []
    used: set[int] = set()
    for name in known:
        match = next(
            (
                i
                for i, a in enumerate(found)
                if i not in used and (fold(a.name) == fold(name) or same_person_name(a.name, name))
            ),
            None,
        )
        if match is None:
            result.append(ParsedAuthor(name=name))
        else:
            used.add(match)
            result.append(convert(found[match], name))
    if not used:
        return []
    return result


# --- claims ------------------------------------------------------------------------------------


def _work(paper: ParsedPaper, url: str) -> str:
    if paper.arxiv_id:
        return "arXiv:" + re.sub(r"v\d+$", "", paper.arxiv_id)
    m = ARXIV_PDF_URL_RE.match(url or "")
    if m:
        return "arXiv:" + m.group("id")
    if paper.doi:
        return "doi:" + paper.doi
    return url


def _claims(paper: ParsedPaper, snapshot: Snapshot, work: str, date: str | None) -> list[Claim]:
    claims: list[Claim] = []
    tag = f"{NAME}/{VERSION}"
    for position, author in enumerate(paper.authors, start=1):
        email = author.emails[0] if author.emails else None
        subject = Subject(name=author.name, email=email)
        if author.quote and author.locator:
            work_qualifiers: dict[str, object] = {}
            if paper.title:
                work_qualifiers["title"] = paper.title
            if date:
                work_qualifiers["published"] = date
            work_qualifiers["position"] = position
            claims.append(
                Claim(
                    subject=subject,
                    predicate="author_of",
                    object=work,
                    qualifiers=work_qualifiers,
                    evidence=Evidence(
                        url=snapshot.url,
                        sha256=snapshot.sha256,
                        locator=author.locator,
                        quote=author.quote,
                    ),
                    extractor=tag,
                )
            )
        for aff in author.affiliations:
            qualifiers: dict[str, object] = {"work": work}
            if date:
                qualifiers["date"] = date
            qualifiers["affiliation_text"] = aff.text
            qualifiers["position"] = position
            qualifiers["confidence"] = aff.confidence
            claims.append(
                Claim(
                    subject=subject,
                    predicate="affiliation",
                    object=aff.organisation,
                    qualifiers=qualifiers,
                    evidence=Evidence(
                        url=snapshot.url,
                        sha256=snapshot.sha256,
                        locator=aff.locator,
                        quote=aff.quote,
                    ),
                    extractor=tag,
                )
            )
    return claims


def extract(snapshot: Snapshot) -> list[Claim]:
    paper = parse_paper(snapshot.body, url=snapshot.url)
    return _claims(paper, snapshot, _work(paper, snapshot.url), paper.date)


def extract_with_metadata(
    snapshot: Snapshot, *, authors: list[str], work: str, date: str | None
) -> list[Claim]:
    """Claims with the metadata's author names, work id and date; affiliations from the PDF."""
    paper = parse_paper(snapshot.body, known_authors=authors, url=snapshot.url)
    return _claims(paper, snapshot, work, date or paper.date)
