"""The fetch layer against a real HTTP server on 127.0.0.1 (started here; no internet)."""

from __future__ import annotations

import gzip
import pickle
import re
import socket
import struct
import time
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from email.utils import format_datetime

import httpx
import pytest

from ingest.errors import FetchError, HTTPStatusError, RefusedURLError, ResponseTooLargeError
from ingest.fetch.addresses import normalize_url
from ingest.fetch.client import MAX_REDIRECTS, FetchResult, fetch, make_client
from ingest.fetch.transient import is_transient, retry_after_seconds
from ingest.settings import Settings

from .loopback import LoopbackServer, QuietHandler

ETAG = '"v1-abc"'
BOMB = gzip.compress(b"\0" * (5 * 1024 * 1024))  # ~5 KB on the wire, 5 MB decoded
STUB = b"""<!DOCTYPE html>
<meta charset="utf-8">
<title>Redirecting&hellip;</title>
<meta http-equiv="refresh" content="0; url=../plain">
<link rel="canonical" href="../plain">
"""


class Handler(QuietHandler):
    """Routes by path; every request path is recorded on the server."""

    server: FetchServer

    def do_GET(self) -> None:  # noqa: C901 - a routing table
        self.server.requests.append((self.path, dict(self.headers.items())))
        path = self.path
        if path == "/plain":
            self.send(200, b"hello world\n", {"ETag": ETAG, "Last-Modified": "Mon, 01 Jan 2024"})
        elif path == "/etag":
            if self.headers.get("If-None-Match") == ETAG:
                self.send(304, headers={"ETag": ETAG})
            else:
                self.send(200, b"versioned\n", {"ETag": ETAG})
        elif path == "/echo":
            self.send(200, repr(sorted(self.headers.items())).encode())
        elif path == "/empty":
            self.send(200, b"")
        elif path.startswith("/r/"):
            left = int(path.rsplit("/", 1)[1])
            target = "/plain" if left == 0 else f"/r/{left - 1}"
            self.send(301, headers={"Location": target})
        elif path.startswith("/chain/"):
            self.send(302, headers={"Location": f"/chain/{int(path.rsplit('/', 1)[1]) + 1}"})
        elif path == "/loop/a":
            self.send(302, headers={"Location": "/loop/b"})
        elif path == "/loop/b":
            self.send(307, headers={"Location": "/loop/a#frag"})
        elif path == "/stub/page":
            self.send(200, STUB, {"Content-Type": "text/html; charset=utf-8"})
        elif path == "/to-private":
            self.send(302, headers={"Location": "http://169.254.169.254/latest/meta-data/"})
        elif path == "/to-ftp":
            self.send(302, headers={"Location": "ftp://example.org/file"})
        elif path == "/503":
            self.send(503, b"busy", {"Retry-After": "120"})
        elif path == "/429":
            self.send(429, b"slow down", {"Retry-After": "7"})
        elif path == "/404":
            self.send(404, b"nope")
        elif path == "/stall":
            self.send_response(200)
            self.send_header("Content-Length", "10")
            self.end_headers()
            self.wfile.flush()
            time.sleep(3)
        elif path == "/big":  # no Content-Length: read until close
            self.send_response(200)
            self.end_headers()
            for _ in range(20):
                self.wfile.write(b"x" * 1000)
        elif path == "/big-declared":
            self.send(200, b"x" * 20_000)
        elif path == "/gzip-bomb":
            self.send(200, BOMB, {"Content-Encoding": "gzip"})
        elif path == "/reset":
            self.connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
            self.connection.close()
        elif path == "/truncated":
            self.send(200, b"only ten b", {"Content-Length": "1000"})
        else:
            self.send(404, b"unknown test route")


class FetchServer(LoopbackServer):
    def __init__(self) -> None:
        super().__init__(Handler)
        self.requests: list[tuple[str, dict[str, str]]] = []


@pytest.fixture(scope="module")
def server() -> Iterator[FetchServer]:
    with FetchServer() as srv:
        yield srv


@pytest.fixture
def settings() -> Settings:
    return Settings(allow_private=True, http_timeout=2.0, max_bytes=10_000)


@pytest.fixture
def client(settings: Settings) -> Iterator[httpx.Client]:
    with make_client(settings) as c:
        yield c


def get(client: httpx.Client, settings: Settings, url: str, **kwargs: object) -> FetchResult:
    return fetch(client, url, settings=settings, **kwargs)  # type: ignore[arg-type]


def test_plain_200_makes_a_snapshot(server: FetchServer, client, settings) -> None:
    result = get(client, settings, server.base + "/plain")
    assert result.status == "fetched"
    assert result.http_status == 200
    assert result.final_url == result.url == server.base + "/plain"
    assert result.redirects == []
    assert result.etag == ETAG
    assert result.last_modified == "Mon, 01 Jan 2024"
    snap = result.snapshot
    assert snap is not None
    assert snap.body == b"hello world\n"
    assert snap.url == snap.requested_url == server.base + "/plain"
    assert snap.status_code == 200
    assert snap.headers["content-type"] == "text/plain; charset=utf-8"
    assert all(key == key.lower() for key in snap.headers)
    assert type(snap.headers) is dict


def test_sends_user_agent_and_conditional_headers(server: FetchServer, client, settings) -> None:
    get(client, settings, server.base + "/echo", etag='"x"', last_modified="Tue, 02 Jan 2024")
    _, headers = server.requests[-1]
    lowered = {k.lower(): v for k, v in headers.items()}
    assert lowered["user-agent"] == settings.user_agent
    assert lowered["if-none-match"] == '"x"'
    assert lowered["if-modified-since"] == "Tue, 02 Jan 2024"


def test_304_revalidation_is_unchanged_without_snapshot(server: FetchServer, client, settings):
    first = get(client, settings, server.base + "/etag")
    assert first.status == "fetched" and first.etag == ETAG
    again = get(client, settings, server.base + "/etag", etag=first.etag)
    assert again.status == "unchanged"
    assert again.snapshot is None
    assert again.http_status == 304
    assert again.etag == ETAG


def test_same_sha256_is_unchanged_but_keeps_snapshot(server: FetchServer, client, settings):
    first = get(client, settings, server.base + "/plain")
    assert first.snapshot is not None
    again = get(client, settings, server.base + "/plain", previous_sha256=first.snapshot.sha256)
    assert again.status == "unchanged"
    assert again.snapshot is not None and again.snapshot.body == first.snapshot.body


def test_empty_200_is_still_a_snapshot(server: FetchServer, client, settings) -> None:
    result = get(client, settings, server.base + "/empty")
    assert result.status == "fetched"
    assert result.snapshot is not None and result.snapshot.body == b""


def test_follows_a_301_chain(server: FetchServer, client, settings) -> None:
    result = get(client, settings, server.base + "/r/3")
    assert result.final_url == server.base + "/plain"
    assert result.redirects == [server.base + p for p in ("/r/2", "/r/1", "/r/0", "/plain")]
    assert result.snapshot is not None
    assert result.snapshot.url == server.base + "/plain"
    assert result.snapshot.requested_url == server.base + "/r/3"


def test_ten_redirects_allowed_eleven_refused(server: FetchServer, client, settings) -> None:
    ok = get(client, settings, server.base + f"/r/{MAX_REDIRECTS - 1}")
    assert len(ok.redirects) == MAX_REDIRECTS
    with pytest.raises(FetchError, match="more than 10 redirects") as info:
        get(client, settings, server.base + "/chain/0")
    assert len(info.value.redirects) == MAX_REDIRECTS
    assert not is_transient(info.value)


def test_redirect_loop_is_detected(server: FetchServer, client, settings) -> None:
    before = len(server.requests)
    with pytest.raises(FetchError, match="redirect loop"):
        get(client, settings, server.base + "/loop/a")
    assert len(server.requests) - before == 2


def test_meta_refresh_stub_is_followed(server: FetchServer, client, settings) -> None:
    result = get(client, settings, server.base + "/stub/page")
    assert result.final_url == server.base + "/plain"
    assert result.redirects == [server.base + "/plain"]
    assert result.snapshot is not None and result.snapshot.body == b"hello world\n"


def test_503_is_a_transient_status_error(server: FetchServer, client, settings) -> None:
    with pytest.raises(HTTPStatusError) as info:
        get(client, settings, server.base + "/503")
    err = info.value
    assert err.status == 503
    assert err.url == server.base + "/503"
    assert err.retry_after == 120.0
    assert is_transient(err)
    copy = pickle.loads(pickle.dumps(err))
    assert (copy.status, copy.retry_after, str(copy)) == (503, 120.0, str(err))
    assert is_transient(copy)


def test_404_is_not_transient(server: FetchServer, client, settings) -> None:
    with pytest.raises(HTTPStatusError) as info:
        get(client, settings, server.base + "/404")
    assert info.value.status == 404
    assert not is_transient(info.value)


def test_429_with_retry_after(server: FetchServer, client, settings) -> None:
    with pytest.raises(HTTPStatusError) as info:
        get(client, settings, server.base + "/429")
    assert info.value.status == 429
    assert is_transient(info.value)
    assert info.value.retry_after == 7.0


def test_retry_after_seconds_parses_seconds_and_dates() -> None:
    now = datetime(2026, 6, 1, 12, 0, 0, tzinfo=UTC)
    assert retry_after_seconds({"Retry-After": "7"}) == 7.0
    assert retry_after_seconds(httpx.Headers({"retry-after": "0"})) == 0.0
    assert retry_after_seconds({"retry-after": "86400"}) == 86400.0  # not capped here
    later = format_datetime(now + timedelta(seconds=90), usegmt=True)
    assert retry_after_seconds({"Retry-After": later}, now=now) == 90.0
    earlier = format_datetime(now - timedelta(hours=1), usegmt=True)
    assert retry_after_seconds({"Retry-After": earlier}, now=now) == 0.0
    far = format_datetime(now + timedelta(days=2), usegmt=True)
    assert retry_after_seconds({"Retry-After": far}, now=now) == 2 * 86400.0
    assert retry_after_seconds({"Retry-After": "soon"}) is None
    assert retry_after_seconds({}) is None


def test_stalled_response_times_out_quickly(server: FetchServer) -> None:
    settings = Settings(allow_private=True, http_timeout=0.3)
    started = time.monotonic()
    with make_client(settings) as client, pytest.raises(FetchError) as info:
        fetch(client, server.base + "/stall", settings=settings)
    assert time.monotonic() - started < 2.0
    assert re.search(
        r"timed out waiting for 127\.0\.0\.1:\d+ to answer, after 0\.3s", str(info.value)
    )
    assert isinstance(info.value.__cause__, httpx.TimeoutException)
    assert is_transient(info.value)


def test_oversize_body_is_refused(server: FetchServer, client, settings) -> None:
    with pytest.raises(ResponseTooLargeError) as info:
        get(client, settings, server.base + "/big")
    assert info.value.limit == 10_000
    with pytest.raises(ResponseTooLargeError):
        get(client, settings, server.base + "/big-declared")


def test_gzip_bomb_is_refused_by_decoded_size(server: FetchServer, client) -> None:
    settings = Settings(allow_private=True, max_bytes=100_000)
    assert len(BOMB) < settings.max_bytes
    with pytest.raises(ResponseTooLargeError):
        fetch(client, server.base + "/gzip-bomb", settings=settings)


def test_connection_reset_is_a_transient_fetch_error(server: FetchServer, client, settings):
    with pytest.raises(FetchError, match=r"connection reset by 127\.0\.0\.1:\d+") as info:
        get(client, settings, server.base + "/reset")
    assert info.value.__cause__ is not None
    assert is_transient(info.value)


def test_truncated_body_is_a_fetch_error(server: FetchServer, client, settings) -> None:
    with pytest.raises(FetchError, match="connection failed") as info:
        get(client, settings, server.base + "/truncated")
    assert isinstance(info.value.__cause__, httpx.RemoteProtocolError)


def test_loopback_refused_before_any_request(server: FetchServer) -> None:
    settings = Settings(allow_private=False)
    before = len(server.requests)
    with make_client(settings) as client, pytest.raises(RefusedURLError) as info:
        fetch(client, server.base + "/plain", settings=settings)
    assert "127.0.0.1" in str(info.value)
    assert server.base + "/plain" in str(info.value)
    assert info.value.address == "127.0.0.1"
    assert len(server.requests) == before
    assert not is_transient(info.value)


@pytest.mark.parametrize(
    ("url", "kind"),
    [
        ("http://169.254.169.254/latest/meta-data/", "cloud metadata"),
        ("http://[fd00:ec2::254]/", "cloud metadata"),
        ("http://10.1.2.3/", "private"),
        ("http://[::1]:8080/", "loopback"),
        ("http://[::ffff:127.0.0.1]/", "loopback"),
        ("http://169.254.1.1/", "link-local"),
        ("http://224.0.0.1/", "multicast"),
        ("http://0.0.0.0/", "unspecified"),
    ],
)
def test_private_addresses_refused(url: str, kind: str) -> None:
    settings = Settings(allow_private=False)
    with make_client(settings) as client, pytest.raises(RefusedURLError, match=kind):
        fetch(client, url, settings=settings)


@pytest.mark.parametrize("url", ["ftp://x", "file:///etc/passwd", "x", "http:///nohost"])
def test_other_schemes_refused(url: str) -> None:
    settings = Settings(allow_private=True)
    with make_client(settings) as client, pytest.raises(RefusedURLError):
        fetch(client, url, settings=settings)


def test_each_redirect_hop_is_checked(server: FetchServer, client, settings) -> None:
    with pytest.raises(RefusedURLError, match="ftp"):
        get(client, settings, server.base + "/to-ftp")


def test_redirect_hop_to_metadata_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    """A public host that redirects to the metadata service: the hop is refused unsent."""
    public = [(socket.AF_INET, socket.SOCK_STREAM, 6, "", ("93.184.215.14", 80))]
    real = socket.getaddrinfo

    def resolver(host: str, *args: object, **kwargs: object) -> list[object]:
        return public if host == "public.example" else real(host, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(socket, "getaddrinfo", resolver)
    sent: list[str] = []

    def handler(request: httpx.Request) -> httpx.Response:
        sent.append(str(request.url))
        return httpx.Response(302, headers={"Location": "http://169.254.169.254/latest/"})

    settings = Settings(allow_private=False)
    # A plain client over a custom transport counts as networked: addresses are checked.
    client = httpx.Client(transport=httpx.MockTransport(handler))
    with client, pytest.raises(RefusedURLError, match="cloud metadata"):
        fetch(client, "http://public.example/start", settings=settings)
    assert sent == ["http://public.example/start"]


def test_unresolvable_host_is_a_transient_fetch_error(monkeypatch: pytest.MonkeyPatch) -> None:
    def resolver(*args: object, **kwargs: object) -> list[object]:
        raise socket.gaierror(socket.EAI_NONAME, "Name or service not known")

    monkeypatch.setattr(socket, "getaddrinfo", resolver)
    settings = Settings(allow_private=False)
    with (
        make_client(settings) as client,
        pytest.raises(FetchError, match="DNS lookup failed: no such host 'nowhere.invalid'"),
    ):
        fetch(client, "https://nowhere.invalid/", settings=settings)


def test_validators_only_go_to_the_hop_they_belong_to(server: FetchServer, client, settings):
    get(client, settings, server.base + "/r/1", etag='"e"', validated_url=server.base + "/plain")
    sent = {path: {k.lower() for k in headers} for path, headers in server.requests[-3:]}
    assert "if-none-match" not in sent["/r/1"]
    assert "if-none-match" not in sent["/r/0"]
    assert "if-none-match" in sent["/plain"]


def test_normalize_url() -> None:
    assert normalize_url("HTTPS://Docs.PyTorch.org:443/a/b.html#x") == (
        "https://docs.pytorch.org/a/b.html"
    )
    assert normalize_url("http://h:80") == "http://h/"
    assert normalize_url("http://h:8080/p?q=1") == "http://h:8080/p?q=1"


def test_a_mock_transport_does_not_switch_off_the_address_check() -> None:
    from ingest.fetch.client import client_mode

    def answer(request: httpx.Request) -> httpx.Response:
        return httpx.Response(200, content=b"private")

    settings = Settings(allow_private=False)
    with make_client(settings, httpx.MockTransport(answer)) as online:
        assert client_mode(online).offline is False
        with pytest.raises(RefusedURLError, match="loopback"):
            fetch(online, "http://127.0.0.1/secret", settings=settings)
    with make_client(settings, httpx.MockTransport(answer), offline=True) as offline:
        assert client_mode(offline).offline is True
        assert fetch(offline, "http://127.0.0.1/secret", settings=settings).status == "fetched"


def test_offline_needs_a_transport_and_a_plain_client_is_online() -> None:
    from ingest.fetch.client import client_mode

    with pytest.raises(ValueError, match="offline client needs a transport"):
        make_client(Settings(), offline=True)
    with httpx.Client() as plain:  # not made by make_client: online
        assert client_mode(plain).offline is False
    with make_client(Settings()) as client:
        assert type(client) is httpx.Client  # the mode is kept beside it, not in a subclass


def test_cookies_set_by_a_host_are_sent_back_to_it() -> None:
    """The run's client keeps cookies as httpx does; only responses without Set-Cookie skip
    the jar (nothing for it to take)."""
    seen: list[str | None] = []

    def answer(request: httpx.Request) -> httpx.Response:
        seen.append(request.headers.get("cookie"))
        if request.url.path == "/login":
            return httpx.Response(200, content=b"in", headers={"Set-Cookie": "session=s1; Path=/"})
        return httpx.Response(200, content=b"page")

    settings = Settings(allow_private=True)
    with make_client(settings, httpx.MockTransport(answer), offline=True) as client:
        fetch(client, "http://example.org/before", settings=settings)
        fetch(client, "http://example.org/login", settings=settings)
        fetch(client, "http://example.org/after", settings=settings)
        fetch(client, "http://other.example/page", settings=settings)
        assert dict(client.cookies) == {"session": "s1"}
    assert seen == [None, None, "session=s1", None]
