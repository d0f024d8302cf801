"""The lean 304 path (ingest.fetch.lean): an unchanged page's conditional request without
httpx's machinery, and everything else through httpx as before. Loopback servers only."""

from __future__ import annotations

import re
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from ingest.errors import FetchError, RefusedURLError
from ingest.fetch.client import client_mode, fetch, make_client
from ingest.fetch.lean import Answer304
from ingest.fetch.warc import WarcWriter
from ingest.fetch.warc_reader import read_responses, warc_files
from ingest.settings import Settings

from .loopback import LoopbackServer, QuietHandler

ETAG = '"v1"'
BODY = b"# Maintainers\n\n- Someone\n"


class Handler(QuietHandler):
    server: Server
    protocol_version = "HTTP/1.1"  # keep-alive, as real servers do

    def do_GET(self) -> None:
        with self.server.lock:
            self.server.seen.append((self.path, self.client_address[1], dict(self.headers)))
        if self.path == "/stall":
            time.sleep(1.5)
        matched = self.headers.get("If-None-Match") == ETAG
        if self.path in ("/page", "/stale", "/stall") and matched:
            self.send_response(304)
            self.send_header("ETag", ETAG)
            self.send_header("Content-Length", "0")
            self.end_headers()
            if self.path == "/stale":  # gone without a word: the client's socket is stale
                self.close_connection = True
            return
        self.send(200, BODY, {"Content-Type": "text/markdown", "ETag": '"v2"'})


class Server(LoopbackServer):
    def __init__(self) -> None:
        super().__init__(Handler)
        self.lock = threading.Lock()
        self.seen: list[tuple[str, int, dict[str, str]]] = []


@pytest.fixture
def server() -> Iterator[Server]:
    with Server() as srv:
        yield srv


def settings(**values: object) -> Settings:
    return Settings(allow_private=True, http_timeout=2.0, **values)  # type: ignore[arg-type]


def test_304s_on_one_kept_alive_connection(server: Server, tmp_path: Path) -> None:
    s = settings()
    with WarcWriter(tmp_path) as archive, make_client(s, archive=archive) as client:
        assert client_mode(client).lean is not None
        results = [fetch(client, server.base + "/page", settings=s, etag=ETAG) for _ in range(5)]
    found = [(r.status, r.http_status, r.snapshot) for r in results]
    assert found == [("unchanged", 304, None)] * 5
    assert all(r.etag == ETAG and r.final_url == server.base + "/page" for r in results)
    assert len(server.seen) == 5
    assert len({port for _path, port, _headers in server.seen}) == 1  # one connection
    # every exchange archived, as through httpx: a 304 response record each
    records = [r for path in warc_files(tmp_path) for r in read_responses(path)]
    assert [(r.status, r.truncated, r.url) for r in records] == [
        (304, None, server.base + "/page")
    ] * 5


def test_the_same_request_headers_as_httpx(server: Server) -> None:
    for lean in (True, False):
        s = settings(lean_revalidation=lean)
        with make_client(s) as client:
            assert (client_mode(client).lean is not None) is lean
            fetch(client, server.base + "/page", settings=s, etag=ETAG, last_modified="x")
    (_p1, _c1, lean_sent), (_p2, _c2, httpx_sent) = server.seen
    assert lean_sent == httpx_sent
    assert lean_sent["If-None-Match"] == ETAG and lean_sent["If-Modified-Since"] == "x"
    assert lean_sent["User-Agent"] == Settings().user_agent


def test_a_changed_page_is_read_through_httpx(server: Server, tmp_path: Path) -> None:
    s = settings()
    with WarcWriter(tmp_path) as archive, make_client(s, archive=archive) as client:
        result = fetch(client, server.base + "/changed", settings=s, etag=ETAG)
    assert result.status == "fetched" and result.http_status == 200
    assert result.snapshot is not None and result.snapshot.body == BODY
    assert result.etag == '"v2"'
    assert [path for path, _port, _headers in server.seen] == ["/changed", "/changed"]
    records = [r for path in warc_files(tmp_path) for r in read_responses(path)]
    # the conditional answer, unread (its body is the second request's), then the page
    assert [(r.status, r.truncated) for r in records] == [(200, "unspecified"), (200, None)]
    assert records[1].body() == BODY


def test_a_stale_kept_alive_connection_is_replaced(server: Server) -> None:
    s = settings()
    with make_client(s) as client:
        first = fetch(client, server.base + "/stale", settings=s, etag=ETAG)
        time.sleep(0.1)  # the server has closed its end by now
        again = fetch(client, server.base + "/stale", settings=s, etag=ETAG)
    assert (first.status, again.status) == ("unchanged", "unchanged")
    assert again.http_status == 304
    assert len({port for _path, port, _headers in server.seen}) == 2


def test_a_timeout_is_the_same_error_as_through_httpx(server: Server) -> None:
    messages = []
    for lean in (True, False):
        s = Settings(allow_private=True, http_timeout=0.3, lean_revalidation=lean)
        with make_client(s) as client, pytest.raises(FetchError) as info:
            fetch(client, server.base + "/stall", settings=s, etag=ETAG)
        assert isinstance(info.value.__cause__, httpx.TimeoutException)
        messages.append(str(info.value))
    assert messages[0] == messages[1]
    assert re.search(r"timed out waiting for 127\.0\.0\.1:\d+ to answer, after 0\.3s", messages[0])
    assert len(server.seen) == 2  # one request each: the lean path's timeout is not retried


def test_a_private_address_is_refused_before_anything_is_sent(server: Server) -> None:
    s = Settings(allow_private=False)
    with make_client(s) as client, pytest.raises(RefusedURLError):
        fetch(client, server.base + "/page", settings=s, etag=ETAG)
    assert server.seen == []


def test_no_lean_path_without_httpx_own_transport() -> None:
    s = settings()

    def answer(request: httpx.Request) -> httpx.Response:
        return httpx.Response(304, headers={"ETag": ETAG})

    with make_client(s, transport=httpx.MockTransport(answer)) as client:
        assert client_mode(client).lean is None
        result = fetch(client, "http://127.0.0.1:9/page", settings=s, etag=ETAG)
    assert (result.status, result.http_status) == ("unchanged", 304)


def test_https_304_through_the_clients_own_ssl_context(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Over TLS (a constructed self-signed certificate for 127.0.0.1, trusted through
    SSL_CERT_FILE as httpx reads it): the lean path verifies with the client's SSL context and
    reads the 304; a client that does not trust the certificate gets httpx's error."""
    import shutil
    import ssl
    import subprocess

    if shutil.which("openssl") is None:
        pytest.skip("no openssl command to make the constructed certificate")
    key, cert = tmp_path / "constructed-key.pem", tmp_path / "constructed-cert.pem"
    subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1"]
        + ["-keyout", str(key), "-out", str(cert), "-subj", "/CN=127.0.0.1"]
        + ["-addext", "subjectAltName=IP:127.0.0.1"],
        check=True,
        capture_output=True,
    )
    with Server() as srv:
        context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
        context.load_cert_chain(cert, key)
        srv.socket = context.wrap_socket(srv.socket, server_side=True)
        url = srv.base.replace("http://", "https://") + "/page"
        s = settings()
        with make_client(s) as untrusting, pytest.raises(FetchError):
            fetch(untrusting, url, settings=s, etag=ETAG)
        monkeypatch.setenv("SSL_CERT_FILE", str(cert))
        with make_client(s) as client:
            lean = client_mode(client).lean
            assert lean is not None
            real, answers = lean.not_modified, []

            def spied(*args: Any, **kwargs: Any) -> Any:
                answers.append(real(*args, **kwargs))
                return answers[-1]

            monkeypatch.setattr(lean, "not_modified", spied)
            results = [fetch(client, url, settings=s, etag=ETAG) for _ in range(3)]
    assert [(r.status, r.http_status) for r in results] == [("unchanged", 304)] * 3
    assert answers == [Answer304(ETAG, None)] * 3  # read by the lean path, not httpx's
    assert len({port for path, port, _headers in srv.seen if path == "/page"}) == 1
