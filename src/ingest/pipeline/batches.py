"""The nightly's batches: how its sources are cut into a few coarse units of work (not two
Prefect tasks per source), fetched, and stored, extracted and diffed. No Prefect here: the
tasks in flows/tasks.py call these.

    plan_batches(sources, size)                 [Batch(sources, after=None), ...] in order
    plan_batches(sources, size, by_host=True)   each batch holds one host's sources; a host's
                                                later batches name the one they must wait for
    fetch_all(fetcher, jobs)                    each job's FetchResult, or its error
    process_fetched(store, ..., jobs, answers)  each source's SourceOutcome, in order

In one process every batch shares one PoliteFetcher, so per-host pacing holds however the
batches are cut. Batches fetched in other processes (a Dask cluster) cannot share pacing: there
a batch holds a single host's URLs and a host's batches run one after another (`after`), so no
host ever sees more than one batch's requests at a time.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from concurrent.futures import ThreadPoolExecutor
from contextlib import nullcontext
from dataclasses import dataclass
from datetime import date
from typing import TYPE_CHECKING

from ingest.errors import IngestError
from ingest.extraction import ExtractorSet
from ingest.fetch.result import FetchResult
from ingest.models import Claim, Profile, Snapshot, Source
from ingest.pipeline.extract_pool import PooledRead, pooled_reads
from ingest.pipeline.feeds import FEED, record_feed
from ingest.pipeline.outcome import SourceOutcome
from ingest.pipeline.process import (
    UNREAD,
    Unread,
    process_snapshot,
    record_failure,
    store_change,
)
from ingest.pipeline.settled import settled_changes, settled_outcome
from ingest.profiles.references import cited, refresh_accessed
from ingest.settings import Settings
from ingest.storage import Store
from ingest.storage.rows import ChangeRow, SourceRow
from ingest.storage.sources import UnchangedCheck

if TYPE_CHECKING:  # the fetch layer (httpx, 0.2 s) is imported by the batches that fetch
    from ingest.fetch.polite import PoliteFetcher

FetchJob = tuple[Source, SourceRow | None]  # a source and its stored row (validators)
FetchAnswer = FetchResult | IngestError  # what a batch fetch gives back for each job


@dataclass(frozen=True)
class Batch:
    sources: list[Source]
    after: int | None = None  # index of the batch that must finish fetching first


def plan_batches(sources: list[Source], size: int, *, by_host: bool = False) -> list[Batch]:
    if size < 1:
        raise ValueError(f"batch size must be at least 1, not {size}")
    if not by_host:
        return [Batch(sources[i : i + size]) for i in range(0, len(sources), size)]
    from ingest.fetch.polite import host_of

    hosts: dict[str, list[Source]] = {}
    for source in sources:
        hosts.setdefault(host_of(source.url), []).append(source)
    out: list[Batch] = []
    for group in hosts.values():
        previous: int | None = None
        for i in range(0, len(group), size):
            out.append(Batch(group[i : i + size], after=previous))
            previous = len(out) - 1
    return out


def fetch_all(fetcher: PoliteFetcher, jobs: list[FetchJob]) -> list[FetchAnswer]:
    """Every job's answer in order, up to INGEST_FETCH_THREADS at once; a failed fetch is its
    error (already retried by the fetcher), never an exception that loses the batch.

    The batch's WARC records (the client's archive) are made durable together: one fsync once
    every job has answered, before any answer is given back (StoreError when it fails: the
    caller fails the batch), instead of one per request."""
    from ingest.fetch.client import client_mode

    archive = client_mode(fetcher.client).archive
    since = archive.mark() if archive is not None else 0

    def one(job: FetchJob) -> FetchAnswer:
        try:
            with archive.deferred() if archive is not None else nullcontext():
                return fetcher.revalidate(job[0].url, job[1])
        except IngestError as exc:
            return exc
        except Exception as exc:  # noqa: BLE001 - a bug on one page must not sink the batch
            return IngestError(f"unexpected error fetching '{job[0].url}': {exc!r}")

    threads = min(fetcher.settings.fetch_threads, len(jobs))
    if threads <= 1:
        answers = [one(job) for job in jobs]
    else:
        with ThreadPoolExecutor(max_workers=threads, thread_name_prefix="ingest-fetch") as pool:
            answers = list(pool.map(one, jobs))
    if archive is not None:
        archive.sync(since)
    return answers


def process_fetched(
    store: Store,
    settings: Settings,
    jobs: list[FetchJob],
    answers: list[FetchAnswer],
    profiles: dict[str, Profile],
    accessed: date | None,
    run_id: str,
    *,
    extractors: ExtractorSet,
) -> list[SourceOutcome]:
    """Store, extract, diff and enqueue one fetched batch, source by source (one writer). An
    unchanged source whose last check still holds (ingest.pipeline.settled) is only recorded as
    checked: no extraction, no diff, no queue writes. The whole batch is stored in one
    transaction, its new snapshot bodies flushed to disk once before it commits (`Store.batch`):
    a crash loses at most this batch. `extractors`: the set the sources' extractors come from."""
    with store.batch():
        return _process_fetched(
            store, settings, jobs, answers, profiles, accessed, run_id, extractors=extractors
        )


def _process_fetched(
    store: Store,
    settings: Settings,
    jobs: list[FetchJob],
    answers: list[FetchAnswer],
    profiles: dict[str, Profile],
    accessed: date | None,
    run_id: str,
    *,
    extractors: ExtractorSet,
) -> list[SourceOutcome]:
    # read again, not taken from the jobs: a row may have changed since the batch was planned
    # (an editor's one-off run of the same URL, say); one query per batch, the registry
    # entries left out (the batch has its sources)
    states = store.source_checks([source.url for source, _state in jobs])
    settled_ids = [cid for state in states.values() for cid in settled_changes(state)]
    statuses = store.change_statuses(settled_ids) if settled_ids else {}
    # the rows of the pending changes settled sources name, read in one query when first
    # wanted (and again after a source checked the full way: its queue writes may touch them)
    shown: dict[str, ChangeRow] | None = None
    pooled = pooled_reads(jobs, answers, settings, extractors)  # read ahead in workers
    quick: list[UnchangedCheck] = []
    outcomes: list[SourceOutcome] = []
    for (source, _state), answer in zip(jobs, answers, strict=True):
        if isinstance(answer, IngestError):
            outcomes.append(record_failure(store, source, answer, fetch=True, run_id=run_id))
            continue
        if source.extractor == FEED:
            outcomes.append(feed_fetched(store, source, answer, settings, extractors=extractors))
            continue
        state = states.get(source.url)
        outcome = None
        if answer.status == "unchanged" and state:
            sha = answer.snapshot.sha256 if answer.snapshot else state.last_sha256
            ratio = settings.layout_min_ratio
            outcome = settled_outcome(
                state, str(sha), profiles, ratio, statuses, extractors=extractors
            )
        if outcome is None:
            outcomes.append(
                source_fetched(
                    store,
                    settings,
                    source,
                    answer,
                    profiles,
                    accessed,
                    extractors=extractors,
                    row=state,
                    pooled=pooled.get(source.url),
                )
            )
            # its queue writes may touch changes other sources settled on: read them again
            statuses = store.change_statuses(settled_ids) if settled_ids else {}
            shown = None
            continue
        pending = [cid for cid, status in settled_changes(state).items() if status == "pending"]
        if pending and shown is None:
            shown = _pending_changes(store, settled_ids, statuses)
        rows = shown or {}
        outcome.changes = [
            rows[cid].to_change().to_json() if cid in rows else store_change(store, cid)
            for cid in pending
        ]
        quick.append(
            UnchangedCheck(
                url=source.url,
                sha256=outcome.snapshot,
                http_status=answer.http_status,
                etag=answer.etag,
                last_modified=answer.last_modified,
                final_url=answer.final_url,
            )
        )
        if accessed is not None and cited(profiles, source.url):
            refresh_accessed(store, settings.profiles_dir, source.url, accessed)
        outcomes.append(outcome)
    store.record_unchanged(quick, run_id)
    return outcomes


def _pending_changes(
    store: Store, ids: list[str], statuses: dict[str, str]
) -> dict[str, ChangeRow]:
    """The rows of the pending changes among `ids`, by id, in one query (per 500)."""
    return store.get_changes([cid for cid in dict.fromkeys(ids) if statuses.get(cid) == "pending"])


def source_fetched(
    store: Store,
    settings: Settings,
    source: Source,
    fetched: FetchResult,
    profiles: dict[str, Profile],
    accessed: date | None = None,
    *,
    extractors: ExtractorSet,
    row: SourceRow | None | Unread = UNREAD,
    pooled: PooledRead | None = None,
) -> SourceOutcome:
    """The full check of one fetched source: store, extract (unless unchanged), diff, enqueue.
    `row`: the source's row as the caller read it in this transaction (None: it has none);
    `pooled`: its page as a worker read it (ingest.pipeline.extract_pool), if one did."""
    try:
        snapshot = fetched.snapshot
        status = fetched.status
        if snapshot is None:  # a 304: the stored snapshot still holds
            state = store.source_state(source.url) if isinstance(row, Unread) else row
            last = state.last_sha256 if state else None
            if not last:
                raise IngestError(f"'{source.url}' answered 304 but no snapshot is stored")
            snapshot = store.get_snapshot(last)
        outcome = process_snapshot(
            store,
            settings,
            source,
            snapshot,
            profiles,
            status=status,
            accessed=accessed,
            extract=_pooled_extract(pooled, source, extractors),
            extractors=extractors,
            source_state={
                "etag": fetched.etag,
                "last_modified": fetched.last_modified,
                "final_url": fetched.final_url,
            },
            row=row,
        )
        store.record_fetch(
            source.url, status, sha256=snapshot.sha256, http_status=fetched.http_status
        )
        return outcome
    except IngestError as exc:
        return record_failure(store, source, exc, fetch=True)


def _pooled_extract(
    pooled: PooledRead | None, source: Source, extractors: ExtractorSet
) -> Callable[[Snapshot], Iterable[Claim]] | None:
    """How `process_snapshot` reads the page: the worker's claims when it has them, else the
    source's extractor here (None: as process_snapshot chooses, no worker read it)."""
    if pooled is None or not source.extractor:
        return None
    name = source.extractor

    def read(snapshot: Snapshot) -> Iterable[Claim]:
        claims = pooled.claims()
        if claims is not None:
            return claims
        return extractors.claims_of(extractors.get(name), snapshot)

    return read


def feed_fetched(
    store: Store,
    source: Source,
    fetched: FetchResult,
    settings: Settings | None = None,
    *,
    extractors: ExtractorSet,
) -> SourceOutcome:
    """A fetched feed: stored, and its new entries registered as sources (`record_feed`)."""
    try:
        return record_feed(store, source, fetched, settings, extractors=extractors)
    except IngestError as exc:
        return record_failure(store, source, exc, fetch=True)
