"""The editor's page (issue 28) in Chromium at 1280x800: the evidence where the eye is (at the
place the locator names, beside the profile, no scroll), context per kind (what the profile
already states for an addition, a diff for a removal, every source's own evidence), bulk across
groups with reject and a confirmation naming each statement, undo back to the queue, names and
sentences everywhere (queue, flashes, audit log), filters, "new since my last visit" and the `?`
overlay. Screenshots (1280x800, what the eye sees) go to the test run's screenshots folder."""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import timedelta
from typing import Any

import pytest

from ingest.models import Snapshot, iso_z, utcnow
from ingest.review.decisions import decide
from ingest.review.web.passwords import add_editor
from ingest.settings import Settings
from ingest.statements import change_sentence
from ingest.storage import QueueFilter, Store

from .helpers import page as markdown_page
from .test_browser import chromium, review_server, screenshots, shot
from .test_grouping import affiliation, queue
from .test_review import CORE, lead_page, run_page
from .test_review_words import TWICE, add_nvidia
from .web_helpers import NAMES, PASSWORD, insert_change

pytestmark = pytest.mark.browser
playwright_api = pytest.importorskip("playwright.sync_api")
__all__ = ["screenshots"]  # the session fixture that puts screenshots under pytest's basetemp

VIEW = {"width": 1280, "height": 800}
SEEN = """() => { const r = (s) => { const e = document.querySelector(s);
  return e ? e.getBoundingClientRect() : null; };
  return { scroll: window.scrollY, accept: r('button.accept'), mark: r('.evidence mark'),
           evidence: r('.evidence'), profile: r('.side.current') }; }"""


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with chromium() as launched:
        yield launched


@pytest.fixture
def served(store: Store, workspace: Settings) -> Iterator[str]:
    add_editor(store, "ann", PASSWORD)
    with review_server(workspace, store) as base:
        yield base


def signed_in(browser: Any, base: str, name: str = "ann") -> Any:
    page = browser.new_context(base_url=base, viewport=VIEW).new_page()
    page.goto("/login")
    page.fill("#name", name)
    page.fill("#password", PASSWORD)
    page.click("button[type=submit]")
    page.wait_for_url(base + "/*")
    return page


def twice_listed(store: Store) -> str:
    """Alban under two headings with the same text; the claim's locator names the second."""
    body = "<html><body>" + "".join(
        f"<h3>{line}</h3>" if line in ("Lead Core Maintainer", "Optimizers (torch.optim)")
        else f"<p>{line}</p>"
        for line in TWICE.splitlines()
    ) + "</body></html>"  # fmt: skip
    url = "https://example.org/governance"
    snap = Snapshot(url=url, headers={"content-type": "text/html"}, body=body.encode())
    store.put_snapshot(snap)
    claim = {
        "subject": {"name": "Alban Desmaison", "github": "alband"},
        "predicate": "maintainer",
        "object": "PyTorch",
        "qualifiers": {"level": "module", "section": "Optimizers (torch.optim)",
                       "scope": "torch.optim", "status": "current"},
        "evidence": {"url": url, "sha256": snap.sha256,
                     "locator": "h3 'Optimizers (torch.optim)' > li 2",
                     "quote": "Alban Desmaison (albanD)"},
        "extractor": "pytorch_governance/1",
    }  # fmt: skip
    return insert_change(store, "optim00000000001", "alban-desmaison", claim, url, snap.sha256)


def test_the_evidence_is_at_the_locator_beside_the_profile_with_no_scroll(
    browser: Any, served: str, store: Store
) -> None:
    cid = twice_listed(store)
    page = signed_in(browser, served)
    page.goto(f"/changes/{cid}")
    page.wait_for_selector(".evidence mark")
    before_mark = page.evaluate(
        "() => { const m = document.querySelector('.evidence pre.context mark');"
        " const r = document.createRange(); r.setStart(m.closest('pre'), 0);"
        " r.setEndBefore(m); return r.toString(); }"
    )
    # the occurrence under the heading the locator names (the old page marked the first one)
    assert before_mark.rstrip().endswith("Jane Doe (jdoe)"), before_mark[-80:]
    seen = page.evaluate(SEEN)
    assert seen["scroll"] == 0
    for what in ("accept", "mark"):  # both in view at 1280x800 without scrolling
        box = seen[what]
        assert box["top"] >= 0 and box["bottom"] <= VIEW["height"], (what, box)
    # the evidence sits beside the profile panel (the old page put it below, at y ~ 1400)
    assert seen["evidence"]["top"] < seen["profile"]["bottom"]
    assert seen["evidence"]["right"] <= seen["profile"]["left"] + 1
    assert page.inner_text(".summary") == "Maintainer of PyTorch (torch.optim)"
    shot(page, "evidence-at-the-locator-1280x800", full_page=False)
    page.click("details.raw > summary >> nth=0")  # the raw claim, one click away
    assert "maintainer PyTorch (level module" in page.inner_text("details.raw >> nth=0")


def test_an_addition_shows_what_the_profile_already_states(
    browser: Any, served: str, store: Store, workspace: Settings
) -> None:
    ids = add_nvidia(workspace, store)
    page = signed_in(browser, served)
    row = page.locator("tr[data-row]", has_text="Affiliated with NVIDIA")
    assert row.count() == 1  # two papers, one fact
    assert "Profile already states: Affiliated with NVIDIA (printed on arXiv:1409.99999)" in (
        row.inner_text()
    )
    row.locator("a.open").click()
    page.wait_for_selector(".already")
    assert "Affiliated with NVIDIA (printed on arXiv:1409.99999)" in page.inner_text(
        ".side.current"
    )
    # every source of the fact has its own evidence and its own stored snapshot
    sources = page.locator(".fact-sources > li")
    assert sources.count() == 2
    links = {sources.nth(i).locator("a[href$='/snapshot']").get_attribute("href") for i in (0, 1)}
    assert links == {f"/changes/{i}/snapshot" for i in ids}
    shot(page, "addition-profile-already-states-1280x800", full_page=False)


def test_a_removal_shows_the_diff_of_the_snapshot_that_stated_it(
    browser: Any, served: str, store: Store, workspace: Settings
) -> None:
    first = run_page(store, workspace, lead_page(("Alban Desmaison", "albanD"), CORE))
    core = next(
        c for c in first.changes
        if c["profile"] == "soumith-chintala" and c["claim"]["qualifiers"].get("level") == "core"
    )  # fmt: skip
    decide(store, workspace.profiles_dir, core["id"], "accepted", "ann")
    later = markdown_page(
        ("Lead Core Maintainer", "", [("Alban Desmaison", "albanD")]),
        ("Core Maintainers", "", [c for c in CORE if c[0] != "Soumith Chintala"]),
        url="https://example.org/maintainers",
    )
    run_page(store, workspace, later)
    removal = next(
        r for r in store.queue_rows(QueueFilter(kind="removed"), limit=50)
        if r["profile"] == "soumith-chintala" and r.get("snapshot_sha256") == later.sha256
    )  # fmt: skip
    page = signed_in(browser, served)
    page.goto(f"/changes/{removal['id']}")
    page.wait_for_selector("[data-diff]")
    gone = page.locator("table.diff tr.diff-old")
    assert gone.count() >= 1 and "Soumith Chintala" in gone.first.inner_text()
    assert page.locator("table.diff tr.anchor").count() >= 1
    assert page.evaluate(SEEN)["accept"]["bottom"] <= VIEW["height"]
    shot(page, "removal-diff-1280x800", full_page=False)


def test_bulk_across_groups_reject_confirm_and_undo_back_to_the_queue(
    browser: Any, served: str, store: Store, workspace: Settings
) -> None:
    papers = ("1511.06434", "1605.01234", "1711.04321")
    queue(
        store,
        *(
            affiliation(p, org=org)
            for p, org in zip(papers, ("FAIR", "Google", "Meta"), strict=True)
        ),
    )
    rows = store.queue_rows(QueueFilter(), limit=10)
    assert len({r.source_url for r in rows}) == 3  # three groups
    page = signed_in(browser, served)
    assert page.locator("section.group").count() == 3
    chosen = rows[:2]  # in two different groups
    for row in chosen:
        page.check(f"input[name=ids][value='{row.id}']")
    assert page.inner_text("button[data-bulk=reject]") == "Reject 2 selected additions"
    page.click("button[data-bulk=reject]")
    page.wait_for_selector("[data-confirm-bulk]")
    listed = page.inner_text("[data-confirm-list]")
    for row in chosen:  # every statement named, with the person's name
        assert f"Soumith Chintala: {change_sentence(row)}" in listed
    assert all(store.get_change(r.id)["status"] == "pending" for r in chosen)
    shot(page, "bulk-reject-confirmation-1280x800", full_page=False)
    page.click("[data-confirm-bulk]")
    page.wait_for_selector(".flash.ok")
    assert "Rejected 2 changes (additions) in one action" in page.inner_text(".flashes")
    assert all(store.get_change(r.id)["status"] == "rejected" for r in chosen)  # none dropped
    assert store.get_change(rows[2].id)["status"] == "pending"
    page.goto("/audit")
    entry = page.locator("tr[data-audit-action=bulk_rejected]")
    assert entry.count() == 1
    for row in chosen:
        li = entry.locator("li", has_text=change_sentence(row))
        assert li.get_attribute("data-profile") == row.profile
    shot(page, "audit-log-in-words-1280x800", full_page=False)
    page.goto("/")
    page.keyboard.press("u")
    page.wait_for_url(f"{served}/?*undone=1*")
    flashes = page.inner_text(".flashes")
    assert "Undone: the reject of 2 changes" in flashes
    assert all(change_sentence(r) in flashes for r in chosen)
    assert all(store.get_change(r.id)["status"] == "pending" for r in chosen)


def test_names_filters_new_since_my_last_visit_and_the_help_overlay(
    browser: Any, served: str, store: Store, workspace: Settings
) -> None:
    run_page(store, workspace, lead_page(("Alban Desmaison", "albanD"), CORE))
    queue(store, affiliation("1511.06434"))
    page = signed_in(browser, served)
    people = page.locator("tr[data-row] td:nth-child(2)").all_inner_texts()
    assert people and set(people) <= set(NAMES.values())  # never a slug
    assert page.locator("select[name=confidence]").count() == 0  # no claim carries one
    page.select_option("select[name=predicate]", "affiliation")
    page.click("form.filters button[type=submit]")
    page.wait_for_url("**predicate=affiliation**")
    assert page.locator("tr[data-row]").count() == 1
    # a claim with a confidence brings the filter; "new since my last visit" is per editor
    page.wait_for_timeout(1100)  # times are to the second: this visit is after every row so far
    page.goto("/")
    page.context.close()
    later = iso_z(utcnow() + timedelta(seconds=2))  # queued after ann last looked
    claim = affiliation("1605.01234", org="Google").claim | {}
    claim["qualifiers"] = claim["qualifiers"] | {"confidence": 0.9}
    insert_change(
        store, "conf000000000001", "soumith-chintala", claim,
        "https://arxiv.org/pdf/1605.01234", created=later,
    )  # fmt: skip
    page = signed_in(browser, served)
    new_rows = page.locator("tr[data-row].new")
    assert new_rows.count() == 1 and "Affiliated with Google" in new_rows.inner_text()
    page.goto("/?new=1")
    assert page.locator("tr[data-row]").count() == 1
    page.goto("/?confidence=0.8")
    assert page.locator("select[name=confidence]").count() == 1
    assert page.locator("tr[data-row]").count() == 1
    page.goto("/")
    page.keyboard.press("?")
    assert page.locator("#help").is_visible()
    assert "bulk accept / reject" in page.inner_text("#help")
    shot(page, "help-overlay-1280x800", full_page=False)
    page.keyboard.press("Escape")
    assert not page.locator("#help").is_visible()
    assert json.loads(json.dumps(store.last_visit("ann"))) is not None
