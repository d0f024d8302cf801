"""The WARC archive as a transport around the real one (the shape of httpx's `_transports/`).

    ArchivingTransport(inner, writer, limit)    records every exchange that passes through it
    archive_through(client, writer, limit)      puts one around each of a client's transports

`fetch` does not know the archive is there. When a response's headers arrive, the time and the
server's address are noted; the body passes through as the client reads it, its wire bytes kept
(at most `limit` and one more); when the client closes the response, the exchange is written
(`WarcWriter.write_exchange`) with the body decoded as `fetch` decodes it (`decoded_bytes`: the
same layers, the same bound), so the record holds what `fetch` read.

What the record says of a body (WARC-Truncated):
- read to the end: the whole body, not truncated;
- never read (a redirect's, an error page's): read here for the record, at most `limit`
  bytes (`length` past it), unless its declared Content-Length is already over `limit`
  (`fetch` refuses such a body unread: nothing is read, `length`);
- cut short by the connection: `time` (a read timed out, the fetch deadline included) or
  `disconnect`;
- left part-read by the client: `length` when it holds more than `limit` (`fetch` stopped at the
  cap), `unspecified` otherwise; `unspecified` too for a body that does not decode.

A response built in memory (an `httpx.MockTransport`'s, the replay archive's) is recorded as it
is, at once. An exchange that got no response at all writes nothing.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime

import httpx

from ingest.fetch.decoding import decoded_bytes
from ingest.fetch.warc import WarcWriter, server_ip, truncation


class ArchivingTransport(httpx.BaseTransport):
    """`inner` (the transport that does the work) with every exchange kept in `writer`."""

    def __init__(self, inner: httpx.BaseTransport, writer: WarcWriter, limit: int) -> None:
        self.inner = inner
        self.writer = writer
        self.limit = limit

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        response = self.inner.handle_request(request)  # no response: nothing to record
        response.request = request
        when, ip = self.writer.now(), server_ip(response)
        try:
            content = response.content  # built in memory: recorded as it is
        except httpx.ResponseNotRead:
            response.stream = _Recording(response, self.writer, self.limit, when, ip)
        else:
            self.writer.write_exchange(response, content, when=when, ip=ip)
        return response

    def close(self) -> None:
        self.inner.close()


def archive_through(client: httpx.Client, writer: WarcWriter, limit: int) -> None:
    """Wrap `client`'s transport and each of its mounts (the proxies httpx set up from the
    environment) in an ArchivingTransport. httpx takes mounts and a transport only when the
    client is made, and makes the proxies' itself, so they are wrapped in place."""
    client._transport = ArchivingTransport(client._transport, writer, limit)
    client._mounts = {
        pattern: None if mounted is None else ArchivingTransport(mounted, writer, limit)
        for pattern, mounted in client._mounts.items()
    }


class _Recording(httpx.SyncByteStream):
    """A response body on its way to the client, recorded when the client closes it."""

    def __init__(
        self,
        response: httpx.Response,
        writer: WarcWriter,
        limit: int,
        when: datetime,
        ip: str | None,
    ) -> None:
        self.response = response
        self.inner = response.stream
        self.writer = writer
        self.limit = limit
        self.when = when
        self.ip = ip
        self.wire = bytearray()
        self.started = False
        self.finished = False
        self.failure: BaseException | None = None
        self.recorded = False

    def __iter__(self) -> Iterator[bytes]:
        self.started = True
        try:
            for chunk in self.inner:  # type: ignore[union-attr]
                self._keep(chunk)
                yield chunk
        except GeneratorExit:  # the client stopped reading: not a failure of the body
            raise
        except BaseException as exc:
            self.failure = exc
            raise
        self.finished = True

    def close(self) -> None:
        if self.recorded:
            return
        self.recorded = True
        try:
            truncated = truncation(self.failure)
            if self.failure is None and not self.started:
                truncated = self._read_unread()
        finally:
            self.inner.close()  # type: ignore[union-attr]
        wire, self.wire = bytes(self.wire), bytearray()
        body, cut = decoded_bytes(wire, self.response.headers, self.limit)
        del wire
        if truncated is None and self.failure is None and not self.finished:
            truncated = cut or "unspecified"
        self.writer.write_exchange(
            self.response, body, truncated=truncated or cut, when=self.when, ip=self.ip
        )

    def _keep(self, chunk: bytes) -> None:
        room = self.limit + 1 - len(self.wire)
        if room > 0:
            self.wire += chunk[:room]

    def _read_unread(self) -> str | None:
        """Read a body the client never asked for, for the record, as far as `limit` allows."""
        declared = self.response.headers.get("content-length", "").strip()
        if declared.isdigit() and int(declared) > self.limit:
            return "length"
        try:
            for chunk in self.inner:  # type: ignore[union-attr]
                self._keep(chunk)
                if len(self.wire) > self.limit:
                    return "length"
        except httpx.HTTPError as exc:
            return truncation(exc)
        self.finished = True
        return None
