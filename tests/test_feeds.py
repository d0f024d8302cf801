"""Feeds: entries become sources of their own, once."""

from __future__ import annotations

import pytest

import extractors
from ingest.errors import ExtractionError
from ingest.fetch.client import FetchResult
from ingest.models import Snapshot, Source
from ingest.pipeline.feeds import FEED, entries, record_feed
from ingest.storage import Store

RSS = b"""<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0"><channel><title>PyTorch Blog</title><link>https://pytorch.org/blog/</link>
<item><title>PyTorch at NVIDIA GTC 2026</title>
<link>https://pytorch.org/blog/pytorch-at-nvidia-gtc-2026/</link>
<pubDate>Mon, 09 Mar 2026 16:00:00 +0000</pubDate></item>
<item><title>No link here</title></item>
</channel></rss>"""
ATOM = b"""<?xml version="1.0" encoding="utf-8"?>
<feed xmlns="http://www.w3.org/2005/Atom"><title>dev-discuss</title>
<entry><title>Lead Core Maintainer Change</title>
<link href="https://dev-discuss.pytorch.org/t/lead-core-maintainer-change/3300"/>
<updated>2026-05-07T15:00:00Z</updated><id>tag:3300</id></entry></feed>"""
FEED_URL = "https://pytorch.org/feed.xml"


def fetched(body: bytes, url: str = FEED_URL) -> FetchResult:
    snap = Snapshot(url=url, headers={"content-type": "application/rss+xml"}, body=body)
    return FetchResult(status="fetched", snapshot=snap, url=url, final_url=url, http_status=200)


def test_rss_and_atom_entries() -> None:
    [gtc] = entries(Snapshot(url=FEED_URL, body=RSS))
    assert gtc.url.endswith("/pytorch-at-nvidia-gtc-2026/") and gtc.published == "2026-03-09"
    [lead] = entries(Snapshot(url="https://dev-discuss.pytorch.org/latest.atom", body=ATOM))
    assert lead.title == "Lead Core Maintainer Change" and lead.published == "2026-05-07"


def test_new_entries_become_sources_once(store: Store) -> None:
    feed = Source(url=FEED_URL, extractor=FEED, publisher="PyTorch")
    first = record_feed(store, feed, fetched(RSS), extractors=extractors)
    assert first.alerts == ["feed: new entry https://pytorch.org/blog/pytorch-at-nvidia-gtc-2026/"]
    [found] = store.discovered_sources()
    assert found.feed == FEED_URL and found.title == "PyTorch at NVIDIA GTC 2026"
    assert found.kind == "Announcement" and found.published == "2026-03-09"
    again = record_feed(store, feed, fetched(RSS), extractors=extractors)
    assert again.alerts == [] and len(store.discovered_sources()) == 1


def test_an_unreadable_feed_is_a_clear_error() -> None:
    with pytest.raises(ExtractionError, match=FEED_URL):
        entries(Snapshot(url=FEED_URL, body=b"<html><p>not a feed"))
