"""Response bodies decoded by us, not by httpx, so that a size cap holds whatever the encoding:
each Content-Encoding layer (gzip, deflate; at most MAX_ENCODINGS stacked) is undone at most
DECODE_STEP bytes at a time, and the wire bytes and every layer's output are counted against the
limit (`ingest.fetch.client` uses it with INGEST_MAX_BYTES).
"""

from __future__ import annotations

import zlib
from collections.abc import Iterable, Iterator

import httpx

from ingest.errors import ResponseTooLargeError
from ingest.fetch.deadlines import Deadline

ZLIB_WBITS = {"gzip": zlib.MAX_WBITS | 16, "deflate": zlib.MAX_WBITS}
ACCEPT_ENCODING = ", ".join(ZLIB_WBITS)
MAX_ENCODINGS = 2  # stacked Content-Encoding layers undone; a response with more is refused
DECODE_STEP = 64 * 1024  # most bytes one decoding layer produces at a time, whatever the input


def decoded(response: httpx.Response, url: str, limit: int, deadline: Deadline) -> Iterator[bytes]:
    """The body with its Content-Encoding undone here rather than by httpx, whose decoders turn
    one chunk into all it expands to (a 3 KB gzip-of-gzip into gigabytes).

    Each layer yields at most DECODE_STEP bytes at a time, and the wire bytes and every layer's
    output are counted: past `limit`, ResponseTooLargeError (after yielding up to `limit`). So
    memory stays near `limit` whatever the encoding. Codings we do not decode (br, zstd: never
    asked for) are passed through as they came, as httpx does without their libraries.
    """
    try:
        return capped([response.content], url, limit)  # built in memory (MockTransport): decoded
    except httpx.ResponseNotRead:
        pass
    encodings = decoded_layers(response.headers)
    chunks = capped(before_deadline(deadline, response.iter_raw()), url, limit)  # as they arrive
    for encoding in reversed(encodings):  # the last one applied is undone first
        chunks = capped(inflate(chunks, encoding), url, limit)
    return chunks


def decoded_layers(headers: httpx.Headers) -> list[str]:
    """The Content-Encoding layers we undo, in the order they were applied; DecodingError when
    more than MAX_ENCODINGS are stacked."""
    values = headers.get_list("content-encoding", split_commas=True)
    encodings = [v.strip().lower() for v in values if v.strip().lower() in ZLIB_WBITS]
    if len(encodings) > MAX_ENCODINGS:
        shown = ", ".join(values)[:100]
        raise httpx.DecodingError(
            f"Content-Encoding '{shown}' stacks {len(encodings)} encodings; "
            f"at most {MAX_ENCODINGS} are decoded"
        )
    return encodings


def decoded_bytes(data: bytes, headers: httpx.Headers, limit: int) -> tuple[bytes, str | None]:
    """A body's wire bytes decoded as `decoded` decodes them, at most `limit` bytes; and why it
    stops short, in WARC-Truncated's words: "length" past `limit`, "unspecified" when it does
    not decode (the WARC archive records bodies so: `ingest.fetch.warc_transport`)."""
    out = bytearray()
    try:
        layers = decoded_layers(headers)
        if not layers and len(data) <= limit:
            return data, None  # as it came: no copy
        chunks = capped([data], "", limit)
        for encoding in reversed(layers):
            chunks = capped(inflate(chunks, encoding), "", limit)
        for chunk in chunks:
            out += chunk
    except ResponseTooLargeError:
        return bytes(out), "length"
    except httpx.DecodingError:
        return bytes(out), "unspecified"
    return bytes(out), None


def before_deadline(deadline: Deadline, chunks: Iterable[bytes]) -> Iterator[bytes]:
    """`chunks`, cut with a timeout once `deadline` has passed (clients without the backend)."""
    for chunk in chunks:
        if deadline.left() <= 0:
            raise httpx.ReadTimeout(f"no complete answer within {deadline.setting}")
        yield chunk


def capped(chunks: Iterable[bytes], url: str, limit: int) -> Iterator[bytes]:
    """`chunks` up to `limit` bytes in all; ResponseTooLargeError when there is more."""
    total = 0
    for chunk in chunks:
        if total + len(chunk) > limit:
            if limit > total:
                yield chunk[: limit - total]
            raise ResponseTooLargeError(url, limit)
        total += len(chunk)
        yield chunk


def inflate(chunks: Iterable[bytes], encoding: str) -> Iterator[bytes]:
    """Undo one gzip or deflate layer, at most DECODE_STEP bytes at a time.

    As httpx does: 'deflate' is zlib-wrapped or else raw, bytes after the end of the compressed
    stream are dropped, and a stream cut short gives what it held.
    """
    decoder = zlib.decompressobj(ZLIB_WBITS[encoding])
    started = False
    for chunk in chunks:
        data = chunk
        while not decoder.eof:
            try:
                piece = decoder.decompress(data, DECODE_STEP)
            except zlib.error as exc:
                if encoding == "deflate" and not started:  # raw deflate, without the zlib header
                    decoder, started = zlib.decompressobj(-zlib.MAX_WBITS), True
                    continue
                raise httpx.DecodingError(f"{encoding}: {exc}") from exc
            started = True
            data = decoder.unconsumed_tail
            if piece:
                yield piece
            if not data and len(piece) < DECODE_STEP:  # input used up, no output held back
                break
