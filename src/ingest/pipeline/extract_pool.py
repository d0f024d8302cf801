"""The nightly's pages read in a worker process while the run's own process stores and diffs.

    with extraction_pool(settings):           around a run's batches (flows.nightly_core)
        reads = pooled_reads(jobs, answers, settings, extractors)   {url: PooledRead} or {}

A first run over thousands of new pages spends about half of its time in the extractors
(parsing: markdown-it alone ~2 ms a page) and the rest storing, diffing and enqueueing, all in
one process under one interpreter lock: one core of two. With INGEST_EXTRACT_WORKERS > 0, a
batch of at least MIN_BATCH newly fetched pages whose source names its extractor has those pages
read in worker processes (started once per run, when first wanted), in chunks, while this
process goes through the batch in order; each source takes its chunk's answer when its turn
comes. Everything else (choosing, storing, diffing) is unchanged and stays here: one writer.

The answer is the same as reading the page here: the same extractor module (named by the
source), the same claims in the same order. Whenever a worker cannot give that answer (it
raised, its process died, the claims would be capped by INGEST_MAX_CLAIMS), the page is read
here instead, as before, so errors and alerts are the ones the in-process read gives.
"""

from __future__ import annotations

import contextlib
import importlib
import logging
import multiprocessing
from collections.abc import Iterator
from concurrent.futures import Future, ProcessPoolExecutor
from dataclasses import dataclass
from itertools import islice
from types import ModuleType
from typing import TYPE_CHECKING, Any

from ingest.documents import check_parse_size
from ingest.errors import IngestError
from ingest.extraction import ExtractorSet
from ingest.fetch.result import FetchResult
from ingest.models import Claim, Snapshot
from ingest.settings import Settings

if TYPE_CHECKING:
    from ingest.pipeline.batches import FetchAnswer, FetchJob

MIN_BATCH = 32  # fewer new pages than this in a batch: read here (a worker costs ~1 s to start)
CHUNK = 16  # pages per request to a worker: its pickling and queueing paid once per chunk

log = logging.getLogger(__name__)

_CURRENT: list[ExtractionPool] = []  # the pool of the run in progress in this process


class ExtractionPool:
    """INGEST_EXTRACT_WORKERS spawned processes (not forked: the run has threads), started
    when first wanted."""

    def __init__(self, workers: int) -> None:
        self.workers = workers
        self._executor: ProcessPoolExecutor | None = None

    def executor(self) -> ProcessPoolExecutor:
        if self._executor is None:
            self._executor = ProcessPoolExecutor(
                max_workers=self.workers, mp_context=multiprocessing.get_context("spawn")
            )
        return self._executor

    def close(self) -> None:
        if self._executor is not None:
            self._executor.shutdown(wait=True, cancel_futures=True)
            self._executor = None


@contextlib.contextmanager
def extraction_pool(settings: Settings) -> Iterator[ExtractionPool | None]:
    """The run's pool while the block runs (None with INGEST_EXTRACT_WORKERS=0); closed after."""
    if settings.extract_workers < 1:
        yield None
        return
    pool = ExtractionPool(settings.extract_workers)
    _CURRENT.append(pool)
    try:
        yield pool
    finally:
        _CURRENT.remove(pool)
        pool.close()


@dataclass
class PooledRead:
    """One page's read in a worker: its chunk's answer, and its place in it."""

    future: Future[list[list[Claim] | None]]
    index: int

    def claims(self) -> list[Claim] | None:
        """The page's claims as its extractor gives them; None: read it here."""
        try:
            return self.future.result()[self.index]
        except Exception:  # noqa: BLE001 - any failure: the page is read in this process
            return None


def pooled_reads(
    jobs: list[FetchJob],
    answers: list[FetchAnswer],
    settings: Settings,
    extractors: ExtractorSet,
) -> dict[str, PooledRead]:
    """The batch's newly fetched pages sent to the run's workers, by source URL; {} when no pool
    is open or the batch has fewer than MIN_BATCH of them."""
    if not _CURRENT or not isinstance(extractors, ModuleType):
        return {}  # (a set that is not a module cannot be imported by a worker)
    todo: list[tuple[str, str, Snapshot]] = []
    for (source, _state), answer in zip(jobs, answers, strict=True):
        if not isinstance(answer, FetchResult) or answer.status != "fetched":
            continue
        if answer.snapshot is None or not source.extractor:
            continue
        if source.extractor not in extractors.REGISTRY:
            continue
        try:
            check_parse_size(answer.snapshot, settings)
        except IngestError:
            continue  # refused before any parser reads it: here, as before
        todo.append((source.url, source.extractor, answer.snapshot))
    if len(todo) < MIN_BATCH:
        return {}
    reads: dict[str, PooledRead] = {}
    items = iter(todo)
    try:
        executor = _CURRENT[-1].executor()
        while chunk := list(islice(items, CHUNK)):
            work = [(name, snapshot) for _url, name, snapshot in chunk]
            future = executor.submit(read_chunk, extractors.__name__, work, settings.max_claims)
            for n, (url, _name, _snapshot) in enumerate(chunk):
                reads.setdefault(url, PooledRead(future, n))
    except Exception:  # noqa: BLE001 - no worker to be had (cannot start, one died): read here
        log.warning("extraction workers unavailable; pages read in this process", exc_info=True)
        return {}
    return reads


def read_chunk(
    set_name: str, work: list[tuple[str, Snapshot]], limit: int | None
) -> list[list[Claim] | None]:
    """In a worker: each page's claims by the extractor named, None for a page whose read
    raised or would be capped at `limit` (read again by the run's process, which says why)."""
    found: list[list[Claim] | None] = []
    extractors: Any = importlib.import_module(set_name)
    for name, snapshot in work:
        try:
            module = extractors.get(name)
            claims = iter(extractors.claims_of(module, snapshot))
            kept = list(islice(claims, limit))
            found.append(None if next(claims, None) is not None else kept)
        except Exception:  # noqa: BLE001 - the run's process reads it again and raises
            found.append(None)
    return found
