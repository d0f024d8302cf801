"""The arXiv stage's steps and wiring as plain functions, Prefect not imported: `flows.arxiv_tasks`
wraps each step as its Prefect task (the network steps carry the retries) and wires the same
stage with them; a nightly in the command's own process (`flows.nightly_local`) runs it as it is,
so its last stage does not import Prefect (~1.3 s of CPU) for one author query.

    check_arxiv(store, settings, arxiv_client, http, profiles, accessed, keep)   the stage
    plain_retrying(query, settings)   a query tried again on transient errors, as Prefect would
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from datetime import date
from typing import Any

import extractors
from flows import steps
from ingest.errors import IngestError
from ingest.fetch.arxiv_client import ArxivBatchResult, ArxivClient, ArxivSearchResult
from ingest.fetch.arxiv_session import AtomPage
from ingest.fetch.polite import PoliteFetcher
from ingest.fetch.result import FetchResult
from ingest.fetch.transient import is_transient
from ingest.models import Profile, Snapshot, Source
from ingest.pipeline.arxiv_stage import (
    Paper,
    author_names,
    cited_ids,
    papers_in,
    pdf_is_current,
    pdf_source,
    process_metadata,
    process_pdf,
    process_search,
)
from ingest.pipeline.outcome import OutcomeStatus, SourceOutcome
from ingest.pipeline.process import record_failure
from ingest.settings import Settings
from ingest.storage import Store

Retry = Callable[[Any, Settings], Any]  # (a query step, the settings) -> the query as tried


def fetch_metadata(client: ArxivClient, ids: list[str]) -> ArxivBatchResult:
    return client.fetch_ids(ids)


def search_author(client: ArxivClient, name: str) -> ArxivSearchResult:
    return client.search_author(name)


def process_metadata_step(
    store: Store,
    settings: Settings,
    batch: ArxivBatchResult,
    ids: list[str],
    profiles: dict[str, Profile],
    accessed: date | None = None,
) -> list[SourceOutcome]:
    return process_metadata(
        store, settings, batch.pages, ids, profiles, accessed, extractors=extractors
    )


def process_pdf_step(
    store: Store,
    settings: Settings,
    paper: Paper,
    snapshot: Snapshot,
    profiles: dict[str, Profile],
    status: OutcomeStatus,
    accessed: date | None = None,
) -> SourceOutcome:
    try:
        return process_pdf(
            store,
            settings,
            paper,
            snapshot,
            profiles,
            status=status,
            accessed=accessed,
            extractors=extractors,
        )
    except IngestError as exc:
        return record_failure(store, pdf_source(paper.id, paper.title), exc, fetch=True)


def read_pdf(
    store: Store,
    settings: Settings,
    http: PoliteFetcher,
    paper: Paper,
    profiles: dict[str, Profile],
    accessed: date | None = None,
    fetch: Callable[..., FetchResult] = steps.fetch_source,
    process: Callable[..., SourceOutcome] = process_pdf_step,
) -> SourceOutcome:
    """The paper's PDF, read once per version: a version read before is re-diffed, not fetched.

    `fetch` and `process`: the steps (the Prefect tasks in a flow run)."""
    stored = pdf_is_current(store, paper)
    if stored:
        return process(
            store, settings, paper, store.get_snapshot(stored), profiles, "unchanged", accessed
        )
    try:
        fetched = fetch(http, Source(url=paper.pdf_url), None)
    except IngestError as exc:
        return record_failure(store, pdf_source(paper.id, paper.title), exc, fetch=True)
    if fetched.snapshot is None:  # no validators were sent, so a 304 cannot happen
        raise IngestError(f"'{paper.pdf_url}' answered 304 to an unconditional request")
    return process(store, settings, paper, fetched.snapshot, profiles, "fetched", accessed)


def retry_delays(settings: Settings) -> list[float]:
    """INGEST_ARXIV_RETRY_DELAYS, its last delay repeated up to INGEST_ARXIV_RETRIES of them."""
    delays = list(settings.arxiv_retry_delays)
    return delays + delays[-1:] * max(0, settings.arxiv_retries - len(delays))


def plain_retrying(query: Callable[..., Any], settings: Settings) -> Callable[..., Any]:
    """The query for a run with no flow run: tried again on transient errors only, as many times
    (INGEST_ARXIV_RETRIES) and after the same delays as its Prefect task (`retry_delays`;
    jittered as Prefect does, +-50%)."""
    delays = retry_delays(settings)

    def call(*args: Any) -> Any:
        attempt = 0
        while True:
            try:
                return query(*args)
            except Exception as exc:
                if attempt >= settings.arxiv_retries or not is_transient(exc):
                    raise
            delay = delays[min(attempt, len(delays) - 1)] if delays else 0.0
            time.sleep(delay * random.uniform(0.5, 1.5))
            attempt += 1

    return call


def check_arxiv(
    store: Store,
    settings: Settings,
    arxiv_client: ArxivClient,
    http: PoliteFetcher,
    profiles: dict[str, Profile],
    accessed: date | None = None,
    keep: Callable[[list[AtomPage]], None] | None = None,
    *,
    query: Retry = plain_retrying,
    metadata_query: Any = fetch_metadata,
    author_query: Any = search_author,
    metadata: Callable[..., list[SourceOutcome]] = process_metadata_step,
    fetch: Callable[..., FetchResult] = steps.fetch_source,
    process: Callable[..., SourceOutcome] = process_pdf_step,
) -> list[SourceOutcome]:
    """The arXiv part of the nightly refresh (wiring only): the metadata of the papers the
    profiles cite, each author's query, then the PDFs. The keywords are the steps (plain by
    default; `flows.arxiv_tasks` passes its tasks)."""
    outcomes: list[SourceOutcome] = []
    papers: dict[str, Paper] = {}
    ids = cited_ids(profiles)
    if ids:
        try:
            batch = query(metadata_query, settings)(arxiv_client, ids)
            if keep:
                keep(batch.pages)
        except IngestError as exc:
            outcomes.append(
                record_failure(store, Source(url="https://export.arxiv.org/api/query"), exc)
            )
        else:
            outcomes += metadata(store, settings, batch, ids, profiles, accessed)
            papers = {
                pid: paper
                for pid, (paper, _snap) in papers_in(batch.pages, extractors=extractors).items()
            }
    new: dict[str, Paper] = {}
    for pid in sorted(profiles):
        for name in author_names(profiles[pid]):
            try:
                found = query(author_query, settings)(arxiv_client, name)
                if keep:
                    keep(found.pages)
            except IngestError as exc:
                outcomes.append(
                    record_failure(store, Source(url=f"arxiv author query {name}"), exc)
                )
                continue
            outcome, mine = process_search(
                store, settings, pid, found.query, found.pages, profiles, extractors=extractors
            )
            if outcome is not None:
                outcomes.append(outcome)
            for paper in mine:
                if paper.id not in papers:
                    new.setdefault(paper.id, paper)
    todo = list(papers.values()) + sorted(new.values(), key=lambda p: p.id)[: settings.max_new_pdfs]
    for paper in todo:
        outcomes.append(read_pdf(store, settings, http, paper, profiles, accessed, fetch, process))
    return outcomes
