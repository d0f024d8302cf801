"""The fetch layer against hostile servers on 127.0.0.1 (started here; no internet), issue 17:
decompression bombs, servers that trickle, credentials in URLs, IPv4 addresses hidden in IPv6.
"""

from __future__ import annotations

import functools
import gzip
import ipaddress
import pickle
import random
import resource
import struct
import time
import tracemalloc
import zlib
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from warcio.archiveiterator import ArchiveIterator

from ingest.errors import FetchError, HTTPStatusError, RefusedURLError, ResponseTooLargeError
from ingest.fetch.addresses import check_url
from ingest.fetch.client import fetch, make_client
from ingest.fetch.polite import PoliteFetcher
from ingest.fetch.transient import is_transient
from ingest.fetch.warc import WarcWriter
from ingest.fetch.warc_reader import warc_files
from ingest.settings import Settings

from .loopback import LoopbackServer, QuietHandler

MIB = 1 << 20
BOMB_MIB = 1024  # what the gzip-of-gzip bomb decodes to: 1 GiB of zeros
LIMIT = MIB  # INGEST_MAX_BYTES for the bomb tests
SECRET = "s3cret-pw"
TEXT = bytes(random.Random(17).choices(b"abcdefgh ij\n", k=300_000))  # several DECODE_STEPs
TRICKLE_GAP = 0.1  # seconds between the bytes a trickling server sends
DEADLINE = 1.0  # INGEST_FETCH_DEADLINE of the trickle tests
MARGIN = 0.5  # seconds a deadline may be overrun (thread scheduling, teardown)


@functools.cache
def gzip_of_zeros(mib: int) -> bytes:
    """A gzip member of `mib` MiB of zeros, built in well under a second: one MiB is compressed
    with a full flush, which makes it independent of what came before, then repeated."""
    zeros = bytes(MIB)
    packer = zlib.compressobj(9, zlib.DEFLATED, zlib.MAX_WBITS | 16)
    first = packer.compress(zeros) + packer.flush(zlib.Z_FULL_FLUSH)
    again = packer.compress(zeros) + packer.flush(zlib.Z_FULL_FLUSH)
    end = packer.flush()[:-8]  # the final block, without the trailer of two MiB
    crc = 0
    for _ in range(mib):
        crc = zlib.crc32(zeros, crc)
    trailer = struct.pack("<II", crc, (mib * MIB) & 0xFFFFFFFF)
    return first + again * (mib - 1) + end + trailer


@functools.cache
def bomb(layers: int) -> bytes:
    """1 GiB of zeros under `layers` gzip layers: two fit in about 2.5 KB."""
    body = gzip_of_zeros(BOMB_MIB)
    for _ in range(layers - 1):
        body = gzip.compress(body, 9)
    return body


ENCODED = {  # Content-Encoding -> TEXT so encoded
    "gzip": gzip.compress(TEXT),
    "deflate": zlib.compress(TEXT),
    "Deflate": zlib.compress(TEXT)[2:-4],  # raw deflate, no zlib header, as some servers send
    "gzip, deflate": zlib.compress(gzip.compress(TEXT)),
    "identity, gzip": gzip.compress(TEXT),
    "x-unknown": TEXT,  # not a coding we know: passed through, as httpx does
}


class Handler(QuietHandler):
    server: HostileServer

    def do_GET(self) -> None:  # noqa: C901 - a routing table
        self.server.requests.append(self.path)
        if "Authorization" in self.headers:
            self.server.authorizations.append(self.headers["Authorization"])
        path = self.path
        if path == "/plain":
            self.send(200, b"hello\n")
        elif path.startswith("/bomb/"):
            layers = int(path.rsplit("/", 1)[1])
            self.send(200, bomb(layers), {"Content-Encoding": ", ".join(["gzip"] * layers)})
        elif path == "/bomb-404":
            self.send(404, bomb(2), {"Content-Encoding": "gzip, gzip"})
        elif path.startswith("/encoded/"):
            coding = path.split("/", 2)[2].replace("%20", " ")
            self.send(200, ENCODED[coding], {"Content-Encoding": coding})
        elif path == "/trickle":  # a body of 10,000 bytes, one byte every TRICKLE_GAP
            self._raw(b"HTTP/1.1 200 OK\r\nContent-Length: 10000\r\n\r\n", b"x")
        elif path == "/slow-headers":  # a header line that never ends
            self._raw(b"HTTP/1.1 200 OK\r\nX-Slow: ", b"a")
        elif path == "/early-hints":  # 1xx answers, never the final one
            self._raw(b"", b"HTTP/1.1 103 Early Hints\r\nLink: </a.css>\r\n\r\n")
        elif path == "/to-credentials":
            target = f"http://editor:{SECRET}@127.0.0.1:{self.server.server_address[1]}/plain"
            self.send(302, headers={"Location": target})
        else:
            self.send(404, b"unknown test route")

    def _raw(self, head: bytes, drip: bytes) -> None:
        """Send `head`, then `drip` every TRICKLE_GAP until the client leaves (at most 30 s)."""
        try:
            self.wfile.write(head)
            for _ in range(int(30 / TRICKLE_GAP)):
                self.wfile.write(drip)
                self.wfile.flush()
                self.server.dripped += 1
                time.sleep(TRICKLE_GAP)
        except OSError:
            pass  # the client gave up, as it should
        self.close_connection = True


class HostileServer(LoopbackServer):
    def __init__(self) -> None:
        super().__init__(Handler)
        self.requests: list[str] = []
        self.authorizations: list[str] = []
        self.dripped = 0


@pytest.fixture(scope="module")
def server() -> Iterator[HostileServer]:
    with HostileServer() as srv:
        yield srv


@pytest.fixture
def fresh(server: HostileServer) -> HostileServer:
    """The server with its request log emptied."""
    server.requests.clear()
    server.authorizations.clear()
    server.dripped = 0
    return server


def peak_rss_mib() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # Linux: KiB


# Decompression bombs


def test_the_bomb_is_what_it_claims() -> None:
    assert len(bomb(2)) < 4096
    assert gzip.decompress(bomb(2)) == gzip_of_zeros(BOMB_MIB)  # about 1 MB: decoded once here
    assert gzip.decompress(gzip_of_zeros(4)) == bytes(4 * MIB)  # a valid member: CRC and size


def test_gzip_of_gzip_bomb_is_cut_at_the_limit_in_bounded_memory(server: HostileServer) -> None:
    """1 GiB under two gzip layers (2.5 KB on the wire) against a 1 MiB cap: refused within
    seconds, never holding much more than the cap (httpx alone decoded it all at once)."""
    settings = Settings(allow_private=True, max_bytes=LIMIT)
    bomb(2)  # built before measuring
    url = server.base + "/bomb/2"
    rss_before = peak_rss_mib()
    tracemalloc.start()
    started = time.monotonic()
    try:
        with make_client(settings) as client, pytest.raises(ResponseTooLargeError) as caught:
            fetch(client, url, settings=settings)
        elapsed = time.monotonic() - started
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert caught.value.limit == LIMIT
    assert caught.value.url == url and url in str(caught.value)
    assert f"body larger than the limit of {LIMIT} bytes" in str(caught.value)
    assert elapsed < 5.0
    assert peak < 16 * MIB  # Python allocations, all threads: the cap and a few steps
    assert peak_rss_mib() - rss_before < 300


def test_bomb_on_an_error_page_is_archived_cut_at_the_limit(
    server: HostileServer, tmp_path: Path
) -> None:
    """The WARC archive reads bodies fetch leaves unread (error pages); bounded the same way."""
    settings = Settings(allow_private=True, max_bytes=LIMIT)
    bomb(2)
    tracemalloc.start()
    try:
        with (
            WarcWriter(tmp_path / "warc") as writer,
            make_client(settings, archive=writer) as client,
            pytest.raises(HTTPStatusError),
        ):
            fetch(client, server.base + "/bomb-404", settings=settings)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 16 * MIB
    (path,) = warc_files(tmp_path / "warc")
    with path.open("rb") as handle:
        kept = [
            (r.rec_headers.get_header("WARC-Truncated"), len(r.content_stream().read()))
            for r in ArchiveIterator(handle)
            if r.rec_type == "response"
        ]
    assert kept == [("length", LIMIT)]


def test_three_stacked_encodings_are_refused(server: HostileServer) -> None:
    settings = Settings(allow_private=True, max_bytes=LIMIT)
    url = server.base + "/bomb/3"
    started = time.monotonic()
    with make_client(settings) as client, pytest.raises(FetchError) as caught:
        fetch(client, url, settings=settings)
    assert time.monotonic() - started < 2.0
    assert "Content-Encoding 'gzip, gzip, gzip' stacks 3 encodings; at most 2" in str(caught.value)
    assert caught.value.url == url
    assert not is_transient(caught.value)


@pytest.mark.parametrize("coding", sorted(ENCODED))
def test_encoded_bodies_are_decoded_as_httpx_would(server: HostileServer, coding: str) -> None:
    settings = Settings(allow_private=True)
    with make_client(settings) as client:
        result = fetch(client, f"{server.base}/encoded/{coding}", settings=settings)
        assert result.snapshot is not None and result.snapshot.body == TEXT
        assert httpx.get(f"{server.base}/encoded/{coding}").content == TEXT  # the same answer


# Deadlines


@pytest.mark.parametrize("path", ["/trickle", "/slow-headers", "/early-hints"])
def test_a_trickling_server_is_cut_at_the_fetch_deadline(fresh: HostileServer, path: str) -> None:
    """Every read gets a byte well within INGEST_HTTP_TIMEOUT, yet the fetch ends on time."""
    settings = Settings(allow_private=True, http_timeout=3.0, fetch_deadline=DEADLINE)
    url = fresh.base + path
    started = time.monotonic()
    with make_client(settings) as client, pytest.raises(FetchError) as caught:
        fetch(client, url, settings=settings)
    elapsed = time.monotonic() - started
    assert DEADLINE - 0.1 <= elapsed < DEADLINE + MARGIN
    assert fresh.dripped >= 3  # the server was sending all along
    err = caught.value
    assert (
        str(err)
        == f"could not fetch url '{url}': no complete answer within INGEST_FETCH_DEADLINE=1 s"
    )
    assert err.deadline == "INGEST_FETCH_DEADLINE=1 s"
    assert is_transient(err)


def test_the_source_deadline_ends_retries_of_a_trickle(fresh: HostileServer) -> None:
    """Through the retry layer: the attempts together end by INGEST_SOURCE_DEADLINE."""
    settings = Settings(
        allow_private=True, http_timeout=3.0, fetch_deadline=0.6, source_deadline=1.5,
        max_attempts=10, host_delay=0.0,
    )  # fmt: skip
    url = fresh.base + "/trickle"
    started = time.monotonic()
    with make_client(settings) as client, pytest.raises(FetchError) as caught:
        PoliteFetcher(client, settings, robots=False, rand=lambda: 0.0).fetch(url)
    elapsed = time.monotonic() - started
    assert 1.5 - 0.1 <= elapsed < 1.5 + MARGIN
    err = caught.value
    assert err.attempts == len(fresh.requests) == 3  # at 0, 0.6 and 1.2 s (cut at 1.5 s)
    assert f"could not fetch url '{url}': no complete answer within INGEST_SOURCE_DEADLINE" in str(
        err
    )
    assert "(gave up after 3 attempts: the next would start past INGEST_SOURCE_DEADLINE=1.5 s)" in (
        str(err)
    )
    assert err.deadline == "INGEST_SOURCE_DEADLINE=1.5 s"
    assert pickle.loads(pickle.dumps(err)).deadline == err.deadline


# Credentials in URLs


@pytest.mark.parametrize("userinfo", [f"editor:{SECRET}", "editor", f":{SECRET}"])
def test_credentials_in_a_url_are_refused_before_anything_is_sent(
    fresh: HostileServer, userinfo: str
) -> None:
    settings = Settings(allow_private=True)
    port = fresh.server_address[1]
    url = f"http://{userinfo}@127.0.0.1:{port}/plain"
    with make_client(settings) as client:
        with pytest.raises(RefusedURLError) as direct:
            fetch(client, url, settings=settings)
        with pytest.raises(RefusedURLError) as polite:
            PoliteFetcher(client, settings).fetch(url)  # robots.txt is not asked for either
    for err in (direct.value, polite.value):
        assert str(err) == (
            f"could not fetch url 'http://***@127.0.0.1:{port}/plain': "
            "credentials in URLs are not accepted"
        )
        assert SECRET not in repr(err.fields) and "editor" not in repr(err.fields)
        assert not is_transient(err)
    assert polite.value.attempts == 0
    assert fresh.requests == [] and fresh.authorizations == []


def test_a_redirect_to_a_url_with_credentials_is_refused(fresh: HostileServer) -> None:
    settings = Settings(allow_private=True)
    start = fresh.base + "/to-credentials"
    with make_client(settings) as client, pytest.raises(RefusedURLError) as caught:
        fetch(client, start, settings=settings)
    err = caught.value
    assert err.url == f"http://***@127.0.0.1:{fresh.server_address[1]}/plain"
    assert err.requested_url == start
    assert SECRET not in str(err) and SECRET not in repr(err.fields)
    assert fresh.requests == ["/to-credentials"]  # the target was never requested
    assert fresh.authorizations == []


# IPv4 addresses inside IPv6 ones


@pytest.mark.parametrize(
    ("host", "kind"),
    [
        ("2002:7f00:1::", "loopback (127.0.0.1 via 6to4)"),
        ("2002:a9fe:a9fe::", "cloud metadata (169.254.169.254 via 6to4)"),
        ("2002:c0a8:101::", "private (192.168.1.1 via 6to4)"),
        ("2001:0:4136:e378:8000:63bf:80ff:fffe", "loopback (127.0.0.1 via Teredo client)"),
        ("2001:0:a00:1::f7f7:f7f7", "private (10.0.0.1 via Teredo server)"),
        ("::ffff:127.0.0.1", "loopback (127.0.0.1 via IPv4-mapped)"),
        ("::ffff:169.254.169.254", "cloud metadata (169.254.169.254 via IPv4-mapped)"),
        ("64:ff9b::7f00:1", "loopback (127.0.0.1 via NAT64)"),
        ("64:ff9b::a9fe:a9fe", "cloud metadata (169.254.169.254 via NAT64)"),
        ("64:ff9b::a00:1", "private (10.0.0.1 via NAT64)"),
    ],
)
def test_ipv4_addresses_inside_ipv6_ones_are_checked(host: str, kind: str) -> None:
    settings = Settings(allow_private=False)
    with pytest.raises(RefusedURLError) as caught:
        check_url(f"http://[{host}]/", settings=settings)
    assert f"resolves to {ipaddress.ip_address(host)}, a {kind} address" in str(caught.value)


@pytest.mark.parametrize("host", ["2002:808:808::", "::ffff:8.8.8.8", "64:ff9b::808:808"])
def test_public_ipv4_addresses_inside_ipv6_ones_are_allowed(host: str) -> None:
    check_url(f"http://[{host}]/", settings=Settings(allow_private=False))  # no error


# Deadlines that follow the timeout


def test_deadlines_not_given_follow_the_timeout(monkeypatch: pytest.MonkeyPatch) -> None:
    """INGEST_HTTP_TIMEOUT=3 alone: one attempt at a trickle ends after 12 s, the source after
    60 s (the 120 s and 600 s defaults would have kept it 377 s through `ingest run`)."""
    for key in ("INGEST_FETCH_DEADLINE", "INGEST_SOURCE_DEADLINE"):
        monkeypatch.delenv(key, raising=False)
    monkeypatch.setenv("INGEST_HTTP_TIMEOUT", "3")
    settings = Settings()
    assert (settings.fetch_deadline, settings.source_deadline) == (12.0, 60.0)
    monkeypatch.setenv("INGEST_FETCH_DEADLINE", "50")
    assert (Settings().fetch_deadline, Settings().source_deadline) == (50.0, 250.0)
    monkeypatch.setenv("INGEST_SOURCE_DEADLINE", "70")
    assert (Settings().fetch_deadline, Settings().source_deadline) == (50.0, 70.0)
    monkeypatch.delenv("INGEST_HTTP_TIMEOUT")
    monkeypatch.delenv("INGEST_FETCH_DEADLINE")
    monkeypatch.delenv("INGEST_SOURCE_DEADLINE")
    assert (Settings().fetch_deadline, Settings().source_deadline) == (120.0, 600.0)
