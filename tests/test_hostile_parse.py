"""Hostile documents stay bounded (issue 17).

- a text document over INGEST_MAX_PARSE_BYTES is refused before any parser sees it (the run
  records the source as failed, nothing stored changes); so is a feed, before feedparser;
- at most INGEST_MAX_CLAIMS claims are kept from a document, at most INGEST_MAX_FEED_ENTRIES
  entries (the newest) from a feed, each time with an alert naming the counts;
- HTML nests at most MAX_HTML_DEPTH deep before lexbor builds it (unclosed `<ul><li>` made the
  parse quadratic) and re-opens a bounded number of formatting elements;
- every reader is linear on the pages that made it quadratic;
- `ingest extract` reads at most INGEST_MAX_BYTES + 1 bytes of any file (/dev/zero, a pipe).

The big cases run in child processes, all started at once: each reports its CPU time and its
peak RSS (ru_maxrss of the child, the interpreter and its imports included).
"""

from __future__ import annotations

import gc
import json
import os
import random
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from selectolax.lexbor import LexborNode

import extractors
from extractors.announcements import post as announcement
from extractors.governance import generic as governance
from extractors.governance import pytorch as pytorch_governance
from extractors.people import names as _people
from extractors.people.labels import Labels
from ingest import html_nesting
from ingest.documents import check_parse_size, parse_html, snapshot_from_file
from ingest.errors import ConfigError, DocumentTooLargeError, StoreError
from ingest.fetch.client import FetchResult
from ingest.html_nesting import MAX_HTML_DEPTH, bounded_nesting
from ingest.models import Snapshot, Source
from ingest.pipeline.batches import feed_fetched, source_fetched
from ingest.pipeline.feeds import FEED, newest, parse_feed
from ingest.pipeline.process import capped, process_snapshot
from ingest.settings import Settings
from ingest.storage import Store
from ingest_cli.cli import main

from .conftest import ROOT

PAGE_URL = "https://example.org/governance"
FEED_URL = "https://blog.example.org/feed.xml"
HEAD = "<html><head><title>Foo Maintainers</title></head><body><h2>Maintainers</h2>"
MAX_PEAK_MB = 300  # no bounded case may come near this


def name(i: int) -> str:
    """A distinct two-word name for each number ("Alice Baaa", "Alice Caaa", ...)."""
    return "Alice " + "".join(chr(97 + (i // 26**k) % 26) for k in range(4)).capitalize()


def unclosed_items(count: int, head: str = HEAD) -> str:
    return head + "<ul><li>Name (handle)" * count


def closed_page(count: int) -> str:
    items = "".join(f"<li>{name(i)} (handle{i})</li>" for i in range(count))
    return f"{HEAD}<ul>{items}</ul></body></html>"


def fetched(snap: Snapshot) -> FetchResult:
    return FetchResult(
        status="fetched", snapshot=snap, url=snap.url, final_url=snap.url, http_status=200
    )


def rss_feed(count: int, dated: Callable[[int], str | None] = lambda i: None) -> bytes:
    items = []
    for i in range(count):
        when = dated(i)
        date = f"<pubDate>{when}</pubDate>" if when else ""
        items.append(
            f"<item><title>Post {i}</title><link>https://blog.example.org/p/{i}/</link>"
            f"{date}</item>"
        )
    return (
        '<?xml version="1.0" encoding="UTF-8"?><rss version="2.0"><channel><title>Blog</title>'
        + "".join(items)
        + "</channel></rss>"
    ).encode()


def cpu_seconds(work: Callable[[], object], runs: int = 2) -> float:
    """The least CPU time of `runs` runs (the HTML bound's memo cleared before each)."""
    best = float("inf")
    for _ in range(runs):
        html_nesting._bounded_nesting.cache_clear()
        start = time.process_time()
        work()
        best = min(best, time.process_time() - start)
    return best


def assert_linear(work_of_size: Callable[[int], Callable[[], object]], size: int) -> None:
    """The work on 4x the input costs well under the 16x a quadratic reader would.

    A ratio, not a wall-clock budget: CPU time of the best of three runs, with the garbage
    collector paused (its passes over millions of young objects are what made a 2x ratio
    noisy on a loaded machine). Linear is 4x; the bound is 8x.
    """
    small_work, large_work = work_of_size(size), work_of_size(4 * size)
    gc.collect()
    gc.disable()
    try:
        small, large = cpu_seconds(small_work, runs=3), cpu_seconds(large_work, runs=3)
    finally:
        gc.enable()
    assert large < 8 * max(small, 0.01), (small, large)


def tree_depth(node: LexborNode) -> int:
    deepest, stack = 0, [(node, 1)]
    while stack:
        current, depth = stack.pop()
        deepest = max(deepest, depth)
        child = current.child
        while child is not None:
            if child.tag != "-text":
                stack.append((child, depth + 1))
            child = child.next
    return deepest


# ============================================================================================
# the big cases, measured in child processes

# Peak memory is the child's own VmHWM: ru_maxrss would start at the parent's high-water mark
# (Linux carries it over fork and exec), so after a long test session every child would report
# pytest's own peak.
CHILD = """
import json, re, time
{setup}
cpu, wall = time.process_time(), time.perf_counter()
result = run()
with open("/proc/self/status") as status:
    hwm_kb = int(re.search(r"VmHWM:\\s+(\\d+) kB", status.read()).group(1))
print(json.dumps({{
    "cpu": time.process_time() - cpu,
    "wall": time.perf_counter() - wall,
    "peak_mb": hwm_kb / 1024,
    "result": result,
}}))
"""

PIPELINE = """
{setup}
import extractors
from ingest.pipeline.batches import source_fetched
from ingest.fetch.client import FetchResult
from ingest.html_nesting import MAX_HTML_DEPTH, bounded_nesting
from ingest.models import Snapshot, Source
from ingest.settings import Settings
from ingest.storage import Store
settings = Settings()
store = Store.open(settings)
snap = Snapshot(url=URL, headers={{"content-type": "text/html"}}, body=BODY)
answer = FetchResult(status="fetched", snapshot=snap, url=URL, final_url=URL, http_status=200)
def run():
    outcome = source_fetched(store, settings, Source(url=URL), answer, {{}}, extractors=extractors)
    return {{"status": outcome.status, "claims": outcome.claims, "alerts": outcome.alerts[:3],
            "error": outcome.error, "size": len(BODY)}}
"""

FEED_RUN = """
{setup}
import extractors
from ingest.pipeline.batches import feed_fetched
from ingest.fetch.client import FetchResult
from ingest.html_nesting import MAX_HTML_DEPTH, bounded_nesting
from ingest.models import Snapshot, Source
from ingest.settings import Settings
from ingest.storage import Store
settings = Settings()
store = Store.open(settings)
URL = "https://blog.example.org/feed.xml"
items = "".join(
    f"<item><title>Post {{i}}</title><link>https://blog.example.org/p/{{i}}/</link>"
    f"<pubDate>Mon, 09 Mar 2026 {{i % 24:02d}}:00:00 +0000</pubDate></item>" for i in range(N)
)
BODY = ('<?xml version="1.0"?><rss version="2.0"><channel><title>Blog</title>' + items
        + "</channel></rss>").encode()
del items
snap = Snapshot(url=URL, headers={{"content-type": "application/rss+xml"}}, body=BODY)
answer = FetchResult(status="fetched", snapshot=snap, url=URL, final_url=URL, http_status=200)
def run():
    outcome = feed_fetched(
        store, Source(url=URL, extractor="feed"), answer, settings, extractors=extractors
    )
    return {{"status": outcome.status, "alerts": outcome.alerts[:1], "error": outcome.error,
            "sources": len(store.discovered_sources()), "size": len(BODY)}}
"""

DEV_ZERO = """
from click.testing import CliRunner
from ingest_cli.cli import main
def run():
    result = CliRunner().invoke(main, ["extract", "/dev/zero", "--url", "https://example.org/z"])
    return {"exit": result.exit_code, "stderr": result.stderr}
"""

EXTRACT_5MB = """
import os, tempfile
from click.testing import CliRunner
from ingest_cli.cli import main
page = os.path.join(tempfile.mkdtemp(), "page.html")
with open(page, "w") as out:
    out.write({head!r} + "<ul>" + "".join(
        f"<li>Ada Person{{chr(65 + i % 26)}} (handle{{i}})</li>" for i in range(150_000)
    ) + "</ul></body></html>")
def run():
    result = CliRunner().invoke(main, ["extract", page, "--url", {url!r}])
    return {{"exit": result.exit_code, "lines": len(result.stdout.splitlines()),
            "stderr": result.stderr}}
"""

# Markup documents just under INGEST_MAX_MARKUP_BYTES (512 KiB), one person a line
MARKUP = {
    "markdown": (
        "https://example.org/MAINTAINERS.md",
        "# Maintainers\\n\\n",
        "- Ada Person{c} (@h{i})\\n",
    ),
    "rst": (
        "https://example.org/governance.rst",
        "Maintainers\\n===========\\n\\n",
        "- Ada Person{c} (`@h{i} <https://github.com/h{i}>`_)\\n",
    ),
    "yaml": (
        "https://example.org/maintainers.yaml",
        "maintainers:\\n",
        "  - name: Ada Person{c}\\n    github: h{i}\\n",
    ),
}


def markup_case(kind: str, size: int) -> str:
    url, head, unit = MARKUP[kind]
    return PIPELINE.format(
        setup=f"""URL = {url!r}
lines, total, i = ["{head}"], 0, 0
while total < {size} - 100:
    line = "{unit}".format(c=chr(65 + i % 26), i=i)
    lines.append(line); total += len(line); i += 1
BODY = "".join(lines).encode()"""
    )


CASES = {
    # 5 MB, 150,000 people (was 13 s and 457 MB; 50 MB: 471 s and 3.6 GB); "Name" would read as
    # a template placeholder, so the constructed people are "Ada PersonX"
    "governance_5mb": PIPELINE.format(
        setup=f"""URL = {PAGE_URL!r}
BODY = ({HEAD!r} + "<ul>" + "".join(
    f"<li>Ada Person{{chr(65 + i % 26)}} (handle{{i}})</li>" for i in range(150_000)
) + "</ul></body></html>").encode()"""
    ),
    # 100,000 unclosed items, at a URL no extractor claims: every extractor reads the content
    "unclosed_100k": PIPELINE.format(
        setup=f"""URL = "https://example.org/page"
BODY = ({HEAD!r} + "<ul><li>Name (handle)" * 100_000).encode()"""
    ),
    # 50 MB: over the parse limit, refused before any parser
    "page_50mb": PIPELINE.format(
        setup=f"""URL = {PAGE_URL!r}
BODY = {HEAD.encode()!r} + b"<li>Name Person (handle)</li>" * 1_800_000"""
    ),
    # 100,000 entries, 13 MB (was ~300 s and 100,000 new sources): refused before feedparser
    "feed_100k": FEED_RUN.format(setup="N = 100_000"),
    # 8,000 entries: parsed, the 500 newest registered
    "feed_8k": FEED_RUN.format(setup="N = 8_000"),
    # `ingest extract /dev/zero` with the default INGEST_MAX_BYTES (50 MB)
    "dev_zero": DEV_ZERO,
    # `ingest extract` of the 5 MB page: capped too (printed all 150,000: 25 s, 589 MB)
    "extract_5mb": EXTRACT_5MB.format(head=HEAD, url=PAGE_URL),
    # Markdown, reST, YAML just under their limit (10 MB of each: 160 s / 1 GB, 247 s / 2.4 GB,
    # past 300 s), and 10 MB of Markdown, refused
    **{f"{kind}_at_limit": markup_case(kind, 512 * 1024) for kind in MARKUP},
    "markdown_10mb": markup_case("markdown", 10_000_000),
}


@pytest.fixture(scope="module")
def measured(tmp_path_factory: pytest.TempPathFactory) -> dict[str, dict[str, Any]]:
    """Every case of CASES run in its own child process, all at once; their reports by name."""
    children = {}
    for case, setup in CASES.items():
        home = tmp_path_factory.mktemp(case)
        env = {k: v for k, v in os.environ.items() if not k.startswith("INGEST_")}
        env.update(INGEST_HOME=str(home / "home"), INGEST_PROFILES_DIR=str(home))
        children[case] = subprocess.Popen(
            [sys.executable, "-c", CHILD.format(setup=setup)],
            cwd=ROOT,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
    reports = {}
    for case, child in children.items():
        out, err = child.communicate(timeout=600)
        assert child.returncode == 0, f"{case}: {err[-2000:]}"
        reports[case] = json.loads(out.strip().splitlines()[-1])
        print(f"{case}: {reports[case]}")
    return reports


# The 5 MB page of 150,000 people: every case above runs at once on the machine's 2 cores, so
# its CPU time grows with the contention: 28.9-32.2 s measured for the code of 3a51a5a and of
# this commit alike at load 4-6 (under 30 s on a quiet machine). The bound is there against
# the quadratic reading this page once had (minutes), not to pin the figure: make bench does.
CAPPED_PAGE_CPU_S = 45


def test_a_5mb_page_of_150000_people_is_capped_in_seconds(measured: dict[str, Any]) -> None:
    report = measured["governance_5mb"]
    assert report["result"]["claims"] == 20_000
    assert report["result"]["alerts"][0].startswith("claims capped at 20000 of 150000 from ")
    assert report["cpu"] < CAPPED_PAGE_CPU_S and report["peak_mb"] < MAX_PEAK_MB, report


def test_100k_unclosed_items_finish_in_seconds(measured: dict[str, Any]) -> None:
    report = measured["unclosed_100k"]
    assert report["result"]["status"] == "fetched", report
    assert report["cpu"] < 30 and report["peak_mb"] < MAX_PEAK_MB, report


def test_a_50mb_page_is_refused_before_parsing(measured: dict[str, Any]) -> None:
    report = measured["page_50mb"]
    assert report["result"]["status"] == "failed"
    assert PAGE_URL in report["result"]["error"] and "parse limit" in report["result"]["error"]
    assert report["cpu"] < 5 and report["peak_mb"] < MAX_PEAK_MB, report


def test_a_feed_of_100k_entries_is_refused_before_feedparser(measured: dict[str, Any]) -> None:
    report = measured["feed_100k"]
    assert report["result"]["status"] == "failed" and report["result"]["sources"] == 0
    assert FEED_URL in report["result"]["error"] and "the feed is" in report["result"]["error"]
    assert report["cpu"] < 5 and report["peak_mb"] < MAX_PEAK_MB, report


def test_a_feed_of_8000_entries_registers_the_500_newest(measured: dict[str, Any]) -> None:
    report = measured["feed_8k"]
    assert report["result"]["sources"] == 500, report
    assert report["result"]["alerts"] == [
        f"feed: '{FEED_URL}' lists 8000 entries, over the limit of 500 "
        "(INGEST_MAX_FEED_ENTRIES): the 500 newest read, 7500 older dropped"
    ]
    assert report["cpu"] < 30 and report["peak_mb"] < MAX_PEAK_MB, report


def test_extract_dev_zero_stops_at_the_byte_limit(measured: dict[str, Any]) -> None:
    report = measured["dev_zero"]
    assert report["result"]["exit"] == 1
    assert "'/dev/zero' is larger than the limit of 52428800 bytes" in report["result"]["stderr"]
    assert report["cpu"] < 10 and report["peak_mb"] < MAX_PEAK_MB, report


def test_ingest_extract_caps_claims_with_a_warning(measured: dict[str, Any]) -> None:
    report = measured["extract_5mb"]
    assert report["result"]["exit"] == 0 and report["result"]["lines"] == 20_000, report
    assert report["result"]["stderr"] == (
        f"warning: claims capped at 20000 of 150000 from '{PAGE_URL}' (INGEST_MAX_CLAIMS): "
        "130000 dropped, no removals flagged\n"
    )
    assert report["cpu"] < CAPPED_PAGE_CPU_S and report["peak_mb"] < MAX_PEAK_MB, report


@pytest.mark.parametrize("kind", sorted(MARKUP))
def test_markup_just_under_its_limit_reads_in_seconds(measured: dict[str, Any], kind: str) -> None:
    report = measured[f"{kind}_at_limit"]
    assert report["result"]["status"] == "fetched" and report["result"]["claims"] > 5_000, report
    assert report["cpu"] < 30 and report["peak_mb"] < MAX_PEAK_MB, report


def test_markup_over_its_limit_is_refused_before_parsing(measured: dict[str, Any]) -> None:
    report = measured["markdown_10mb"]
    assert report["result"]["status"] == "failed"
    assert "over the parse limit of 524288 (INGEST_MAX_MARKUP_BYTES)" in report["result"]["error"]
    assert report["cpu"] < 5 and report["peak_mb"] < MAX_PEAK_MB, report


# ============================================================================================
# the parse limit


def test_a_text_document_over_the_parse_limit_fails_and_keeps_what_was_stored(
    workspace: Settings, store: Store
) -> None:
    settings = workspace.model_copy(update={"max_parse_bytes": 20_000})
    source = Source(url=PAGE_URL)
    first = Snapshot(url=PAGE_URL, body=closed_page(3).encode())
    done = source_fetched(store, settings, source, fetched(first), {}, extractors=extractors)
    assert done.status == "fetched" and done.claims == 3

    big = Snapshot(url=PAGE_URL, body=closed_page(2_000).encode())
    failed = source_fetched(store, settings, source, fetched(big), {}, extractors=extractors)
    assert failed.status == "failed"
    assert failed.error == (
        f"could not extract claims from '{PAGE_URL}': the document is {len(big.body)} bytes, "
        "over the parse limit of 20000 (INGEST_MAX_PARSE_BYTES)"
    )
    state = store.source_state(PAGE_URL) or {}
    assert state["last_sha256"] == first.sha256 and state["fail_streak"] == 1
    assert len(store.claims_for(first.sha256)) == 3
    with pytest.raises(StoreError, match="no snapshot with sha256"):  # not even stored
        store.get_snapshot(big.sha256)


def test_the_parse_limit_spares_pdfs_and_names_what_it_refuses() -> None:
    tiny = Settings(max_parse_bytes=10, max_markup_bytes=10)
    pdf = Snapshot(url="https://arxiv.org/pdf/1", body=b"%PDF-1.7\n" + b"0" * 100)
    check_parse_size(pdf, tiny)  # PDFs: INGEST_MAX_BYTES bounds them
    feed = Snapshot(url=FEED_URL, body=rss_feed(3))
    with pytest.raises(DocumentTooLargeError, match="the feed is .* over the parse limit of 10"):
        check_parse_size(feed, tiny, what="feed")


@pytest.mark.parametrize(
    ("url", "body"),
    [
        ("https://example.org/MAINTAINERS.md", "# Maintainers\n\n" + "- Ada Lovelace (@a)\n" * 60),
        ("https://example.org/people.rst", "People\n======\n\n" + "- Ada Lovelace\n" * 80),
        ("https://example.org/maintainers.yaml", "people:\n" + "  - name: Ada Lovelace\n" * 60),
    ],
)
def test_markup_formats_have_a_smaller_parse_limit(url: str, body: str) -> None:
    """Markdown, reST and YAML parsers take 150-280 MB for 1 MB: a limit of their own."""
    settings = Settings(max_parse_bytes=100_000, max_markup_bytes=1_000)
    snap = Snapshot(url=url, body=body.encode())
    with pytest.raises(DocumentTooLargeError) as caught:
        check_parse_size(snap, settings)
    assert str(caught.value) == (
        f"could not extract claims from '{url}': the document is {len(snap.body)} bytes, "
        "over the parse limit of 1000 (INGEST_MAX_MARKUP_BYTES)"
    )
    check_parse_size(snap, settings.model_copy(update={"max_markup_bytes": 100_000}))
    html = Snapshot(url=PAGE_URL, body=closed_page(40).encode())  # HTML: the larger limit
    assert 1_000 < len(html.body) < 100_000
    check_parse_size(html, settings)


def test_line_based_maintainers_and_codeowners_files_get_the_larger_limit() -> None:
    """The kernel's MAINTAINERS (~800 kB) is read line by line, not by a markup parser."""
    settings = Settings(max_parse_bytes=100_000, max_markup_bytes=1_000)
    sections = "".join(
        f"DRIVER {i}\nM:\tAda Person{i} <ada{i}@example.org>\nS:\tMaintained\n\n"
        for i in range(500)
    )
    assert 1_000 < len(sections) < 100_000
    for url in (
        "https://raw.githubusercontent.com/torvalds/linux/master/MAINTAINERS",
        "https://example.org/repo/raw/main/.github/CODEOWNERS",
        "https://example.org/iproute2/MAINTAINERS.txt",
    ):
        check_parse_size(Snapshot(url=url, body=sections.encode()), settings)
    for url in ("https://example.org/MAINTAINERS.md", "https://example.org/maintainers"):
        with pytest.raises(DocumentTooLargeError, match="INGEST_MAX_MARKUP_BYTES"):
            check_parse_size(Snapshot(url=url, body=sections.encode()), settings)


def test_ingest_extract_refuses_a_file_over_the_parse_limit(
    workspace: Settings, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    page = tmp_path / "page.html"
    page.write_text(closed_page(200))
    monkeypatch.setenv("INGEST_MAX_PARSE_BYTES", "5000")
    result = CliRunner().invoke(main, ["extract", str(page), "--url", PAGE_URL])
    assert result.exit_code == 1
    assert f"'{PAGE_URL}'" in result.stderr and "over the parse limit of 5000" in result.stderr


# ============================================================================================
# the claims cap


def test_claims_are_capped_with_an_alert_and_no_removals(workspace: Settings, store: Store) -> None:
    settings = workspace.model_copy(update={"max_claims": 50})
    chair = f"<p>{name(2)} is the chair.</p>"  # marks a kept claim lead, after the list
    snap = Snapshot(url=PAGE_URL, body=closed_page(120).replace("</ul>", "</ul>" + chair).encode())
    outcome = process_snapshot(
        store, settings, Source(url=PAGE_URL), snap, {}, extractors=extractors
    )
    assert outcome.claims == 50
    assert outcome.alerts[0] == (
        f"claims capped at 50 of 120 from '{PAGE_URL}' (INGEST_MAX_CLAIMS): 70 dropped, "
        "no removals flagged"
    )
    state = store.source_state(PAGE_URL) or {}
    assert state.get("last_sha256") is None  # not healthy: nothing removed, nothing settled
    assert store.claims_for(snap.sha256) == []  # not stored: the next run reads it again
    again = process_snapshot(store, settings, Source(url=PAGE_URL), snap, {}, extractors=extractors)
    assert again.alerts[0] == outcome.alerts[0]

    kept = capped(extractors.claims_of(governance, snap), 50)
    every = governance.extract(snap)
    assert kept.total == 120 and kept.claims == every[:50]
    assert kept.claims[2].qualifiers["level"] == "lead"


def test_an_extractor_without_iter_claims_is_capped_too() -> None:
    snap = Snapshot(url="https://example.org/x", body=b"")
    plain = type(sys)("plain")  # a module with `extract` only
    plain.extract = lambda _snap: ["a", "b", "c"]
    kept = capped(extractors.claims_of(plain, snap), 2)
    assert kept.claims == ["a", "b"] and kept.total == 3 and kept.dropped == 1


# ============================================================================================
# feeds


def test_a_feed_keeps_its_newest_entries(workspace: Settings, store: Store) -> None:
    def dated(i: int) -> str | None:  # oldest first, every third undated
        return None if i % 3 == 0 else f"Mon, {1 + i:02d} Mar 2026 10:00:00 +0000"

    settings = workspace.model_copy(update={"max_feed_entries": 10})
    snap = Snapshot(url=FEED_URL, body=rss_feed(30, dated))
    outcome = feed_fetched(
        store, Source(url=FEED_URL, extractor=FEED), fetched(snap), settings, extractors=extractors
    )
    assert outcome.alerts[0] == (
        f"feed: '{FEED_URL}' lists 30 entries, over the limit of 10 "
        "(INGEST_MAX_FEED_ENTRIES): the 10 newest read, 20 older dropped"
    )
    found = {s.url.rsplit("/", 2)[1] for s in store.discovered_sources()}
    assert found == {"29", "28", "26", "25", "23", "22", "20", "19", "17", "16"}
    again = feed_fetched(
        store, Source(url=FEED_URL, extractor=FEED), fetched(snap), settings, extractors=extractors
    )
    assert again.alerts == [outcome.alerts[0]]  # nothing new the second time

    undated = parse_feed(Snapshot(url=FEED_URL, body=rss_feed(12))).entries
    assert [e.url for e in newest(undated, 3)] == [e.url for e in undated[:3]]  # feed order


def test_a_feed_over_the_parse_limit_never_reaches_feedparser(
    workspace: Settings, store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    def refuse(*_args: object, **_kwargs: object) -> None:
        raise AssertionError("feedparser was called")

    monkeypatch.setattr("feedparser.parse", refuse)  # (imported by parse_feed)
    settings = workspace.model_copy(update={"max_parse_bytes": 1_000})
    snap = Snapshot(url=FEED_URL, body=rss_feed(50))
    outcome = feed_fetched(
        store, Source(url=FEED_URL, extractor=FEED), fetched(snap), settings, extractors=extractors
    )
    assert outcome.status == "failed" and "the feed is" in (outcome.error or "")
    assert store.discovered_sources() == []


# ============================================================================================
# reading files


def test_ingest_extract_dev_zero_exits_1_at_a_small_limit(
    workspace: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("INGEST_MAX_BYTES", "100000")
    start = time.perf_counter()
    result = CliRunner().invoke(main, ["extract", "/dev/zero", "--url", "https://example.org/z"])
    assert time.perf_counter() - start < 5
    assert result.exit_code == 1
    log = workspace.home / "logs" / "ingest.log"
    assert result.stderr == (  # one line, naming the log (issue 22)
        "error: file '/dev/zero' is larger than the limit of 100000 bytes (INGEST_MAX_BYTES)"
        f" (log: {log})\n"
    )


def test_a_file_is_read_up_to_the_limit_whatever_it_is(tmp_path: Path) -> None:
    exact = tmp_path / "exact.md"
    exact.write_bytes(b"# x\n" + b"a" * 996)
    assert len(snapshot_from_file(PAGE_URL, exact, 1000).body) == 1000
    with pytest.raises(ConfigError, match="exact.md' is larger than the limit of 999 bytes"):
        snapshot_from_file(PAGE_URL, exact, 999)

    pipe = tmp_path / "pipe"
    os.mkfifo(pipe)

    def write(size: int) -> None:
        try:
            with pipe.open("wb") as out:
                out.write(b"a" * size)
        except BrokenPipeError:
            pass  # the reader stopped at its limit

    for size, fits in ((800, True), (5_000, False)):
        writer = threading.Thread(target=write, args=(size,), daemon=True)
        writer.start()
        try:
            if fits:
                assert len(snapshot_from_file(PAGE_URL, pipe, 1000).body) == size
            else:
                with pytest.raises(ConfigError, match="larger than the limit of 1000 bytes"):
                    snapshot_from_file(PAGE_URL, pipe, 1000)
        finally:
            writer.join(timeout=10)


# ============================================================================================
# HTML nesting


def test_unclosed_list_items_parse_in_linear_time() -> None:
    def extract(count: int) -> Callable[[], object]:
        snap = Snapshot(url=PAGE_URL, body=unclosed_items(count).encode())
        return lambda: governance.extract(snap)

    assert_linear(extract, 10_000)  # 20,000 items took 5.9 s, 100,000 past 300 s


@pytest.mark.parametrize(
    ("module", "url"),
    [
        (
            pytorch_governance,
            "https://docs.pytorch.org/docs/stable/community/persons_of_interest.html",
        ),
        (announcement, "https://pytorch.org/blog/a-post/"),
    ],
)
def test_every_html_reader_is_linear_on_unclosed_items(module: Any, url: str) -> None:
    def extract(count: int) -> Callable[[], object]:
        snap = Snapshot(url=url, body=unclosed_items(count).encode())
        return lambda: module.extract(snap)

    assert_linear(extract, 5_000)  # announcement: 500 items took 26 s (a subtree compared by HTML)


def test_deep_nesting_is_cut_at_the_bound_and_keeps_the_text() -> None:
    html = "<html><body>" + "<div>x" * 5_000 + "</div>" * 5_000
    tree = parse_html(html)
    assert tree.root is not None and tree_depth(tree.root) <= MAX_HTML_DEPTH + 3
    assert tree.body is not None and tree.body.text() == "x" * 5_000
    items = parse_html(unclosed_items(2_000))
    assert len(items.css("li")) == 2_000


def test_formatting_elements_are_not_reopened_without_bound() -> None:
    # 2,000 unclosed <b> re-opened in each of 2,000 paragraphs: 4 million elements (1.8 GB)
    html = "<body><p>" + "".join(f"<b id={i}>" for i in range(2_000)) + "<p>x" * 2_000
    start = time.process_time()
    tree = parse_html(html)
    assert tree.root is not None
    elements = sum(1 for _ in tree.root.traverse(include_text=False))
    assert elements < 100_000 and time.process_time() - start < 2, elements


def test_ordinary_pages_are_parsed_as_they_are() -> None:
    pages = sorted((ROOT / "fixtures").rglob("*.html"))
    assert len(pages) >= 10
    for page in pages:
        text = page.read_text(encoding="utf-8", errors="replace")
        assert bounded_nesting(text) is text, page
    sloppy = "<body>" + "<p>para <b>bold <i>it" * 300 + "<ul><li>a<li>b</ul>" * 300
    assert bounded_nesting(sloppy) is sloppy  # implied ends, re-opened formatting: no depth


# ============================================================================================
# the other quadratic readers


def test_a_long_run_before_an_at_sign_is_no_email_search_bomb() -> None:
    text = "a." * 40_000 + "@x"  # EMAIL.search took 10 s on 80 kB
    start = time.process_time()
    assert _people.find_email(text) is None
    assert _people.person(text, ()) is None
    assert time.process_time() - start < 1
    rng = random.Random(17)
    for _ in range(20_000):
        sample = "".join(rng.choice("a.-@<>x _é1%Z") for _ in range(rng.randint(0, 24)))
        expected, found = _people.EMAIL.search(sample), _people.find_email(sample)
        assert (expected and expected.span()) == (found and found.span()), sample


def test_link_labels_are_found_as_one_by_one() -> None:
    rng = random.Random(5)
    for _ in range(500):
        links = tuple(
            ("".join(rng.choice("ab c") for _ in range(rng.randint(0, 5))), str(i))
            for i in range(rng.randint(1, 40))
        )
        labels = Labels(links)
        for _ in range(5):
            text = "".join(rng.choice("ab c") for _ in range(rng.randint(0, 30)))
            assert labels.within(text) == tuple(
                link for link in links if link[0] and link[0] in text
            )


def prose_page(count: int) -> Snapshot:
    names = ", ".join(f'<a href="https://github.com/u{i}">{name(i)}</a>' for i in range(count))
    chairs = " ".join(f"{name(i)} P. Q. is the chair." for i in range(count))
    return Snapshot(
        url=PAGE_URL,
        body=f"{HEAD}<p>The council consists of {names}.</p><p>{chairs}</p>".encode(),
    )


def test_prose_of_many_linked_names_reads_in_linear_time() -> None:
    assert len(governance.extract(prose_page(3_000))) >= 3_000

    def extract(count: int) -> Callable[[], object]:
        page = prose_page(count)
        return lambda: governance.extract(page)

    assert_linear(extract, 1_500)


def test_many_small_blocks_read_in_linear_time() -> None:
    def page(count: int) -> Snapshot:  # a list run per item: each run copied the rest
        body = HEAD + "".join(f"<ul><li>{name(i)} (u{i})</li></ul><p>x</p>" for i in range(count))
        return Snapshot(url=PAGE_URL, body=body.encode())

    def extract(count: int) -> Callable[[], object]:
        snap = page(count)
        return lambda: governance.extract(snap)

    assert_linear(extract, 2_500)


def test_iter_claims_gives_what_extract_gives() -> None:
    pytorch_page = (
        "<html><head><title>PyTorch Governance | Maintainers</title></head><body>"
        "<h2>Core Maintainers</h2><ul>"
        + "".join(
            f"<li>{name(i)} (<a href='https://github.com/u{i}'>u{i}</a>)</li>" for i in range(1500)
        )
        + "</ul>"
    )
    for module, snap in (
        (governance, prose_page(30)),
        (pytorch_governance, Snapshot(url=PAGE_URL, body=pytorch_page.encode())),
    ):
        streamed: Iterator[Any] = module.iter_claims(snap)
        claims = module.extract(snap)
        assert list(streamed) == claims and len(claims) >= 60


@pytest.mark.parametrize(
    "unit",
    [
        "## {name}\n\nbio text\n\n",  # a heading per person, each with its bio
        "{name}\n\n",  # person cards: one name a paragraph
        "- `area{i}`: {name} (<a{i}@example.org> / @u{i}), Max Muster (@m{i})\n",  # area lists
    ],
)
def test_markdown_shapes_read_in_linear_time(unit: str) -> None:
    def extract(count: int) -> Callable[[], object]:
        body = "# Maintainers\n\n" + "".join(unit.format(name=name(i), i=i) for i in range(count))
        snap = Snapshot(url="https://example.org/MAINTAINERS.md", body=body.encode())
        return lambda: governance.extract(snap)

    assert_linear(extract, 1_000)


def test_a_plain_text_page_of_long_prose_lines_is_sniffed_in_linear_time() -> None:
    """A page sniffed as plain text is tried as CODEOWNERS: a prose line of N words that is no
    rule must be rejected in time linear in N (the owners pattern let every word split in two
    anywhere, so 14 words took 15 s, a real post's 30-word line hours)."""
    from extractors.document import data as _data

    words = [f"word{i}" for i in range(14)]
    line = " ".join(words * 3) + " (the end)."  # 42 words, ends in what no owner may hold
    started = time.process_time()
    assert _data.sniff("\n".join([line] * 50)) is None
    assert _data.CODEOWNERS_RULE.match("docs/** @org/docs-team user@example.com  ")
    assert time.process_time() - started < 0.5


def test_a_text_of_blank_lines_is_sniffed_in_linear_time() -> None:
    """The TOML and YAML shape tests are multi-line patterns: a `\\s*` after `^` ran across line
    ends, so a text of 100,000 comment lines and 100,000 blank lines took 100 s to be called
    "not TOML" (every line start tried to the end of the text)."""
    from extractors.document import data as _data

    def sniff(size: int) -> Callable[[], object]:
        text = "//\n" * size + "\n" * size
        return lambda: _data.sniff(text)

    assert sniff(10)() is None
    assert_linear(sniff, 20_000)
    assert _data.sniff("[people.jroe]\r\nname = 'Jane Roe'\r\n") == "toml"
    assert _data.sniff('  [Org."Core maintainers"]  \nx = 1\n') == "toml"
    assert _data.sniff("maintainers:\r\n  - jroe\r\n") == "yaml"


@pytest.mark.parametrize(
    ("url", "line", "title"),
    [
        ("https://example.org/notes.md", "# x{spaces}y ##\n", "x{spaces}y"),
        ("https://example.org/notes.rst", "x{spaces}y{spaces}\n", None),
        ("https://example.org/notes.rst", "x{spaces}y\n=====\n", "x{spaces}y"),
    ],
)
def test_a_title_line_of_long_space_runs_is_read_in_linear_time(
    url: str, line: str, title: str | None
) -> None:
    """A page's title is found by one pattern per format: a lazy title before an optional tail
    tried every split of a line's spaces (a Markdown title line of 2,000 spaces took 61 s)."""
    from ingest.documents import title_of

    def read(size: int) -> Callable[[], object]:
        body = line.format(spaces=" " * size).encode()
        return lambda: title_of(Snapshot(url=url, body=body))

    assert read(3)() == (title and title.format(spaces="   "))
    assert_linear(read, 20_000)


def test_markdown_titles_lose_only_their_closing_hashes() -> None:
    from ingest.documents import title_of

    def title(text: str) -> str | None:
        return title_of(Snapshot(url="https://example.org/a.md", body=text.encode()))

    assert title("intro\n#   Governance  ##  \r\nbody\n") == "Governance"
    assert title("# ###\n") == "###"
    assert title("no heading here\n") is None


@pytest.mark.parametrize(
    ("content", "url"),
    [
        ("0; url=/new/", "/new/"),
        ("5 , URL = 'https://example.org/a b' ", "https://example.org/a b"),
        ('0;url="/x"', "/x"),
        ("0; url='/x' and more", None),
        ("0", None),
        ("0; url=", None),
    ],
)
def test_a_meta_refresh_url_is_read_part_by_part(content: str, url: str | None) -> None:
    from ingest.redirects import refresh_url

    assert refresh_url(content) == url


def test_a_meta_refresh_of_long_space_runs_is_read_in_linear_time() -> None:
    """A fetched page's meta refresh is read before anything else: its one pattern tried every
    split of a run of spaces three ways (4,000 spaces took 84 s, cubic)."""
    from ingest.redirects import stub_target

    def read(size: int) -> Callable[[], object]:
        spaces = " " * size
        body = f'<meta http-equiv="refresh" content="0;{spaces}url={spaces}\'/x{spaces}">'
        return lambda: stub_target(body.encode(), "https://example.org/")

    assert read(3)() == "https://example.org/x"  # an unclosed quote: the URL to the end
    assert_linear(read, 20_000)


def test_a_javascript_literal_of_one_long_identifier_is_read_in_linear_time() -> None:
    """A JS data module's bare keys are quoted by one pattern: tried from every character of a
    long identifier ("a_a_a_..." of 8,000 characters took 0.8 s, a 128 kB one minutes)."""
    from extractors.document import jsdata

    def read(size: int) -> Callable[[], object]:
        literal = "{" + "a_" * size + ": 1}"
        return lambda: jsdata._as_json(literal)

    assert read(2)() == '{"a_a_": 1}'
    assert (
        jsdata._as_json("{a: 1, $b_2 : [1,], c:{d:'x',},}")
        == '{"a": 1, "$b_2" : [1], "c":{"d":"x"}}'
    )
    assert_linear(read, 20_000)
