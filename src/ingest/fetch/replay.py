"""An offline archive of recorded responses, served as an httpx transport.

The same `fetch` code runs against it: `make_client(settings, archive.transport(as_of))`.

Layout of an archive folder (either part, or both):

    index.json   {"recordings": [{"url": ..., "date": "YYYY-MM-DD", "file": "relative/path",
                                  "status": 200, "headers": {"content-type": ...},
                                  "note": "provenance ..."}, ...]}
    <files>      the recorded bodies, byte for byte (decoded: no content-encoding)
    *.warc.gz, *.warc   WARC files directly in the folder, e.g. INGEST_HOME/warc as
                 `ingest.fetch.warc.WarcWriter` writes it: each complete `response` record is a
                 recording dated by its WARC-Date's UTC day (the last one of the day per URL),
                 except 304s and truncated records (WARC-Truncated), which hold no document.
                 Bodies stay in the WARC files and are read when served.

An index.json entry wins over a WARC record of the same URL and day (the index is edited by hand).

A URL may have several dated versions; `pick(url, as_of)` serves the latest one dated on or before
`as_of`. URLs compare after `normalize_url` (lower-case scheme/host, no fragment, no default port).
"""

from __future__ import annotations

import json
import posixpath
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import httpx

from ingest.errors import ConfigError, ReplayMissError
from ingest.fetch.addresses import normalize_url
from ingest.fetch.client import (
    REPLAY_AS_OF_HEADER,
    REPLAY_DATE_HEADER,
    REPLAY_HEADER,
    REPLAY_MISS,
    OfflineTransport,
)
from ingest.fetch.warc_reader import WarcResponse, read_body, read_responses, warc_files
from ingest.files import write_atomic
from ingest.models import sha256_hex

INDEX_NAME = "index.json"
# Headers that describe the transfer, not the document: not kept in a recording (bodies are
# stored decoded, and the transport sets its own length).
TRANSFER_HEADERS = frozenset(
    {"content-encoding", "content-length", "transfer-encoding", "connection", "keep-alive", "etag"}
)
_UNSAFE_FILE_CHARS = re.compile(r"[^A-Za-z0-9._/-]+")


@dataclass(frozen=True)
class Recording:
    """One recorded response: the body lives in `path` (`file` relative to the archive).

    For a WARC recording `path` is the WARC file and `offset` its record's; `sha256` is checked
    when the body is read.
    """

    url: str
    date: date
    file: str
    path: Path
    status: int = 200
    headers: dict[str, str] = field(default_factory=dict)
    note: str = ""
    offset: int | None = None  # of the response record, when `path` is a WARC file
    sha256: str = ""

    def body(self) -> bytes:
        if self.offset is not None:
            return read_body(self.path, self.offset, sha256=self.sha256 or None)
        return self.path.read_bytes()

    def to_json(self) -> dict[str, Any]:
        return {
            "url": self.url,
            "date": self.date.isoformat(),
            "file": self.file,
            "status": self.status,
            "headers": dict(self.headers),
            "note": self.note,
        }


class ReplayArchive:
    """Recorded responses by URL, each URL with its dated versions (oldest first)."""

    def __init__(self, folder: Path, recordings: list[Recording]) -> None:
        self.folder = folder
        self._by_url: dict[str, list[Recording]] = {}
        for rec in sorted(recordings, key=lambda r: r.date):
            self._by_url.setdefault(normalize_url(rec.url), []).append(rec)

    @classmethod
    def load(cls, folder: str | Path) -> ReplayArchive:
        """Read `folder/index.json` and the WARC files in `folder`; ConfigError naming the file
        for anything unusable. One of the two must be there.
        """
        folder = Path(folder)
        index = folder / INDEX_NAME
        warcs = warc_files(folder)
        recordings = _read_index(index) if index.exists() or not warcs else []
        for rec in recordings:
            if not rec.path.is_file():
                raise ConfigError(
                    f"replay archive '{index}': recording of '{rec.url}' ({rec.date}) names "
                    f"file '{rec.file}', which does not exist at '{rec.path}'",
                    path=str(rec.path),
                )
        indexed = {(normalize_url(r.url), r.date) for r in recordings}
        recordings += [
            r
            for r in _warc_recordings(folder, warcs)
            if (normalize_url(r.url), r.date) not in indexed
        ]
        return cls(folder, recordings)

    def __len__(self) -> int:
        return sum(len(v) for v in self._by_url.values())

    def urls(self) -> list[str]:
        """Every URL with at least one recording (as first recorded)."""
        return [versions[0].url for versions in self._by_url.values()]

    def versions(self, url: str) -> list[Recording]:
        """The recordings of `url`, oldest first (empty when there are none)."""
        return list(self._by_url.get(normalize_url(url), []))

    def pick(self, url: str, as_of: date | None = None) -> Recording:
        """The latest recording of `url` dated on or before `as_of` (latest of all when None)."""
        versions = self._by_url.get(normalize_url(url), [])
        eligible = [r for r in versions if as_of is None or r.date <= as_of]
        if not eligible:
            raise ReplayMissError(url, as_of.isoformat() if as_of else None)
        return eligible[-1]

    def transport(self, as_of: date | None = None) -> OfflineTransport:
        """An httpx transport serving the versions in force on `as_of`; a client made on it is
        offline (`ingest.fetch.client.make_client`).

        Hits carry an ETag (the body's sha256) and honour If-None-Match with a 304; a URL with no
        recording (for that date) gets a 404 with header `x-ingest-replay: miss`, which `fetch`
        turns into ReplayMissError.
        """

        def handler(request: httpx.Request) -> httpx.Response:
            return self._serve(request, as_of)

        return OfflineTransport(handler)

    def _serve(self, request: httpx.Request, as_of: date | None) -> httpx.Response:
        url = str(request.url)
        try:
            rec = self.pick(url, as_of)
        except ReplayMissError:
            miss = {REPLAY_HEADER: REPLAY_MISS, "content-type": "text/plain; charset=utf-8"}
            if as_of is not None:
                miss[REPLAY_AS_OF_HEADER] = as_of.isoformat()
            when = f" on or before {as_of}" if as_of else ""
            return httpx.Response(404, headers=miss, text=f"no recording of {url}{when}\n")
        if request.method not in ("GET", "HEAD"):
            return httpx.Response(405, headers={REPLAY_HEADER: "hit"})
        body = rec.body()
        etag = f'"{sha256_hex(body)}"'
        headers = {
            **rec.headers,
            "etag": etag,
            REPLAY_HEADER: "hit",
            REPLAY_DATE_HEADER: rec.date.isoformat(),
        }
        if _etag_matches(request.headers.get("if-none-match"), etag):
            return httpx.Response(304, headers=headers)
        return httpx.Response(
            rec.status, headers=headers, content=b"" if request.method == "HEAD" else body
        )


def _etag_matches(if_none_match: str | None, etag: str) -> bool:
    if not if_none_match:
        return False
    wanted = {tag.strip().removeprefix("W/") for tag in if_none_match.split(",")}
    return "*" in wanted or etag in wanted


def _read_index(index: Path) -> list[Recording]:
    def bad(reason: str) -> ConfigError:
        return ConfigError(f"replay archive index '{index}': {reason}", path=str(index))

    try:
        data = json.loads(index.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise bad(
            "file not found, nor any *.warc.gz or *.warc file (is this a replay archive folder?)"
        ) from None
    except (OSError, UnicodeDecodeError) as exc:
        raise bad(f"cannot be read: {exc}") from exc
    except json.JSONDecodeError as exc:
        raise bad(f"not valid JSON: {exc}") from exc
    if not isinstance(data, dict) or not isinstance(data.get("recordings"), list):
        raise bad('expected an object with a "recordings" list')
    folder = index.parent
    recordings: list[Recording] = []
    seen: set[tuple[str, date]] = set()
    for number, entry in enumerate(data["recordings"], start=1):
        where = f"recording {number}"
        if not isinstance(entry, dict):
            raise bad(f"{where} is not an object")
        for name in ("url", "date", "file"):
            if not isinstance(entry.get(name), str) or not entry[name]:
                raise bad(f'{where} lacks "{name}" (a non-empty string)')
        try:
            day = date.fromisoformat(entry["date"])
        except ValueError:
            raise bad(f"{where}: date '{entry['date']}' is not YYYY-MM-DD") from None
        status = entry.get("status", 200)
        headers = entry.get("headers", {})
        if not isinstance(status, int) or not 100 <= status <= 599:
            raise bad(f"{where}: status {status!r} is not an HTTP status")
        if not isinstance(headers, dict) or not all(
            isinstance(k, str) and isinstance(v, str) for k, v in headers.items()
        ):
            raise bad(f'{where}: "headers" must map strings to strings')
        try:
            path = _inside(folder, entry["file"])
        except ValueError as exc:
            raise bad(f"{where}: {exc}") from None
        key = (normalize_url(entry["url"]), day)
        if key in seen:
            raise bad(f"{where}: a second recording of '{entry['url']}' dated {day}")
        seen.add(key)
        recordings.append(
            Recording(
                url=entry["url"],
                date=day,
                file=entry["file"],
                path=path,
                status=status,
                headers={k.lower(): v for k, v in headers.items()},
                note=str(entry.get("note", "")),
            )
        )
    return recordings


def _warc_recordings(folder: Path, paths: list[Path]) -> list[Recording]:
    """The replayable responses of the WARC files: per URL and UTC day, the last one recorded."""
    latest: dict[tuple[str, date], WarcResponse] = {}
    for path in paths:
        try:
            responses = list(read_responses(path))
        except OSError as exc:
            raise ConfigError(
                f"replay archive '{folder}': cannot read WARC file '{path}': {exc}",
                path=str(path),
            ) from exc
        for found in responses:
            if found.status == 304 or found.truncated or not found.url:
                continue
            key = (normalize_url(found.url), found.date.date())
            if key not in latest or latest[key].date <= found.date:
                latest[key] = found
    return [_from_warc(folder, found) for found in latest.values()]


def _from_warc(folder: Path, found: WarcResponse) -> Recording:
    headers: dict[str, str] = {}
    for name, value in found.headers:
        key = name.lower()
        if key not in TRANSFER_HEADERS:
            headers[key] = f"{headers[key]}, {value}" if key in headers else value
    file = found.path.relative_to(folder).as_posix()
    return Recording(
        url=found.url,
        date=found.date.date(),
        file=file,
        path=found.path,
        status=found.status,
        headers=headers,
        note=f"WARC {file} at offset {found.offset}, WARC-Date {found.date.isoformat()}",
        offset=found.offset,
        sha256=found.sha256,
    )


def _inside(folder: Path, relative: str) -> Path:
    """`folder / relative`, refusing a path that leaves the folder."""
    path = (folder / relative).resolve()
    if not path.is_relative_to(folder.resolve()):
        raise ValueError(f"file '{relative}' is outside the archive folder")
    return path


def default_file_name(url: str, day: date) -> str:
    """Where `record` keeps a body: host/path with the date before the extension."""
    parts = urlsplit(normalize_url(url))
    host = (parts.hostname or "unknown-host") + (f"_{parts.port}" if parts.port else "")
    path = parts.path if not parts.path.endswith("/") else parts.path + "index"
    segments = [s for s in posixpath.normpath("/" + path).split("/") if s not in ("", ".", "..")]
    stem, ext = posixpath.splitext("/".join(segments) or "index")
    if parts.query:
        stem += "-" + sha256_hex(parts.query.encode("utf-8"))[:8]
    name = f"{host}/{stem}.{day.isoformat()}{ext}"
    return _UNSAFE_FILE_CHARS.sub("_", name)


def record(
    archive_folder: str | Path,
    url: str,
    date: date | str,
    body: bytes,
    headers: Mapping[str, str] | None = None,
    note: str = "",
    *,
    status: int = 200,
    file: str | None = None,
) -> Recording:
    """Add (or replace) the recording of `url` on `date`; writes the body and index atomically."""
    folder = Path(archive_folder)
    day = date if not isinstance(date, str) else _parse_day(date)
    folder.mkdir(parents=True, exist_ok=True)
    index = folder / INDEX_NAME
    existing = _read_index(index) if index.exists() else []
    relative = file or default_file_name(url, day)
    try:
        path = _inside(folder, relative)
    except ValueError as exc:
        raise ConfigError(f"cannot record '{url}': {exc}", path=str(folder)) from None
    kept_headers = {
        k.lower(): v for k, v in (headers or {}).items() if k.lower() not in TRANSFER_HEADERS
    }
    rec = Recording(url, day, relative, path, status, kept_headers, note)
    key = (normalize_url(url), day)
    recordings = [r for r in existing if (normalize_url(r.url), r.date) != key] + [rec]
    recordings.sort(key=lambda r: (normalize_url(r.url), r.date))
    path.parent.mkdir(parents=True, exist_ok=True)
    write_atomic(path, body)
    payload = {"recordings": [r.to_json() for r in recordings]}
    text = json.dumps(payload, indent=2, ensure_ascii=False) + "\n"
    write_atomic(index, text.encode("utf-8"))
    return rec


def _parse_day(text: str) -> date:
    try:
        return date.fromisoformat(text)
    except ValueError:
        raise ConfigError(f"recording date '{text}' is not YYYY-MM-DD") from None
