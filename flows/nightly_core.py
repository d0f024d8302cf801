"""The nightly refresh's wiring, Prefect not imported: the Prefect flow `flows.nightly.
nightly_refresh` runs it with its tasks, and a command that finds no runner up runs it in its
own process with plain steps (`flows.nightly_local`), said as "run locally".

    run_nightly(steps, replay, as_of, fail_on)        the run: its result, or SourcesFailedError
    check_sources(steps, ctx, fetcher, sources, ...)  sources in batches, in order

Sources go in batches of INGEST_BATCH_SIZE, at most AHEAD batches fetched ahead of the one being
stored: a batch's fetched documents are held only until its turn, so a run of 10,000 sources
holds a few hundred documents, not all of them (and starts no thread per batch up front).
"""

from __future__ import annotations

import contextlib
import gc
import uuid
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager
from dataclasses import dataclass
from datetime import date
from pathlib import Path
from typing import Any, Protocol

import extractors
from flows.context import RunContext, replay_of
from ingest.errors import IngestError, RunCancelled, SourcesFailedError
from ingest.fetch.polite import PoliteFetcher
from ingest.models import Source, iso_z, utcnow
from ingest.pipeline.batches import FetchAnswer, FetchJob, plan_batches
from ingest.pipeline.extract_pool import extraction_pool
from ingest.pipeline.outcome import SourceOutcome
from ingest.pipeline.registry import load_registry, plan
from ingest.profiles.references import flag_unreachable
from ingest.report.run import RunReport, failed_too_many
from ingest.runner import processes, progress
from ingest.settings import Settings, get_settings

AHEAD = 4  # batches fetched ahead of the one being stored, at most


class Answers(Protocol):
    """A batch fetch under way: a Prefect future or a concurrent.futures one."""

    def result(self) -> list[FetchAnswer]: ...


@dataclass(frozen=True)
class Remote:
    """Where fetch batches go when the nightly fans out: a started DaskTaskRunner, and what a
    worker needs to open its own client."""

    runner: Any
    replay: str | None
    as_of: date | None


@dataclass(frozen=True)
class NightlySteps:
    """What a nightly calls: Prefect tasks in a flow run, plain functions otherwise.

    `fetch` starts one batch's fetch in this process; `fetch_remote` (with a fan-out) on the
    cluster; `fan_out(settings)` opens the Dask runner or gives None; `big` wraps a large
    argument (Prefect's quote(): not walked for futures); `publish` notifies, writes the report
    and returns its path; `recover` marks the runs a dead process left as crashed."""

    fetch: Callable[[PoliteFetcher, list[FetchJob]], Answers]
    process: Callable[..., list[SourceOutcome]]
    check_reference: Callable[..., SourceOutcome]
    check_arxiv: Callable[..., list[SourceOutcome]]
    publish: Callable[[RunContext, RunReport, str], Path]
    recover: Callable[[Any], list[dict[str, Any]]]
    flow_run_id: Callable[[], str | None]
    fan_out: Callable[[Settings], AbstractContextManager[Any]]
    fetch_remote: Any = None
    big: Callable[[Any], Any] = lambda value: value


def check_sources(
    steps: NightlySteps,
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
    while up to AHEAD later batches are being fetched. Feeds register their entries as
    sources."""
    batches = plan_batches(sources, ctx.settings.batch_size, by_host=remote is not None)
    # the validators only: each batch reads its rows whole again when it is stored
    states = ctx.store.source_validators([s.url for s in sources])
    jobs = [[(s, states.get(s.url)) for s in batch.sources] for batch in batches]
    futures: list[Answers | None] = []

    def start(n: int) -> None:
        batch = batches[n]
        if remote is None:
            futures.append(steps.fetch(fetcher, steps.big(jobs[n])))
            return
        after = [futures[batch.after]] if batch.after is not None else None
        parameters = {
            "settings": ctx.settings,
            "jobs": jobs[n],  # (a TaskRunner.submit does not take quote() off)
            "replay": remote.replay,
            "as_of": remote.as_of,
        }
        futures.append(remote.runner.submit(steps.fetch_remote, parameters, wait_for=after))

    outcomes: list[SourceOutcome] = []
    profiles = steps.big(ctx.profiles)
    progress.report(stage, 0, len(sources))
    for n in range(min(AHEAD, len(batches))):
        start(n)
    for n, batch_jobs in enumerate(jobs):
        if n + AHEAD < len(batches):
            start(n + AHEAD)
        future = futures[n]
        assert future is not None
        answers = steps.big(batch_answers(future, batch_jobs))
        if remote is None or all(b.after != n for b in batches[n + 1 :]):
            futures[n] = None  # its documents go once stored (a later batch may wait on it)
        outcomes += steps.process(
            ctx.store, ctx.settings, steps.big(batch_jobs), answers, profiles, accessed, run_id
        )
        progress.report(stage, len(outcomes), len(sources))
    if remote is not None:  # batches by host: the report lists sources in the registry's order
        order = {source.url: n for n, source in enumerate(sources)}
        outcomes.sort(key=lambda outcome: order.get(outcome.url, len(order)))
    return outcomes


def batch_answers(future: Answers, jobs: list[FetchJob]) -> list[FetchAnswer]:
    """The batch's answers; if the whole batch failed (a Dask worker lost, say), each of its
    sources fails with that reason and the run goes on."""
    try:
        return future.result()
    except Exception as exc:  # noqa: BLE001 - recorded per source, the run continues
        reason = f"its fetch batch failed: {exc!r}"
        return [IngestError(f"'{source.url}': {reason}") for source, _state in jobs]


def run_nightly(
    steps: NightlySteps, replay: str | None = None, as_of: str | None = None, fail_on: float = 1.0
) -> dict[str, Any]:
    """The nightly refresh: every registered source, the feeds' entries, every reference a
    profile cites, arXiv; the report and the queue. A run whose failed share of sources reaches
    `fail_on` raises SourcesFailedError (with the result) after its report is written."""
    with heap_frozen():
        return _run_nightly(steps, replay, as_of, fail_on)


# the collector's thresholds during a run: a young generation of 10,000 objects, not 700 (a
# batch makes hundreds of thousands of objects, nearly all freed by their reference counts; at
# 700 each was scanned by ~2,000 young collections and many promoted, and every promotion
# brought the next full collection nearer)
RUN_GC_THRESHOLD = (10_000, 10, 10)


@contextlib.contextmanager
def heap_frozen() -> Iterator[None]:
    """The objects alive when the run starts (modules, classes, settings: most of the heap) left
    out of the garbage collector's scans until it ends (gc.freeze): every full collection of a
    run scanned them again, 0.86 of the 1.18 s of collections in a 3,000-source unchanged
    re-run (5.9 s CPU). The young generation larger while the run lasts (RUN_GC_THRESHOLD).
    Unfrozen and the thresholds put back at the end, so a process that goes on (a runner)
    collects them as before."""
    thresholds = gc.get_threshold()
    gc.freeze()
    gc.set_threshold(*RUN_GC_THRESHOLD)
    try:
        yield
    finally:
        gc.set_threshold(*thresholds)
        gc.unfreeze()


@contextlib.contextmanager
def collection_paused() -> Iterator[None]:
    """No automatic garbage collection inside (gc.disable), as the report is made: it builds
    one dict and a few strings per source and person (80,000 lines at 10,000 sources), none in
    a cycle, and each full collection the growing heap set off scanned it all to find nothing
    (2.0 of the 3.9 s of collections in a 10,000-source nightly). Cycles made inside are
    collected after."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()


def _run_nightly(
    steps: NightlySteps, replay: str | None, as_of: str | None, fail_on: float
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
        report.previous_crashed = steps.recover(ctx.store)  # said in the report and alerts
        ctx.store.start_run(report.run_id, "nightly", steps.flow_run_id(), processes.identity())
        started = True
        report.pending_before = ctx.store.pending_change_ids()  # what is new tonight is not
        with (
            ctx.client(replay, day) as client,
            steps.fan_out(ctx.settings) as runner,
            extraction_pool(ctx.settings),  # new pages read in workers (first runs)
        ):
            fetcher = ctx.fetcher(client)
            remote = Remote(runner, replay, day) if runner is not None else None
            report.outcomes += check_sources(
                steps, ctx, fetcher, todo.sources, accessed, report.run_id, remote
            )
            # what the feeds announced, this run's new entries included
            registered = {t.url for t in todo.sources}
            found = [s for s in ctx.store.discovered_sources() if s.url not in registered]
            report.outcomes += check_sources(
                steps, ctx, fetcher, found, accessed, report.run_id, remote, "feed entries"
            )
            for n, (url, _why) in enumerate(todo.reachability):
                progress.report("cited references", n, len(todo.reachability))
                report.outcomes.append(
                    steps.check_reference(ctx.store, ctx.settings, fetcher, url, accessed)
                )
            progress.report("arXiv", 0, None)
            with ctx.arxiv_client(replay, day) as arxiv_client:
                report.outcomes += steps.check_arxiv(
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
        with collection_paused():
            path = steps.publish(ctx, report, name)
            # what the caller shows: the counts and alerts; the whole report is in the files
            # (a 2,000-source result would also cost Prefect half a second to walk for futures)
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
