"""Feeds: a source whose new entries become sources of their own.

A registered source with `extractor: "feed"` is an RSS or Atom feed (a blog's feed.xml, a
Discourse category's latest.rss). Parsing is feedparser's (the well-kept library for every feed
dialect); each entry's link is registered as a source, read by the extractor that claims it
(announcements, usually), and checked in the same run and every night after, like any source.
"""

from __future__ import annotations

import calendar
from dataclasses import dataclass, field, replace
from typing import Any

from ingest.documents import check_parse_size
from ingest.errors import ExtractionError, IngestError, NoExtractorError, RefusedURLError
from ingest.extraction import ExtractorSet
from ingest.fetch.addresses import check_literal
from ingest.fetch.result import FetchResult
from ingest.models import Snapshot, Source, iso_z, utcnow
from ingest.pipeline.outcome import SourceOutcome
from ingest.settings import Settings, get_settings
from ingest.storage import Store
from ingest.urls import encode_url

FEED = "feed"  # the registry's extractor name for feeds


@dataclass(frozen=True)
class FeedEntry:
    url: str
    title: str | None
    published: str | None  # YYYY-MM-DD
    stamp: int | None = field(default=None, compare=False, repr=False)  # published, else
    # updated, in seconds since the epoch (UTC): what "newest" means


@dataclass(frozen=True)
class Feed:
    title: str | None
    entries: list[FeedEntry]  # those with a link, in feed order


def parse_feed(snapshot: Snapshot) -> Feed:
    """The feed's title and its entries with a link, in feed order (pure; one feedparser pass).
    The caller bounds its size first (INGEST_MAX_PARSE_BYTES: `record_feed` does). feedparser
    (0.1 s to import) is imported here: a run that reads no feed does not pay for it."""
    import feedparser

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
        stamp = calendar.timegm(when) if when else None
        found.append(FeedEntry(url=link, title=entry.get("title"), published=day, stamp=stamp))
    return Feed(title=parsed.get("feed", {}).get("title"), entries=found)


def entries(snapshot: Snapshot) -> list[FeedEntry]:
    """The feed's entries with a link, in feed order (pure)."""
    return parse_feed(snapshot).entries


def newest(found: list[FeedEntry], limit: int) -> list[FeedEntry]:
    """The `limit` newest entries, in feed order: by date (published, else updated), newest
    first; entries without one rank after those with one, in feed order (a feed lists its newest
    first)."""
    if len(found) <= limit:
        return found
    ranked = sorted(
        range(len(found)),
        key=lambda i: (found[i].stamp is None, -(found[i].stamp or 0), i),
    )
    kept = set(ranked[:limit])
    return [entry for i, entry in enumerate(found) if i in kept]


def entry_sources(
    feed: Source, snapshot: Snapshot, limit: int | None = None, *, extractors: ExtractorSet
) -> list[Source]:
    """A source for each entry of the feed (the `limit` newest), described by the feed and read
    by its extractor (of `extractors`)."""
    parsed = parse_feed(snapshot)
    found = parsed.entries if limit is None else newest(parsed.entries, limit)
    return _sources(feed, parsed.title, found, extractors)


def _sources(
    feed: Source, title: str | None, found: list[FeedEntry], extractors: ExtractorSet
) -> list[Source]:
    publisher = feed.publisher or title
    out: dict[str, Source] = {}  # an entry listed twice is one source
    for entry in found:
        if entry.url in out:
            continue
        try:
            name = extractors.choose(entry.url).NAME
        except NoExtractorError:
            name = "announcement"
        out[entry.url] = Source(
            url=entry.url,
            extractor=name,
            title=entry.title,
            publisher=publisher,
            kind="Announcement",
            feed=feed.url,
            published=entry.published,
        )
    return list(out.values())


def _registrable(found: list[FeedEntry], settings: Settings) -> tuple[list[FeedEntry], list[str]]:
    """The entries that may become sources (their URLs percent-encoded), and an alert for each
    one refused: not http(s), with credentials, or at a loopback, private or metadata address
    (`check_literal`: no DNS lookup now; every fetch checks the address again)."""
    kept, alerts = [], []
    for entry in found:
        url = encode_url(entry.url)
        try:
            check_literal(url, settings=settings)
        except RefusedURLError as exc:
            alerts.append(f"feed: entry refused, not registered: {str(exc)[:300]}")
            continue
        kept.append(replace(entry, url=url))
    return kept, alerts


def record_feed(
    store: Store,
    feed: Source,
    fetched: FetchResult,
    settings: Settings | None = None,
    *,
    extractors: ExtractorSet,
) -> SourceOutcome:
    """Store a fetched feed and register its entries as sources; the outcome names the new ones.

    Bounded: a feed over INGEST_MAX_PARSE_BYTES is refused before feedparser reads it
    (DocumentTooLargeError); of more than INGEST_MAX_FEED_ENTRIES entries the newest are kept,
    with an alert naming the feed and the counts. `settings`: the run's (default: as the
    environment gives them); `extractors`: the set that reads the entries."""
    settings = settings or get_settings()
    state = store.source_state(feed.url)
    snapshot = fetched.snapshot
    if snapshot is None:  # 304: the stored feed still holds
        if state is None or not state.last_sha256:
            raise IngestError(f"feed '{feed.url}' answered 304 but no snapshot is stored")
        snapshot = store.get_snapshot(state.last_sha256)
    check_parse_size(snapshot, settings, what="feed")
    store.put_snapshot(snapshot)
    parsed = parse_feed(snapshot)
    limit = settings.max_feed_entries
    kept = newest(parsed.entries, limit)
    alerts = []
    if len(kept) < len(parsed.entries):
        total = len(parsed.entries)
        alerts.append(
            f"feed: '{feed.url}' lists {total} entries, over the limit of {limit} "
            f"(INGEST_MAX_FEED_ENTRIES): the {len(kept)} newest read, {total - len(kept)} "
            "older dropped"
        )
    kept, refused = _registrable(kept, settings)
    alerts += refused
    found = _sources(feed, parsed.title, kept, extractors)
    known = store.source_states([s.url for s in found])
    new = [s for s in found if s.url not in known]
    store.upsert_sources(new)
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
        alerts=alerts + [f"feed: new entry {s.url}" for s in new],
    )
