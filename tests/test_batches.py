"""How the nightly cuts sources into batches (ingest.pipeline.batches)."""

from __future__ import annotations

from concurrent.futures import Future
from pathlib import Path
from typing import Any

import httpx
import pytest
from prefect.utilities.annotations import quote

import flows.nightly
from flows.context import RunContext
from flows.nightly import batch_answers, check_sources
from ingest.errors import StoreError
from ingest.fetch.client import FetchResult, make_client
from ingest.fetch.polite import PoliteFetcher
from ingest.fetch.warc import WarcWriter
from ingest.fetch.warc_reader import read_responses, warc_files
from ingest.models import Source
from ingest.pipeline.batches import FetchJob, fetch_all, plan_batches
from ingest.runner import progress
from ingest.settings import Settings

from .conftest import ROOT


def sources(*urls: str) -> list[Source]:
    return [Source(url=u) for u in urls]


def test_batches_keep_order_and_size() -> None:
    found = plan_batches(sources(*(f"https://a.org/{n}" for n in range(7))), 3)
    assert [[s.url[-1] for s in b.sources] for b in found] == [
        ["0", "1", "2"],
        ["3", "4", "5"],
        ["6"],
    ]
    assert all(b.after is None for b in found)
    assert plan_batches([], 3) == []


def test_batches_by_host_hold_one_host_and_chain_its_batches() -> None:
    found = plan_batches(
        sources(
            "https://a.org/1",
            "https://b.org/1",
            "https://a.org/2",
            "http://a.org/3",  # http and https of one name: one host
            "https://a.org:8443/4",  # another port: another host
            "https://a.org/5",
        ),
        2,
        by_host=True,
    )
    assert [[s.url for s in b.sources] for b in found] == [
        ["https://a.org/1", "https://a.org/2"],
        ["http://a.org/3", "https://a.org/5"],
        ["https://b.org/1"],
        ["https://a.org:8443/4"],
    ]
    assert [b.after for b in found] == [None, 0, None, None]


def test_a_url_without_a_host_gets_a_batch_of_its_own_kind() -> None:
    found = plan_batches(sources("not a url", "https://a.org/1", "mailto:x@y.org"), 5, by_host=True)
    assert sum(len(b.sources) for b in found) == 3  # nothing dropped: the fetch reports the error


def test_batch_size_must_be_positive() -> None:
    with pytest.raises(ValueError, match="at least 1"):
        plan_batches(sources("https://a.org/1"), 0)


def test_an_unexpected_error_on_one_page_fails_that_page_not_the_batch(
    workspace: Settings,
) -> None:
    def answer(request: httpx.Request) -> httpx.Response:
        if request.url.path == "/boom":
            raise RuntimeError("a bug, say")
        return httpx.Response(200, text="# fine\n", headers={"Content-Type": "text/markdown"})

    with make_client(workspace, transport=httpx.MockTransport(answer), offline=True) as client:
        fetcher = PoliteFetcher(client, workspace)
        jobs: list[FetchJob] = [
            (s, None) for s in sources(*(f"https://a.org/{p}" for p in ("1", "boom", "2")))
        ]
        answers = fetch_all(fetcher, jobs)
    assert [type(a).__name__ for a in answers] == ["FetchResult", "IngestError", "FetchResult"]
    assert "https://a.org/boom" in str(answers[1]) and "a bug, say" in str(answers[1])


def test_a_batch_is_fsynced_once_when_all_of_it_has_answered_not_once_per_request(
    workspace: Settings, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The batch's WARC records are made durable together: no fsync while its requests run, one
    covering the whole file before fetch_all gives the answers back; a write outside a batch
    still returns only once fsynced."""
    import os

    import ingest.fetch.warc as warc

    real_fsync = os.fsync
    synced: list[int] = []  # the file's size as each fsync of it began

    def counting_fsync(fd: int) -> None:
        if not os.path.isdir(f"/proc/self/fd/{fd}"):  # not the folder's (a new file's name)
            synced.append(os.fstat(fd).st_size)
        real_fsync(fd)

    def answer(request: httpx.Request) -> httpx.Response:
        assert not synced, "fsynced while the batch was still fetching"
        return httpx.Response(200, text="# fine\n", headers={"Content-Type": "text/markdown"})

    monkeypatch.setattr(warc.os, "fsync", counting_fsync)
    with (
        WarcWriter(tmp_path / "warc") as writer,
        make_client(
            workspace, transport=httpx.MockTransport(answer), offline=True, archive=writer
        ) as client,
    ):
        jobs: list[FetchJob] = [
            (s, None) for s in sources(*(f"https://a.org/{n}" for n in range(12)))
        ]
        answers = fetch_all(PoliteFetcher(client, workspace), jobs)
        assert writer.path is not None
        assert synced == [writer.path.stat().st_size]  # one, covering every record
        writer.write_page("https://a.org/alone", 200, {}, b"alone")
        assert len(synced) == 2 and synced[-1] == writer.path.stat().st_size
    assert all(isinstance(a, FetchResult) for a in answers)
    assert [len(list(read_responses(p))) for p in warc_files(tmp_path / "warc")] == [13]


def test_a_batch_whose_warc_file_could_not_be_flushed_fails(
    workspace: Settings, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An fsync that fails under a batch fails the batch (its answers are not handed on as if
    archived): StoreError, which the nightly records against each of its sources."""
    import os

    import ingest.fetch.warc as warc

    real_fsync = os.fsync

    def failing_fsync(fd: int) -> None:
        if os.path.isdir(f"/proc/self/fd/{fd}"):
            return real_fsync(fd)
        raise OSError(5, "Input/output error")

    def answer(request: httpx.Request) -> httpx.Response:
        return httpx.Response(200, text="# fine\n", headers={"Content-Type": "text/markdown"})

    monkeypatch.setattr(warc.os, "fsync", failing_fsync)
    with (
        WarcWriter(tmp_path / "warc") as writer,
        make_client(
            workspace, transport=httpx.MockTransport(answer), offline=True, archive=writer
        ) as client,
    ):
        jobs: list[FetchJob] = [(s, None) for s in sources("https://a.org/1", "https://a.org/2")]
        with pytest.raises(StoreError, match="WARC file"):
            fetch_all(PoliteFetcher(client, workspace), jobs)


def test_a_lost_batch_fails_each_of_its_sources_and_the_run_goes_on() -> None:
    class Lost:
        def result(self) -> list[object]:
            raise OSError("worker tcp://10.0.0.7:40000 lost")

    jobs: list[FetchJob] = [(s, None) for s in sources("https://a.org/1", "https://a.org/2")]
    answers = batch_answers(Lost(), jobs)  # type: ignore[arg-type]
    assert [str(a) for a in answers] == [
        f"'{url}': its fetch batch failed: OSError('worker tcp://10.0.0.7:40000 lost')"
        for url in ("https://a.org/1", "https://a.org/2")
    ]


class _Now:
    """A task run on the spot: its function, `.submit` giving a finished future (quote()s off)."""

    def __init__(self, task: Any) -> None:
        self.fn = task.fn

    def __call__(self, *args: Any) -> Any:
        return self.fn(*[a.unquote() if isinstance(a, quote) else a for a in args])

    def submit(self, *args: Any) -> Future[Any]:
        done: Future[Any] = Future()
        done.set_result(self(*args))
        return done


def test_check_sources_goes_batch_by_batch_in_order_and_reports_progress(
    workspace: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(flows.nightly, "fetch_batch", _Now(flows.nightly.fetch_batch))
    monkeypatch.setattr(flows.nightly, "process_batch", _Now(flows.nightly.process_batch))
    page = (ROOT / "fixtures/governance/persons_of_interest.7f149bc3.md").read_bytes()

    def answer(request: httpx.Request) -> httpx.Response:
        if request.url.path.startswith("/gone"):
            return httpx.Response(404)
        return httpx.Response(200, content=page, headers={"Content-Type": "text/markdown"})

    urls = [f"https://a.org/{p}.md" for p in ("1", "2", "gone", "4", "5")]
    registry = [
        Source(url=u, extractor="pytorch_governance", authoritative=["maintainer:PyTorch"])
        for u in urls
    ]
    ctx = RunContext.open()
    seen: list[tuple[str, int, int | None]] = []
    try:
        ctx.settings.batch_size = 2
        with (
            make_client(
                ctx.settings, transport=httpx.MockTransport(answer), offline=True
            ) as client,
            progress.listening(lambda *moved: seen.append(moved)),
        ):
            ctx.store.upsert_sources(registry)
            outcomes = check_sources(ctx, ctx.fetcher(client), registry, None, "run-1")
    finally:
        ctx.close()
    assert [o.url for o in outcomes] == urls
    assert [o.status for o in outcomes] == ["fetched", "fetched", "failed", "fetched", "fetched"]
    assert seen == [("sources", 0, 5), ("sources", 2, 5), ("sources", 4, 5), ("sources", 5, 5)]
