"""Small builders shared by the tests."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ingest.models import Claim, Evidence, Snapshot, Subject


def claim(
    name: str,
    github: str | None,
    level: str,
    section: str,
    scope: str | None = None,
    status: str = "current",
    quote: str | None = None,
    url: str = "https://example.org/m",
) -> Claim:
    qualifiers: dict[str, Any] = {"level": level, "section": section, "status": status}
    if scope:
        qualifiers["scope"] = scope
    return Claim(
        subject=Subject(name=name, github=github),
        predicate="maintainer",
        object="PyTorch",
        qualifiers=qualifiers,
        evidence=Evidence(
            url=url,
            sha256="0" * 64,
            locator=f"h3 '{section}' > li 1",
            quote=quote or f"{name} ({github})",
        ),
        extractor="test/1",
    )


def page(
    *entries: tuple[str, str, list[tuple[str, str]]], url: str = "https://example.org/m"
) -> Snapshot:
    """A Markdown maintainers page: (h2 title, h3 title or '', [(name, handle)])."""
    lines = ["# PyTorch Governance | Maintainers", ""]
    current_h2 = None
    for h2, h3, people in entries:
        if h2 != current_h2:
            lines += [f"## {h2}", ""]
            current_h2 = h2
        if h3:
            lines += [f"### {h3}", ""]
        for name, handle in people:
            lines.append(f"- {name} ([{handle}](https://github.com/{handle}))")
        lines.append("")
    return Snapshot(
        url=url, headers={"content-type": "text/markdown"}, body="\n".join(lines).encode()
    )


def maintainer_rows(claims: list[Claim]) -> list[tuple[Any, ...]]:
    """(name, github, section, status) of each maintainer claim, in order."""
    return [
        (c.subject.name, c.subject.github, c.qualifiers.get("section"), c.qualifiers["status"])
        for c in claims
        if c.predicate == "maintainer"
    ]


def assert_probe_page_read(
    name: str, body: str, gold: list[dict[str, Any]], claims: list[Any]
) -> None:
    """A real-probe page: it yields maintainer claims, every gold handle among them (the scorer
    matches a claim without a handle by name, so handles apart), and verbatim evidence (of HTML:
    its text as printed, the parts of a card joined by ", ")."""
    import html
    import re

    assert gold and maintainer_rows(claims), name
    handles = {c.subject.github for c in claims}
    assert {r["handle"] for r in gold if r["handle"]} <= handles, name
    printed = " ".join(html.unescape(re.sub(r"<[^>]+>", " ", body)).split())
    for claim in claims:
        for line in claim.evidence.quote.splitlines():
            parts = [" ".join(p.split()) for p in line.split(", ")]
            assert line.strip() in body or all(p in printed for p in parts), (name, line)


def assert_probe_layout(probe: Path, urls: dict[str, str], pages: int) -> None:
    """A governance probe holds `pages` pages, each with its gold file (PROBE/gold/NAME.json)."""
    assert len(urls) == pages
    assert sorted(urls) == sorted(p.name[: -len(".json")] for p in (probe / "gold").glob("*.json"))


def assert_probe_above(probe: Path, floors: dict[str, float]) -> None:
    """`ingest evaluate --governance --pages PROBE` (gold in PROBE/gold) at or above each floor."""
    from ingest_cli.evaluate.governance import score, sets_for

    totals = score(sets_for(probe / "gold", probe)).total.figures()
    for figure, floor in floors.items():
        assert totals[figure] >= floor, (figure, totals[figure])


def assert_probe_pages_read(probe: Path, urls: dict[str, str]) -> None:
    """Every page of a governance probe, read by the generic extractor under its real URL, gives
    claims, every gold handle and verbatim evidence (`assert_probe_page_read`)."""
    import json

    from extractors.governance import generic as governance

    for name, url in urls.items():
        gold = json.loads((probe / "gold" / f"{name}.json").read_text(encoding="utf-8"))
        body = (probe / name).read_text(encoding="utf-8")
        claims = governance.extract(Snapshot(url=url, body=body.encode("utf-8")))
        assert_probe_page_read(name, body, gold, claims)
