"""WARC files read back: the complete response records `ingest.fetch.warc` wrote, and their bodies.

    warc_files(folder) -> [Path]                        the WARC files of a folder, by name
    read_responses(path) -> Iterator[WarcResponse]      the complete response records of one file
    read_body(path, offset) -> bytes                    one response's body, read when needed

A damaged or half-written tail (a run killed mid-record) ends a file's records quietly: the
records before it are all returned.
"""

from __future__ import annotations

import hashlib
import logging
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from warcio.archiveiterator import ArchiveIterator

from ingest.errors import StoreError
from ingest.fetch.warc import READ_CHUNK, SHA256_HEADER, WARC_SUFFIXES

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class WarcResponse:
    """A complete `response` record: where it is, what it says (its body via `read_body`)."""

    path: Path
    offset: int  # of the record (its gzip member) in the file
    url: str
    date: datetime  # WARC-Date, UTC
    status: int
    headers: list[tuple[str, str]]  # as recorded, in order
    sha256: str  # hex sha256 of the (decoded) body
    truncated: str | None = None  # WARC-Truncated, when the body is incomplete

    def body(self) -> bytes:
        return read_body(self.path, self.offset, sha256=self.sha256)


def warc_files(folder: Path) -> list[Path]:
    """The WARC files directly in `folder` (`*.warc.gz`, `*.warc`), by name."""
    if not folder.is_dir():
        return []
    return sorted(p for p in folder.iterdir() if p.is_file() and p.name.endswith(WARC_SUFFIXES))


def read_responses(path: Path) -> Iterator[WarcResponse]:
    """The complete response records of one WARC file, in file order.

    Reads every body once (to check it is whole) but keeps none. A damaged or half-written tail
    (a run killed mid-record) ends the iteration with a log message, not an error: the records
    before it are all returned. OSError if the file cannot be opened.
    """
    with path.open("rb") as handle:
        records = ArchiveIterator(handle)
        while True:
            try:
                record = next(records)
                found = _response(path, record)
                complete = _read_whole(record, found)
                offset = records.get_record_offset()
            except StopIteration:
                return
            except Exception as exc:  # noqa: BLE001 - warcio raises many kinds on a broken tail
                log.warning("WARC file '%s': stopped at a damaged record (%s)", path, exc)
                return
            if not complete:
                log.warning("WARC file '%s': incomplete last record at offset %d", path, offset)
                return
            if found is not None:
                yield WarcResponse(path=path, offset=offset, **found)


def _response(path: Path, record: Any) -> dict[str, Any] | None:
    """The fields of a response record with HTTP headers (None for any other record)."""
    if record.rec_type != "response" or record.http_headers is None:
        return None
    headers = record.rec_headers
    stamp = headers.get_header("WARC-Date") or ""
    date = datetime.fromisoformat(stamp)
    if date.tzinfo is None:
        date = date.replace(tzinfo=UTC)
    return {
        "url": headers.get_header("WARC-Target-URI") or "",
        "date": date.astimezone(UTC),
        "status": int(record.http_headers.get_statuscode()),
        "headers": list(record.http_headers.headers),
        "sha256": headers.get_header(SHA256_HEADER) or "",
        "truncated": headers.get_header("WARC-Truncated"),
    }


def _read_whole(record: Any, found: dict[str, Any] | None) -> bool:
    """Read the record's block to its end; whether all of it was there (and its sha256)."""
    stream = record.content_stream() if found is not None else record.raw_stream
    digest = hashlib.sha256()
    while chunk := stream.read(READ_CHUNK):
        digest.update(chunk)
    if getattr(record.raw_stream, "limit", 0) > 0:  # the file ended inside the record
        return False
    if found is not None:
        if found["sha256"] and found["sha256"] != digest.hexdigest():
            return False
        found["sha256"] = digest.hexdigest()
    return True


def read_body(path: Path, offset: int, *, sha256: str | None = None) -> bytes:
    """The decoded body of the response record at `offset` of `path`.

    StoreError if it cannot be read, or if its sha256 is not `sha256` (when given).
    """
    try:
        with path.open("rb") as handle:
            handle.seek(offset)
            record = next(iter(ArchiveIterator(handle)))
            body: bytes = record.content_stream().read()
    except (OSError, StopIteration, ValueError) as exc:
        raise StoreError(
            f"could not read the WARC record at offset {offset} of '{path}': {exc}",
            path=str(path),
        ) from exc
    if sha256 and hashlib.sha256(body).hexdigest() != sha256:
        raise StoreError(
            f"the WARC record at offset {offset} of '{path}' changed since it was indexed "
            f"(sha256 is no longer {sha256})",
            path=str(path),
        )
    return body
