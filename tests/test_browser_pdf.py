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
