"""Small builders shared by the tests."""

from __future__ import annotations

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
