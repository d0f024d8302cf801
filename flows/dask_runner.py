"""The nightly's optional Dask fan-out (prefect-dask), opened from INGEST_DASK_ADDRESS.

    INGEST_DASK_ADDRESS=local                 a LocalCluster of INGEST_DASK_WORKERS processes
    INGEST_DASK_ADDRESS=tcp://10.0.0.5:8786   a running cluster's scheduler (`dask scheduler`,
                                              `dask worker tcp://10.0.0.5:8786` on each machine,
                                              every one with this project installed and
                                              PREFECT_API_URL set to the same Prefect server)

Only the fetch batches go there (`flows.tasks.fetch_batch_remote`, plain data in and out): the
database has one writer, so storing, extracting and diffing stay in the flow's process.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from ingest.errors import ConfigError
from ingest.settings import Settings


def api_url() -> str:
    """The Prefect API this process reports to (PREFECT_API_URL, or its temporary server)."""
    from prefect.client.orchestration import get_client

    with get_client(sync_client=True) as client:
        return str(client.api_url)


@contextmanager
def dask_runner(settings: Settings) -> Iterator[Any]:
    """A started DaskTaskRunner for the configured cluster, or None when none is configured."""
    address = settings.dask_address
    if not address:
        yield None
        return
    from prefect_dask import DaskTaskRunner  # a heavy import, only when asked for

    if address == "local":
        logging.getLogger("distributed").setLevel(logging.WARNING)  # the scheduler's chatter
        runner = DaskTaskRunner(
            cluster_class="distributed.LocalCluster",
            cluster_kwargs={
                "n_workers": settings.dask_workers,
                "processes": True,
                "threads_per_worker": 2,
                "dashboard_address": None,
                "silence_logs": logging.WARNING,
                # the workers report their task runs to this run's Prefect API (the temporary
                # server included: without its address a worker would start one of its own)
                "env": {"PREFECT_API_URL": api_url()},
            },
        )
    else:
        runner = DaskTaskRunner(address=address)
    try:
        runner.__enter__()
        runner.client  # noqa: B018 - connect now (prefect-dask would on the first submit)
    except (OSError, TimeoutError, ValueError) as exc:
        raise ConfigError(
            f"could not start the Dask task runner for INGEST_DASK_ADDRESS={address!r}: {exc}"
        ) from exc
    try:
        yield runner
    finally:
        runner.__exit__(None, None, None)
