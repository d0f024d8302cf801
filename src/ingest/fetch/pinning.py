"""Connect to the address that was checked: no second DNS lookup between check and connect.

    pin_addresses(client, settings)     once, when the client is made (`make_client`)
    with connecting_to(host, port, addresses): ...   the addresses `check_url` found for a hop

A client's default transport resolves a host again to connect, after `check_url` resolved it:
a name answering a public address to the check and 127.0.0.1 to the connection (DNS rebinding)
would reach loopback. `PinnedBackend` is the httpcore network backend of such a client: a
connection to the hop's host uses the addresses `check_url` resolved and checked for it
(`connecting_to`, set by `ingest.fetch.client` around each request), any other resolves its host
once itself (`checked_addresses`: every address it answers must be public); the socket is
opened to one of them by number, so the host is resolved once per hop. TLS is unchanged: httpcore
sends the URL's host name as SNI and checks the certificate against it, and the Host header
comes from the URL, so only the socket's address is pinned. The page, its robots.txt and every
redirect hop go through it: they are requests of the same client.

A refused address raises `AddressRefused` out of the transport; `ingest.fetch.client` turns it
into a RefusedURLError naming the URL of the hop.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any

import httpcore
import httpx

from ingest.errors import FetchError
from ingest.fetch.addresses import IPAddress, checked_addresses
from ingest.settings import Settings

# The hop this thread is requesting: (host, port, the addresses checked for it).
_CHECKED: ContextVar[tuple[str, int, list[IPAddress]] | None] = ContextVar(
    "ingest_checked_addresses", default=None
)


@contextmanager
def connecting_to(host: str, port: int, addresses: list[IPAddress]) -> Iterator[None]:
    """Connections to `host`:`port` made inside go to `addresses` (already checked)."""
    token = _CHECKED.set((host.lower(), port, addresses) if addresses else None)
    try:
        yield
    finally:
        _CHECKED.reset(token)


class AddressRefused(Exception):
    """The connection's host failed the address check: the FetchError to raise for the hop."""

    def __init__(self, error: FetchError) -> None:
        super().__init__(str(error))
        self.error = error


class PinnedBackend(httpcore.NetworkBackend):
    """httpcore's network backend, connecting only to checked addresses of the host."""

    def __init__(self, backend: httpcore.NetworkBackend) -> None:
        self._backend = backend

    def connect_tcp(
        self,
        host: str,
        port: int,
        timeout: float | None = None,
        local_address: str | None = None,
        socket_options: Iterable[Any] | None = None,
    ) -> httpcore.NetworkStream:
        checked = _CHECKED.get()
        if checked is not None and checked[:2] == (host.lower(), port):
            addresses = checked[2]
        else:
            try:
                addresses = checked_addresses(f"//{host}:{port}", host, port)
            except FetchError as exc:
                raise AddressRefused(exc) from exc
        failure: Exception | None = None
        for address in addresses:  # as socket.create_connection would: the first that answers
            try:
                return self._backend.connect_tcp(
                    str(address), port, timeout, local_address, socket_options
                )
            except httpcore.ConnectError as exc:
                failure = exc
        assert failure is not None, "checked_addresses returns at least one address"
        raise failure

    def connect_unix_socket(
        self, path: str, timeout: float | None = None, socket_options: Iterable[Any] | None = None
    ) -> httpcore.NetworkStream:
        raise httpcore.ConnectError("unix sockets are not fetched")

    def sleep(self, seconds: float) -> None:
        self._backend.sleep(seconds)


def pin_addresses(client: httpx.Client, settings: Settings) -> bool:
    """Open every connection of `client`'s own transports through `PinnedBackend`: True if
    it has such a transport (a MockTransport has none and is left alone: nothing connects).

    Nothing is pinned with INGEST_ALLOW_PRIVATE set (every address is allowed). httpx 0.28
    takes no network backend, so it is set on the httpcore pool, as `clip_to_deadlines` does.
    """
    pinned = False
    for transport in [client._transport, *client._mounts.values()]:
        pool = getattr(transport, "_pool", None)
        backend = getattr(pool, "_network_backend", None)
        if not isinstance(backend, httpcore.NetworkBackend):
            continue
        pinned = True
        if not settings.allow_private and not isinstance(backend, PinnedBackend):
            pool._network_backend = PinnedBackend(backend)  # type: ignore[union-attr]
    return pinned
