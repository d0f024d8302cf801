"""Hostile input, second round (issue 29): feed entries at forbidden URLs, URLs stored raw."""

from __future__ import annotations

import pytest

import extractors
from ingest.fetch.client import FetchResult
from ingest.models import Snapshot, Source
from ingest.pipeline.feeds import FEED, record_feed
from ingest.settings import Settings
from ingest.storage import Store

FEED_URL = "https://blog.example.org/feed.xml"
GOOD = "https://blog.example.org/posts/new-maintainer"
HOSTILE = [
    "file:///etc/passwd",
    "javascript:alert(1)",
    "gopher://blog.example.org:70/1",
    "http://169.254.169.254/latest/meta-data/",
    "http://127.0.0.1:8765/queue",
    "http://[::1]/",
    "http://localhost/admin",
    "http://2130706433/",
    "https://user:secret@blog.example.org/x",
]


def feed_of(links: list[str]) -> FetchResult:
    items = "".join(
        f"<item><title>t{i}</title><link>{link.replace('&', '&amp;')}</link></item>"
        for i, link in enumerate(links)
    )
    body = (
        f'<?xml version="1.0"?><rss version="2.0"><channel><title>B</title>{items}</channel></rss>'
    )
    snap = Snapshot(
        url=FEED_URL, headers={"content-type": "application/rss+xml"}, body=body.encode()
    )
    return FetchResult(
        status="fetched", snapshot=snap, url=FEED_URL, final_url=FEED_URL, http_status=200
    )


def test_feed_entries_at_forbidden_urls_are_not_registered(store: Store) -> None:
    feed = Source(url=FEED_URL, extractor=FEED, publisher="Blog")
    settings = Settings(allow_private=False)
    outcome = record_feed(store, feed, feed_of([*HOSTILE, GOOD]), settings, extractors=extractors)
    assert [s.url for s in store.discovered_sources()] == [GOOD]
    refused = [a for a in outcome.alerts if "refused" in a]
    assert len(refused) == len(HOSTILE)
    assert not any("secret" in a for a in outcome.alerts)


@pytest.mark.parametrize(
    ("given", "stored"),
    [
        ("https://example.org/a b\x1b[31m?q=x y", "https://example.org/a%20b%1B[31m?q=x%20y"),
        ("https://example.org/caf\u00e9", "https://example.org/caf%C3%A9"),
        ("https://example.org/50%", "https://example.org/50%25"),
        ("https://example.org/ok%20already", "https://example.org/ok%20already"),
    ],
)
def test_urls_are_percent_encoded_before_they_are_stored(
    store: Store, given: str, stored: str
) -> None:
    store.upsert_sources([Source(url=given, extractor="announcement", feed=FEED_URL)])
    assert [s.url for s in store.discovered_sources()] == [stored]
    snap = Snapshot(url=given, body=b"x")
    assert snap.url == stored
