"""Constructed announcement posts for the unit tests: a post with front matter, read as an
announcement (the router must choose the announcement reader), and its claims as facts."""

from __future__ import annotations

import extractors
from extractors.announcements import post as announcement
from ingest.models import Claim, Snapshot


def read(body: str, url: str = "https://example.org/blog/2025/03/04/news/") -> list[Claim]:
    snapshot = Snapshot(url=url, body=body.encode("utf-8"))
    assert extractors.choose(url, snapshot).NAME == "announcement"
    return announcement.extract(snapshot)


def facts(claims: list[Claim]) -> set[tuple[str, str | None, str, str | None]]:
    return {(c.subject.name, c.subject.github, str(c.qualifiers.get("status")),
             c.qualifiers.get("date")) for c in claims}  # fmt: skip


def post(body: str, title: str = "Project news", date: str = "2025-03-04") -> str:
    return f'---\ntitle: "{title}"\ndate: {date}\n---\n\n{body}'
