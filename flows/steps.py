"""The one-off run's steps as plain functions, Prefect not imported: `flows.tasks` wraps each as
its Prefect task (the runner's flow runs record them), and a command that finds no runner up
calls them as they are (`flows.one_off_core`), so its first run does not wait ~2 s for Prefect's
import, let alone for a server."""

from __future__ import annotations

from collections.abc import Callable
from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING, Any

import extractors
from flows.context import RunContext
from ingest.errors import IngestError
from ingest.fetch.result import FetchResult
from ingest.models import Profile, Snapshot, Source
from ingest.pipeline.batches import (
    FetchAnswer,
    FetchJob,
    feed_fetched,
    process_fetched,
    source_fetched,
)
from ingest.pipeline.local_file import file_warnings, refuse_older_file
from ingest.pipeline.outcome import OutcomeStatus, SourceOutcome
from ingest.pipeline.process import process_snapshot, record_failure
from ingest.profiles.references import record_reachable
from ingest.report.notify import notify_run
from ingest.report.run import RunReport, write_run
from ingest.runner import processes
from ingest.settings import Settings
from ingest.storage import SourceRow, Store

if TYPE_CHECKING:  # the fetch layer (httpx, 0.2 s) is imported by the runs that fetch
    from ingest.fetch.polite import PoliteFetcher

GONE = "its process ended before the run did (killed, or the machine stopped)"


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


def process_batch(
    store: Store,
    settings: Settings,
    jobs: list[FetchJob],
    answers: list[FetchAnswer],
    profiles: dict[str, Profile],
    accessed: date | None,
    run_id: str,
) -> list[SourceOutcome]:
    """Store, extract, diff and enqueue one fetched batch (unchanged sources whose last check
    still holds: only recorded as checked), in this process: the database has one writer."""
    return process_fetched(
        store, settings, jobs, answers, profiles, accessed, run_id, extractors=extractors
    )


def check_reference(
    store: Store, settings: Settings, fetcher: PoliteFetcher, url: str, accessed: date | None
) -> SourceOutcome:
    """A cited URL no extractor reads: does it still answer?"""
    try:
        fetched = fetcher.revalidate(url, store.source_state(url))
    except IngestError as exc:
        return record_failure(store, Source(url=url), exc, fetch=True)
    return record_reachable(store, settings.profiles_dir, url, fetched, accessed)


def notify_editors(settings: Settings, report: dict[str, Any]) -> dict[str, Any] | None:
    """The webhook POST (INGEST_NOTIFY_URL); failures come back as a record, never raise.
    Never retried: a notification sent twice is worse than one noted as failed."""
    from ingest.fetch.client import make_client

    with make_client(settings) as client:
        return notify_run(client, settings, report)


def write_nightly(
    ctx: RunContext,
    report: RunReport,
    name: str,
    notify: Callable[[Settings, dict[str, Any]], dict[str, Any] | None] = notify_editors,
) -> tuple[Path, tuple[dict[str, Any], str]]:
    """Notify (if changes were queued), record the run, write its report under
    INGEST_HOME/reports (`<name>/<run_id>.md/.json/.html`, kept for every run; `<name>.md` the
    day's index: ingest.report.run.write_run). The run's .html report, and the report's JSON
    and Markdown (made once: for the files and, in a flow run, the artifact)."""
    summary = report.to_json()
    html = ctx.settings.reports_dir / name / f"{report.run_id}.html"
    report.notification = notify(ctx.settings, summary | {"report_file": str(html)})
    ctx.store.finish_run(report.run_id, summary | {"notification": report.notification})
    # its JSON (the summary's, with the notification) and Markdown made once (each cost
    # seconds at 10,000 sources)
    texts = (summary | {"notification": report.notification}, report.markdown())
    return write_run(report, ctx.settings.reports_dir, name, texts=texts), texts


def recover_crashed(
    store: Store, crash_flow_run: Callable[[str, str], object] | None = None
) -> list[dict[str, Any]]:
    """The runs found crashed now (run_id, kind, started, flow_run_id, reason), oldest first:
    every run recorded as running whose process is gone (ingest.runner.processes) is marked
    crashed, and `crash_flow_run(flow_run_id, message)` tells Prefect (a run in the command's
    own process has no Prefect to tell: the runner crashes its server's orphans as it starts)."""
    found = []
    for run in store.running_runs():
        if not processes.gone(run["process"]):
            continue  # still running (another command's run), or another host's
        if not store.end_run(run["id"], "crashed", GONE):
            continue
        if run["flow_run_id"] and crash_flow_run is not None:
            crash_flow_run(run["flow_run_id"], f"ingest run {run['id']}: {GONE}")
        found.append(
            {
                "run_id": run["id"],
                "kind": run["kind"],
                "started": run["started"],
                "flow_run_id": run["flow_run_id"],
                "reason": GONE,
            }
        )
    return found
