"""arxiv_pdf: real PDFs against their gold labels, constructed layouts, claims, and faults."""

from __future__ import annotations

import importlib.util
import io
import json
import sys
import time
from pathlib import Path
from types import ModuleType

import pytest
from pypdf import PdfReader, PdfWriter

from extractors import choose
from extractors.papers import pdf as arxiv_pdf
from extractors.papers.emails import expand_emails
from extractors.papers.patterns import organisation_of
from extractors.papers.pdf import PdfReadFailure, extract, extract_with_metadata, parse_paper
from ingest.errors import ExtractionError, UnsupportedFormatError
from ingest.models import Snapshot
from ingest.names import fold

ROOT = Path(__file__).resolve().parent.parent
ARXIV = ROOT / "fixtures" / "arxiv"
PDF, GOLD, CONSTRUCTED = ARXIV / "pdf", ARXIV / "gold", ARXIV / "constructed"


def _load(name: str, path: Path) -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault(name, module)
    spec.loader.exec_module(module)
    return module


pdfgen = _load("pdfgen", ARXIV / "pdfgen.py")
T = pdfgen.TextItem


def gold_cases(folder: Path) -> list[tuple[Path, dict[str, object]]]:
    cases = []
    for path in sorted(folder.glob("*.json")):
        gold = json.loads(path.read_text("utf-8"))
        pdf = (PDF if folder == GOLD else folder) / gold["file"]
        cases.append((pdf, gold))
    return cases


def paper(name: str, folder: Path = PDF, **kw: object) -> arxiv_pdf.ParsedPaper:
    return parse_paper((folder / name).read_bytes(), **kw)  # type: ignore[arg-type]


def snap(body: bytes, url: str = "https://arxiv.org/pdf/2401.00001v1") -> Snapshot:
    return Snapshot(url=url, body=body)


# --- every gold file, both modes -----------------------------------------------------------------


@pytest.mark.parametrize("metadata", [False, True], ids=["pdf-names", "metadata-names"])
@pytest.mark.parametrize(
    ("pdf", "gold"),
    gold_cases(GOLD) + gold_cases(CONSTRUCTED),
    ids=lambda v: v.name if isinstance(v, Path) else "",
)
def test_matches_gold(pdf: Path, gold: dict, metadata: bool) -> None:  # type: ignore[type-arg]
    names = [a["name"] for a in gold["authors"]]
    parsed = parse_paper(pdf.read_bytes(), known_authors=names if metadata else None)
    assert [fold(a.name) for a in parsed.authors] == [fold(n.replace("’", "'")) for n in names]
    for got, want in zip(parsed.authors, gold["authors"], strict=True):
        assert [a.text for a in got.affiliations] == want["affiliations"], got.name
        assert got.emails == want["emails"], got.name
    assert parsed.arxiv_id == gold["arxiv_id"]
    assert parsed.title == gold["title"]


# --- spot checks on the real files ---------------------------------------------------------------


def test_revtex_numbered_superscripts_and_tex_accents() -> None:
    p = paper("1111.2011v2.pdf")
    assert [a.name for a in p.authors] == [
        "James M. Murray",
        "Adrian Del Maestro",
        "Zlatko Tešanović",
    ]
    assert len(p.authors[1].affiliations) == 2
    assert p.authors[1].affiliations[1].organisation == "University of Vermont"
    assert p.authors[0].affiliations[0].organisation == "Johns Hopkins University"
    assert (p.arxiv_id, p.date) == ("1111.2011v2", "2012-04-02")


def test_inline_markers_split_one_line_into_two_affiliations() -> None:
    p = paper("2203.06947.pdf")
    gu = p.authors[0]
    assert [a.text for a in gu.affiliations] == [
        "MoE Key Lab of Artificial Intelligence, Shanghai Jiao Tong University",
        "Ant Group",
    ]
    assert [a.organisation for a in gu.affiliations] == [
        "Shanghai Jiao Tong University",
        "Ant Group",
    ]
    assert p.arxiv_id is None and p.date is None


def test_acm_all_caps_lines_and_footnote_emails() -> None:
    p = paper("2203.00130v1.pdf")
    hearst = p.authors[3]
    assert hearst.name == "Marti A. Hearst"  # the mixed-case spelling printed in the footnote
    assert hearst.affiliations[0].text == "University of California, Berkeley, USA"
    assert hearst.affiliations[0].organisation == "University of California, Berkeley"
    assert p.authors[4].emails == ["head@seas.upenn.edu"]  # broken across a line in the PDF


def test_symbol_markers_and_two_brace_groups_by_domain() -> None:
    p = paper("2304.02623v1.pdf")
    downey = p.authors[6]
    assert [a.text for a in downey.affiliations] == [
        "Allen Institute for AI",
        "Northwestern University",
    ]
    assert p.authors[8].emails == ["dsontag@mit.edu"]
    assert p.authors[1].emails == ["tala@allenai.org"]


def test_group_blocks_and_small_caps_email_lists() -> None:
    p = paper("futoma2017improved-mlhc2017.pdf")
    assert p.authors[3].name == "Mark Sendak"
    assert p.authors[3].emails == ["mpd10@duke.edu"]
    assert (
        p.authors[3].affiliations[0].text
        == "Institute for Health Innovation, Duke University, Durham, NC"
    )
    assert p.authors[3].affiliations[0].organisation == "Duke University"


def test_lncs_broken_name_and_emails_per_affiliation() -> None:
    p = paper("2103.15348v2-first2pages.layout-parser-paper-fast.pdf")
    assert p.authors[3].name == "Benjamin Charles Germain Lee"
    assert p.authors[4].emails == ["jacob_carlson@fas.harvard.edu"]


# --- constructed layouts -------------------------------------------------------------------------


def test_neurips_grid_unknown_companies_by_position() -> None:
    p = paper("constructed-neurips-grid.pdf", CONSTRUCTED)
    assert p.authors[3].affiliations[0].text == "Quantfold"
    assert p.authors[0].affiliations[0].organisation == "Northbridge University"
    assert p.authors[4].name == "Emil van der Berg"


def test_greek_markers_and_equal_contribution_ignored() -> None:
    p = paper("constructed-greek-markers.pdf", CONSTRUCTED)
    assert [len(a.affiliations) for a in p.authors] == [1, 1, 2]
    assert all("Equal" not in aff.text for a in p.authors for aff in a.affiliations)


def test_two_page_author_block() -> None:
    p = paper("constructed-two-page-block.pdf", CONSTRUCTED)
    assert p.authors[1].affiliations[0].locator == "page 2, author block, affiliation 2"
    assert (
        paper("constructed-two-page-block.pdf", CONSTRUCTED, max_pages=1).authors[1].affiliations
        == []
    )


def test_metadata_names_match_all_caps_header() -> None:
    names = ["María José Álvarez", "Tomasz Kowalczyk", "Wei Zhang"]
    p = paper("constructed-two-affiliations.pdf", CONSTRUCTED, known_authors=names)
    assert [a.name for a in p.authors] == names
    p = paper("2203.00130v1.pdf", known_authors=["Tal August", "Lucy Lu Wang"])
    assert [a.name for a in p.authors] == ["Tal August", "Lucy Lu Wang"]
    assert (
        p.authors[1].affiliations[0].organisation == "Allen Institute for Artificial Intelligence"
    )


# --- helpers -------------------------------------------------------------------------------------


def test_brace_groups_and_shared_domain_lists_expand_in_order() -> None:
    assert expand_emails("{a,b.c}@x.org, d@y.com") == [["a@x.org", "b.c@x.org"], ["d@y.com"]]
    assert expand_emails("JDF38,SH360,KH204@DUKE.EDU") == [
        ["jdf38@duke.edu", "sh360@duke.edu", "kh204@duke.edu"]
    ]
    assert expand_emails("{ann, bob} @ z.io") == []  # not an address once spaced out
    assert expand_emails("Email: x@y.io") == [["x@y.io"]]


def test_organisation_is_the_institution_part() -> None:
    assert (
        organisation_of("Department of Statistical Science, Duke University, Durham, NC")
        == "Duke University"
    )
    assert organisation_of("Allen Institute for AI") == "Allen Institute for AI"
    assert organisation_of("Ant Group") == "Ant Group"


# --- claims --------------------------------------------------------------------------------------


def test_claims_format_and_verbatim_quotes() -> None:
    body = (PDF / "2103.15348v2-first2pages.layout-parser-paper-fast.pdf").read_bytes()
    s = snap(body, "https://arxiv.org/pdf/2103.15348v2")
    claims = extract(s)
    assert len(claims) == 6 + 6  # six authors: an author_of and one affiliation each
    assert [c.predicate for c in claims[:4]] == ["author_of", "affiliation"] * 2
    authored = claims[0].to_json()
    assert authored["subject"] == {"name": "Zejiang Shen", "email": "shannons@allenai.org"}
    assert authored["predicate"] == "author_of" and authored["object"] == "arXiv:2103.15348"
    assert authored["qualifiers"] == {
        "title": "LayoutParser: A Unified Toolkit for Deep Learning Based Document Image Analysis",
        "published": "2021-06-21",
        "position": 1,
    }
    assert authored["evidence"]["locator"] == "page 1, author block, author 1"
    assert authored["evidence"]["quote"] == "Zejiang Shen"
    assert authored["extractor"] == "arxiv_pdf/5"
    first = claims[1].to_json()
    assert first["subject"] == {"name": "Zejiang Shen", "email": "shannons@allenai.org"}
    assert first["predicate"] == "affiliation" and first["object"] == "Allen Institute for AI"
    confidence = first["qualifiers"].pop("confidence")
    assert isinstance(confidence, float) and 0.5 < confidence <= 1.0  # a clear affiliation line
    assert first["qualifiers"] == {
        "work": "arXiv:2103.15348",
        "date": "2021-06-21",
        "affiliation_text": "Allen Institute for AI",
        "position": 1,
    }
    assert first["evidence"]["locator"] == "page 1, author block, affiliation 1"
    assert first["evidence"]["sha256"] == s.sha256
    assert first["extractor"] == "arxiv_pdf/5"
    lee = [c for c in claims if c.predicate == "author_of"][3]
    assert lee.subject.name == "Benjamin Charles Germain Lee"  # broken across two lines
    assert lee.qualifiers["position"] == 4
    for path in [*PDF.glob("*.pdf"), *CONSTRUCTED.glob("*.pdf")]:
        reader = PdfReader(path)
        text = "".join(reader.pages[i].extract_text() for i in range(min(2, len(reader.pages))))
        claims = extract(snap(path.read_bytes()))
        authors = [c for c in claims if c.predicate == "author_of"]
        assert authors and [c.qualifiers["position"] for c in authors] == list(
            range(1, len(authors) + 1)
        )
        for claim in claims:
            if claim.predicate == "author_of":
                assert claim.evidence.quote in text, (path.name, claim.evidence.quote)
                continue
            for line in claim.evidence.quote.split("\n"):
                assert line in text, (path.name, line)


def test_author_of_quotes_the_printed_spelling() -> None:
    body = (CONSTRUCTED / "constructed-two-affiliations.pdf").read_bytes()
    names = ["María José Álvarez", "Tomasz Kowalczyk", "Wei Zhang"]
    claims = extract_with_metadata(
        snap(body), authors=names, work="arXiv:2312.09876", date="2023-12-05"
    )
    authored = [c for c in claims if c.predicate == "author_of"]
    assert [(c.subject.name, c.evidence.quote) for c in authored] == [
        ("María José Álvarez", "MARÍA JOSÉ ÁLVAREZ"),
        ("Tomasz Kowalczyk", "TOMASZ KOWALCZYK"),
        ("Wei Zhang", "WEI ZHANG"),
    ]
    assert authored[1].subject.email == "tomasz@nimbus.example"
    assert authored[2].evidence.locator == "page 1, author block, author 3"
    assert authored[0].qualifiers == {
        "title": "Two Affiliations per Author on Separate Marker Lines",
        "published": "2023-12-05",
        "position": 1,
    }
    # tex accents: the quote is the text as extracted, the name is cleaned
    murray = extract(snap((PDF / "1111.2011v2.pdf").read_bytes()))
    tesanovic = [c for c in murray if c.predicate == "author_of"][2]
    assert tesanovic.subject.name == "Zlatko Tešanović"
    assert tesanovic.evidence.quote != tesanovic.subject.name


def test_author_of_not_claimed_for_metadata_names_absent_from_the_page() -> None:
    body = (PDF / "2203.06947.pdf").read_bytes()
    claims = extract_with_metadata(
        snap(body), authors=["Zhangxuan Gu", "Nobody Here"], work="arXiv:2203.06947", date=None
    )
    assert [(c.predicate, c.subject.name) for c in claims if c.predicate == "author_of"] == [
        ("author_of", "Zhangxuan Gu")
    ]


def test_work_from_url_when_no_stamp_and_metadata_mode() -> None:
    body = (PDF / "2203.06947.pdf").read_bytes()
    claims = extract(snap(body, "https://arxiv.org/pdf/2203.06947v1.pdf"))
    affiliations = [c for c in claims if c.predicate == "affiliation"]
    assert {c.qualifiers["work"] for c in affiliations} == {"arXiv:2203.06947"}
    assert {c.object for c in claims if c.predicate == "author_of"} == {"arXiv:2203.06947"}
    assert "date" not in affiliations[0].qualifiers
    assert "published" not in claims[0].qualifiers
    claims = extract_with_metadata(
        snap(body),
        authors=["Zhangxuan Gu", "Changhua Meng"],
        work="arXiv:2203.06947",
        date="2022-03-14",
    )
    assert [(c.predicate, c.subject.name, c.object, c.qualifiers["position"]) for c in claims] == [
        ("author_of", "Zhangxuan Gu", "arXiv:2203.06947", 1),
        ("affiliation", "Zhangxuan Gu", "Shanghai Jiao Tong University", 1),
        ("affiliation", "Zhangxuan Gu", "Ant Group", 1),
        ("author_of", "Changhua Meng", "arXiv:2203.06947", 2),
        ("affiliation", "Changhua Meng", "Ant Group", 2),
    ]
    assert claims[0].qualifiers["published"] == "2022-03-14"
    assert claims[1].qualifiers["date"] == "2022-03-14"


def test_matches_urls_and_content() -> None:
    for url in [
        "https://arxiv.org/pdf/2103.15348v2",
        "https://arxiv.org/pdf/2103.15348",
        "http://arxiv.org/pdf/2103.15348v2.pdf",
        "https://export.arxiv.org/pdf/cond-mat/0601001v1",
    ]:
        assert arxiv_pdf.matches(url, None), url
    assert not arxiv_pdf.matches("https://arxiv.org/abs/2103.15348", None)
    assert arxiv_pdf.matches("https://example.org/paper", snap(b"%PDF-1.5 ..."))
    assert not arxiv_pdf.matches("https://example.org/paper", snap(b"<html>"))
    assert choose("https://arxiv.org/pdf/2103.15348v2") is arxiv_pdf


# --- faults --------------------------------------------------------------------------------------

URL = "https://arxiv.org/pdf/2401.00001v1"


def _small_pdf() -> bytes:
    return pdfgen.make_pdf(
        [
            [
                T(72, 700, "A Title", 16, "Helvetica-Bold"),
                T(72, 660, "Ann Lee", 11),
                T(72, 640, "Abstract", 12),
            ]
        ]
    )


def _expect(body: bytes, needle: str, kind: type[ExtractionError] = PdfReadFailure) -> None:
    start = time.monotonic()
    with pytest.raises(kind) as info:
        extract(snap(body, URL))
    assert URL in str(info.value) and needle in str(info.value)
    assert info.value.url == URL  # type: ignore[attr-defined]
    assert time.monotonic() - start < 5


def test_non_pdf_bytes() -> None:
    _expect(b"<html><body>not a pdf</body></html>", "not a PDF", UnsupportedFormatError)
    _expect(b"", "not a PDF", UnsupportedFormatError)


def test_corrupt_and_truncated() -> None:
    _expect(b"%PDF-1.4\n" + bytes(range(256)) * 8, "corrupt")
    real = (PDF / "2304.02623v1.pdf").read_bytes()
    _expect(real[: len(real) // 3], "")
    _expect(_small_pdf()[:200], "")


def test_encrypted_pdf() -> None:
    writer = PdfWriter(clone_from=PdfReader(io.BytesIO(_small_pdf())))
    writer.encrypt(user_password="secret", owner_password="owner", algorithm="RC4-128")
    out = io.BytesIO()
    writer.write(out)
    _expect(out.getvalue(), "encrypted")
    # an empty user password opens it
    writer = PdfWriter(clone_from=PdfReader(io.BytesIO(_small_pdf())))
    writer.encrypt(user_password="", owner_password="owner", algorithm="RC4-128")
    out = io.BytesIO()
    writer.write(out)
    opened = parse_paper(out.getvalue())  # it opens: one author, no affiliation printed
    assert [a.name for a in opened.authors] == ["Ann Lee"]
    assert [c.predicate for c in extract(snap(out.getvalue()))] == ["author_of"]


def test_scanned_pdf_without_text_layer() -> None:
    _expect(pdfgen.make_pdf([[]]), "no text layer on page 1 (scanned?)")


def test_page_without_author_block() -> None:
    page = [T(72, 700, "Chapter One", 16, "Helvetica-Bold")]
    page += [
        T(72, 650 - 12 * i, "this is only prose text and it goes on and on for a while", 10)
        for i in range(5)
    ]
    _expect(pdfgen.make_pdf([page]), "no author block")


def test_huge_pdf_reads_only_the_first_pages() -> None:
    head = [T(72, 700, "Long Paper", 16, "Helvetica-Bold"), T(72, 670, "Ann Lee, Bo Chen", 11)]
    head += [T(72, 655, "Cedar Valley University", 10), T(72, 630, "Abstract", 12)]
    filler = [[T(72, 700 - 10 * i, "filler line of body text " * 3, 9) for i in range(60)]] * 300
    start = time.monotonic()
    p = parse_paper(pdfgen.make_pdf([head, *filler]))
    assert time.monotonic() - start < 3
    assert [a.affiliations[0].text for a in p.authors] == ["Cedar Valley University"] * 2


def test_errors_survive_pickling() -> None:
    import pickle

    err = PdfReadFailure(URL, "no text layer on page 1 (scanned?)")
    again = pickle.loads(pickle.dumps(err))
    assert isinstance(again, ExtractionError) and again.url == URL  # type: ignore[attr-defined]


def test_pypdf_messages_are_captured_not_printed(capsys: pytest.CaptureFixture[str]) -> None:
    real = (PDF / "2304.02623v1.pdf").read_bytes()
    with pytest.raises(PdfReadFailure):
        parse_paper(real[: len(real) // 3])
    captured = capsys.readouterr()
    assert "EOF marker" not in captured.err + captured.out


def test_title_rules_line_numbers_and_small_caps() -> None:
    b, r = "Helvetica-Bold", "Times-Roman"
    tail = [T(200, 630, "Ann Lee", 11, r), T(200, 618, "Polder University", 11, r)]
    tail += [T(72, 590, "Abstract", 12, b)]
    tail += [
        T(72, 575 - 12 * i, "we study how the method behaves on tasks " * 2, 10, r)
        for i in range(8)
    ]
    title = [T(100, 700, "Deep Learning for the Very Long Titles of", 17.28, b)]
    title += [T(100, 680, "Generative Adversarial Networks", 17.28, b)]
    numbers = [T(40, 760 - 12 * i, f"{i:03d}", 7, r) for i in range(20)]  # a review copy
    p = parse_paper(pdfgen.make_pdf([title + numbers + tail]))
    assert p.title == "Deep Learning for the Very Long Titles of Generative Adversarial Networks"
    assert [(a.name, [x.text for x in a.affiliations]) for a in p.authors] == [
        ("Ann Lee", ["Polder University"])
    ]
    # fake small capitals: a line of lower-case words is drawn at the smaller size only
    caps = [T(90, 700, "L", 17.28, r), T(102, 700, "EARNING", 12.4, r)]
    caps += [T(90, 680, "OF THE", 12.4, r)]
    caps += [T(90, 660, "G", 17.28, r), T(102, 660, "ENERATIVE", 12.4, r)]
    caps += [T(180, 660, "N", 17.28, r), T(192, 660, "ETWORKS", 12.4, r)]
    p = parse_paper(pdfgen.make_pdf([caps + tail]))
    assert [a.name for a in p.authors] == ["Ann Lee"]
    assert p.title == "LEARNING OF THE GENERATIVE NETWORKS"
