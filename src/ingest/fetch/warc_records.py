"""WARC records as bytes, written directly: the same bytes warcio's WARCWriter writes for them.

    record(kind, uri, payload, first_line, headers, warc_headers)   one record, one gzip member
    encode_record(kind, uri, payload, head, warc_headers)   the same from an ASCII HTTP head
    http_block(first_line, headers)              that head as warcio makes it (None: not ASCII)
    warcinfo(filename, when, info)               a file's first record (by warcio)

warcio (still what reads the files, and what writes a file's warcinfo record) builds each
record from objects, streams and digesters: ~70 us of the ~100 us a 304's two records cost in
the nightly, most of an unchanged source's archive time. This writes the same record in one
pass: the WARC headers in warcio's order (the caller's, then WARC-Type, WARC-Payload-Digest,
WARC-Block-Digest, Content-Type, Content-Length), the HTTP head, the payload and the closing
blank lines, compressed as warcio compresses them (zlib level 9, gzip wrapper, one member per
record). tests/test_warc_records.py checks the bytes against warcio's for the same input.

An HTTP head that is not plain ASCII (warcio percent-encodes such header values, RFC 8187) is
left to warcio itself, as is a file's warcinfo record.
"""

from __future__ import annotations

import base64
import hashlib
import io
import uuid
import zlib
from datetime import datetime
from typing import Any

WARC_PROTOCOL = "WARC/1.1"
DIGEST_ALGORITHM = "sha256"
# warcio's Content-Type for each record kind (RecordBuilder.WARC_RECORDS)
CONTENT_TYPES = {
    "request": "application/http; msgtype=request",
    "response": "application/http; msgtype=response",
}
GZIP_LEVEL = 9  # warcio's GzippingWrapper
GZIP_WBITS = zlib.MAX_WBITS + 16  # a gzip header and trailer around the deflate stream
GZIP_HEADER_BITS = 16  # added to a window's bits: the gzip wrapper
SMALLEST_WINDOW_BITS = 10
# deflate never looks this far back from the last bytes (zlib's MIN_LOOKAHEAD, MAX_MATCH + 3 + 1)
MIN_LOOKAHEAD = 262


def warc_id() -> str:
    """A new WARC-Record-ID, as warcio spells one."""
    return f"<urn:uuid:{uuid.uuid4()}>"


def warc_date(when: datetime) -> str:
    """WARC-Date with microseconds (WARC/1.1), as warcio's datetime_to_iso_date gives it for a
    naive UTC time: no fraction when the microseconds are 0."""
    return when.replace(tzinfo=None).isoformat() + "Z"


def digest(data: bytes | hashlib._Hash) -> str:
    """`sha256:<base32>`, as the WARC digest headers spell it."""
    raw = (hashlib.sha256(data) if isinstance(data, bytes) else data).digest()
    return f"{DIGEST_ALGORITHM}:" + base64.b32encode(raw).decode("ascii")


EMPTY_DIGEST = digest(b"")  # every request record's payload, and a 304's


def http_block(first_line: str, headers: list[tuple[str, str]]) -> bytes | None:
    """The HTTP head of a record: `first_line`, each header, a blank line (CRLF each); None
    when it is not plain ASCII."""
    text = first_line + "\r\n" + "".join(f"{name}: {value}\r\n" for name, value in headers)
    try:
        return text.encode("ascii") + b"\r\n"
    except UnicodeEncodeError:
        return None


def encode_record(
    kind: str, uri: str, payload: bytes, head: bytes, warc_headers: dict[str, str]
) -> bytes:
    """One `request` or `response` record (HTTP head `head`, body `payload`) as a gzip member.
    `warc_headers` come first, in order (WARC-Target-URI among them, set to `uri`)."""
    fields = dict(warc_headers)
    fields["WARC-Type"] = kind
    fields["WARC-Target-URI"] = uri
    block = hashlib.sha256(head)
    block.update(payload)
    fields["WARC-Payload-Digest"] = digest(payload) if payload else EMPTY_DIGEST
    fields["WARC-Block-Digest"] = digest(block)
    fields["Content-Type"] = CONTENT_TYPES[kind]
    fields["Content-Length"] = str(len(head) + len(payload))
    text = WARC_PROTOCOL + "\r\n" + "".join(f"{k}: {v}\r\n" for k, v in fields.items()) + "\r\n"
    data = b"".join((text.encode("utf-8"), head, payload, b"\r\n\r\n"))
    compressor = zlib.compressobj(GZIP_LEVEL, zlib.DEFLATED, window_bits(len(data)))
    return compressor.compress(data) + compressor.flush()


def window_bits(size: int) -> int:
    """The gzip window bits that compress `size` bytes to the very bytes warcio's full 32 kB
    window gives: the smallest window (at least 2**SMALLEST_WINDOW_BITS) that holds the whole
    input with deflate's lookahead to spare, so no match it could find is out of reach. Setting
    up a compressor costs by its window: ~110 us with 32 kB, ~35 us with 1 kB, and a 304's two
    records (~600 bytes each) made it most of an unchanged source's archive time."""
    for bits in range(SMALLEST_WINDOW_BITS, zlib.MAX_WBITS):
        if (1 << bits) - MIN_LOOKAHEAD >= size:
            return bits + GZIP_HEADER_BITS
    return GZIP_WBITS


def record(
    kind: str,
    uri: str,
    payload: bytes,
    first_line: str,
    headers: list[tuple[str, str]],
    warc_headers: dict[str, str],
) -> bytes:
    """One record as a gzip member: `encode_record`, or warcio's for an HTTP head that is not
    ASCII (which warcio percent-encodes)."""
    head = http_block(first_line, headers)
    if head is not None:
        return encode_record(kind, uri, payload, head, warc_headers)
    from warcio.statusandheaders import StatusAndHeaders

    protocol, _, rest = first_line.partition(" ")
    http = StatusAndHeaders(rest, headers, protocol=protocol)
    return by_warcio(kind, uri, payload, http, warc_headers)


def by_warcio(
    kind: str, uri: str, payload: bytes, http: Any, warc_headers: dict[str, str]
) -> bytes:
    """One record as a gzip member, written by warcio (`http`: its StatusAndHeaders)."""
    buffer = io.BytesIO()
    writer = _sha256_writer(buffer)
    built = writer.create_warc_record(
        uri,
        kind,
        payload=io.BytesIO(payload),
        length=len(payload),
        warc_headers_dict=warc_headers,
        http_headers=http,
    )
    writer.write_record(built)
    return buffer.getvalue()


def warcinfo(filename: str, when: datetime, info: dict[str, str]) -> bytes:
    """A file's opening `warcinfo` record (by warcio: once per file)."""
    buffer = io.BytesIO()
    writer = _sha256_writer(buffer)
    built = writer.create_warcinfo_record(filename, info)
    built.rec_headers.replace_header("WARC-Date", warc_date(when))
    writer.write_record(built)
    return buffer.getvalue()


def _sha256_writer(buffer: io.BytesIO) -> Any:
    """warcio's writer with sha256 block and payload digests instead of sha1 (warcio imported
    when first wanted)."""
    from warcio.utils import Digester
    from warcio.warcwriter import WARCWriter

    class Sha256Writer(WARCWriter):  # type: ignore[misc]  # warcio has no type hints
        @staticmethod
        def _create_digester() -> Digester:
            return Digester(DIGEST_ALGORITHM)

    return Sha256Writer(buffer, gzip=True, warc_version=WARC_PROTOCOL)
