"""Pages read in a worker process give what reading them in the run's process gives
(ingest.pipeline.extract_pool)."""

from __future__ import annotations

from pathlib import Path

import pytest

import extractors
from ingest.fetch.result import FetchResult
from ingest.models import Snapshot, Source
from ingest.pipeline import extract_pool
from ingest.pipeline.batches import FetchAnswer, FetchJob, process_fetched
from ingest.pipeline.extract_pool import MIN_BATCH, extraction_pool, pooled_reads
from ingest.profiles.io import load_profiles
from ingest.settings import Settings
from ingest.storage import Store

EXTRACTOR = "pytorch_governance"


def _page(n: int) -> bytes:
    people = [f"Person {n}-{i} ([user{n}x{i}](https://github.com/user{n}x{i}))" for i in range(4)]
    return (
        "# PyTorch Governance | Maintainers\n\n## Lead Core Maintainer\n\n"
        f"- {people[0]}\n\n## Core Maintainers\n\n- {people[1]}\n- {people[2]}\n\n"
        f"## Core Module maintainers\n\n### CUDA\n\n- {people[3]}\n"
    ).encode()


def _batch(count: int, broken: int | None = None) -> tuple[list[FetchJob], list[FetchAnswer]]:
    jobs: list[FetchJob] = []
    answers: list[FetchAnswer] = []
    for n in range(count):
        url = f"https://example.org/docs/{n}/community/persons_of_interest.md"
        body = b"\xff\xfe not markdown \x00" if n == broken else _page(n)
        snapshot = Snapshot(
            url=url,
            requested_url=url,
            status_code=200,
            headers={"content-type": "text/markdown; charset=utf-8"},
            body=body,
        )
        jobs.append((Source(url=url, extractor=EXTRACTOR), None))
        fetched = FetchResult(
            status="fetched", snapshot=snapshot, url=url, final_url=url, http_status=200
        )
        answers.append(fetched)
    return jobs, answers


def _here(snapshot: Snapshot) -> list[object]:
    return list(extractors.claims_of(extractors.get(EXTRACTOR), snapshot))


def test_a_worker_reads_each_page_as_this_process_does(workspace: Settings) -> None:
    settings = workspace.model_copy(update={"extract_workers": 1})
    jobs, answers = _batch(MIN_BATCH + 3)
    with extraction_pool(settings):
        reads = pooled_reads(jobs, answers, settings, extractors)
        assert set(reads) == {source.url for source, _state in jobs}
        for (source, _state), answer in zip(jobs, answers, strict=True):
            assert isinstance(answer, FetchResult) and answer.snapshot is not None
            assert reads[source.url].claims() == _here(answer.snapshot)
    assert not extract_pool._CURRENT  # closed with the block


def test_a_page_the_worker_would_cap_is_read_here(workspace: Settings) -> None:
    settings = workspace.model_copy(update={"extract_workers": 1, "max_claims": 2})
    jobs, answers = _batch(MIN_BATCH)
    with extraction_pool(settings):
        reads = pooled_reads(jobs, answers, settings, extractors)
        assert all(read.claims() is None for read in reads.values())  # 4 people, 2 kept


def test_small_batches_and_no_pool_are_read_here(workspace: Settings) -> None:
    settings = workspace.model_copy(update={"extract_workers": 1})
    jobs, answers = _batch(MIN_BATCH - 1)
    assert pooled_reads(*_batch(MIN_BATCH), settings, extractors) == {}  # no pool open
    with extraction_pool(settings):
        assert pooled_reads(jobs, answers, settings, extractors) == {}
    with extraction_pool(workspace.model_copy(update={"extract_workers": 0})) as pool:
        assert pool is None and pooled_reads(*_batch(MIN_BATCH), settings, extractors) == {}


def test_a_batch_checked_with_workers_is_the_batch_checked_without(
    workspace: Settings, tmp_path: Path
) -> None:
    profiles = load_profiles(workspace.profiles_dir)
    jobs, answers = _batch(MIN_BATCH + 1, broken=5)
    found = {}
    for workers, home in ((0, tmp_path / "a"), (1, tmp_path / "b")):
        run_settings = workspace.model_copy(update={"home": home, "extract_workers": workers})
        store = Store.open(run_settings)
        try:
            with extraction_pool(run_settings):
                outcomes = process_fetched(
                    store, run_settings, jobs, answers, profiles, None, "r1", extractors=extractors
                )
            claims = [store.claims_for(o.snapshot) for o in outcomes if o.snapshot]
        finally:
            store.close()
        found[workers] = ([o.to_json() for o in outcomes], claims)
    assert found[1] == found[0]
    assert sum(1 for o in found[1][0] if o["people"]) >= MIN_BATCH


def test_a_pool_that_cannot_start_leaves_the_pages_to_this_process(
    workspace: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    settings = workspace.model_copy(update={"extract_workers": 1})

    def refused(self: extract_pool.ExtractionPool) -> object:
        raise OSError("no processes left")

    monkeypatch.setattr(extract_pool.ExtractionPool, "executor", refused)
    with extraction_pool(settings):
        assert pooled_reads(*_batch(MIN_BATCH), settings, extractors) == {}
