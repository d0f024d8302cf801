"""The nightly refresh: every registered source and every reference a profile cites.

ingest nightly                          live, over the network
ingest nightly --replay fixtures/web    offline, from recorded responses
ingest nightly --replay DIR --as-of 2024-06-01   the versions in force that day
ingest nightly --fail-on 0.5            fail the run when half its sources or more failed

A run whose failed share of sources reaches `fail_on` (default 1.0: all of them) raises
SourcesFailedError after its report is written and its flags queued: the flow run is Failed,
the command exits 1, and cron (or Prefect's automations) can tell.
"""

from __future__ import annotations

import contextlib
import uuid
from dataclasses import dataclass
from datetime import date
from typing import Any

from prefect import flow
from prefect.futures import PrefectFuture
from prefect.utilities.annotations import quote

import extractors
from flows.arxiv_tasks import check_arxiv
from flows.context import RunContext, replay_of
from flows.crashes import current_flow_run_id, recover_crashed
from flows.dask_runner import dask_runner
from flows.report_tasks import publish_nightly
from flows.tasks import check_reference, fetch_batch, fetch_batch_remote, process_batch
from ingest.errors import IngestError, RunCancelled, SourcesFailedError
from ingest.fetch.polite import PoliteFetcher
from ingest.models import Source, iso_z, utcnow
from ingest.pipeline.batches import FetchAnswer, FetchJob, plan_batches
from ingest.pipeline.outcome import SourceOutcome
from ingest.pipeline.registry import load_registry, plan
from ingest.profiles.references import flag_unreachable
from ingest.report.run import RunReport, failed_too_many
from ingest.runner import processes, progress
from ingest.settings import get_settings


def check_sources(
    ctx: RunContext,
    fetcher: PoliteFetcher,
    sources: list[Source],
    accessed: date | None,
    run_id: str,
    remote: Remote | None = None,
    stage: str = "sources",
) -> list[SourceOutcome]:
    """Sources in batches of INGEST_BATCH_SIZE: each batch fetched by one task (concurrently,
    per-host limits in the fetch layer; on the Dask cluster when `remote` is given), then stored,
    extracted and diffed by one task in this process (the database has one writer), in order,
    while later batches are still being fetched. Feeds register their entries as sources."""
    batches = plan_batches(sources, ctx.settings.batch_size, by_host=remote is not None)
    # quote(): Prefect would otherwise walk every source, answer and profile of a batch
    # looking for futures in the parameters (seconds per run at 2,000 sources)
    states = ctx.store.source_states([s.url for s in sources])
    futures: list[PrefectFuture[list[FetchAnswer]]] = []
    jobs: list[list[FetchJob]] = []
    for batch in batches:
        jobs.append([(s, states.get(s.url)) for s in batch.sources])
        if remote is None:
            futures.append(fetch_batch.submit(fetcher, quote(jobs[-1])))  # type: ignore[call-overload]
        else:
            after = [futures[batch.after]] if batch.after is not None else None
            parameters = {
                "settings": ctx.settings,
                "jobs": jobs[-1],  # (a TaskRunner.submit does not take quote() off)
                "replay": remote.replay,
                "as_of": remote.as_of,
            }
            futures.append(remote.runner.submit(fetch_batch_remote, parameters, wait_for=after))
    outcomes: list[SourceOutcome] = []
    profiles = quote(ctx.profiles)
    progress.report(stage, 0, len(sources))
    for batch_jobs, future in zip(jobs, futures, strict=True):
        answers = quote(batch_answers(future, batch_jobs))
        outcomes += process_batch(  # type: ignore[call-overload]
            ctx.store, ctx.settings, quote(batch_jobs), answers, profiles, accessed, run_id
        )
        progress.report(stage, len(outcomes), len(sources))
    if remote is not None:  # batches by host: the report lists sources in the registry's order
        order = {source.url: n for n, source in enumerate(sources)}
        outcomes.sort(key=lambda outcome: order.get(outcome.url, len(order)))
    return outcomes


def batch_answers(
    future: PrefectFuture[list[FetchAnswer]], jobs: list[FetchJob]
) -> list[FetchAnswer]:
    """The batch's answers; if the whole batch failed (a Dask worker lost, say), each of its
    sources fails with that reason and the run goes on."""
    try:
        return future.result()
    except Exception as exc:  # noqa: BLE001 - recorded per source, the run continues
        reason = f"its fetch batch failed: {exc!r}"
        return [IngestError(f"'{source.url}': {reason}") for source, _state in jobs]


@dataclass(frozen=True)
class Remote:
    """Where fetch batches go when the nightly fans out: a started DaskTaskRunner, and what a
    worker needs to open its own client."""

    runner: Any
    replay: str | None
    as_of: date | None


@flow(name="nightly-refresh", log_prints=True)
def nightly_refresh(
    replay: str | None = None, as_of: str | None = None, fail_on: float = 1.0
) -> dict[str, Any]:
    if not 0.0 <= fail_on <= 1.0:
        raise IngestError(f"fail_on must be between 0 and 1, not {fail_on}")
    if as_of and not replay_of(get_settings(), replay):
        # live pages are today's: a report "as of" another day would say what it never saw
        raise IngestError(f"as_of {as_of} needs a replay archive (--replay or INGEST_REPLAY)")
    ctx = RunContext.open()
    day = date.fromisoformat(as_of) if as_of else None
    report = RunReport(
        run_id=uuid.uuid4().hex[:12],
        kind="nightly",
        started=iso_z(utcnow()),
        as_of=as_of,
        replay=replay,
    )
    accessed = None if replay else utcnow().date()  # a replay is not an access
    started = False
    try:
        todo = plan(load_registry(ctx.settings.sources_file), ctx.profiles, extractors=extractors)
        ctx.store.upsert_sources(todo.sources)
        report.previous_crashed = recover_crashed(ctx.store)  # said in the report and alerts
        ctx.store.start_run(report.run_id, "nightly", current_flow_run_id(), processes.identity())
        started = True
        report.pending_before = ctx.store.pending_change_ids()  # what is new tonight is not
        with ctx.client(replay, day) as client, dask_runner(ctx.settings) as runner:
            fetcher = ctx.fetcher(client)
            remote = Remote(runner, replay, day) if runner is not None else None
            report.outcomes += check_sources(
                ctx, fetcher, todo.sources, accessed, report.run_id, remote
            )
            # what the feeds announced, this run's new entries included
            registered = {t.url for t in todo.sources}
            found = [s for s in ctx.store.discovered_sources() if s.url not in registered]
            report.outcomes += check_sources(
                ctx, fetcher, found, accessed, report.run_id, remote, "feed entries"
            )
            for n, (url, _why) in enumerate(todo.reachability):
                progress.report("cited references", n, len(todo.reachability))
                report.outcomes.append(
                    check_reference(ctx.store, ctx.settings, fetcher, url, accessed)
                )
            progress.report("arXiv", 0, None)
            with ctx.arxiv_client(replay, day) as arxiv_client:
                report.outcomes += check_arxiv(
                    ctx.store,
                    ctx.settings,
                    arxiv_client,
                    fetcher,
                    ctx.profiles,
                    accessed,
                    ctx.archive_pages,
                )
        report.unreachable = flag_unreachable(
            ctx.store, ctx.profiles, ctx.settings.unreachable_after
        )
        report.finished = iso_z(utcnow())
        name = as_of or utcnow().date().isoformat()
        path = publish_nightly(ctx, report, name)
        # what the caller shows: the counts and alerts; the whole report is in the files (a
        # 2,000-source result would also cost Prefect half a second to walk for futures)
        counts, split = report.counts(), report.new_and_pending()
        result = {
            "run_id": report.run_id,
            "counts": counts,
            "flags": dict(report.flags()),
            "new_flags": split["new"]["flags"],  # first queued by this run, by kind
            "still_pending": split["still_pending"]["facts"],  # the run's flags from before
            "alerts": report.crash_alerts() + [a for o in report.outcomes for a in o.alerts],
            "report_file": str(path),
        }
    except BaseException as exc:  # the run ends here: recorded as cancelled or failed
        if started:
            cancelled = isinstance(exc, RunCancelled | KeyboardInterrupt)
            with contextlib.suppress(Exception):
                ctx.store.end_run(
                    report.run_id, "cancelled" if cancelled else "failed", f"{exc!r}"[:500]
                )
        raise
    finally:
        ctx.close()
    why = failed_too_many(counts, fail_on)
    if why:  # after the report and the queue: kept, and the flow run is Failed
        raise SourcesFailedError(f"{why}; report: {path}", result)
    return result
