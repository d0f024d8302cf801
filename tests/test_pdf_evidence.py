"""Evidence for papers (issue 15): page 1 of a stored PDF as a highlighted picture and as marked
text (ingest.review.web.pdf_evidence, ingest.review.web.evidence), and the routes that serve
them."""

from __future__ import annotations

import io
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from PIL import Image
from pypdf import PdfReader

from extractors.papers.pdf import extract
from ingest.errors import NotPdfError, PdfEvidenceError
from ingest.models import Snapshot
from ingest.review.web.app import create_app
from ingest.review.web.evidence import TextCache, evidence_for, mark_spans, pdf_text_evidence
from ingest.review.web.passwords import add_editor
from ingest.review.web.pdf_evidence import (
    MAX_HEIGHT,
    MAX_WIDTH,
    NAME_FILL,
    QUOTE_FILL,
    AuthorBlockImage,
    Box,
    ImageCache,
    Targets,
    claim_targets,
    find_all,
    first_page_text,
    locate,
    render_author_block,
)
from ingest.settings import Settings
from ingest.storage import Store

from .conftest import ROOT
from .web_helpers import insert_change, login

PDFS = ROOT / "fixtures" / "arxiv" / "pdf"
DCGAN = ROOT / "fixtures" / "web" / "arxiv.org" / "pdf" / "1511.2026-10-21.06434v1"
DCGAN_URL = "https://arxiv.org/pdf/1511.06434v1"
PNG_MAGIC = b"\x89PNG\r\n\x1a\n"
BASE = "http://127.0.0.1"

# (file, subject name as the claim has it, the affiliation as printed): accents, capitals and
# affiliations over two lines, as the extractor writes them
CASES = [
    (
        "1111.2011v2.pdf",
        "Zlatko Tešanović",
        "Institute for Quantum Matter and Department of Physics and Astronomy\n"
        "Johns Hopkins University, Baltimore, Maryland 21218, USA",
    ),
    (
        "2103.15348v2-first2pages.layout-parser-paper-fast.pdf",
        "Melissa Dell",
        "Harvard University",
    ),
    ("2203.00130v1.pdf", "Marti A. Hearst", "University of California, Berkeley, USA"),
    (
        "2203.06947.pdf",
        "Zhangxuan Gu",
        "MoE Key Lab of Artificial Intelligence, Shanghai Jiao Tong University",
    ),
    ("2304.02623v1.pdf", "Kyle Lo", "Allen Institute for AI"),
    (
        "futoma2017improved-mlhc2017.pdf",
        "Mark Sendak",
        "Institute for Health Innovation\nDuke University, Durham, NC",
    ),
]


def _inside(inner: Box, outer: Box) -> bool:
    return (
        inner[0] >= outer[0]
        and inner[1] >= outer[1]
        and inner[2] <= outer[2]
        and inner[3] <= outer[3]
    )


def _pixels_in(shown: AuthorBlockImage, box: Box) -> list[tuple[int, int, int]]:
    image = Image.open(io.BytesIO(shown.png)).convert("RGB")
    left, top, right, bottom = (round(v) for v in shown.to_pixels(box))
    crop = image.crop((left + 2, top + 2, right - 2, bottom - 2))  # inside the outline
    return list(crop.getdata())


def _tint(fill: tuple[int, int, int, int]) -> tuple[int, int, int]:
    """White paper under a translucent highlight."""
    alpha = fill[3] / 255
    return tuple(round(255 * (1 - alpha) + c * alpha) for c in fill[:3])  # type: ignore[return-value]


def _close(a: tuple[int, int, int], b: tuple[int, int, int], tolerance: int = 3) -> bool:
    return all(abs(x - y) <= tolerance for x, y in zip(a, b, strict=True))


# -- finding the strings ---------------------------------------------------------------------


def test_find_ignores_case_accents_spacing_and_punctuation() -> None:
    text = "TAL AUGUST, University of Washington\r\nand Zlatko Teˇsanovi´c1 and Insti\x02\ntute"
    assert [text[s:e] for s, e in find_all(text, "Tal August")] == ["TAL AUGUST"]
    assert [text[s:e] for s, e in find_all(text, "Zlatko Tešanović")] == ["Zlatko Teˇsanovi´c"]
    assert find_all(text, "Institute") != []
    assert find_all(text, "  ") == [] and find_all(text, "Nobody") == []


def test_locate_takes_the_name_nearest_the_quote() -> None:
    text = "Ann Lee. Bob Roe, Acme Labs. ... References: Ann Lee, Bob Roe (2020), Acme"
    found = locate(text, Targets("Bob Roe", ("Acme Labs",)))
    assert found.name == (9, 16) and text[slice(*found.quote or (0, 0))] == "Acme Labs"
    assert [kind for *_, kind in found.spans] == ["name", "quote"]
    # an author_of claim quotes the name itself: one mark, the quote's
    same = locate(text, Targets("Ann Lee", ("Ann Lee",)))
    assert [kind for *_, kind in same.spans] == ["quote"]


def test_locate_prefers_the_name_as_printed_to_an_email() -> None:
    text = "Melissa Dell3\n3 Harvard University\n{melissadell,jacob}@fas.harvard.edu\nYike Wang"
    found = locate(text, Targets("Melissa Dell", ("Harvard University",)))
    assert found.name == (0, 12)
    assert locate(text, Targets("Ke Wang", ())).name is not None  # inside a word, if only so


def test_layout_parser_marks_the_author_line_not_the_email() -> None:
    pdf = (PDFS / CASES[1][0]).read_bytes()
    shown = render_author_block(pdf, Targets("Melissa Dell", ("Harvard University",)))
    (name,), (quote,) = dict(shown.marks)["name"], dict(shown.marks)["quote"]
    assert name[1] > quote[3], "the name is printed above its affiliation"


def test_claim_targets_fall_back_from_the_printed_quote() -> None:
    claim = {
        "subject": {"name": "Soumith Chintala"},
        "predicate": "affiliation",
        "object": "Facebook",
        "qualifiers": {"affiliation_text": "Facebook AI Research"},
        "evidence": {"quote": "Facebook AI Research"},
    }
    assert claim_targets(claim) == Targets("Soumith Chintala", ("Facebook AI Research", "Facebook"))
    assert claim_targets({}) == Targets("", ())


def test_marked_text_is_escaped_and_marks_name_and_quote() -> None:
    text = "<b>Title</b>\nMal<script>lory\nEvil & Co"
    found = locate(text, Targets("Mal<script>lory", ("Evil & Co",)))
    html = str(mark_spans(text, found.spans, 600))
    assert html == (
        "&lt;b&gt;Title&lt;/b&gt;\n"
        '<mark class="name">Mal&lt;script&gt;lory</mark>\n'
        "<mark>Evil &amp; Co</mark>"
    )


def test_pdf_text_evidence_says_what_it_did_not_find() -> None:
    ev = pdf_text_evidence("Ann Lee, Acme", Targets("Bob Roe", ("Acme",)))
    assert ev.found and ev.note == "the name was not found on page 1" and "<mark>Acme" in ev.html
    ev = pdf_text_evidence("Ann Lee", Targets("Bob Roe", ("Acme",)))
    assert not ev.found and ev.note == "the quote and the name were not found on page 1"
    assert str(ev.html) == "Ann Lee"


# -- the picture -----------------------------------------------------------------------------


@pytest.mark.parametrize(("name", "person", "affiliation"), CASES, ids=[c[0] for c in CASES])
def test_picture_crops_to_the_name_and_affiliation_and_highlights_them(
    name: str, person: str, affiliation: str
) -> None:
    shown = render_author_block((PDFS / name).read_bytes(), Targets(person, (affiliation,)))
    assert shown.png.startswith(PNG_MAGIC)
    kinds = dict(shown.marks)
    assert set(kinds) == {"name", "quote"}, f"not both found on page 1 of {name}"
    image = Image.open(io.BytesIO(shown.png))
    assert image.width <= MAX_WIDTH + 1 and image.height <= MAX_HEIGHT + 1
    page_area = 612 * 792 * shown.scale**2
    assert image.width * image.height < page_area / 3, "cropped, not the whole page"
    for kind, fill in (("name", NAME_FILL), ("quote", QUOTE_FILL)):
        for box in kinds[kind]:
            assert _inside(box, shown.region), f"{kind} box {box} outside the crop"
        pixels = _pixels_in(shown, kinds[kind][0])
        assert pixels and (255, 255, 255) not in pixels, f"{kind} not highlighted"
        assert any(_close(p, _tint(fill)) for p in pixels), f"{kind}: no paper under its tint"


def test_the_boxes_are_where_pypdf_draws_the_text() -> None:
    pdf = DCGAN.read_bytes()
    shown = render_author_block(pdf, Targets("Soumith Chintala", ("Facebook AI Research",)))
    drawn: dict[str, tuple[float, float]] = {}  # text -> its run's origin (x, baseline)

    def visit(text: str, cm: list[float], tm: list[float], font: Any, size: float) -> None:
        drawn[text.strip()] = (tm[4] + cm[4], tm[5] + cm[5])

    PdfReader(io.BytesIO(pdf)).pages[0].extract_text(visitor_text=visit)
    for kind, text in (("name", "Soumith Chintala"), ("quote", "Facebook AI Research")):
        (box,) = dict(shown.marks)[kind]
        x, baseline = drawn[text]
        assert abs(box[0] - x) < 6 and box[1] <= baseline <= box[3], (kind, box, drawn[text])
    assert "Soumith Chintala" in first_page_text(pdf)


def test_nothing_found_shows_the_top_of_the_page() -> None:
    shown = render_author_block(DCGAN.read_bytes(), Targets("Nobody Here", ("Nowhere",)))
    assert shown.marks == []
    left, bottom, right, top = shown.region
    assert (left, right, top) == (0, 612, 792) and 300 < bottom < 792
    assert Image.open(io.BytesIO(shown.png)).width <= MAX_WIDTH + 1


@pytest.mark.parametrize(
    "body",
    [
        b"%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF",
        b"%PDF-1.7\n" + b"\x00garbage" * 200,
        DCGAN.read_bytes()[:700],
    ],
    ids=["no-pages", "garbage", "truncated"],
)
def test_a_corrupt_pdf_is_a_clear_error(body: bytes) -> None:
    with pytest.raises(PdfEvidenceError, match="cannot show the stored PDF: ") as caught:
        render_author_block(body, Targets("Ann", ("Acme",)))
    assert not isinstance(caught.value, NotPdfError)
    with pytest.raises(PdfEvidenceError):
        first_page_text(body)


def test_not_a_pdf_is_its_own_error() -> None:
    with pytest.raises(NotPdfError, match="the snapshot is not a PDF"):
        render_author_block(b"<html>hello</html>", Targets("Ann", ()))


def test_the_picture_is_cached_on_disk(tmp_path: Path) -> None:
    cache = ImageCache.under(tmp_path)
    sha, cid = "ab" * 32, "0123456789abcdef"
    pdf = DCGAN.read_bytes()
    targets = Targets("Soumith Chintala", ("Facebook AI Research",))
    first = cache.png(sha, cid, lambda: pdf, targets)
    path = cache.path(sha, cid)
    assert path.is_relative_to(tmp_path / "evidence") and path.read_bytes() == first

    def never() -> bytes:
        raise AssertionError("rendered again")

    assert cache.png(sha, cid, never, targets) == first
    with pytest.raises(ValueError):
        cache.path("../../etc/passwd", cid)


# -- the review page -------------------------------------------------------------------------


def pdf_change(
    store: Store, body: bytes, url: str, person: str, change_id: str = "pdf0000000000001"
) -> str:
    """A pending affiliation change found in `body` by the arXiv PDF extractor."""
    snap = Snapshot(url=url, headers={"content-type": "application/pdf"}, body=body)
    store.put_snapshot(snap)
    claims = [c for c in extract(snap) if c.predicate == "affiliation"]
    claim = next(c for c in claims if c.subject.name == person)
    data: dict[str, Any] = claim.model_dump(mode="json")
    return insert_change(store, change_id, "soumith-chintala", data, url, snap.sha256)


def stored_change(store: Store, change_id: str = "pdf0000000000001") -> dict[str, Any]:
    row = store.get_change(change_id)
    assert row is not None
    return row


@pytest.fixture
def pdf_store(store: Store) -> Store:
    add_editor(store, "ann", "correct horse battery staple")
    pdf_change(store, DCGAN.read_bytes(), DCGAN_URL, "Soumith Chintala")
    return store


@pytest.fixture
def ann(pdf_store: Store, workspace: Settings) -> Iterator[TestClient]:
    with TestClient(create_app(workspace, pdf_store), base_url=BASE) as client:
        assert login(client, "ann").status_code == 303
        yield client


def test_the_routes_need_a_login(pdf_store: Store, workspace: Settings) -> None:
    client = TestClient(create_app(workspace, pdf_store), base_url=BASE)
    for path in ("/changes/pdf0000000000001/evidence.png", "/changes/pdf0000000000001/snapshot"):
        answer = client.get(path, follow_redirects=False)
        assert answer.status_code == 303 and answer.headers["location"].startswith("/login")
        assert client.get(path, headers={"X-Fragment": "1"}).status_code == 401


def test_the_change_page_shows_the_picture_and_marked_text(ann: TestClient) -> None:
    page = ann.get("/changes/pdf0000000000001")
    assert page.status_code == 200
    assert '<img src="/changes/pdf0000000000001/evidence.png"' in page.text
    assert '<mark class="name">Soumith Chintala</mark>' in page.text
    assert "<mark>Facebook AI Research</mark>" in page.text
    assert "the snapshot has no text to show" not in page.text
    assert "Stored snapshot (PDF download)" in page.text and "(plain text)" not in page.text


def test_the_picture_is_a_private_png(ann: TestClient, workspace: Settings) -> None:
    answer = ann.get("/changes/pdf0000000000001/evidence.png")
    assert answer.status_code == 200 and answer.content.startswith(PNG_MAGIC)
    assert answer.headers["content-type"] == "image/png"
    assert answer.headers["cache-control"] == "private"  # the route's own policy, not no-store
    assert answer.headers["x-content-type-options"] == "nosniff"
    assert list((workspace.home / "evidence").rglob("*-pdf0000000000001-v*.png"))
    assert ann.get("/changes/pdf0000000000001/evidence.png").content == answer.content


def test_the_stored_pdf_is_a_pdf_download(ann: TestClient, pdf_store: Store) -> None:
    sha = stored_change(pdf_store)["snapshot_sha256"]
    for query in ("", "?download=1"):
        answer = ann.get(f"/changes/pdf0000000000001/snapshot{query}")
        assert answer.status_code == 200 and answer.content == DCGAN.read_bytes()
        assert answer.headers["content-type"] == "application/pdf"
        assert answer.headers["content-disposition"] == f'attachment; filename="{sha[:16]}.pdf"'
        assert answer.headers["x-content-type-options"] == "nosniff"


def meta_change(store: Store, change_id: str, url: str, body: bytes) -> Snapshot:
    """A stored snapshot of `body` and a pending change quoting "Meta" as Soumith's employer."""
    snap = Snapshot(url=url, body=body)
    store.put_snapshot(snap)
    claim = {
        "subject": {"name": "Soumith Chintala"},
        "predicate": "affiliation",
        "object": "Meta",
        "qualifiers": {},
        "evidence": {"url": url, "sha256": snap.sha256, "locator": "p", "quote": "Meta"},
        "extractor": "test/1",
    }
    insert_change(store, change_id, "soumith-chintala", claim, url, snap.sha256)
    return snap


def test_a_text_snapshot_stays_plain_text(ann: TestClient, pdf_store: Store) -> None:
    meta_change(
        pdf_store, "text000000000001", "https://example.org/t", b"<p>Soumith Chintala, Meta</p>"
    )
    answer = ann.get("/changes/text000000000001/snapshot")
    assert answer.headers["content-type"] == "text/plain; charset=utf-8"
    assert answer.headers["content-disposition"] == "inline"
    assert ann.get("/changes/text000000000001/evidence.png").status_code == 404
    page = ann.get("/changes/text000000000001").text
    assert "evidence.png" not in page and "<mark>Meta</mark>" in page


def test_a_corrupt_pdf_is_a_message_not_a_500(ann: TestClient, pdf_store: Store) -> None:
    body = b"%PDF-1.7\n" + b"\x00garbage" * 200
    meta_change(pdf_store, "bad0000000000001", "https://arxiv.org/pdf/9999.99999v1", body)
    page = ann.get("/changes/bad0000000000001")
    assert page.status_code == 200 and "cannot show the stored PDF: corrupt" in page.text
    assert "evidence.png" not in page.text
    image = ann.get("/changes/bad0000000000001/evidence.png")
    assert image.status_code == 422 and "cannot show the stored PDF: corrupt" in image.text
    assert ann.get("/changes/nosuch00000001/evidence.png").status_code == 404


def test_text_cache_reads_page_one_of_a_pdf(pdf_store: Store) -> None:
    row = stored_change(pdf_store)
    ev = evidence_for(TextCache(pdf_store), row["snapshot_sha256"], "Facebook AI Research")
    assert ev.pdf and ev.found and "<mark>Facebook AI Research</mark>" in ev.html
    marked = ev.for_claim(row["claim"])
    assert '<mark class="name">Soumith Chintala</mark>' in marked.html
