"""Deadlines a hostile server cannot stretch: one per fetch attempt (INGEST_FETCH_DEADLINE, or
what is left of INGEST_SOURCE_DEADLINE), enforced on every connect, read and write of a client
from `ingest.fetch.client.make_client`.

    deadline = attempt_deadline(settings, source_left)
    token = DEADLINE.set(deadline)      # this thread's attempt; DeadlineStream reads it
    ...
    clip_to_deadlines(client)           # once, when the client is made
"""

from __future__ import annotations

import time
from collections.abc import Iterable
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any

import httpcore
import httpx

from ingest.settings import Settings


@dataclass(frozen=True)
class Deadline:
    """When the current attempt must be over (`time.monotonic()`), and the setting that says so."""

    at: float
    setting: str  # as messages name it: "INGEST_FETCH_DEADLINE=120 s"

    def left(self) -> float:
        return self.at - time.monotonic()


# The deadline of the attempt this thread is making; read by `DeadlineStream`.
DEADLINE: ContextVar[Deadline | None] = ContextVar("ingest_fetch_deadline", default=None)


def attempt_deadline(settings: Settings, source_left: float | None) -> Deadline:
    """INGEST_FETCH_DEADLINE from now, or what is left of the source's deadline if sooner."""
    if source_left is not None and source_left < settings.fetch_deadline:
        setting = f"INGEST_SOURCE_DEADLINE={settings.source_deadline:g} s"
        return Deadline(time.monotonic() + source_left, setting)
    setting = f"INGEST_FETCH_DEADLINE={settings.fetch_deadline:g} s"
    return Deadline(time.monotonic() + settings.fetch_deadline, setting)


def clip_timeout(timeout: float | None, expired: type[httpcore.TimeoutException]) -> float | None:
    """`timeout`, cut to what is left of this thread's deadline; `expired` once it has passed."""
    deadline = DEADLINE.get()
    if deadline is None:
        return timeout
    left = deadline.left()
    if left <= 0:
        raise expired(f"no time left: {deadline.setting}")
    return left if timeout is None else min(timeout, left)


class DeadlineStream(httpcore.NetworkStream):
    """A connection whose every read and write waits no longer than the attempt's deadline."""

    def __init__(self, stream: httpcore.NetworkStream) -> None:
        self._stream = stream

    def read(self, max_bytes: int, timeout: float | None = None) -> bytes:
        return self._stream.read(max_bytes, clip_timeout(timeout, httpcore.ReadTimeout))

    def write(self, buffer: bytes, timeout: float | None = None) -> None:
        self._stream.write(buffer, clip_timeout(timeout, httpcore.WriteTimeout))

    def close(self) -> None:
        self._stream.close()

    def start_tls(
        self, ssl_context: Any, server_hostname: str | None = None, timeout: float | None = None
    ) -> httpcore.NetworkStream:
        clipped = clip_timeout(timeout, httpcore.ConnectTimeout)
        return DeadlineStream(self._stream.start_tls(ssl_context, server_hostname, clipped))

    def get_extra_info(self, info: str) -> Any:
        return self._stream.get_extra_info(info)


class DeadlineBackend(httpcore.NetworkBackend):
    """httpcore's network backend with every connection a `DeadlineStream`."""

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
        clipped = clip_timeout(timeout, httpcore.ConnectTimeout)
        stream = self._backend.connect_tcp(host, port, clipped, local_address, socket_options)
        return DeadlineStream(stream)

    def connect_unix_socket(
        self, path: str, timeout: float | None = None, socket_options: Iterable[Any] | None = None
    ) -> httpcore.NetworkStream:
        clipped = clip_timeout(timeout, httpcore.ConnectTimeout)
        return DeadlineStream(self._backend.connect_unix_socket(path, clipped, socket_options))

    def sleep(self, seconds: float) -> None:
        self._backend.sleep(seconds)


def clip_to_deadlines(client: httpx.Client) -> None:
    """Open every connection of `client`'s own transports through `DeadlineBackend`.

    httpx 0.28 takes no network backend, so it is set on the httpcore pool of each transport
    (the default one and any proxy's); a transport without one (a MockTransport) is left alone.
    """
    for transport in [client._transport, *client._mounts.values()]:
        pool = getattr(transport, "_pool", None)
        backend = getattr(pool, "_network_backend", None)
        if isinstance(backend, httpcore.NetworkBackend) and not isinstance(
            backend, DeadlineBackend
        ):
            pool._network_backend = DeadlineBackend(backend)  # type: ignore[union-attr]
