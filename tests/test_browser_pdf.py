"""Evidence for papers in a real browser (issue 15): the change page of an arXiv PDF affiliation
flag shows page 1's picture, loaded, and its text with the author's name marked. Playwright
drives Debian's Chromium against the app on 127.0.0.1, as tests/test_browser.py does."""

from __future__ import annotations

import io
from collections.abc import Iterator
from typing import Any

import pytest
from PIL import Image

from ingest.review.web.passwords import add_editor
from ingest.review.web.pdf_evidence import NAME_FILL, QUOTE_FILL
from ingest.settings import Settings
from ingest.storage import Store

from .conftest import ROOT
from .test_browser import chromium, new_page, review_server, shots_dir
from .test_pdf_evidence import DCGAN, DCGAN_URL, _close, _tint, pdf_change
from .web_helpers import PASSWORD

pytestmark = pytest.mark.browser
playwright_api = pytest.importorskip("playwright.sync_api")

CHANGE = "pdf0000000000001"
IMAGE_LOADED = """() => {
  const img = document.querySelector('.pdf-page img');
  return img !== null && img.complete && img.naturalWidth > 0;
}"""


@pytest.fixture
def server(store: Store, workspace: Settings) -> Iterator[str]:
    pdf_change(store, DCGAN.read_bytes(), DCGAN_URL, "Soumith Chintala", CHANGE)
    add_editor(store, "ann", PASSWORD)
    with review_server(workspace, store) as base:
        yield base


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with chromium() as launched:
        yield launched


def test_pdf_affiliation_shows_the_page_and_the_marked_name(browser: Any, server: str) -> None:
    page = new_page(browser, server)
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.goto(f"/changes/{CHANGE}")
    page.wait_for_selector(".pdf-page img")
    page.wait_for_function(IMAGE_LOADED)
    size = page.evaluate(
        "() => { const i = document.querySelector('.pdf-page img');"
        " return [i.naturalWidth, i.naturalHeight, i.getBoundingClientRect().width]; }"
    )
    assert size[0] > 100 and size[1] > 50 and size[2] > 100, size
    # the picture the browser shows has the name and the affiliation highlighted: paper under
    # each highlight's tint, in the pixels it was sent
    answer = page.request.get(str(page.get_attribute(".pdf-page img", "src")))
    assert answer.status == 200 and answer.headers["content-type"] == "image/png"
    pixels = set(Image.open(io.BytesIO(answer.body())).convert("RGB").getdata())
    for fill in (NAME_FILL, QUOTE_FILL):
        assert any(_close(p, _tint(fill)) for p in pixels), f"no {fill} highlight in the picture"
    assert page.inner_text("pre.pdf-text mark.name") == "Soumith Chintala"
    assert page.inner_text("pre.pdf-text mark:not(.name)") == "Facebook AI Research"
    assert "no text to show" not in page.inner_text("#change")
    link = page.locator("a", has_text="Stored snapshot (PDF download)")
    assert link.get_attribute("href") == f"/changes/{CHANGE}/snapshot"
    page.screenshot(path=str(shots_dir() / "change-pdf.png"), full_page=True)
    assert errors == [] and page.dialogs == []


WIDE_ROW = ROOT / "fixtures" / "web" / "arxiv.org" / "pdf" / "1912.2026-10-21.01703v1"


@pytest.fixture
def wide_server(store: Store, workspace: Settings) -> Iterator[str]:
    """PyTorch's paper: an author row spanning the page (the whole row made the name ~9 px)."""
    body = WIDE_ROW.read_bytes()
    pdf_change(store, body, "https://arxiv.org/pdf/1912.01703v1", "Natalia Gimelshein", CHANGE)
    add_editor(store, "ann", PASSWORD)
    with review_server(workspace, store) as base:
        yield base


def test_the_pdf_picture_is_zoomed_to_the_block_and_enlarges_on_click(
    browser: Any, wide_server: str
) -> None:
    """Issue 28: a wide author row scaled the highlighted word to ~8-10 px; the picture is cut
    to the block around the person, so it is legible at 1280x800, and a click enlarges it."""
    page = new_page(browser, wide_server)
    page.set_viewport_size({"width": 1280, "height": 800})
    page.goto(f"/changes/{CHANGE}")
    page.wait_for_function(IMAGE_LOADED)
    answer = page.request.get(str(page.get_attribute(".pdf-page img", "src")))
    picture = Image.open(io.BytesIO(answer.body())).convert("RGB")
    tint = _tint(NAME_FILL)
    rows = [
        y
        for y in range(picture.height)
        if any(_close(picture.getpixel((x, y)), tint) for x in range(0, picture.width, 2))
    ]
    shown = page.locator(".pdf-page img").bounding_box()["width"] / picture.width
    height = (rows[-1] - rows[0]) * shown if rows else 0.0  # the name's highlight, on screen
    assert height >= 14, f"the highlighted name is {height:.1f} px tall on screen"
    page.screenshot(path=str(shots_dir() / "pdf-block-1280x800.png"))
    small = page.locator(".pdf-page img").bounding_box()
    page.click(".pdf-page img")
    assert "enlarged" in (page.get_attribute(".pdf-page", "class") or "")
    large = page.locator(".pdf-page img").bounding_box()
    assert large["width"] >= small["width"] and large["height"] > small["height"]
    page.screenshot(path=str(shots_dir() / "pdf-enlarged-1280x800.png"))
    page.keyboard.press("Escape")
    assert "enlarged" not in (page.get_attribute(".pdf-page", "class") or "")
