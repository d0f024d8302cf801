"""Every HTTP exchange `fetch` makes, kept as WARC: nothing fetched is ever lost.

    WarcWriter(folder, max_file_bytes=..., clock=...)   one per process; thread-safe; close() it
    writer.write_exchange(response, body, truncated=None)    a request and a response record

The exchanges of an httpx client reach it through `ingest.fetch.warc_transport` (a transport
around the real one); the arxiv package's requests session through `write_page`.

Reading them back (the replay archive, the tests) is `ingest.fetch.warc_reader`'s.

Files: `<folder>/ingest-YYYYMMDD-<pid>-<n>.warc.gz` (WARC/1.1, one gzip member per record, so any
record can be read from its offset). A writer starts a new file on the first write of a UTC day,
when the current one would grow past `max_file_bytes`, and in a forked child; it never appends
to a file it did not create, so a run killed mid-record leaves that half record at the end of
its own file, where `read_responses` (and the replay archive) stop without complaint. Each file
opens with a `warcinfo` record. An exchange's records are on disk (written whole under the
writer's lock, then fsynced) before `write_exchange` returns, so nothing a fetch gives back is
missing from the archive after a crash. The fsync is a group commit: one covers every exchange
written so far, so the threads of a batch fetching at once share fsyncs instead of queueing for
one each (two, request and response, before: 1,000 304s cost 2,000 fsyncs back to back under one
lock, the nightly's fetch floor on a loaded disk). A caller that hands on a whole batch of fetches
at once may take the fsync out of each (`deferred()` in the threads that fetch) and make the
batch durable with one `sync(since=mark())` before it gives any of the answers back (the
nightly's fetch batches: 20 fsyncs for 2,000 sources, not ~500).

Each HTTP exchange (every hop: redirects, redirect stubs, 304s, 404s and 503s included) becomes a
`request` record (request line and headers as sent) and a `response` record (status line, the
response headers as received, the body), written together, each naming the other in
`WARC-Concurrent-To`, both with the same `WARC-Target-URI` and `WARC-Date` (UTC, microseconds:
when the response headers arrived).

**Bodies are recorded decoded**, as `fetch` reads them (gzip/brotli/deflate and chunking undone),
so the record is self-consistent: `Content-Encoding` and `Transfer-Encoding` are dropped and
`Content-Length` is set to the recorded body's length; the original values are kept in the WARC
header as `WARC-Ingest-Original-Content-Encoding` (and `-Transfer-Encoding`, `-Content-Length`).
`WARC-Payload-Digest` and `WARC-Block-Digest` are `sha256:<base32>` (warcio checks any hashlib
algorithm; `ingest.fetch.warc_records` writes the records, warcio's bytes made directly);
`WARC-Ingest-Sha256` repeats the payload's sha256 in hex, as
`Snapshot.sha256` spells it.

A body `fetch` did not read (a redirect's, an error page's) is read for the record, at most
`limit` bytes. A body cut short carries `WARC-Truncated`: `length` (past the size limit, e.g.
ResponseTooLargeError), `time` (a read timed out), `disconnect` (the connection broke) or
`unspecified` (it could not be decoded); `ingest.fetch.warc_transport` says which when. An
exchange that got no response at all (refused, reset or timed out before the status line) writes
nothing: nothing was fetched, and the error `fetch` raises says what happened. A write that fails
raises StoreError (the run stops rather than fetch without its archive); the writer moves on to a
new file after it.
"""

from __future__ import annotations

import hashlib
import logging
import os
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from types import TracebackType
from typing import BinaryIO

import httpx

from ingest.errors import ResponseTooLargeError, StoreError
from ingest.fetch.warc_records import digest, record, warc_date, warc_id, warcinfo

log = logging.getLogger(__name__)

DEFAULT_MAX_FILE_BYTES = 100 * 1024 * 1024  # a file is rolled before it grows past this
FILE_PREFIX = "ingest"
WARC_SUFFIXES = (".warc.gz", ".warc")  # what the replay archive reads
WARC_VERSION = "1.1"
SHA256_HEADER = "WARC-Ingest-Sha256"
ORIGINAL_HEADER_PREFIX = "WARC-Ingest-Original-"
# Response headers that describe the transfer, not the decoded body the record holds.
DROPPED_HEADERS = frozenset({"content-encoding", "transfer-encoding"})
READ_CHUNK = 64 * 1024  # what a WARC file is read in at a time
SOFTWARE = "ingest (AI People Wiki source checker) with warcio"
WARCINFO = {  # what each file's warcinfo record says
    "software": SOFTWARE,
    "format": f"WARC File Format {WARC_VERSION}",
    "description": "every HTTP exchange ingest fetched; bodies decoded (see "
    f"{ORIGINAL_HEADER_PREFIX}* headers), {SHA256_HEADER} = hex sha256 of the body",
}


def _utcnow() -> datetime:
    return datetime.now(UTC)


class WarcWriter:
    """Gzip WARC files under `folder`, one per UTC day and process, rolled at `max_file_bytes`.

    Safe to share between threads (one lock around each exchange's records). `clock` gives the
    current UTC time (for WARC-Date and the file's day); tests pass a fixed one.
    """

    def __init__(
        self,
        folder: str | Path,
        *,
        max_file_bytes: int = DEFAULT_MAX_FILE_BYTES,
        clock: Callable[[], datetime] = _utcnow,
    ) -> None:
        self.folder = Path(folder)
        self.max_file_bytes = max_file_bytes
        self.paths: list[Path] = []  # every file this writer created, in order
        self._clock = clock
        self._lock = threading.Lock()
        self._file: BinaryIO | None = None
        self._day = ""
        self._pid = 0
        self._size = 0
        self._exchanges = 0  # in the current file
        self._closed = False
        self._written = 0  # exchanges written, all files; under _lock
        self._durable = 0  # of them, known fsynced; under _lock
        self._sync_lock = threading.Lock()  # one fsync at a time; the others wait to be covered
        self._unflushed: set[int] = set()  # files (index in paths) whose last fsync failed
        self._deferring = threading.local()  # .on: this thread's writes skip their fsync

    @property
    def path(self) -> Path | None:
        """The file being written, None before the first record or after close()."""
        return self.paths[-1] if self._file is not None else None

    def now(self) -> datetime:
        """The current time by this writer's clock (UTC): what WARC-Date records."""
        return self._clock().astimezone(UTC)

    def __enter__(self) -> WarcWriter:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    def close(self) -> None:
        with self._lock:
            self._closed = True
            self._close_file()

    # -- a batch's durability ------------------------------------------------------------

    @contextmanager
    def deferred(self) -> Iterator[None]:
        """In the block, `write_exchange` in this thread returns once the records are written
        (flushed to the OS), before an fsync covers them: the caller owes a `sync` before it hands
        on anything they fetched."""
        before = getattr(self._deferring, "on", False)
        self._deferring.on = True
        try:
            yield
        finally:
            self._deferring.on = before

    def mark(self) -> int:
        """Where a batch of deferred writes starts: pass it to `sync`."""
        with self._lock:
            return max(0, len(self.paths) - 1)

    def sync(self, since: int = 0) -> None:
        """Return once every exchange written so far is on disk: one fsync (shared with any
        running). StoreError when a file written since `mark()` gave `since` could not be
        flushed (its exchanges may be lost)."""
        with self._lock:
            failed = sorted(n for n in self._unflushed if n >= since)
            if failed:
                path = self.paths[failed[0]]
                raise StoreError(f"could not flush WARC file '{path}'", path=str(path))
            mine, file = self._written, len(self.paths) - 1
        if mine:
            self._sync_through(mine, file)

    # -- records ---------------------------------------------------------------------------

    def write_page(
        self,
        url: str,
        status: int,
        headers: dict[str, str],
        body: bytes,
        request_headers: dict[str, str] | None = None,
    ) -> None:
        """Archive an exchange another HTTP stack made (the arxiv package's requests session)."""
        request = httpx.Request("GET", url, headers=request_headers or {})
        self.write_exchange(httpx.Response(status, headers=headers, request=request), body)

    def write_exchange(
        self,
        response: httpx.Response,
        body: bytes,
        *,
        truncated: str | None = None,
        when: datetime | None = None,
        ip: str | None = None,
    ) -> None:
        """Write the request record and the response record of one exchange (StoreError)."""
        request = response.request
        status_line = f"{response.status_code} {response.reason_phrase}".rstrip()
        target = request.url.raw_path.decode("ascii", errors="replace")
        self.write_heads(
            str(request.url),
            f"{request.method} {target} HTTP/1.1",
            [(_text(k), _text(v)) for k, v in request.headers.raw],
            " ".join(filter(None, (response.http_version, status_line))),
            [(_text(k), _text(v)) for k, v in response.headers.raw],
            body,
            request_body=request.content if _has_content(request) else b"",
            truncated=truncated,
            when=when,
            ip=ip,
        )

    def write_heads(
        self,
        uri: str,
        request_line: str,
        request_headers: list[tuple[str, str]],
        response_line: str,
        response_headers: list[tuple[str, str]],
        body: bytes,
        *,
        request_body: bytes = b"",
        truncated: str | None = None,
        when: datetime | None = None,
        ip: str | None = None,
    ) -> None:
        """`write_exchange` from the exchange's heads as sent and received (the lean 304 path,
        ingest.fetch.lean, has no httpx objects): the same two records."""
        when = (when or self.now()).astimezone(UTC)
        request_id, response_id = warc_id(), warc_id()
        common = {"WARC-Target-URI": uri, "WARC-Date": warc_date(when)}
        if ip:
            common["WARC-IP-Address"] = ip

        headers, originals = _recorded_headers(response_headers, len(body))
        response_warc = {
            **common,
            "WARC-Record-ID": response_id,
            "WARC-Concurrent-To": request_id,
            SHA256_HEADER: hashlib.sha256(body).hexdigest(),
            **{ORIGINAL_HEADER_PREFIX + name: value for name, value in originals},
        }
        if truncated:
            response_warc["WARC-Truncated"] = truncated
        request_warc = {**common, "WARC-Record-ID": request_id, "WARC-Concurrent-To": response_id}
        records = [
            record("request", uri, request_body, request_line, request_headers, request_warc),
            record("response", uri, body, response_line, headers, response_warc),
        ]
        self._write(records, when)

    def _write(self, records: list[bytes], when: datetime) -> None:
        with self._lock:
            if self._closed:
                raise StoreError(
                    f"WARC writer for '{self.folder}' is closed", path=str(self.folder)
                )
            self._ensure_file(when, sum(len(r) for r in records))
            self._append(b"".join(records))
            self._exchanges += 1
            self._written += 1
            mine, file = self._written, len(self.paths) - 1
        if not getattr(self._deferring, "on", False):
            self._sync_through(mine, file)

    def _sync_through(self, exchange: int, file: int) -> None:
        """Return once the `exchange`-th exchange written is on disk: fsync the current file,
        unless an fsync that started after it was written (another thread's) already covered
        it. Exchanges written while this fsync runs wait for the next one."""
        with self._sync_lock:
            with self._lock:
                path = self.paths[file]
                if file in self._unflushed or (self._durable < exchange and self._file is None):
                    raise StoreError(f"could not flush WARC file '{path}'", path=str(path))
                if self._durable >= exchange:
                    return
                assert self._file is not None
                fd, covers = os.dup(self._file.fileno()), self._written
            try:
                os.fsync(fd)  # outside _lock: other threads go on writing meanwhile
            except OSError as exc:
                with self._lock:
                    if self.paths[-1] == path and self._file is not None:
                        self._unflushed.add(file)  # unknown what reached the disk
                        self._close_file()  # a new file next
                raise StoreError(
                    f"could not write WARC file '{path}': {exc}", path=str(path)
                ) from exc
            finally:
                os.close(fd)
            with self._lock:
                self._durable = max(self._durable, covers)

    def _ensure_file(self, when: datetime, needed: int) -> None:
        day = when.strftime("%Y%m%d")
        pid = os.getpid()
        if self._file is not None and (
            day != self._day
            or pid != self._pid
            or (self._exchanges and self._size + needed > self.max_file_bytes)
        ):
            self._close_file()
        if self._file is None:
            self._open_file(day, pid, when)

    def _open_file(self, day: str, pid: int, when: datetime) -> None:
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
            number = 0
            while True:
                path = self.folder / f"{FILE_PREFIX}-{day}-{pid}-{number:05d}.warc.gz"
                try:
                    handle = path.open("xb")  # never append to a file another run wrote
                    break
                except FileExistsError:
                    number += 1
            _fsync_folder(self.folder)
        except OSError as exc:
            raise StoreError(
                f"could not create a WARC file in '{self.folder}': {exc}", path=str(self.folder)
            ) from exc
        self._file, self._day, self._pid, self._size, self._exchanges = handle, day, pid, 0, 0
        self.paths.append(path)
        self._append(warcinfo(path.name, when, WARCINFO))

    def _append(self, data: bytes) -> None:
        """Write and flush `data` (whole records); made durable by `_sync_through` or on close."""
        assert self._file is not None
        try:
            self._file.write(data)
            self._file.flush()
        except OSError as exc:
            path = self.paths[-1]
            self._close_file()  # a half-written record ends this file; the next write starts anew
            raise StoreError(f"could not write WARC file '{path}': {exc}", path=str(path)) from exc
        self._size += len(data)

    def _close_file(self) -> None:
        """Close the current file, fsynced first: what it holds is durable once it is closed
        (a file rolled over by another thread's write still covers this one's exchanges)."""
        if self._file is not None:
            try:
                os.fsync(self._file.fileno())
                self._durable = self._written
            except (OSError, ValueError):
                self._unflushed.add(len(self.paths) - 1)  # its waiters fail, not pass
                log.warning("flushing WARC file '%s' failed", self.paths[-1], exc_info=True)
            try:
                self._file.close()
            except OSError:
                log.warning("closing WARC file '%s' failed", self.paths[-1], exc_info=True)
            self._file = None


def truncation(failure: BaseException | None) -> str | None:
    """The WARC-Truncated reason for a failure raised while reading a body (None: not one)."""
    if failure is None:
        return None
    if isinstance(failure, ResponseTooLargeError):
        return "length"
    if isinstance(failure, httpx.TimeoutException):
        return "time"
    if isinstance(failure, httpx.NetworkError | httpx.RemoteProtocolError):
        return "disconnect"
    if isinstance(failure, httpx.HTTPError):
        return "unspecified"
    return None  # raised by fetch itself (an error status): the body is still there to read


def _recorded_headers(
    received: list[tuple[str, str]], length: int
) -> tuple[list[tuple[str, str]], list[tuple[str, str]]]:
    """Response headers as received, made true of the decoded body; and the originals changed."""
    kept: list[tuple[str, str]] = []
    originals: list[tuple[str, str]] = []
    for name, value in received:
        lower = name.lower()
        if lower in DROPPED_HEADERS or lower == "content-length":
            originals.append(("-".join(p.capitalize() for p in lower.split("-")), value))
            continue
        kept.append((name, value))
    kept.append(("Content-Length", str(length)))
    return kept, originals


def server_ip(response: httpx.Response) -> str | None:
    stream = response.extensions.get("network_stream")
    if stream is None:
        return None
    try:
        address = stream.get_extra_info("server_addr")
    except Exception:  # noqa: BLE001 - optional provenance, never worth failing a fetch
        return None
    return str(address[0]) if isinstance(address, tuple) and address else None


def _has_content(request: httpx.Request) -> bool:
    try:
        return bool(request.content)
    except httpx.RequestNotRead:
        return False


def _text(value: bytes | str) -> str:
    return value.decode("latin-1") if isinstance(value, bytes) else value


def _fsync_folder(folder: Path) -> None:
    """Make a new file's name durable too (a no-op where folders cannot be opened)."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def sha256_base32(data: bytes) -> str:
    """`data`'s digest as WARC-Payload-Digest spells it here: `sha256:<base32>`."""
    return digest(data)
