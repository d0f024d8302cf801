"""Prefect tasks: one per I/O step, coarse (per batch of sources in the nightly, per source in a
one-off run); retries live in the fetch layer, not here."""

from __future__ import annotations

import os
import socket
from datetime import date
from typing import Any

from prefect import get_run_logger, task
from prefect.cache_policies import NO_CACHE

from flows import steps
from flows.context import open_client, replay_of
from ingest.fetch.polite import PoliteFetcher
from ingest.fetch.transient import is_transient
from ingest.fetch.warc import WarcWriter
from ingest.pipeline.batches import (
    FetchAnswer,
    FetchJob,
    fetch_all,
)
from ingest.settings import Settings


def retry_transient(task: Any, task_run: Any, state: Any) -> bool:
    """Retry only what may succeed later: timeouts, connection errors, 429 and 5xx."""
    try:
        state.result()
    except Exception as exc:  # noqa: BLE001 - we classify, not handle
        return is_transient(exc)
    return False


fetch_source = task(name="fetch-source", cache_policy=NO_CACHE)(steps.fetch_source)
process_source = task(name="process-source", cache_policy=NO_CACHE)(steps.process_source)
process_file = task(name="process-file", cache_policy=NO_CACHE)(steps.process_file)
process_feed = task(name="process-feed", cache_policy=NO_CACHE)(steps.process_feed)


@task(name="fetch-batch", cache_policy=NO_CACHE)
def fetch_batch(fetcher: PoliteFetcher, jobs: list[FetchJob]) -> list[FetchAnswer]:
    """One batch's network step in this process, with the run's shared fetcher."""
    return fetch_all(fetcher, jobs)


@task(name="fetch-batch-remote", cache_policy=NO_CACHE)
def fetch_batch_remote(
    settings: Settings, jobs: list[FetchJob], replay: str | None, as_of: date | None
) -> list[FetchAnswer]:
    """One batch's network step in another process (a Dask worker): from plain data, with a
    client, fetcher and WARC file of its own. The batch holds one host's URLs (see
    ingest.pipeline.batches), so the host's pacing holds although no fetcher is shared."""
    archive = None if replay_of(settings, replay) else WarcWriter(settings.warc_dir)
    try:
        with open_client(settings, replay, as_of, archive) as client:
            answers = fetch_all(PoliteFetcher(client, settings), jobs)
        get_run_logger().info(
            "fetched a batch of %d sources in process %d on %s",
            len(jobs),
            os.getpid(),
            socket.gethostname(),
        )
        return answers
    finally:
        if archive is not None:
            archive.close()


process_batch = task(name="process-batch", cache_policy=NO_CACHE)(steps.process_batch)
check_reference = task(name="check-reference", cache_policy=NO_CACHE)(steps.check_reference)
