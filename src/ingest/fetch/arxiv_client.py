"""arXiv metadata through the `arxiv` package, politely, with every raw Atom page kept.

    client = ArxivClient(settings, session=requests.Session())
    batch = client.fetch_ids(["1912.01703", "arXiv:1707.08567v1"])   -> ArxivBatchResult
    found = client.search_author("Alban Desmaison")                  -> ArxivSearchResult
    page.to_snapshot() for page in batch.pages                       -> the exact Atom bytes

`arxiv.Client` builds the query URLs, pages through results and parses the feed; this module
wraps the `requests` session it talks through (`_PoliteSession`), since arxiv 4 leaves gaps there:

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
from typing import Any, cast
from urllib.parse import parse_qs, urlsplit

import arxiv
import requests
from lxml import etree
from urllib3.exceptions import ReadTimeoutError

from ingest.errors import FetchError, HTTPStatusError, ReplayMissError, ResponseTooLargeError
from ingest.fetch.client import REPLAY_AS_OF_HEADER, REPLAY_HEADER, REPLAY_MISS
from ingest.fetch.transient import retry_after_seconds
from ingest.models import Snapshot
from ingest.settings import Settings

DEFAULT_BATCH_SIZE = 100  # ids per id_list query (arXiv's advice; ~600 ids make the URL too long)
MAX_PAGE_SIZE = 2000  # the API's limit of results per page
CHUNK_BYTES = 64 * 1024  # read size of a response body

# --- arXiv identifiers ------------------------------------------------------------------------
# new style since 2007: YYMM.NNNN (to 2014) or YYMM.NNNNN, optional version
NEW_STYLE_ID = re.compile(r"^(?P<base>\d{4}\.\d{4,5})(?P<version>v\d+)?$")
# old style: archive(.SUBJECT-CLASS)/YYMMNNN, optional version: quant-ph/0201082v1, math.AG/0601001
OLD_STYLE_ID = re.compile(r"^(?P<base>[a-z][a-z-]*(?:\.[A-Z]{2})?/\d{7})(?P<version>v\d+)?$")
ARXIV_PREFIX = re.compile(r"^arxiv:\s*", re.IGNORECASE)
ARXIV_URL = re.compile(
    r"^https?://(?:export\.|www\.)?arxiv\.org/(?:abs|pdf)/(?P<id>[^?#]+?)(?:\.pdf)?/?(?:[?#].*)?$",
    re.IGNORECASE,
)

# --- the Atom feed --------------------------------------------------------------------------
ATOM_NS = "http://www.w3.org/2005/Atom"
OPENSEARCH_NS = "http://a9.com/-/spec/opensearch/1.1/"
ENTRY_TAG = f"{{{ATOM_NS}}}entry"
TOTAL_RESULTS_TAG = f"{{{OPENSEARCH_NS}}}totalResults"
ERROR_ID_MARK = "/api/errors"  # the <id> of the entry arXiv sends to explain an error status

# characters removed from an author name before it is quoted in `au:"..."`
QUERY_UNSAFE = re.compile(r'["\\\x00-\x1f\x7f]')

TRANSIENT_STATUSES = frozenset({429})  # and every 5xx


@dataclass(frozen=True)
class AtomPage:
    """One raw API response, as received: the URL asked for, status, headers, body bytes."""

    url: str
    status: int
    headers: dict[str, str]  # lower-cased keys
    body: bytes

    def to_snapshot(self) -> Snapshot:
        return Snapshot(url=self.url, status_code=self.status, headers=self.headers, body=self.body)


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
# identifiers


def normalize_id(raw: str) -> str:
    """The bare arXiv id, version kept: "arXiv:1912.01703" / ".../abs/1912.01703v1" -> id.

    Accepts bare ids (new and old style, with or without version), an "arXiv:" prefix and
    arxiv.org /abs/ or /pdf/ URLs. Text that is not an arXiv id is returned stripped, as is:
    arXiv answers it with HTTP 400 and says why ("incorrect id format for abc").
    """
    text = raw.strip()
    match = ARXIV_URL.match(text)
    if match:
        text = match.group("id")
    text = ARXIV_PREFIX.sub("", text).strip()
    return text


def split_version(arxiv_id: str) -> tuple[str, str | None]:
    """("1707.08567", "v2") for "1707.08567v2"; (id, None) without a version or for non-ids."""
    for pattern in (NEW_STYLE_ID, OLD_STYLE_ID):
        match = pattern.match(arxiv_id)
        if match:
            return match.group("base"), match.group("version")
    return arxiv_id, None


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
        self._session = _PoliteSession(
            session if session is not None else requests.Session(),
            timeout=settings.http_timeout,
            max_bytes=settings.max_bytes,
            user_agent=settings.user_agent,
            delay_seconds=delay_seconds,
            sleep=sleep,
            clock=clock,
        )
        # delay_seconds=0: the politeness delay is _PoliteSession's (injected clock, across calls)
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
        err = HTTPStatusError(url, status, _error_summary(page.body) if page else "")
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


# ================================================================================================
# the session wrapper


class _PoliteSession:
    """What `arxiv.Client` sees as its `requests.Session`: spaced, timed out, recorded, checked.

    Only `get` and `request` are provided: arxiv 4 calls `session.get(url, headers=...)`.
    """

    def __init__(
        self,
        session: requests.Session,
        *,
        timeout: float,
        max_bytes: int,
        user_agent: str,
        delay_seconds: float,
        sleep: Callable[[float], None],
        clock: Callable[[], float],
    ) -> None:
        self.session = session
        self.timeout = timeout
        self.max_bytes = max_bytes
        self.user_agent = user_agent
        self.delay_seconds = delay_seconds
        self.sleep = sleep
        self.clock = clock
        self.request_count = 0
        self._last_request_end: float | None = None
        self._pages: list[AtomPage] | None = None

    class _Recording:
        def __init__(self, owner: _PoliteSession) -> None:
            self.owner = owner

        def __enter__(self) -> list[AtomPage]:
            self.owner._pages = []
            return self.owner._pages

        def __exit__(self, *exc: object) -> None:
            self.owner._pages = None

    def recording(self) -> _PoliteSession._Recording:
        """`with session.recording() as pages:` collects every response received inside."""
        return _PoliteSession._Recording(self)

    def last_page(self, url: str) -> AtomPage | None:
        for page in reversed(self._pages or []):
            if page.url == url:
                return page
        return None

    def get(self, url: str, **kwargs: Any) -> requests.Response:
        return self.request("GET", url, **kwargs)

    def request(self, method: str, url: str, **kwargs: Any) -> requests.Response:
        given = kwargs.pop("headers", None) or {}
        headers = {k: v for k, v in given.items() if k.lower() != "user-agent"}
        headers["User-Agent"] = self.user_agent
        kwargs["timeout"] = self.timeout  # bounds connecting and each socket read
        kwargs["stream"] = True  # the body is read by _read_body, against a deadline and a cap
        self._wait()
        self.request_count += 1
        try:
            response = self.session.request(method, url, headers=headers, **kwargs)
            try:
                body = self._read_body(response, url)
            finally:
                response.close()
        except requests.Timeout as exc:
            raise FetchError(url, f"timed out after {self.timeout:g}s", transient=True) from exc
        except requests.ConnectionError as exc:
            if isinstance(exc.args[0] if exc.args else None, ReadTimeoutError):
                # requests reports a read timeout while streaming the body as a ConnectionError
                reason = f"timed out after {self.timeout:g}s"
                raise FetchError(url, reason, transient=True) from exc
            raise FetchError(url, f"connection failed: {exc}", transient=True) from exc
        except requests.RequestException as exc:
            raise FetchError(url, f"request failed: {exc}") from exc
        finally:
            self._last_request_end = self.clock()
        page = AtomPage(
            url=url,
            status=response.status_code,
            headers={k.lower(): v for k, v in response.headers.items()},
            body=body,
        )
        if self._pages is not None:
            self._pages.append(page)
        if response.status_code == 200:
            _check_page(url, body)
        return response

    def _read_body(self, response: requests.Response, url: str) -> bytes:
        """The decoded body, read within `timeout` seconds in all (a server trickling bytes
        defeats a per-read timeout) and refused past `max_bytes`; handed back to arxiv through
        `response._content`, the attribute `requests` itself fills on a non-streamed read."""
        if response.raw is None:  # an adapter handed over the body whole (the replay archive)
            content = bytes(response.content)
            if len(content) > self.max_bytes:
                raise ResponseTooLargeError(url, self.max_bytes)
            return content
        deadline = time.monotonic() + self.timeout
        body = bytearray()
        for chunk in response.iter_content(chunk_size=CHUNK_BYTES):
            body += chunk
            if len(body) > self.max_bytes:
                raise ResponseTooLargeError(url, self.max_bytes)
            if time.monotonic() > deadline:
                raise FetchError(
                    url, f"timed out after {self.timeout:g}s reading the body", transient=True
                )
        response._content = bytes(body)
        return response._content

    def _wait(self) -> None:
        """Sleep until `delay_seconds` have passed since the end of this client's last request."""
        if self._last_request_end is None or self.delay_seconds <= 0:
            return
        elapsed = self.clock() - self._last_request_end
        if elapsed < self.delay_seconds:
            self.sleep(self.delay_seconds - elapsed)


# ================================================================================================
# checking a page before arxiv reads it


def _check_page(url: str, body: bytes) -> None:
    """Raise a transient FetchError for an unreadable feed or a short page.

    Short: fewer entries than min(max_results asked for, totalResults - start), i.e. the feed
    itself says more exist. arXiv sends such pages now and then; asking again usually helps.
    """
    try:
        root = etree.fromstring(body, parser=_safe_parser())
    except etree.XMLSyntaxError as exc:
        raise FetchError(url, f"arXiv sent an unreadable Atom feed: {exc}", transient=True) from exc
    if root is None or root.tag != f"{{{ATOM_NS}}}feed":
        raise FetchError(url, "arXiv sent something other than an Atom feed", transient=True)
    entries = sum(1 for _ in root.iterchildren(ENTRY_TAG))
    total = _int(root.findtext(TOTAL_RESULTS_TAG))
    params = parse_qs(urlsplit(url).query, keep_blank_values=True)
    start = _int((params.get("start") or ["0"])[0]) or 0
    asked = _int((params.get("max_results") or [""])[0])
    if total is None or asked is None:
        return  # nothing to compare against
    expected = max(0, min(asked, total - start))
    if entries < expected:
        raise FetchError(
            url,
            f"arXiv returned a short page: {entries} entries where {expected} were expected "
            f"(opensearch:totalResults {total}, start {start}, max_results {asked})",
            transient=True,
            entries=entries,
            expected=expected,
        )


def _safe_parser() -> etree.XMLParser:
    """No entity expansion, no network, no DTD loading, no recovery, no huge trees."""
    return etree.XMLParser(
        resolve_entities=False, no_network=True, load_dtd=False, huge_tree=False, recover=False
    )


def _int(text: str | None) -> int | None:
    try:
        return int(text.strip()) if text is not None else None
    except ValueError:
        return None


def _error_summary(body: bytes) -> str:
    """arXiv's own explanation of an error status (the <summary> of its "Error" entry), if any."""
    try:
        root = etree.fromstring(body, parser=_safe_parser())
    except etree.XMLSyntaxError:
        return ""
    if root is None:
        return ""
    for entry in root.iterchildren(ENTRY_TAG):
        if ERROR_ID_MARK in (entry.findtext(f"{{{ATOM_NS}}}id") or ""):
            return " ".join((entry.findtext(f"{{{ATOM_NS}}}summary") or "").split())
    return ""
