"""One URL, now: fetch it (or take the editor's file as its body), extract, diff, enqueue, as a
Prefect flow run with its tasks (the wiring is `flows.one_off_core`'s, shared with a run in the
command's own process)."""

from __future__ import annotations

from typing import Any

from prefect import flow
from prefect.artifacts import create_markdown_artifact

from flows.arxiv_tasks import check_paper
from flows.one_off_core import Steps, run_one_off
from flows.tasks import fetch_source, process_feed, process_file, process_source

TASKS = Steps(
    fetch_source=fetch_source,
    process_source=process_source,
    process_file=process_file,
    process_feed=process_feed,
    check_paper=check_paper,
)


@flow(name="ingest-url", log_prints=True)
def ingest_url(
    url: str, file: str | None = None, extractor: str | None = None, as_of: str | None = None
) -> dict[str, Any]:
    """`as_of` (YYYY-MM-DD): with `file`, the day the file is evidence for (default: the date
    it states, else today, with a warning). A file older than the stored snapshot of URL is
    refused (OlderFileError, nothing stored)."""
    done = run_one_off(TASKS, url, file, extractor, as_of)
    create_markdown_artifact(
        done.report.markdown(), key="one-off-report", description=f"ingest one-off run for {url}"
    )
    return done.result()
