"""The editors' queue after the README's nightly (issue 15, "done when"), in a real browser: the
queue the README's first command leaves is cleared by keyboard alone, each fact decided once (the
affiliation printed on three papers is one claim citing the three), and the `--as-of` queue's
removals read as historical removals. Screenshots of a PDF flag and a removal go to the test
run's screenshots folder. A real Prefect nightly (marker `prefect`) and Debian's Chromium."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest

from ingest.review.web.passwords import add_editor
from ingest.settings import Settings
from ingest.storage import QueueFilter, Store

from .conftest import ROOT
from .test_browser import chromium, current_id, new_page, review_server, shots_dir
from .test_nightly import nightly
from .web_helpers import PASSWORD

pytestmark = [pytest.mark.browser, pytest.mark.prefect]
playwright_api = pytest.importorskip("playwright.sync_api")

WEB = str(ROOT / "fixtures" / "web")
IMAGE_LOADED = """() => {
  const img = document.querySelector('.pdf-page img');
  return img !== null && img.complete && img.naturalWidth > 0;
}"""
GONE = """old => !document.getElementById('change') ||
  document.getElementById('change').dataset.id !== old"""


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with chromium() as launched:
        yield launched


def after_nightly(workspace: Settings, *args: str) -> Store:
    done = nightly("--replay", WEB, *args)
    assert done.returncode == 0, done.stderr
    store = Store.open(workspace)
    add_editor(store, "ann", PASSWORD)
    return store


NO_SCROLL = """() => { const b = document.querySelector('button.accept').getBoundingClientRect();
  const e = document.querySelector('.evidence').getBoundingClientRect();
  return window.scrollY === 0 && b.bottom <= window.innerHeight && e.top < window.innerHeight; }"""


def open_first_by_keyboard(page: Any, total: int) -> None:
    page.keyboard.press("j")
    page.keyboard.press("Enter")
    page.wait_for_selector("#change")
    assert page.inner_text("[data-position]").strip() == f"1 of {total}"


def test_the_readme_nightly_queue_is_cleared_by_keyboard_alone(
    browser: Any, workspace: Settings
) -> None:
    store = after_nightly(workspace)
    try:
        total = store.count_facts(QueueFilter())
        assert store.count_changes(QueueFilter()) > total > 0  # papers' facts grouped
        with review_server(workspace, store) as base:
            page = new_page(browser, base)
            page.set_viewport_size({"width": 1280, "height": 800})
            open_first_by_keyboard(page, total)
            shot_taken = False
            for n in range(1, total + 1):
                old = current_id(page)
                assert page.inner_text("[data-position]").strip() == f"1 of {total - n + 1}"
                # the decision and its evidence are in view: nothing to scroll (issue 28)
                assert page.evaluate(NO_SCROLL), f"change {n} of {total} needs a scroll"
                affiliation = page.inner_text(".summary").startswith("Affiliated with")
                if not shot_taken and affiliation:  # a PDF flag: the page's picture, marked
                    page.wait_for_function(IMAGE_LOADED)
                    assert page.locator("pre.pdf-text mark.name").count() >= 1
                    page.screenshot(
                        path=str(shots_dir() / "readme-change-pdf-flag.png"), full_page=True
                    )
                    shot_taken = True
                page.keyboard.press("a")
                page.wait_for_function(GONE, arg=old)
            page.wait_for_selector("text=Nothing left")
            assert shot_taken, "no PDF flag in the README's queue"
        assert store.count_facts(QueueFilter()) == 0
        assert store.count_changes(QueueFilter(status="accepted")) > total
    finally:
        store.close()
    soumith = json.loads((workspace.profiles_dir / "soumith-chintala.json").read_text())
    fair = [c for c in soumith["claims"] if c["object"] == "Facebook AI Research"]
    assert (
        len(fair) == 1
    )  # four papers (FAIR, and Meta: one ROR organisation), one decision, one claim
    urls = {r["id"]: r.get("url") for r in soumith["references"]}
    assert sorted(urls[r] for r in fair[0]["refs"]) == [
        f"https://arxiv.org/pdf/{p}"
        for p in ("1511.06434", "1701.07875", "1912.01703", "2311.16098")
    ]
    # the queue is empty for the same snapshots: a second nightly flags nothing
    again = nightly("--replay", WEB)
    assert again.returncode == 0, again.stderr
    assert again.stdout.strip().splitlines()[-1] == "nothing pending for review"
    store = Store.open(workspace)
    try:
        assert store.count_changes(QueueFilter()) == 0
    finally:
        store.close()


def test_the_as_of_queue_shows_historical_removals_and_is_cleared_by_keyboard(
    browser: Any, workspace: Settings
) -> None:
    store = after_nightly(workspace, "--as-of", "2024-06-01")
    try:
        total = store.count_facts(QueueFilter())
        removals = store.queue_rows(QueueFilter(kind="removed"), limit=100)
        assert removals
        with review_server(workspace, store) as base:
            page = new_page(browser, base)
            page.goto(f"/changes/{removals[0]['id']}")
            page.wait_for_selector("#change.kind-removed")
            when = page.inner_text("p.when.historical")
            assert "historical" in when and "2024-" in when
            assert page.inner_text("button.accept").strip().endswith("Accept removal")
            assert page.inner_text(".summary").startswith("Remove:")
            page.screenshot(path=str(shots_dir() / "readme-change-removal.png"), full_page=True)
            page.goto("/")
            open_first_by_keyboard(page, total)
            for _ in range(total):
                old = current_id(page)
                kind = page.get_attribute("#change", "class") or ""
                page.keyboard.press("r" if "kind-removed" in kind else "a")
                page.wait_for_function(GONE, arg=old)
            page.wait_for_selector("text=Nothing left")
        assert store.count_facts(QueueFilter()) == 0
        assert store.count_changes(QueueFilter(status="rejected", kind="removed")) == len(removals)
    finally:
        store.close()
