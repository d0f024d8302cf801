"""Feeds: a source whose new entries become sources of their own.

A registered source with `extractor: "feed"` is an RSS or Atom feed (a blog's feed.xml, a
Discourse category's latest.rss). Parsing is feedparser's (the well-kept library for every feed
dialect); each entry's link is registered as a source, read by the extractor that claims it
(announcements, usually), and checked in the same run and every night after, like any source.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import feedparser

import extractors
from ingest.errors import ExtractionError, NoExtractorError
from ingest.fetch import FetchResult
from ingest.models import Snapshot, Source, iso_z, utcnow
from ingest.outcome import SourceOutcome
from ingest.store import Store

FEED = "feed"  # the registry's extractor name for feeds


@dataclass(frozen=True)
class FeedEntry:
    url: str
    title: str | None
    published: str | None  # YYYY-MM-DD


def entries(snapshot: Snapshot) -> list[FeedEntry]:
    """The feed's entries with a link, in feed order (pure)."""
    parsed: Any = feedparser.parse(snapshot.body)
    if parsed.get("bozo") and not parsed.get("entries"):
        raise ExtractionError(snapshot.url, f"not a readable feed ({parsed.get('bozo_exception')})")
    found = []
    for entry in parsed.get("entries", []):
        link = entry.get("link")
        if not link:
            continue
        when = entry.get("published_parsed") or entry.get("updated_parsed")
        day = f"{when.tm_year:04d}-{when.tm_mon:02d}-{when.tm_mday:02d}" if when else None
        found.append(FeedEntry(url=link, title=entry.get("title"), published=day))
    return found


def entry_sources(feed: Source, snapshot: Snapshot) -> list[Source]:
    """A source for each entry of the feed, described by the feed and read by its extractor."""
    parsed: Any = feedparser.parse(snapshot.body)
    publisher = feed.publisher or parsed.get("feed", {}).get("title")
    out = []
    for entry in entries(snapshot):
        try:
            name = extractors.choose(entry.url).NAME
        except NoExtractorError:
            name = "announcement"
        out.append(
            Source(
                url=entry.url,
                extractor=name,
                title=entry.title,
                publisher=publisher,
                kind="Announcement",
                feed=feed.url,
                published=entry.published,
            )
        )
    return out


def record_feed(store: Store, feed: Source, fetched: FetchResult) -> SourceOutcome:
    """Store a fetched feed and register its entries as sources; the outcome names the new ones."""
    state = store.source_state(feed.url) or {}
    snapshot = fetched.snapshot
    if snapshot is None:  # 304: the stored feed still holds
        snapshot = store.get_snapshot(str(state["last_sha256"]))
    store.put_snapshot(snapshot)
    found = entry_sources(feed, snapshot)
    new = [s for s in found if store.source_state(s.url) is None]
    for source in new:
        store.upsert_source(source)
    store.update_source_state(
        feed.url,
        last_status=fetched.status,
        last_checked=iso_z(utcnow()),
        fail_streak=0,
        last_error=None,
        last_sha256=snapshot.sha256,
        etag=fetched.etag,
        last_modified=fetched.last_modified,
        final_url=fetched.final_url,
        extractor=FEED,
    )
    store.record_fetch(
        feed.url, fetched.status, sha256=snapshot.sha256, http_status=fetched.http_status
    )
    return SourceOutcome(
        url=feed.url,
        status=fetched.status,
        snapshot=snapshot.sha256,
        final_url=fetched.final_url,
        extractor=FEED,
        alerts=[f"feed: new entry {s.url}" for s in new],
    )
