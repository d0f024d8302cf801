"""The `requests` session `arxiv.Client` talks through: spaced, timed out, recorded, checked.

arxiv 4 leaves gaps its session can fill (see `ingest.fetch.arxiv_client`): no timeout, its own
User-Agent, a delay on the real clock inside one generator only, recover-mode parsing of a
truncated feed and no response kept. `PoliteSession` replaces the User-Agent and the timeout,
spaces every request with an injected clock, caps and times the body, records each response as
an `AtomPage` and refuses a short or unreadable page (a transient FetchError) before arxiv reads
it.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any
from urllib.parse import parse_qs, urlsplit

import requests
from lxml import etree
from urllib3.exceptions import DecodeError, ProtocolError, ReadTimeoutError

from ingest.errors import FetchError, ResponseTooLargeError
from ingest.fetch.causes import network_cause, short_text, timeout_cause
from ingest.models import Snapshot

CHUNK_BYTES = 64 * 1024  # read size of a response body

# --- the Atom feed --------------------------------------------------------------------------
ATOM_NS = "http://www.w3.org/2005/Atom"
OPENSEARCH_NS = "http://a9.com/-/spec/opensearch/1.1/"
ENTRY_TAG = f"{{{ATOM_NS}}}entry"
TOTAL_RESULTS_TAG = f"{{{OPENSEARCH_NS}}}totalResults"
ERROR_ID_MARK = "/api/errors"  # the <id> of the entry arXiv sends to explain an error status


@dataclass(frozen=True)
class AtomPage:
    """One raw API response, as received: the URL asked for, status, headers, body bytes."""

    url: str
    status: int
    headers: dict[str, str]  # lower-cased keys
    body: bytes

    def to_snapshot(self) -> Snapshot:
        return Snapshot(url=self.url, status_code=self.status, headers=self.headers, body=self.body)


class PoliteSession:
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
        def __init__(self, owner: PoliteSession) -> None:
            self.owner = owner

        def __enter__(self) -> list[AtomPage]:
            self.owner._pages = []
            return self.owner._pages

        def __exit__(self, *exc: object) -> None:
            self.owner._pages = None

    def recording(self) -> PoliteSession._Recording:
        """`with session.recording() as pages:` collects every response received inside."""
        return PoliteSession._Recording(self)

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
            raise FetchError(url, timeout_cause(exc, url, self.timeout), transient=True) from exc
        except requests.ConnectionError as exc:
            if isinstance(exc.args[0] if exc.args else None, ReadTimeoutError):
                # requests reports a read timeout while streaming the body as a ConnectionError
                raise FetchError(
                    url, timeout_cause(exc, url, self.timeout), transient=True
                ) from exc
            raise FetchError(url, network_cause(exc, url), transient=True) from exc
        except requests.RequestException as exc:
            raise FetchError(url, f"request failed: {short_text(exc)}") from exc
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
        for chunk in _as_it_arrives(response):
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


def _as_it_arrives(response: requests.Response) -> Iterator[bytes]:
    """The decoded body in pieces of what has arrived (at most CHUNK_BYTES each): urllib3's
    `read1` returns as soon as there is data, so a deadline checked between pieces holds against
    a trickle (`iter_content` reads whole chunks: 64 KiB at a byte a second is 18 hours).
    urllib3 bounds each piece's decoding by its size, so a compression bomb is no burst either."""
    raw = response.raw
    try:
        while piece := raw.read1(CHUNK_BYTES, decode_content=True):
            yield piece
    except ReadTimeoutError as exc:
        raise requests.ConnectionError(exc) from exc  # as requests reports a body's read timeout
    except ProtocolError as exc:  # the mapping requests' iter_content makes
        raise requests.exceptions.ChunkedEncodingError(exc) from exc
    except DecodeError as exc:
        raise requests.exceptions.ContentDecodingError(exc) from exc


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


def error_summary(body: bytes) -> str:
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
