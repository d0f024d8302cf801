"""The nightly in the command's own process, for when no local runner is up: the same wiring
(`flows.nightly_core`) with plain steps, its result marked `ran: locally`. The command does not
wait for the runner's start (its Prefect server: seconds); it starts it for the next command.

The fetch batches run on a thread pool here (Prefect's task runner in a flow run); no
artifacts are published (no Prefect server to hold them: the report files are the same); a run
that a dead process left `running` is marked crashed in ingest's database, and its flow run
by the runner as it starts (`flows.crashes.crash_orphans`).
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from contextlib import nullcontext
from pathlib import Path
from typing import Any

from flows import steps
from flows.context import RunContext
from flows.nightly_core import AHEAD, NightlySteps, run_nightly
from flows.one_off_core import LOCALLY
from ingest.pipeline.batches import fetch_all
from ingest.report.run import RunReport


def _check_arxiv(*args: Any) -> Any:
    from flows.arxiv_steps import check_arxiv  # the plain steps: Prefect not imported

    return check_arxiv(*args)


def _publish(ctx: RunContext, report: RunReport, name: str) -> Path:
    return steps.write_nightly(ctx, report, name)[0]


def plain_steps(pool: ThreadPoolExecutor) -> NightlySteps:
    """The nightly's steps as plain functions, the batch fetches on `pool`."""
    return NightlySteps(
        fetch=lambda fetcher, jobs: pool.submit(fetch_all, fetcher, jobs),
        process=steps.process_batch,
        check_reference=steps.check_reference,
        check_arxiv=_check_arxiv,
        publish=_publish,
        recover=steps.recover_crashed,
        flow_run_id=lambda: None,
        fan_out=lambda _settings: nullcontext(None),
    )


def runs_locally(settings: Any) -> bool:
    """Whether this process can take the nightly: not when it fans out to a Dask cluster
    (INGEST_DASK_ADDRESS: a Prefect task runner's work)."""
    return not settings.dask_address


def run_locally(args: dict[str, Any]) -> dict[str, Any]:
    """`ingest nightly` in the command's own process; raises SourcesFailedError (its result
    marked too) as the flow does."""
    from ingest.errors import SourcesFailedError

    with ThreadPoolExecutor(max_workers=AHEAD, thread_name_prefix="ingest-batch") as pool:
        try:
            result = run_nightly(plain_steps(pool), **args)
        except SourcesFailedError as exc:
            exc.result["ran"] = LOCALLY
            raise
    result["ran"] = LOCALLY
    return result
