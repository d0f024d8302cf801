"""WARC archiving of every exchange fetch makes, and replay from the WARC folder (loopback only)."""

from __future__ import annotations

import gzip
import hashlib
import socket
import struct
import threading
import time
from collections.abc import Iterator
from datetime import UTC, date, datetime
from pathlib import Path
from typing import Any

import httpx
import pytest
from warcio.archiveiterator import ArchiveIterator

from ingest.errors import (
    FetchError,
    HTTPStatusError,
    ReplayMissError,
    ResponseTooLargeError,
    StoreError,
)
from ingest.fetch.client import FetchResult, fetch, make_client
from ingest.fetch.replay import ReplayArchive, record
from ingest.fetch.warc import SHA256_HEADER, WarcWriter, sha256_base32
from ingest.fetch.warc_reader import read_responses, warc_files
from ingest.settings import Settings

from .loopback import LoopbackServer, QuietHandler

PLAIN = b"hello world\n"
TEXT = b"The quick brown fox jumps over the lazy dog. " * 200  # compresses well
STUB = b'<!DOCTYPE html><meta http-equiv="refresh" content="0; url=/plain">'
ETAG = '"v1"'


class Handler(QuietHandler):
    server: Server

    def do_GET(self) -> None:
        path = self.path
        if path == "/plain":
            self.send(200, PLAIN, {"ETag": ETAG, "X-Custom": "kept as received"})
        elif path == "/etag":
            if self.headers.get("If-None-Match") == ETAG:
                self.send(304, headers={"ETag": ETAG})
            else:
                self.send(200, b"versioned\n", {"ETag": ETAG})
        elif path.startswith("/r/"):
            left = int(path.rsplit("/", 1)[1])
            target = "/plain" if left == 0 else f"/r/{left - 1}"
            self.send(301, b"moved", {"Location": target})
        elif path == "/stub":
            self.send(200, STUB, {"Content-Type": "text/html"})
        elif path == "/gzip":
            self.send(200, gzip.compress(TEXT), {"Content-Encoding": "gzip"})
        elif path == "/404":
            self.send(404, b"nope")
        elif path == "/503":
            self.send(503, b"busy", {"Retry-After": "120"})
        elif path == "/big":  # no Content-Length: read until close
            self.send_response(200)
            self.end_headers()
            for _ in range(20):
                self.wfile.write(b"x" * 1000)
        elif path == "/big-declared":
            self.send(200, b"x" * 20_000)
        elif path == "/reset":
            self.connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
            self.connection.close()
        elif path == "/truncated":
            self.send(200, b"only ten b", {"Content-Length": "1000"})
        elif path == "/bad-gzip":
            self.send(200, b"this is not gzip at all", {"Content-Encoding": "gzip"})
        elif path == "/gzip-bomb":  # 300 bytes on the wire, 1 MB decoded
            self.send(200, gzip.compress(b"\0" * 1_000_000), {"Content-Encoding": "gzip"})
        elif path == "/trickle":
            self.send_response(200)
            self.send_header("Content-Length", "100")
            self.end_headers()
            for _ in range(100):
                self.wfile.write(b"t")
                self.wfile.flush()
                time.sleep(0.1)
        elif path == "/version":
            self.send(200, self.server.version)
        elif path.startswith("/n/"):
            self.send(200, path.encode() * 50)
        else:
            self.send(404, b"unknown test route")


class Server(LoopbackServer):
    def __init__(self) -> None:
        super().__init__(Handler)
        self.version = b"v1"


@pytest.fixture(scope="module")
def server() -> Iterator[Server]:
    with Server() as srv:
        yield srv


@pytest.fixture
def settings() -> Settings:
    return Settings(allow_private=True, http_timeout=2.0, max_bytes=10_000)


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    return tmp_path / "warc"


@pytest.fixture
def writer(folder: Path) -> Iterator[WarcWriter]:
    with WarcWriter(folder) as w:
        yield w


@pytest.fixture
def client(settings: Settings, writer: WarcWriter) -> Iterator[httpx.Client]:
    with make_client(settings, archive=writer) as c:
        yield c


def get(client: httpx.Client, settings: Settings, url: str, **kwargs: Any) -> FetchResult:
    return fetch(client, url, settings=settings, **kwargs)


def records(folder: Path) -> list[dict[str, Any]]:
    """Every record of every WARC file in `folder`, read with warcio (digests checked)."""
    found = []
    for path in warc_files(folder):
        with path.open("rb") as handle:
            for rec in ArchiveIterator(handle, check_digests=True):
                body = rec.content_stream().read()
                found.append(
                    {
                        "type": rec.rec_type,
                        "warc": dict(rec.rec_headers.headers),
                        "http": rec.http_headers,
                        "body": body,
                        "digest_ok": rec.digest_checker.passed,
                        "file": path,
                    }
                )
    return found


def responses(folder: Path) -> list[dict[str, Any]]:
    return [r for r in records(folder) if r["type"] == "response"]


def status_of(rec: dict[str, Any]) -> int:
    return int(rec["http"].get_statuscode())


# Writing


def test_fetch_writes_a_request_and_a_response_record(server, client, settings, folder) -> None:
    result = get(client, settings, server.base + "/plain")
    assert result.snapshot is not None and result.snapshot.body == PLAIN

    found = records(folder)
    assert [r["type"] for r in found] == ["warcinfo", "request", "response"]
    info, request, response = found
    url = server.base + "/plain"
    assert request["warc"]["WARC-Target-URI"] == response["warc"]["WARC-Target-URI"] == url
    assert request["warc"]["WARC-Concurrent-To"] == response["warc"]["WARC-Record-ID"]
    assert response["warc"]["WARC-Concurrent-To"] == request["warc"]["WARC-Record-ID"]
    assert request["warc"]["WARC-Date"] == response["warc"]["WARC-Date"]
    stamp = datetime.fromisoformat(response["warc"]["WARC-Date"])
    assert response["warc"]["WARC-Date"].endswith("Z") and stamp.tzinfo == UTC
    assert abs((datetime.now(UTC) - stamp).total_seconds()) < 60
    assert response["warc"]["WARC-IP-Address"] == "127.0.0.1"

    assert request["http"].protocol == "GET"
    assert request["http"].statusline == "/plain HTTP/1.1"
    assert request["http"].get_header("User-Agent") == settings.user_agent

    assert status_of(response) == 200
    assert response["http"].protocol == "HTTP/1.0"  # as http.server answers
    assert response["http"].get_header("ETag") == ETAG
    assert response["http"].get_header("X-Custom") == "kept as received"
    assert response["http"].get_header("Content-Length") == str(len(PLAIN))
    assert response["body"] == PLAIN
    sha = hashlib.sha256(PLAIN).hexdigest()
    assert response["warc"][SHA256_HEADER] == sha == result.snapshot.sha256
    assert response["warc"]["WARC-Payload-Digest"] == sha256_base32(PLAIN)
    assert response["warc"]["WARC-Block-Digest"].startswith("sha256:")
    assert all(r["digest_ok"] is not False for r in found)
    assert response["digest_ok"] is True


def test_archive_changes_nothing_fetch_returns(server, settings, client) -> None:
    with make_client(settings) as plain:
        for path in ("/plain", "/r/2", "/stub", "/gzip"):
            with_archive = get(client, settings, server.base + path)
            without = get(plain, settings, server.base + path)
            assert with_archive.snapshot is not None and without.snapshot is not None
            assert with_archive.snapshot.sha256 == without.snapshot.sha256
            headers = [
                {k: v for k, v in r.snapshot.headers.items() if k != "date"}
                for r in (with_archive, without)
            ]
            assert headers[0] == headers[1]
            assert (with_archive.final_url, with_archive.redirects) == (
                without.final_url,
                without.redirects,
            )


def test_every_redirect_hop_and_stub_is_recorded(server, client, settings, folder) -> None:
    get(client, settings, server.base + "/r/2")
    get(client, settings, server.base + "/stub")
    found = responses(folder)
    hops = [(r["warc"]["WARC-Target-URI"].removeprefix(server.base), status_of(r)) for r in found]
    assert hops == [("/r/2", 301), ("/r/1", 301), ("/r/0", 301), ("/plain", 200)] + [
        ("/stub", 200),
        ("/plain", 200),
    ]
    assert found[0]["http"].get_header("Location") == "/r/1"
    assert found[0]["body"] == b"moved"  # read for the record although fetch does not need it
    assert found[4]["body"] == STUB


@pytest.mark.parametrize(
    ("path", "status", "body"), [("/404", 404, b"nope"), ("/503", 503, b"busy")]
)
def test_error_statuses_are_recorded_and_still_raised(
    server, client, settings, folder, path: str, status: int, body: bytes
) -> None:
    with pytest.raises(HTTPStatusError) as info:
        get(client, settings, server.base + path)
    assert info.value.fields["status"] == status
    (response,) = responses(folder)
    assert status_of(response) == status and response["body"] == body
    assert "WARC-Truncated" not in response["warc"]


def test_304_is_recorded_but_not_replayed(server, client, settings, writer, folder) -> None:
    first = get(client, settings, server.base + "/etag")
    result = get(client, settings, server.base + "/etag", etag=ETAG)
    assert result.status == "unchanged" and result.http_status == 304
    assert [status_of(r) for r in responses(folder)] == [200, 304]
    assert responses(folder)[1]["body"] == b""
    request = [r for r in records(folder) if r["type"] == "request"][1]
    assert request["http"].get_header("If-None-Match") == ETAG
    writer.close()
    # the 304 says the document had not changed: replay serves the 200 recorded before it
    recording = ReplayArchive.load(folder).pick(server.base + "/etag")
    assert first.snapshot is not None
    assert recording.status == 200 and recording.body() == first.snapshot.body


def test_gzip_response_is_recorded_decoded_with_consistent_headers(
    server, client, settings, folder
) -> None:
    result = get(client, settings, server.base + "/gzip")
    assert result.snapshot is not None and result.snapshot.body == TEXT
    (response,) = responses(folder)
    assert response["body"] == TEXT
    assert response["http"].get_header("Content-Encoding") is None
    assert response["http"].get_header("Content-Length") == str(len(TEXT))
    assert response["warc"]["WARC-Ingest-Original-Content-Encoding"] == "gzip"
    assert response["warc"]["WARC-Ingest-Original-Content-Length"] == str(len(gzip.compress(TEXT)))
    assert response["warc"][SHA256_HEADER] == hashlib.sha256(TEXT).hexdigest()
    assert response["digest_ok"] is True


@pytest.mark.parametrize(("path", "kept"), [("/big", 10_000), ("/big-declared", 0)])
def test_oversize_body_is_recorded_truncated(
    server, client, settings, folder, path: str, kept: int
) -> None:
    with pytest.raises(ResponseTooLargeError):
        get(client, settings, server.base + path)
    (response,) = responses(folder)
    assert response["warc"]["WARC-Truncated"] == "length"
    assert kept <= len(response["body"]) <= kept + 64 * 1024
    assert response["body"] == b"x" * len(response["body"])
    assert response["http"].get_header("Content-Length") == str(len(response["body"]))


def test_broken_body_is_recorded_truncated(server, client, settings, folder) -> None:
    with pytest.raises(FetchError):
        get(client, settings, server.base + "/truncated")
    (response,) = responses(folder)
    assert response["warc"]["WARC-Truncated"] == "disconnect"
    assert response["warc"]["WARC-Ingest-Original-Content-Length"] == "1000"


def test_a_body_that_does_not_decode_is_recorded_unspecified(
    server, client, settings, folder
) -> None:
    with pytest.raises(FetchError, match="could not decode"):
        get(client, settings, server.base + "/bad-gzip")
    (response,) = responses(folder)
    assert response["warc"]["WARC-Truncated"] == "unspecified"
    assert response["warc"]["WARC-Ingest-Original-Content-Encoding"] == "gzip"


def test_a_bomb_is_recorded_up_to_the_limit_as_fetch_read_it(
    server, client, settings, folder
) -> None:
    with pytest.raises(ResponseTooLargeError):
        get(client, settings, server.base + "/gzip-bomb")
    (response,) = responses(folder)
    assert response["warc"]["WARC-Truncated"] == "length"
    assert response["body"] == b"\0" * settings.max_bytes


def test_a_body_past_the_deadline_is_recorded_cut_by_time(server, folder) -> None:
    settings = Settings(allow_private=True, http_timeout=2.0, fetch_deadline=1.0)
    with (
        WarcWriter(folder) as writer,
        make_client(settings, archive=writer) as client,
        pytest.raises(FetchError),
    ):
        get(client, settings, server.base + "/trickle")
    (response,) = responses(folder)
    assert response["warc"]["WARC-Truncated"] == "time"
    assert 0 < len(response["body"]) < 100 and set(response["body"]) == {ord("t")}


def test_exchange_without_a_response_writes_nothing(server, client, settings, folder) -> None:
    with pytest.raises(FetchError):
        get(client, settings, server.base + "/reset")
    assert warc_files(folder) == []


def test_file_names_days_and_rolling(server, settings, tmp_path: Path) -> None:
    late, early = datetime(2026, 6, 1, 23, 59, tzinfo=UTC), datetime(2026, 6, 2, 0, 1, tzinfo=UTC)
    days = iter([late, late, early])  # one reading per exchange
    with (
        WarcWriter(tmp_path, max_file_bytes=2_000, clock=lambda: next(days)) as writer,
        make_client(settings, archive=writer) as client,
    ):
        for n in range(3):
            get(client, settings, f"{server.base}/n/{n}")
    names = [p.name for p in writer.paths]
    pid = __import__("os").getpid()
    assert names == [
        f"ingest-20260601-{pid}-00000.warc.gz",
        f"ingest-20260601-{pid}-00001.warc.gz",  # rolled at the size limit
        f"ingest-20260602-{pid}-00000.warc.gz",  # a new UTC day
    ]
    for path in writer.paths:
        with path.open("rb") as handle:
            kinds = [r.rec_type for r in ArchiveIterator(handle)]
        assert kinds == ["warcinfo", "request", "response"]


def test_a_new_writer_never_appends_to_an_existing_file(server, settings, tmp_path: Path) -> None:
    when = datetime(2026, 6, 1, tzinfo=UTC)
    for _ in range(2):
        with (
            WarcWriter(tmp_path, clock=lambda: when) as writer,
            make_client(settings, archive=writer) as client,
        ):
            get(client, settings, server.base + "/plain")
    assert [p.name[-13:] for p in warc_files(tmp_path)] == ["00000.warc.gz", "00001.warc.gz"]


def test_concurrent_fetches_make_well_formed_files(server, settings, tmp_path: Path) -> None:
    errors: list[BaseException] = []
    with (
        WarcWriter(tmp_path, max_file_bytes=20_000) as writer,
        make_client(settings, archive=writer) as client,
    ):

        def work(worker: int) -> None:
            try:
                for n in range(10):
                    get(client, settings, f"{server.base}/n/{worker}-{n}")
            except BaseException as exc:  # noqa: BLE001 - reported below
                errors.append(exc)

        threads = [threading.Thread(target=work, args=(w,)) for w in range(8)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    assert not errors
    assert len(writer.paths) > 1
    found = records(tmp_path)
    requests = {r["warc"]["WARC-Record-ID"]: r for r in found if r["type"] == "request"}
    answers = [r for r in found if r["type"] == "response"]
    assert len(answers) == len(requests) == 80
    for answer in answers:
        request = requests[answer["warc"]["WARC-Concurrent-To"]]
        assert request["file"] == answer["file"]  # a pair never straddles two files
        assert request["warc"]["WARC-Target-URI"] == answer["warc"]["WARC-Target-URI"]
        path = answer["warc"]["WARC-Target-URI"].removeprefix(server.base)
        assert answer["body"] == path.encode() * 50
        assert answer["digest_ok"] is True
    assert {r["warc"]["WARC-Target-URI"] for r in answers} == {
        f"{server.base}/n/{w}-{n}" for w in range(8) for n in range(10)
    }


def test_a_killed_run_loses_only_its_half_written_record(
    server, settings, client, writer, folder
) -> None:
    for n in range(3):
        get(client, settings, f"{server.base}/n/{n}")
    writer.close()
    (path,) = warc_files(folder)
    whole = path.read_bytes()
    with path.open("rb") as handle:
        iterator = ArchiveIterator(handle)
        offsets = []
        for rec in iterator:
            rec.content_stream().read()
            offsets.append(iterator.get_record_offset())
    last = offsets[-1]  # the last response record
    for cut in [*range(last + 1, len(whole), 5), len(whole) - 1]:
        path.write_bytes(whole[:cut])
        kept = [r.url.removeprefix(server.base) for r in read_responses(path)]
        archive = ReplayArchive.load(folder)
        assert archive.pick(f"{server.base}/n/1").body() == b"/n/1" * 50
        if kept == ["/n/0", "/n/1", "/n/2"]:  # cut in the gzip trailer: all content is there
            assert cut > len(whole) - 16
            assert archive.pick(f"{server.base}/n/2").body() == b"/n/2" * 50
            continue
        assert kept == ["/n/0", "/n/1"], cut
        with pytest.raises(ReplayMissError):
            archive.pick(f"{server.base}/n/2")


# Replaying


def test_replay_from_the_warc_folder_serves_the_same_bytes(
    server, client, settings, writer, folder
) -> None:
    live = {
        path: get(client, settings, server.base + path)
        for path in ("/plain", "/gzip", "/r/2", "/stub")
    }
    with pytest.raises(HTTPStatusError):
        get(client, settings, server.base + "/404")
    writer.close()
    archive = ReplayArchive.load(folder)
    with make_client(settings, archive.transport()) as offline:
        for path, first in live.items():
            again = get(offline, settings, server.base + path)
            assert again.snapshot is not None and first.snapshot is not None
            assert again.snapshot.sha256 == first.snapshot.sha256, path
            assert (again.final_url, again.redirects) == (first.final_url, first.redirects)
            assert again.snapshot.headers["content-type"] == first.snapshot.headers["content-type"]
        with pytest.raises(ReplayMissError):
            get(offline, settings, server.base + "/never-fetched")
        with pytest.raises(HTTPStatusError) as info:  # an error answer replays as one
            get(offline, settings, server.base + "/404")
        assert info.value.fields["status"] == 404
    recording = archive.pick(server.base + "/gzip")
    assert recording.offset is not None and recording.path.name.endswith(".warc.gz")
    assert "content-encoding" not in recording.headers


def test_replay_as_of_picks_by_warc_date(server, settings, tmp_path: Path) -> None:
    folder = tmp_path / "warc"
    clock = [datetime(2026, 6, 1, 3, 0, tzinfo=UTC)]
    with (
        WarcWriter(folder, clock=lambda: clock[0]) as writer,
        make_client(settings, archive=writer) as client,
    ):
        server.version = b"v1"
        get(client, settings, server.base + "/version")
        clock[0] = datetime(2026, 6, 2, 3, 0, tzinfo=UTC)
        server.version = b"v2-morning"
        get(client, settings, server.base + "/version")
        clock[0] = datetime(2026, 6, 2, 22, 0, tzinfo=UTC)
        server.version = b"v2-evening"  # the last of the day is the day's version
        get(client, settings, server.base + "/version")
    server.version = b"v1"
    archive = ReplayArchive.load(folder)
    assert [v.date for v in archive.versions(server.base + "/version")] == [
        date(2026, 6, 1),
        date(2026, 6, 2),
    ]
    for as_of, body in [(date(2026, 6, 1), b"v1"), (date(2026, 6, 5), b"v2-evening")]:
        with make_client(settings, archive.transport(as_of)) as offline:
            result = get(offline, settings, server.base + "/version")
        assert result.snapshot is not None and result.snapshot.body == body
        assert (
            result.snapshot.headers["x-ingest-replay-date"]
            == min(as_of, date(2026, 6, 2)).isoformat()
        )
    with (
        make_client(settings, archive.transport(date(2026, 5, 31))) as early,
        pytest.raises(ReplayMissError),
    ):
        get(early, settings, server.base + "/version")


def test_a_folder_with_an_index_and_warc_files_uses_both(
    server, client, settings, writer, folder
) -> None:
    get(client, settings, server.base + "/plain")
    get(client, settings, server.base + "/n/1")
    writer.close()
    today = datetime.now(UTC).date()
    record(folder, "https://example.org/indexed", today, b"from the index", {}, "by hand")
    record(folder, server.base + "/n/1", today, b"corrected by hand", {}, "wins")
    archive = ReplayArchive.load(folder)
    assert archive.pick("https://example.org/indexed").body() == b"from the index"
    assert archive.pick(server.base + "/plain").body() == PLAIN
    assert archive.pick(server.base + "/n/1").body() == b"corrected by hand"
    assert len(archive) == 3


def test_an_unwritable_archive_stops_the_fetch_with_a_store_error(
    server, settings, tmp_path
) -> None:
    blocked = tmp_path / "not-a-folder"
    blocked.write_text("a file where the WARC folder should be")
    with (
        WarcWriter(blocked) as writer,
        make_client(settings, archive=writer) as client,
        pytest.raises(StoreError, match="not-a-folder"),
    ):
        get(client, settings, server.base + "/plain")


def test_exchanges_through_a_mock_transport_are_recorded_too(settings, folder) -> None:
    def handler(request: httpx.Request) -> httpx.Response:
        return httpx.Response(200, headers={"Content-Type": "text/plain"}, content=b"mocked")

    with (
        WarcWriter(folder) as writer,
        make_client(settings, httpx.MockTransport(handler), archive=writer) as client,
    ):
        get(client, settings, "https://example.org/mocked")
    (response,) = responses(folder)
    assert response["warc"]["WARC-Target-URI"] == "https://example.org/mocked"
    assert response["body"] == b"mocked" and "WARC-IP-Address" not in response["warc"]


def test_pages_of_another_http_stack_are_archived_and_replayable(tmp_path: Path) -> None:
    from ingest.fetch.replay import ReplayArchive
    from ingest.fetch.replay_requests import replay_session

    url = "https://export.arxiv.org/api/query?id_list=1912.01703&start=0&max_results=100"
    with WarcWriter(tmp_path) as writer:
        writer.write_page(url, 200, {"content-type": "application/atom+xml"}, b"<feed/>")
    served = replay_session(ReplayArchive.load(tmp_path)).get(url)
    assert served.status_code == 200 and served.content == b"<feed/>"


def test_the_archive_is_a_transport_around_the_real_one(settings, folder) -> None:
    from ingest.fetch.deadlines import DeadlineBackend
    from ingest.fetch.warc_transport import ArchivingTransport

    with WarcWriter(folder) as writer, make_client(settings, archive=writer) as client:
        assert type(client) is httpx.Client
        outer = client._transport
        assert isinstance(outer, ArchivingTransport) and outer.writer is writer
        assert isinstance(outer.inner, httpx.HTTPTransport)  # the real one, deadlines clipped
        assert isinstance(outer.inner._pool._network_backend, DeadlineBackend)
        assert outer.limit == settings.max_bytes
    with make_client(settings) as unarchived:
        assert isinstance(unarchived._transport, httpx.HTTPTransport)


def test_an_exchange_is_on_disk_when_it_returns_and_concurrent_ones_share_fsyncs(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """Group commit: each write_exchange returns only after an fsync that began once its records
    were in the file; threads writing at once are covered by one fsync instead of one each."""
    import os

    import ingest.fetch.warc as warc

    real_fsync = os.fsync
    lock = threading.Lock()
    synced: list[int] = []  # the file's size as each fsync of it began
    ends: dict[int, int] = {}  # thread -> where its exchange's records end in the file
    errors: list[str] = []

    def slow_fsync(fd: int) -> None:
        if os.path.isdir(f"/proc/self/fd/{fd}"):  # the folder's, for a new file's name
            return real_fsync(fd)
        size = os.fstat(fd).st_size
        time.sleep(0.05)  # a loaded disk: the other threads write meanwhile
        real_fsync(fd)
        with lock:
            synced.append(size)

    monkeypatch.setattr(warc.os, "fsync", slow_fsync)
    with WarcWriter(tmp_path) as writer:
        real_append = writer._append

        def append(data: bytes) -> None:  # called under the writer's lock
            real_append(data)
            assert writer._file is not None
            ends[threading.get_ident()] = writer._file.tell()

        monkeypatch.setattr(writer, "_append", append)

        def one(n: int) -> None:
            writer.write_page(f"https://example.org/{n}", 200, {}, b"page %d" % n)
            with lock:
                if not synced or max(synced) < ends[threading.get_ident()]:
                    errors.append(f"exchange {n} returned before an fsync covered it")

        threads = [threading.Thread(target=one, args=(n,)) for n in range(12)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        size = writer.path.stat().st_size if writer.path else 0
    assert not errors
    assert 1 <= len(synced) < 12  # shared: not one fsync per exchange (two each before: 24)
    assert max(synced) == size  # the whole file is on disk
    assert sorted(r["warc"]["WARC-Target-URI"] for r in responses(tmp_path)) == sorted(
        f"https://example.org/{n}" for n in range(12)
    )
