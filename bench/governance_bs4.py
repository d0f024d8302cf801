"""Baseline for the governance extractor: the same job done plainly with BeautifulSoup.

    .venv/bin/python bench/governance_bs4.py [--repeat N] [FILE]

`extract_bs4(html)` parses the page with BeautifulSoup (html.parser), walks the h2/h3 headings
and the list items under them in document order, and returns one (level, section, name, handle,
status) per maintainer entry: the items under "Lead Core Maintainer" / "Core Maintainers", and
under each h3 of the module and library groups. It is what a straightforward implementation of
`extractors.governance.pytorch` for this one HTML layout looks like; `main` checks that it finds
the same people as the real extractor, then times both (ms per page).
"""

from __future__ import annotations

import argparse
import gc
import re
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

from bs4 import BeautifulSoup, Tag

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "src"))

FIXTURE = ROOT / "fixtures/governance/constructed.docs-2.14.persons_of_interest.pydata.html"
URL = "https://docs.pytorch.org/docs/2.14/community/persons_of_interest.html"
GROUPS = {
    "module-level maintainers": "module",
    "core module maintainers": "module",
    "library-level maintainers": "library",
    "core governed external module maintainers": "library",
    "sunsetted modules": "library",
}
GITHUB = re.compile(r"^https?://(?:www\.)?github\.com/([A-Za-z0-9-]+)/?$", re.IGNORECASE)
EMERITUS = re.compile(r"\(\s*emeritus\s*\)", re.IGNORECASE)

Entry = tuple[str, str, str, str | None, str]


def _text(node: Tag) -> str:
    return " ".join(node.get_text("").split())


def _kind(heading: str) -> str | None:
    low = heading.lower()
    if low.startswith("lead core maintainer"):
        return "lead"
    if low.startswith("core maintainers"):
        return "core"
    return GROUPS.get(low)


def _entry(li: Tag, level: str, section: str) -> Entry | None:
    text = _text(li)
    handle = None
    for a in li.find_all("a", href=True):
        match = GITHUB.match(str(a["href"]).strip())
        if match:
            handle = match.group(1).lower()
            text = text.replace(f"({_text(a)})", " ")
            break
    status = "emeritus" if EMERITUS.search(text) else "current"
    name = " ".join(EMERITUS.sub(" ", text).split()).strip(" ,;:-")
    return (level, section, name, handle, status) if name else None


def extract_bs4(html: str) -> list[Entry]:
    soup = BeautifulSoup(html, "html.parser")
    root = soup.find("article") or soup.body or soup
    for junk in root.find_all(["script", "style", "template", "noscript", "nav", "footer"]):
        junk.decompose()
    for anchor in root.find_all("a", class_="headerlink"):
        anchor.decompose()
    out: list[Entry] = []
    top: str | None = None  # the kind of the current h2
    section: str | None = None  # the current h2 (lead/core) or h3 (module/library)
    for node in root.find_all(["h2", "h3", "li"]):
        if node.name == "h2":
            heading = _text(node)
            top = _kind(heading)
            section = heading if top in ("lead", "core") else None
        elif node.name == "h3":
            section = _text(node) if top in ("module", "library") else None
        elif top and section and node.find_parent("li") is None:
            entry = _entry(node, top, section)
            if entry:
                out.append(entry)
    return out


def extract_ours(html: bytes, *, fresh: bool = True) -> list[Entry]:
    """Our extractor's entries. `fresh`: as for a page not read before: neither the document
    kept from the last run nor the nesting bound's result for the same text (an lru_cache of
    one page, `ingest.html_nesting`) is reused; without it, the page as a later extractor of
    the same run reads it (the bound worked out already)."""
    from extractors import document as _document
    from extractors.governance import pytorch as pytorch_governance
    from ingest import html_nesting
    from ingest.models import Snapshot

    _document._RECENT.clear()  # measure the parse too, not the document kept from the last run
    if fresh:  # and the nesting bound of that parse (1.2 ms of the 2.14 page's ~6; 4.8 before)
        html_nesting._bounded_nesting.cache_clear()

    snapshot = Snapshot(url=URL, headers={"Content-Type": "text/html"}, body=html)
    return [
        (
            c.qualifiers["level"],
            c.qualifiers["section"],
            c.subject.name,
            c.subject.github,
            c.qualifiers["status"],
        )
        for c in pytorch_governance.extract(snapshot)
    ]


def interleaved_ms(
    ours: Callable[[], object], theirs: Callable[[], object], repeat: int, collect: bool = True
) -> tuple[float, float, float, float]:
    """Median ms per call of each, measured in alternation (ten of ours per baseline call), so
    that a busy machine slows both alike: wall-clock ms, then this thread's CPU ms (on a loaded
    machine the wall time of ours is mostly waiting for a core, not work).

    `collect`: after each baseline call, outside both timings, the cyclic garbage collector runs.
    BeautifulSoup's tree links parents and children, so the tree a call leaves is freed only by
    that collector, whose next run came in one of ours (ten of ours a baseline call): ours was
    charged for freeing the baseline's tree (ours leaves no cycles: refcounting frees it as it
    goes). The baseline's own time is the same either way."""
    ours(), theirs()  # warm-up
    if collect:
        gc.collect()
    a: list[float] = []
    b: list[float] = []
    a_cpu: list[float] = []
    b_cpu: list[float] = []
    for i in range(repeat):
        started, cpu = time.perf_counter(), time.thread_time()
        ours()
        a.append((time.perf_counter() - started) * 1000)
        a_cpu.append((time.thread_time() - cpu) * 1000)
        if i % 10 == 0:
            started, cpu = time.perf_counter(), time.thread_time()
            theirs()
            b.append((time.perf_counter() - started) * 1000)
            b_cpu.append((time.thread_time() - cpu) * 1000)
            if collect:
                gc.collect()
    median = statistics.median
    return median(a), median(b), median(a_cpu), median(b_cpu)


def compare(path: Path = FIXTURE, repeat: int = 300) -> dict[str, float | int]:
    body = path.read_bytes()
    html = body.decode("utf-8")
    ours, theirs = extract_ours(body), extract_bs4(html)
    same_people = {(e[2], e[3]) for e in ours} == {(e[2], e[3]) for e in theirs}
    if not same_people or len(ours) != len(theirs):
        raise SystemExit(f"bs4 baseline disagrees: {len(theirs)} entries vs {len(ours)}")
    ours_ms, bs4_ms, ours_cpu, bs4_cpu = interleaved_ms(
        lambda: extract_ours(body), lambda: extract_bs4(html), repeat
    )
    # the figure this bench gave before it cleared the nesting bound's cache (kept to compare)
    cached_ms, cached_bs4_ms, cached_cpu, cached_bs4_cpu = interleaved_ms(
        lambda: extract_ours(body, fresh=False), lambda: extract_bs4(html), repeat
    )
    # the figure this bench gave before the baseline's garbage was collected outside the timings
    plain_ms, plain_bs4_ms, _, _ = interleaved_ms(
        lambda: extract_ours(body), lambda: extract_bs4(html), repeat, collect=False
    )
    return {
        "entries": len(ours),
        "ours_ms": ours_ms,
        "bs4_ms": bs4_ms,
        "ours_cpu_ms": ours_cpu,
        "bs4_cpu_ms": bs4_cpu,
        "cached_ratio": cached_bs4_ms / cached_ms,
        "cached_cpu_ratio": cached_bs4_cpu / cached_cpu,
        "uncollected_ratio": plain_bs4_ms / plain_ms,
    }


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("file", nargs="?", type=Path, default=FIXTURE)
    parser.add_argument("--repeat", type=int, default=300)
    args = parser.parse_args()
    result = compare(args.file, args.repeat)
    print(
        f"{args.file.name}: {result['entries']} entries; pytorch_governance "
        f"{result['ours_ms']:.2f} ms/page, BeautifulSoup {result['bs4_ms']:.2f} ms/page, "
        f"ratio {result['bs4_ms'] / result['ours_ms']:.1f}x; CPU time "
        f"{result['ours_cpu_ms']:.2f} vs {result['bs4_cpu_ms']:.2f} ms/page, "
        f"ratio {result['bs4_cpu_ms'] / result['ours_cpu_ms']:.1f}x; with the nesting bound "
        f"cached (the page read a second time) {result['cached_ratio']:.1f}x, CPU "
        f"{result['cached_cpu_ratio']:.1f}x; with the baseline's garbage left to the collector "
        f"(freed in ours) {result['uncollected_ratio']:.1f}x"
    )


if __name__ == "__main__":
    main()
