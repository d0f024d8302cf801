"""The one-off run's steps as plain functions, Prefect not imported: `flows.tasks` wraps each as
its Prefect task (the runner's flow runs record them), and a command that finds no runner up
calls them as they are (`flows.one_off_core`), so its first run does not wait ~2 s for Prefect's
import, let alone for a server."""

from __future__ import annotations

from datetime import date

import extractors
from ingest.fetch.client import FetchResult
from ingest.fetch.polite import PoliteFetcher
from ingest.models import Profile, Snapshot, Source
from ingest.pipeline.batches import feed_fetched, source_fetched
from ingest.pipeline.local_file import file_warnings, refuse_older_file
from ingest.pipeline.outcome import OutcomeStatus, SourceOutcome
from ingest.pipeline.process import process_snapshot
from ingest.settings import Settings
from ingest.storage import SourceRow, Store


def fetch_source(fetcher: PoliteFetcher, source: Source, state: SourceRow | None) -> FetchResult:
    """The network step. Its retries (transient errors only, backoff with jitter, Retry-After
    honoured) are the PoliteFetcher's: Prefect retries nothing here, so nothing is stacked."""
    return fetcher.revalidate(source.url, state)


def process_source(
    store: Store,
    settings: Settings,
    source: Source,
    fetched: FetchResult,
    profiles: dict[str, Profile],
    accessed: date | None = None,
) -> SourceOutcome:
    """Store, extract (unless unchanged), diff and enqueue one fetched source."""
    return source_fetched(
        store, settings, source, fetched, profiles, accessed, extractors=extractors
    )


def process_file(
    store: Store,
    settings: Settings,
    source: Source,
    snapshot: Snapshot,
    profiles: dict[str, Profile],
    extractor: str | None,
    file: str | None = None,
) -> SourceOutcome:
    """A one-off run on a body the editor supplied (`file`): no fetch, same pipeline. A file
    older than the newest stored snapshot of the URL is refused before anything is stored
    (OlderFileError; see ingest.pipeline.local_file)."""
    refuse_older_file(store, source.url, snapshot, file)
    state = store.source_state(source.url)
    status: OutcomeStatus = (
        "unchanged" if state and state.last_sha256 == snapshot.sha256 else "fetched"
    )
    outcome = process_snapshot(
        store,
        settings,
        source,
        snapshot,
        profiles,
        status=status,
        extractor_name=extractor,
        extractors=extractors,
    )
    store.record_fetch(source.url, status, sha256=snapshot.sha256)
    state = store.source_state(source.url)
    if state and state.last_sha256 == snapshot.sha256 and (state.etag or state.last_modified):
        # the page's validators belong to the page's last fetched version, no longer its last
        # snapshot: a 304 for them would keep the file's reading; the next nightly reads it all
        store.update_source_state(source.url, etag=None, last_modified=None)
    outcome.file = file
    outcome.origin = snapshot.origin
    outcome.evidence_date = snapshot.evidence_date
    outcome.warnings += file_warnings(snapshot, file)
    return outcome


def process_feed(store: Store, source: Source, fetched: FetchResult) -> SourceOutcome:
    """A feed: stored, and its new entries registered as sources."""
    return feed_fetched(store, source, fetched, extractors=extractors)
