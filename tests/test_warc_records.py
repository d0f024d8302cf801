"""ingest.fetch.warc_records: the records it writes are byte for byte warcio's for the same input
(headers in the same order, the same digests, the same gzip member), and the writer's files stay
readable by warcio; a non-ASCII HTTP head is left to warcio (percent-encoded)."""

from __future__ import annotations

import gzip
import io
import random
from datetime import UTC, datetime
from pathlib import Path

import httpx
import pytest
from warcio.archiveiterator import ArchiveIterator
from warcio.statusandheaders import StatusAndHeaders

from ingest.fetch.warc import WarcWriter
from ingest.fetch.warc_records import (
    MIN_LOOKAHEAD,
    encode_record,
    http_block,
    warc_date,
    window_bits,
)
from ingest.fetch.warc_records import by_warcio as warcio_record

WHEN = datetime(2026, 12, 2, 3, 4, 5, 678901, tzinfo=UTC)
URI = "https://example.org/docs/persons_of_interest.md?x=1"
HEADERS = [
    ("Content-Type", "text/markdown; charset=utf-8"),
    ("ETag", '"0123456789abcdef"'),
    ("Set-Cookie", "a=1"),
    ("Set-Cookie", "b=2"),
    ("Content-Length", "17"),
]


def warc_fields(kind: str, **more: str) -> dict[str, str]:
    return {
        "WARC-Target-URI": URI,
        "WARC-Date": warc_date(WHEN),
        "WARC-Record-ID": f"<urn:uuid:00000000-0000-4000-8000-00000000000{len(kind)}>",
        "WARC-Concurrent-To": "<urn:uuid:00000000-0000-4000-8000-000000000000>",
        **more,
    }


def by_warcio(
    kind: str,
    payload: bytes,
    first_line: str,
    headers: list[tuple[str, str]],
    fields: dict[str, str],
) -> bytes:
    protocol, _, rest = first_line.partition(" ")
    return warcio_record(
        kind, URI, payload, StatusAndHeaders(rest, headers, protocol=protocol), fields
    )


PAYLOADS = {
    "empty (a 304)": b"",
    "small page": b"# Maintainers\n\n- Ann Lee ([annl](https://github.com/annl))\n",
    "binary, past warcio's 16 KB read size": random.Random(7).randbytes(70_000),
    "repetitive, 200 KB": b"<li>Person</li>\n" * 12_800,
}


@pytest.mark.parametrize("name", PAYLOADS)
@pytest.mark.parametrize("kind", ["request", "response"])
def test_records_are_warcios_bytes(kind: str, name: str) -> None:
    payload = PAYLOADS[name]
    if kind == "request":
        first = "GET /docs/persons_of_interest.md?x=1 HTTP/1.1"
        headers = [("Host", "example.org"), ("If-None-Match", '"0123"')]
        fields = warc_fields(kind, **{"WARC-IP-Address": "127.0.0.1"})
    else:
        first = "HTTP/1.1 304 Not Modified" if not payload else "HTTP/1.1 200 OK"
        headers = HEADERS
        fields = warc_fields(
            kind,
            **{"WARC-Ingest-Sha256": "ab" * 32, "WARC-Ingest-Original-Content-Encoding": "gzip"},
            **({"WARC-Truncated": "length"} if len(payload) > 100_000 else {}),
        )
    head = http_block(first, headers)
    assert head is not None
    mine = encode_record(kind, URI, payload, head, fields)
    assert mine == by_warcio(kind, payload, first, headers, fields)
    assert gzip.decompress(mine).endswith(payload + b"\r\n\r\n")


def test_window_holds_the_whole_input_with_lookahead_to_spare() -> None:
    assert window_bits(0) == window_bits(1024 - MIN_LOOKAHEAD) == 10 + 16
    assert window_bits(1024 - MIN_LOOKAHEAD + 1) == 11 + 16
    assert window_bits(32768 - MIN_LOOKAHEAD) == window_bits(10**7) == 15 + 16


@pytest.mark.parametrize("bits", range(10, 16))
def test_records_around_each_window_size_are_warcios_bytes(bits: int) -> None:
    """Payloads whose record is just inside, at and just past a smaller window's limit, random
    and repetitive (long matches far back): the same gzip member as warcio's 32 kB window."""
    first, headers = "HTTP/1.1 200 OK", HEADERS
    fields = warc_fields("response")
    head = http_block(first, headers)
    assert head is not None
    overhead = len(gzip.decompress(encode_record("response", URI, b"", head, fields)))
    rng = random.Random(bits)
    limit = (1 << bits) - MIN_LOOKAHEAD - overhead  # the largest payload the window takes
    for size in (limit - 1, limit, limit + 1, limit + MIN_LOOKAHEAD):
        for payload in (rng.randbytes(size), (b"<li>Person %d</li>\n" * size)[:size]):
            mine = encode_record("response", URI, payload, head, fields)
            assert mine == by_warcio("response", payload, first, headers, fields), size


def test_micro_seconds_zero_date_as_warcio_spells_it() -> None:
    assert warc_date(datetime(2026, 1, 2, 3, 4, 5, tzinfo=UTC)) == "2026-01-02T03:04:05Z"
    assert warc_date(WHEN) == "2026-12-02T03:04:05.678901Z"


def test_non_ascii_head_is_left_to_warcio_and_read_back(tmp_path: Path) -> None:
    assert http_block("HTTP/1.1 200 OK", [("X-Name", "Zoë")]) is None
    request = httpx.Request("GET", URI)
    response = httpx.Response(
        200, headers=[(b"Content-Type", b"text/plain"), (b"X-Name", "Zoë".encode("latin-1"))],
        content=b"hello", request=request,
    )  # fmt: skip
    with WarcWriter(tmp_path, clock=lambda: WHEN) as writer:
        writer.write_exchange(response, b"hello", ip="127.0.0.1")
        path = writer.paths[0]
    with path.open("rb") as stream:
        records = [r for r in ArchiveIterator(stream) if r.rec_type != "warcinfo"]
        kinds = [r.rec_type for r in records]
        assert kinds == ["request", "response"]
        answer = records[1]
        assert answer.http_headers.get_header("X-Name") != "Zoë"  # percent-encoded by warcio
        assert answer.rec_headers.get_header("WARC-Date") == "2026-12-02T03:04:05.678901Z"


def test_written_exchange_reads_back_with_warcio_digests_checked(tmp_path: Path) -> None:
    request = httpx.Request("GET", URI, headers={"If-None-Match": '"x"'})
    response = httpx.Response(200, headers=HEADERS[:2], content=b"body", request=request)
    with WarcWriter(tmp_path, clock=lambda: WHEN) as writer:
        writer.write_exchange(response, b"body", ip="10.0.0.1")
        path = writer.paths[0]
    data = path.read_bytes()
    seen = []
    for record in ArchiveIterator(io.BytesIO(data), check_digests=True):
        seen.append((record.rec_type, record.content_stream().read()))
        assert record.digest_checker.passed is not False
    assert seen[1:] == [("request", b""), ("response", b"body")]
