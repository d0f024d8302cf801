"""Builders shared by the review page's tests (TestClient and browser) and its benchmark."""

from __future__ import annotations

import re
from typing import Any

import sqlalchemy as sa
from fastapi.testclient import TestClient

from ingest.models import Snapshot, iso_z, utcnow
from ingest.storage import Store
from ingest.storage.schema import changes

PASSWORD = "correct horse battery staple"
# the bundled profiles' display names (the review page and the CLI say these, not the ids)
NAMES = {
    "soumith-chintala": "Soumith Chintala",
    "alban-desmaison": "Alban Desmaison",
    "natalia-gimelshein": "Natalia Gimelshein",
}
HOSTILE_NAME = "<img src=x onerror=alert(1)>"
HOSTILE_QUOTE = "Mallory <script>alert('quote')</script> (mallory)"
HOSTILE_URL = "https://evil.example/page?<b>"

_CSRF = re.compile(r'name="csrf-token" content="([^"]+)"')
_FORM_CSRF = re.compile(r'name="csrf_token" value="([^"]+)"')


def csrf_of(html: str) -> str:
    found = _CSRF.search(html) or _FORM_CSRF.search(html)
    assert found, "no CSRF token on the page"
    return found.group(1)


def login(client: TestClient, name: str, password: str = PASSWORD) -> Any:
    page = client.get("/login")
    return client.post(
        "/login",
        data={"name": name, "password": password, "csrf_token": csrf_of(page.text), "next": "/"},
        follow_redirects=False,
    )


def hostile_change(store: Store, profile: str = "soumith-chintala") -> str:
    """A pending change whose claim and snapshot are written by an attacker."""
    body = (
        "<html><head><title>x</title><script>alert('page')</script></head><body>"
        f"<h3>Core</h3><ul><li>{HOSTILE_QUOTE.replace('<', '&lt;')}</li></ul>"
        "<img src=x onerror=alert('img')></body></html>"
    ).encode()
    snap = Snapshot(url=HOSTILE_URL, headers={"content-type": "text/html"}, body=body)
    store.put_snapshot(snap)
    claim = {
        "subject": {"name": HOSTILE_NAME, "github": "mallory"},
        "predicate": "maintainer",
        "object": "PyTorch<svg onload=alert(2)>",
        "qualifiers": {"level": "core", "section": "<b>Core</b>", "status": "current"},
        "evidence": {
            "url": HOSTILE_URL,
            "sha256": snap.sha256,
            "locator": "<i>li</i>",
            "quote": HOSTILE_QUOTE,
        },
        "extractor": "test/1",
    }
    return insert_change(store, "hostile0000000001", profile, claim, HOSTILE_URL, snap.sha256)


def insert_change(
    store: Store,
    change_id: str,
    profile: str,
    claim: dict[str, Any],
    source_url: str,
    sha256: str | None = None,
    kind: str = "added",
    created: str | None = None,
) -> str:
    now = created or iso_z(utcnow())
    with store.begin() as conn:
        conn.execute(
            changes.insert().values(
                id=change_id,
                profile=profile,
                kind=kind,
                claim=claim,
                previous=None,
                source_url=source_url,
                status="pending",
                created=now,
                updated=now,
                evidence_key=change_id,
                snapshot_sha256=sha256,
            )
        )
    return change_id


def many_pending(store: Store, count: int, sources: int = 20) -> None:
    """`count` pending changes spread over `sources` sources, inserted in one statement."""
    now = iso_z(utcnow())
    rows = []
    for i in range(count):
        url = f"https://example.org/source-{i % sources:02d}"
        claim = {
            "subject": {"name": f"Person {i}", "github": f"p{i}"},
            "predicate": "maintainer",
            "object": "PyTorch",
            "qualifiers": {"level": "module", "section": f"Module {i}", "status": "current"},
            "evidence": {"url": url, "sha256": "0" * 64, "locator": "li", "quote": f"Person {i}"},
            "extractor": "bench/1",
        }
        rows.append(
            {
                "id": f"{i:016x}",
                "profile": ("soumith-chintala", "alban-desmaison", "natalia-gimelshein")[i % 3],
                "kind": "added",
                "claim": claim,
                "previous": None,
                "source_url": url,
                "status": "pending",
                "created": now,
                "updated": now,
                "evidence_key": f"k{i}",
                "snapshot_sha256": None,
            }
        )
    with store.begin() as conn:
        conn.execute(sa.insert(changes), rows)


def route_paths(method: str) -> list[str]:
    """The paths of the review app's routes answering `method`, from every router it includes."""
    from ingest.review.web.pages import ROUTERS

    return [
        r.path
        for router in ROUTERS
        for r in router.routes
        if method in getattr(r, "methods", set())
    ]
