"""DNS rebinding (issue 29): the address checked is the address connected to.

A resolver answers a public address on its first call and 127.0.0.1 on every later one. Two
loopback servers stand in: `internal` listens on the URL's port on 127.0.0.1 (it must never be
reached), `public` is where connections to the public address are sent by the test's network.
"""

from __future__ import annotations

import socket
from collections.abc import Iterator
from typing import Any

import pytest

from ingest.errors import RefusedURLError
from ingest.fetch.client import fetch, make_client
from ingest.fetch.polite import PoliteFetcher
from ingest.settings import Settings

from .loopback import LoopbackServer, QuietHandler

PUBLIC = "93.184.215.14"  # what the rebinding name answers first


class Recorder(QuietHandler):
    server: Recorded

    def do_GET(self) -> None:
        self.server.seen.append((self.path, self.headers.get("Host", "")))
        if self.path == "/page":
            port = self.headers["Host"].rpartition(":")[2]
            self.send(302, headers={"Location": f"http://again.example:{port}/next"})
        else:
            self.send(200, b"hello", {"Content-Type": "text/plain"})


class Recorded(LoopbackServer):
    def __init__(self) -> None:
        super().__init__(Recorder)
        self.seen: list[tuple[str, str]] = []


@pytest.fixture
def servers(monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[Recorded, Recorded]]:
    with Recorded() as internal, Recorded() as public:
        port = internal.server_address[1]
        calls: dict[str, int] = {}
        real_getaddrinfo = socket.getaddrinfo

        def rebinding(host: Any, *args: Any, **kwargs: Any) -> Any:
            if str(host).endswith(".example"):
                calls[host] = calls.get(host, 0) + 1
                address = PUBLIC if calls[host] == 1 else "127.0.0.1"
                return [(socket.AF_INET, socket.SOCK_STREAM, 6, "", (address, port))]
            return real_getaddrinfo(host, *args, **kwargs)

        guarded_connect = socket.socket.connect

        def network(self: socket.socket, address: Any) -> Any:
            if isinstance(address, tuple) and address[0] == PUBLIC:
                address = ("127.0.0.1", public.server_address[1])
            return guarded_connect(self, address)

        monkeypatch.setattr(socket, "getaddrinfo", rebinding)
        monkeypatch.setattr(socket.socket, "connect", network)
        yield internal, public


def settings_without_private(tmp_path: Any) -> Settings:
    return Settings(home=tmp_path, allow_private=False, host_delay=0)


def test_a_rebinding_name_never_reaches_loopback(
    servers: tuple[Recorded, Recorded], tmp_path: Any
) -> None:
    internal, public = servers
    settings = settings_without_private(tmp_path)
    port = internal.server_address[1]
    with make_client(settings) as client:
        result = fetch(client, f"http://rebind.example:{port}/page", settings=settings)
    assert internal.seen == []
    assert result.snapshot is not None and result.snapshot.body == b"hello"
    assert [path for path, _ in public.seen] == ["/page", "/next"]
    assert [host for _, host in public.seen] == [f"rebind.example:{port}", f"again.example:{port}"]


def test_robots_txt_and_the_page_go_to_the_checked_address(
    servers: tuple[Recorded, Recorded], tmp_path: Any
) -> None:
    internal, public = servers
    settings = settings_without_private(tmp_path)
    port = internal.server_address[1]
    with make_client(settings) as client, pytest.raises(RefusedURLError, match="loopback"):
        # robots.txt is read from the first (public) answer; the page's own lookup, the
        # second, answers 127.0.0.1 and is refused before connecting
        PoliteFetcher(client, settings).fetch(f"http://polite.example:{port}/other")
    assert internal.seen == []
    assert [path for path, _ in public.seen] == ["/robots.txt"]


def test_a_name_answering_public_and_loopback_at_once_is_refused(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Any
) -> None:
    with Recorded() as internal:
        port = internal.server_address[1]

        def both(host: Any, *args: Any, **kwargs: Any) -> Any:
            return [
                (socket.AF_INET, socket.SOCK_STREAM, 6, "", (PUBLIC, port)),
                (socket.AF_INET, socket.SOCK_STREAM, 6, "", ("127.0.0.1", port)),
            ]

        monkeypatch.setattr(socket, "getaddrinfo", both)
        settings = settings_without_private(tmp_path)
        with make_client(settings) as client, pytest.raises(RefusedURLError, match="loopback"):
            fetch(client, f"http://both.example:{port}/page", settings=settings)
        assert internal.seen == []


def test_a_connection_outside_fetch_is_checked_by_the_backend(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Any
) -> None:
    """A request of the client not made by `fetch` (no hop checked) resolves and checks itself."""
    from ingest.fetch.pinning import AddressRefused

    with Recorded() as internal:
        port = internal.server_address[1]

        def loopback(host: Any, *args: Any, **kwargs: Any) -> Any:
            return [(socket.AF_INET, socket.SOCK_STREAM, 6, "", ("127.0.0.1", port))]

        monkeypatch.setattr(socket, "getaddrinfo", loopback)
        settings = settings_without_private(tmp_path)
        with make_client(settings) as client, pytest.raises(AddressRefused, match="loopback"):
            client.get(f"http://direct.example:{port}/page")
        assert internal.seen == []
