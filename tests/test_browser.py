"""The review page in a real browser: Playwright driving Debian's Chromium against the app served
by uvicorn on 127.0.0.1. Skipped when /usr/bin/chromium is absent (CI installs it: .ci/run)."""

from __future__ import annotations

import json
import socket
import tempfile
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from ingest.review.decisions import history
from ingest.review.web.app import create_app
from ingest.review.web.passwords import add_editor
from ingest.settings import Settings
from ingest.statements import change_sentence
from ingest.storage import QueueFilter, Store

from .test_grouping import affiliation, queue
from .test_review import CORE, lead_page, run_page
from .web_helpers import NAMES, PASSWORD, hostile_change, many_pending

pytestmark = pytest.mark.browser

CHROMIUM = Path("/usr/bin/chromium")
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-dev-shm-usage",
]
# screenshots are the test run's artefacts: under pytest's base temporary folder, never the repo
# (`screenshots` below sets it; `SHOTS` is where they went for a module without the fixture)
SHOTS = Path(tempfile.gettempdir()) / "ingest-screenshots"
_SHOTS: list[Path] = []


@pytest.fixture(scope="session", autouse=True)
def screenshots(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The test run's screenshot folder (<pytest basetemp>/screenshots), printed at the end."""
    folder = tmp_path_factory.getbasetemp() / "screenshots"
    folder.mkdir(parents=True, exist_ok=True)
    _SHOTS[:] = [folder]
    return folder


def shots_dir() -> Path:
    folder = _SHOTS[0] if _SHOTS else SHOTS
    folder.mkdir(parents=True, exist_ok=True)
    return folder


if not CHROMIUM.exists():
    pytest.skip(
        "browser tests need Debian's Chromium at /usr/bin/chromium "
        "(apt-get install -y chromium; .ci/run installs it)",
        allow_module_level=True,
    )
playwright_api = pytest.importorskip("playwright.sync_api")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextmanager
def review_server(workspace: Settings, store: Store) -> Iterator[str]:
    """The review app on a free loopback port in a thread; its base URL."""
    import uvicorn

    port = _free_port()
    config = uvicorn.Config(
        create_app(workspace, store), host="127.0.0.1", port=port, log_level="warning"
    )
    srv = uvicorn.Server(config)
    thread = threading.Thread(target=srv.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not srv.started and time.monotonic() < deadline:
        time.sleep(0.02)
    assert srv.started, "the review server did not start"
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        srv.should_exit = True
        thread.join(timeout=5)


@contextmanager
def chromium() -> Iterator[Any]:
    """Debian's Chromium through Playwright (never `playwright install`)."""
    with playwright_api.sync_playwright() as pw:
        launched = pw.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        try:
            yield launched
        finally:
            launched.close()


@pytest.fixture
def server(store: Store, workspace: Settings) -> Iterator[str]:
    run_page(store, workspace, lead_page(("Alban Desmaison", "albanD"), CORE))
    add_editor(store, "ann", PASSWORD)
    add_editor(store, "bob", PASSWORD)
    with review_server(workspace, store) as base:
        yield base


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with chromium() as launched:
        yield launched


def new_page(browser: Any, base: str, name: str | None = "ann") -> Any:
    context = browser.new_context(base_url=base, viewport={"width": 1360, "height": 900})
    page = context.new_page()
    page.dialogs = []  # type: ignore[attr-defined]
    page.on("dialog", lambda d: (page.dialogs.append(d.message), d.dismiss()))
    if name:
        page.goto("/login")
        page.fill("#name", name)
        page.fill("#password", PASSWORD)
        page.click("button[type=submit]")
        page.wait_for_url(base + "/")
    return page


def shot(page: Any, name: str, full_page: bool = True) -> Path:
    path = shots_dir() / f"{name}.png"
    page.screenshot(path=str(path), full_page=full_page)
    assert path.stat().st_size > 0
    return path


def current_id(page: Any) -> str:
    return str(page.get_attribute("#change", "data-id"))


def wait_for_other(page: Any, old: str) -> str:
    page.wait_for_function(
        "old => document.getElementById('change') && "
        "document.getElementById('change').dataset.id !== old",
        arg=old,
    )
    return current_id(page)


def test_login_and_the_main_screens(browser: Any, server: str, store: Store) -> None:
    page = new_page(browser, server, name=None)
    page.goto("/")
    assert page.url.startswith(server + "/login")
    shot(page, "login")
    page.fill("#name", "ann")
    page.fill("#password", "not the password")
    page.click("button[type=submit]")
    assert "Wrong name or password" in page.inner_text("main")
    page.fill("#name", "ann")
    page.fill("#password", PASSWORD)
    page.click("button[type=submit]")
    page.wait_for_url(server + "/")
    assert "Review queue" in page.inner_text("h1")
    shot(page, "queue")
    page.click("a.open >> nth=0")
    page.wait_for_selector("#change")
    shot(page, "change-removed")
    added = next(r for r in store.queue_rows(QueueFilter(), 100) if r["kind"] == "added")
    page.goto(f"/changes/{added['id']}")
    page.wait_for_selector("mark")
    shot(page, "change")
    page.fill("#note", "checked on the live page")
    page.keyboard.press("Escape")
    page.keyboard.press("a")
    wait_for_other(page, added["id"])
    shot(page, "change-after-accept")
    page.goto(f"/profiles/{added['profile']}")
    page.wait_for_selector(".claims")
    shot(page, "profile")
    page.goto("/audit")
    assert "checked on the live page" in page.inner_text("table.audit")
    shot(page, "audit")
    assert page.dialogs == []


def test_keyboard_review_without_reloads(browser: Any, server: str, store: Store) -> None:
    page = new_page(browser, server)
    page.click("a.open >> nth=0")
    page.wait_for_selector("#change")
    page.evaluate("window.__sameDocument = true")
    first = current_id(page)
    page.keyboard.press("j")
    second = wait_for_other(page, first)
    page.keyboard.press("k")
    assert wait_for_other(page, second) == first
    page.keyboard.press("a")
    after_accept = wait_for_other(page, first)
    assert "Accepted" in page.inner_text(".flashes")
    assert store.get_change(first)["status"] == "accepted"
    page.keyboard.press("r")
    after_reject = wait_for_other(page, after_accept)
    assert store.get_change(after_accept)["status"] == "rejected"
    page.keyboard.press("s")
    wait_for_other(page, after_reject)
    assert store.get_change(after_reject)["status"] == "pending"
    # typing a note does not trigger shortcuts
    page.keyboard.press("n")
    page.keyboard.type("a r s j k")
    assert store.get_change(after_reject)["status"] == "pending"
    page.keyboard.press("Escape")
    page.keyboard.press("u")  # undo the reject
    page.wait_for_function(
        "id => document.getElementById('change').dataset.id === id", arg=after_accept
    )
    assert "pending again" in page.inner_text(".flashes")
    assert store.get_change(after_accept)["status"] == "pending"
    assert page.evaluate("window.__sameDocument") is True  # never a full page load
    assert page.url.startswith(f"{server}/changes/{after_accept}")


def test_bulk_removals_need_a_confirmation_and_u_undoes_the_whole_bulk(
    browser: Any, server: str, store: Store, workspace: Settings
) -> None:
    page = new_page(browser, server)
    before = {p.name: p.read_bytes() for p in workspace.profiles_dir.glob("*.json")}
    boxes = page.locator("input[name=ids]")
    assert boxes.count() > 0 and not any(boxes.nth(i).is_checked() for i in range(boxes.count()))
    assert page.locator("button[data-bulk]").first.is_disabled()
    removed = [r for r in store.queue_rows(QueueFilter(kind="removed"), limit=100)]
    assert len(removed) >= 3
    chosen = removed[:3]
    for row in chosen:
        page.check(f"input[name=ids][value='{row['id']}']")
    # rows of another kind cannot join this bulk
    added = store.queue_rows(QueueFilter(kind="added"), limit=1)[0]
    assert page.locator(f"input[name=ids][value='{added['id']}']").is_disabled()
    page.click("button[data-bulk]:enabled")
    page.wait_for_selector("[data-confirm-bulk]")
    listed = page.inner_text("ul.removals")
    for row in chosen:
        assert f"{NAMES[row['profile']]}: {change_sentence(row)}" in listed  # in words
    assert all(store.get_change(r["id"])["status"] == "pending" for r in chosen)
    shot(page, "bulk-confirm-removals")
    page.click("[data-confirm-bulk]")
    page.wait_for_selector(".flash.ok")
    assert "Accepted 3 changes (removals)" in page.inner_text(".flashes")
    assert all(store.get_change(r["id"])["status"] == "accepted" for r in chosen)
    assert store.audit_entries()[0]["action"] == "bulk_accepted"
    page.keyboard.press("u")
    page.wait_for_url(f"{server}/?*undone=1*")  # back to the queue (issue 28), not a change page
    assert all(store.get_change(r["id"])["status"] == "pending" for r in chosen)
    after = {p.name: p.read_bytes() for p in workspace.profiles_dir.glob("*.json")}
    assert after == before
    # the queue says the whole bulk was taken back, naming each; the log has one entry
    flashes = page.inner_text(".flashes")
    assert "Undone: the accept of 3 changes" in flashes
    assert all(change_sentence(r) in flashes for r in chosen)
    undo_entry = store.audit_entries()[0]
    assert undo_entry["action"] == "undone"
    assert sorted(undo_entry["detail"]["changes"]) == sorted(r["id"] for r in chosen)


def test_a_fact_from_three_papers_is_one_entry_accepted_once(
    browser: Any, server: str, store: Store, workspace: Settings
) -> None:
    papers = ("1511.06434", "1701.07875", "1912.01703")
    queue(store, *(affiliation(p) for p in papers))
    page = new_page(browser, server)
    entry = page.locator("tr[data-row]", has_text="Affiliated with Facebook AI Research")
    assert entry.count() == 1 and "3 sources" in entry.inner_text()
    assert all(f"arXiv:{p}" in entry.inner_text() for p in papers)
    entry.locator("a.open").click()
    page.wait_for_selector(".fact-sources")
    assert page.locator(".fact-sources li").count() == 3
    assert "printed affiliation" in page.inner_text("#change")
    assert "affiliation_text" not in page.inner_text("#change")
    shot(page, "change-one-fact-three-papers")
    first = current_id(page)
    page.keyboard.press("a")
    wait_for_other(page, first)
    profile = json.loads((workspace.profiles_dir / "soumith-chintala.json").read_text())
    claims = [c for c in profile["claims"] if c["object"] == "Facebook AI Research"]
    assert len(claims) == 1
    urls = {r["id"]: r.get("url") for r in profile["references"]}
    assert {urls[r] for r in claims[0]["refs"]} == {f"https://arxiv.org/pdf/{p}" for p in papers}


def test_clearing_the_seed_queue_by_keyboard_alone(browser: Any, server: str, store: Store) -> None:
    page = new_page(browser, server)
    total = store.count_facts(QueueFilter())
    page.keyboard.press("j")
    page.keyboard.press("Enter")
    page.wait_for_selector("#change")
    assert f"1 of {total}" in page.inner_text("[data-position]")
    for _ in range(total):
        old = current_id(page)
        page.keyboard.press("r" if store.get_change(old)["kind"] == "removed" else "a")
        page.wait_for_function(
            "old => !document.getElementById('change') || "
            "document.getElementById('change').dataset.id !== old",
            arg=old,
        )
    page.wait_for_selector("text=Nothing left")
    assert store.count_facts(QueueFilter()) == 0


def ten_decisions_back_to_back(page: Any, store: Store) -> float:
    """Press `r` ten times without waiting, on the change page; the seconds until the tenth
    decision's change is showing (bench/review_keyboard.py times it; the tests do not)."""
    page.goto(f"/changes/{store.queue_rows(QueueFilter(), limit=1)[0]['id']}")
    page.wait_for_selector("#change")
    pending = store.count_facts(QueueFilter())
    started = time.perf_counter()
    for _ in range(10):  # pressed back to back: most land while the last swap is in flight
        page.keyboard.press("r")
    page.wait_for_function(
        "n => document.querySelectorAll('.flash.ok').length > 0 && "
        "document.querySelector('[data-position]') && "
        "document.querySelector('[data-position]').textContent.trim().endsWith('of ' + n)",
        arg=pending - 10,
        timeout=30_000,
    )
    return time.perf_counter() - started


def test_ten_keys_pressed_during_the_page_swaps_are_ten_decisions(
    browser: Any, server: str, store: Store
) -> None:
    many_pending(store, 12, sources=2)
    page = new_page(browser, server)
    pending = store.count_facts(QueueFilter())
    ten_decisions_back_to_back(page, store)
    assert store.count_facts(QueueFilter()) == pending - 10  # none dropped, none doubled
    rejected = store.count_changes(QueueFilter(status="rejected"))
    assert rejected == 10


def test_the_key_bar_covers_neither_accept_nor_reject_at_1280x900(
    browser: Any, server: str, store: Store
) -> None:
    page = new_page(browser, server)
    page.set_viewport_size({"width": 1280, "height": 900})
    for row in store.queue_rows(QueueFilter(), limit=2):
        page.goto(f"/changes/{row['id']}")
        page.wait_for_selector("#change")
        for button in ("button.accept", "button.reject"):
            page.locator(button).scroll_into_view_if_needed()
            hit = page.evaluate(
                """sel => { const b = document.querySelector(sel).getBoundingClientRect();
                   const el = document.elementFromPoint(b.x + b.width / 2, b.y + b.height / 2);
                   return !!el && !!el.closest(sel); }""",
                button,
            )
            assert hit, f"{button} is covered"
            bar = page.locator("footer.keys").bounding_box()
            box = page.locator(button).bounding_box()
            assert box["y"] + box["height"] <= bar["y"]


def test_undo_from_the_queue_restores_the_file(
    browser: Any, server: str, store: Store, workspace: Settings
) -> None:
    page = new_page(browser, server)
    target = next(
        r for r in store.queue_rows(QueueFilter(), 100) if r["profile"] == "soumith-chintala"
    )
    path = workspace.profiles_dir / "soumith-chintala.json"
    before = path.read_bytes()
    page.goto(f"/changes/{target['id']}")
    page.keyboard.press("a")
    wait_for_other(page, target["id"])
    assert path.read_bytes() != before
    page.goto("/")
    page.keyboard.press("u")
    page.wait_for_url(f"{server}/?*undone=1*")
    assert path.read_bytes() == before
    assert change_sentence(target) in page.inner_text(".flashes")


def test_hostile_page_stays_inert(browser: Any, server: str, store: Store) -> None:
    cid = hostile_change(store)
    page = new_page(browser, server)
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.goto("/")
    page.goto(f"/changes/{cid}")
    page.wait_for_selector("mark")
    assert "<script>alert('quote')</script>" in page.inner_text("mark")
    page.goto(f"/changes/{cid}/snapshot")
    page.goto("/profiles/soumith-chintala")
    page.wait_for_timeout(300)
    assert page.dialogs == []
    assert page.evaluate("document.querySelectorAll('img[onerror], svg[onload]').length") == 0


def test_post_without_the_token_is_refused(browser: Any, server: str, store: Store) -> None:
    page = new_page(browser, server)
    cid = store.queue_rows(QueueFilter(), limit=1)[0]["id"]
    answer = page.request.post(f"/changes/{cid}/decide", form={"action": "accept"})
    assert answer.status == 403
    status = page.evaluate(
        """id => fetch('/changes/' + id + '/decide', {method: 'POST',
              body: new URLSearchParams({action: 'accept'})}).then(r => r.status)""",
        cid,
    )
    assert status == 403
    assert store.get_change(cid)["status"] == "pending"


def test_two_editors_racing_exactly_one_wins(browser: Any, server: str, store: Store) -> None:
    ann, bob = new_page(browser, server, "ann"), new_page(browser, server, "bob")
    cid = store.queue_rows(QueueFilter(), limit=1)[0]["id"]
    for page in (ann, bob):
        page.goto(f"/changes/{cid}")
        page.wait_for_selector("button.accept")
    # both clicks leave before either answer comes back
    ann.click("button.accept", no_wait_after=True)
    bob.click("button.accept", no_wait_after=True)
    for page in (ann, bob):
        page.wait_for_selector(".flashes .flash")
    texts = {name: p.inner_text(".flashes") for name, p in (("ann", ann), ("bob", bob))}
    winners = [n for n, t in texts.items() if t.startswith("Accepted")]
    losers = [n for n, t in texts.items() if "already accepted by" in t]
    assert len(winners) == 1 and len(losers) == 1, texts
    assert f"already accepted by {winners[0]}" in texts[losers[0]]
    assert [h["editor"] for h in history(store, cid)] == winners
