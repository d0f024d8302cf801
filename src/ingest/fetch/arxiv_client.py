"""arXiv metadata through the `arxiv` package, politely, with every raw Atom page kept.

    client = ArxivClient(settings, session=requests.Session())
    batch = client.fetch_ids(["1912.01703", "arXiv:1707.08567v1"])   -> ArxivBatchResult
    found = client.search_author("Alban Desmaison")                  -> ArxivSearchResult
    page.to_snapshot() for page in batch.pages                       -> the exact Atom bytes

`arxiv.Client` builds the query URLs, pages through results and parses the feed; this module
wraps the `requests` session it talks through (`ingest.fetch.arxiv_session.PoliteSession`), since
arxiv 4 leaves gaps there:

- it calls `session.get(url, headers={"user-agent": "arxiv.py/<version>"})` with NO timeout and
  its own User-Agent: the wrapper replaces both (settings.http_timeout, settings.user_agent).
  requests' timeout bounds the connection and each socket read, so a stalled server raises; the
  body is streamed and must also arrive within http_timeout in all (a trickling server) and
  stay under settings.max_bytes (ResponseTooLargeError).
- its 3-second delay uses the real clock and only spaces requests inside one `arxiv.Client`
  generator; the wrapper spaces every request of this `ArxivClient` (across calls) with the
  injected `clock`/`sleep`, and `arxiv.Client` is given `delay_seconds=0` so the two never add up.
- it parses `resp.content` with lxml in *recover* mode, so a truncated feed parses as a shorter
  one, and it would request the next page after a short one: the wrapper counts the entries of
  each page against `opensearch:totalResults` first and raises a transient FetchError instead.
- it keeps no response: the wrapper records each one as an `AtomPage` (URL asked for, status,
  headers, body bytes) so the caller can store the Atom bytes as a Snapshot.
- `num_retries=0`: the caller's Prefect task is the only retry layer (FetchError.transient).

Errors: everything leaves as FetchError (a subclass of IngestError) naming the URL:
HTTPStatusError for an error status (transient for 429 and 5xx, with `retry_after`), FetchError
with `transient=True` for timeouts, connection errors, short pages and unreadable feeds.
`arxiv.HTTPError` and `arxiv.UnexpectedEmptyPageError` are translated, never leaked.

Not thread-safe for concurrent calls on one client: calls take a lock and run one at a time.
"""

from __future__ import annotations

import re
import threading
import time
import unicodedata
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import cast

import arxiv
import requests

from ingest.errors import FetchError, HTTPStatusError, ReplayMissError
from ingest.fetch.arxiv_ids import (  # noqa: F401  (re-exported: this module's API)
    ARXIV_PREFIX,
    ARXIV_URL,
    NEW_STYLE_ID,
    OLD_STYLE_ID,
    normalize_id,
    split_version,
)
from ingest.fetch.arxiv_session import AtomPage, PoliteSession, error_summary
from ingest.fetch.client import REPLAY_AS_OF_HEADER, REPLAY_HEADER, REPLAY_MISS
from ingest.fetch.transient import retry_after_seconds
from ingest.settings import Settings

DEFAULT_BATCH_SIZE = 100  # ids per id_list query (arXiv's advice; ~600 ids make the URL too long)
MAX_PAGE_SIZE = 2000  # the API's limit of results per page

# characters removed from an author name before it is quoted in `au:"..."`
QUERY_UNSAFE = re.compile(r'["\\\x00-\x1f\x7f]')

TRANSIENT_STATUSES = frozenset({429})  # and every 5xx


@dataclass
class ArxivBatchResult:
    """`results` maps each id both versioned ("1707.08567v1") and unversioned ("1707.08567"),
    plus every requested form; `missing` lists the requested ids arXiv does not know."""

    results: dict[str, arxiv.Result]
    pages: list[AtomPage]
    missing: list[str]
    requested: list[str] = field(default_factory=list)  # normalised, de-duplicated, sorted


@dataclass
class ArxivSearchResult:
    """Results in the order arXiv ranked them; `query` as sent in `search_query`."""

    query: str
    results: list[arxiv.Result]
    pages: list[AtomPage]


# ================================================================================================
# identifiers (normalize_id and split_version: ingest.fetch.arxiv_ids, re-exported)


def author_query(name: str) -> str:
    """`au:"First Last"`: quotes, backslashes and control characters removed, spaces collapsed.

    Accents, hyphens and apostrophes stay (the query is URL-encoded by the arxiv package).
    """
    cleaned = " ".join(QUERY_UNSAFE.sub(" ", unicodedata.normalize("NFC", name)).split())
    if not cleaned:
        raise ValueError(f"an author name is needed, got {name!r}")
    return f'au:"{cleaned}"'


# ================================================================================================
# the client


class ArxivClient:
    """arXiv API queries through `arxiv.Client`, polite across calls, every page kept.

    `session`: the requests session to send through (the replay mode passes one with its own
    adapter); by default a new `requests.Session`, closed by `close()`. `query_url_format`
    points the client elsewhere (a loopback server in tests): "http://127.0.0.1:8000/api/query?{}".
    `sleep`/`clock` are injected so tests can check the politeness delay without waiting.
    """

    def __init__(
        self,
        settings: Settings,
        *,
        session: requests.Session | None = None,
        query_url_format: str | None = None,
        delay_seconds: float | None = None,
        batch_size: int = DEFAULT_BATCH_SIZE,
        sleep: Callable[[float], None] = time.sleep,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        if not 1 <= batch_size <= MAX_PAGE_SIZE:
            raise ValueError(f"batch_size must be between 1 and {MAX_PAGE_SIZE}, not {batch_size}")
        if delay_seconds is None:  # arXiv's terms: one request every INGEST_ARXIV_DELAY seconds
            delay_seconds = settings.arxiv_delay
        if delay_seconds < 0:
            raise ValueError(f"delay_seconds must not be negative, not {delay_seconds}")
        self.settings = settings
        self.batch_size = batch_size
        self.delay_seconds = delay_seconds
        self._owns_session = session is None
        self._session = PoliteSession(
            session if session is not None else requests.Session(),
            timeout=settings.http_timeout,
            max_bytes=settings.max_bytes,
            user_agent=settings.user_agent,
            delay_seconds=delay_seconds,
            sleep=sleep,
            clock=clock,
        )
        # delay_seconds=0: the politeness delay is PoliteSession's (injected clock, across calls)
        self._client = arxiv.Client(page_size=batch_size, delay_seconds=0.0, num_retries=0)
        self._client._session = cast(requests.Session, self._session)
        if query_url_format is not None:
            self._client.query_url_format = query_url_format
        self._lock = threading.Lock()

    @property
    def request_count(self) -> int:
        """Requests sent by this client so far."""
        return self._session.request_count

    def close(self) -> None:
        if self._owns_session:
            self._session.session.close()

    def __enter__(self) -> ArxivClient:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # --------------------------------------------------------------------------------------

    def fetch_ids(self, ids: list[str]) -> ArxivBatchResult:
        """Metadata for `ids`: normalised, de-duplicated, sorted, `batch_size` ids per request.

        1,000 ids make exactly 10 requests with the default batch size. An id arXiv does not
        know is listed in `missing`; errors raise FetchError (see the module docstring).
        """
        requested = sorted({normalize_id(i) for i in ids if i.strip()})
        results: dict[str, arxiv.Result] = {}
        with self._lock, self._session.recording() as pages:
            for start in range(0, len(requested), self.batch_size):
                batch = requested[start : start + self.batch_size]
                search = arxiv.Search(id_list=batch, max_results=len(batch))
                for result in self._run(search):
                    _index(results, result)
        for raw in ids:  # also map the forms the caller passed, when they name a found result
            key = normalize_id(raw)
            if key in results:
                results.setdefault(raw, results[key])
        missing = [i for i in requested if i not in results]
        return ArxivBatchResult(results=results, pages=pages, missing=missing, requested=requested)

    def search_author(self, name: str, *, max_results: int = 100) -> ArxivSearchResult:
        """Papers by `name` (query `au:"First Last"`), at most `max_results`, relevance order."""
        return self.search(author_query(name), max_results=max_results)

    def search(self, query: str, *, max_results: int = 100) -> ArxivSearchResult:
        """Any arXiv `search_query` (unencoded: `au:"Del Maestro" AND ti:checkerboard`)."""
        if max_results < 1:
            raise ValueError(f"max_results must be at least 1, not {max_results}")
        search = arxiv.Search(query=query, max_results=max_results)
        with self._lock, self._session.recording() as pages:
            results = list(self._run(search))
        return ArxivSearchResult(query=query, results=results, pages=pages)

    def _run(self, search: arxiv.Search) -> Iterator[arxiv.Result]:
        """The results of `search`, arxiv's own exceptions translated to ours."""
        try:
            yield from self._client.results(search)
        except arxiv.HTTPError as exc:
            raise self._status_error(exc.url, exc.status) from exc
        except arxiv.UnexpectedEmptyPageError as exc:
            raise FetchError(exc.url, "arXiv returned an empty page", transient=True) from exc
        except arxiv.ArxivError as exc:
            raise FetchError(exc.url, f"arXiv query failed: {exc.message}") from exc

    def _status_error(self, url: str, status: int) -> FetchError:
        page = self._session.last_page(url)
        headers = page.headers if page else {}
        if headers.get(REPLAY_HEADER) == REPLAY_MISS:  # the replay archive has no recording
            return ReplayMissError(url, headers.get(REPLAY_AS_OF_HEADER) or None)
        err = HTTPStatusError(url, status, error_summary(page.body) if page else "")
        extra = {
            "transient": status in TRANSIENT_STATUSES or 500 <= status <= 599,
            "retry_after": retry_after_seconds(headers),
        }
        err.fields.update(extra)
        for key, value in extra.items():
            setattr(err, key, value)
        return err


def _index(results: dict[str, arxiv.Result], result: arxiv.Result) -> None:
    """Map `result` under its versioned id and its unversioned id (the latest version wins)."""
    short = result.get_short_id()
    results[short] = result
    base, version = split_version(short)
    current = results.get(base)
    if current is None or _version_number(version) >= _version_number(
        split_version(current.get_short_id())[1]
    ):
        results[base] = result


def _version_number(version: str | None) -> int:
    return int(version[1:]) if version else 0
