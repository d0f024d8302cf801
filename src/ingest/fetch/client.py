"""Fetch one URL safely: checked addresses, our own redirect following, a size cap, no retries.

    make_client(settings, transport=None, archive=None, offline=None)   one client per run
    client_mode(client) -> ClientMode                       whether it is offline
    fetch(client, url, settings=...) -> FetchResult            one document (after redirects/stubs)
    is_transient(exc), retry_after_seconds(headers)   in ingest.fetch.transient (the retry layer)

Every hop (the URL asked for, each HTTP redirect, each HTML redirect stub) is checked before a
request is sent (`ingest.fetch.addresses`): http/https only, no user name or password in the URL
(refused, and never shown in a message) and, unless `allow_private`, no host resolving to a
loopback, private, link-local, reserved, multicast or cloud-metadata address, nor to an IPv6 address
that carries such an IPv4 address (IPv4-mapped, NAT64 64:ff9b::/96, 6to4, Teredo). An offline client
(made with `offline=True`, or on an `OfflineTransport`: the replay archive's) reaches no network, so
the address check is skipped for it (and `ingest.fetch.polite` neither reads robots.txt nor paces
it); the other checks always apply. Whether a client is offline is said when it is made, never
guessed from its transport's type. The host is resolved once per hop: a client from
`make_client` connects to the very addresses that were checked (`ingest.fetch.pinning`), so a
DNS answer that changes between the check and the connection (rebinding) reaches nothing new.

Bounds a hostile server cannot stretch:
- size: the body is decoded by `ingest.fetch.decoding`, not by httpx (gzip and deflate, at most
  MAX_ENCODINGS stacked), DECODE_STEP bytes at a time, and refused (ResponseTooLargeError) as
  soon as the wire bytes or the output of any decoding layer pass INGEST_MAX_BYTES: a bomb
  costs about that much memory;
- time: one call of `fetch` (connect, every redirect, every read) ends by INGEST_FETCH_DEADLINE,
  or sooner when the caller passes what is left of its per-source deadline (`source_left`). A
  client from `make_client` clips every connect, read and write to the deadline
  (`ingest.fetch.deadlines`), so neither a trickled body nor endless headers or 1xx answers outlast
  it; other clients are checked between body chunks. Only DNS resolution is not covered.

A client made with `archive=WarcWriter(...)` records every hop's request and response as WARC,
errors and 304s included: its transports are wrapped in `ingest.fetch.warc_transport`'s
ArchivingTransport, so `fetch` behaves and returns exactly as without it and never knows. Whether
a client is offline is kept beside it (`client_mode`), not in a subclass: any httpx.Client can be
passed, and one not made by `make_client` is online.

A conditional request of a client from `make_client` on httpx's own transport goes first by
`ingest.fetch.lean` (a 304 read without httpx's machinery, archived the same way, under the same
checks and deadline); any other answer is requested again here (INGEST_LEAN_REVALIDATION).
"""

from __future__ import annotations

import weakref
from dataclasses import dataclass
from typing import Any, TypeVar
from urllib.parse import urljoin

import httpx

from ingest.errors import (
    FetchError,
    HTTPStatusError,
    IngestError,
    RefusedURLError,
    ReplayMissError,
    ResponseTooLargeError,
)
from ingest.fetch.addresses import DEFAULT_PORTS, check_url, normalize_url, refuse_credentials
from ingest.fetch.causes import network_cause, short_text, timeout_cause
from ingest.fetch.deadlines import DEADLINE, Deadline, attempt_deadline, clip_to_deadlines
from ingest.fetch.decoding import ACCEPT_ENCODING, decoded
from ingest.fetch.lean import Answer304, LeanRevalidator, lean_revalidator
from ingest.fetch.pinning import AddressRefused, connecting_to, pin_addresses
from ingest.fetch.result import FetchResult as FetchResult  # (re-exported)
from ingest.fetch.transient import retry_after_seconds
from ingest.fetch.warc import WarcWriter
from ingest.fetch.warc_transport import archive_through
from ingest.models import Snapshot
from ingest.redirects import stub_target
from ingest.settings import Settings

MAX_REDIRECTS = 10
REDIRECT_STATUSES = frozenset({301, 302, 303, 307, 308})
# Content codings we ask for and undo ourselves, with the zlib window bits that read each.
DEADLINE_SLACK = 0.05  # seconds: a timeout this close to the deadline was the deadline's
# Bodies of these types (or of no declared type) are checked for meta-refresh/canonical stubs.
STUB_CONTENT_TYPES = frozenset({"text/html", "application/xhtml+xml", ""})
# The replay archive answers a URL it has no recording for with a 404 carrying this header.
REPLAY_HEADER = "x-ingest-replay"
REPLAY_MISS = "miss"
REPLAY_AS_OF_HEADER = "x-ingest-replay-as-of"
REPLAY_DATE_HEADER = "x-ingest-replay-date"


class OfflineTransport(httpx.BaseTransport):
    """A transport that answers from this process (a replay archive): it says so, and a client
    made on it is offline. It wraps an `httpx.MockTransport` of the same handler."""

    def __init__(self, handler: Any) -> None:
        self._inner = httpx.MockTransport(handler)

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        return self._inner.handle_request(request)


@dataclass(frozen=True)
class ClientMode:
    """How `fetch` uses a client: `offline` (no network behind it: no address check, and no
    robots.txt or pacing in `ingest.fetch.polite`, since there is no server to protect or spare)."""

    offline: bool = False
    archive: WarcWriter | None = None  # the WARC writer its exchanges go to (`make_client`'s)
    lean: LeanRevalidator | None = None  # its 304s' lean path (ingest.fetch.lean), if any


class _Cookies(httpx.Cookies):
    """A client's cookie jar, as httpx keeps it, that hands the jar only the responses setting
    a cookie: http.cookiejar wraps every response and its request to look for Set-Cookie
    (~0.15 ms a fetch, most of a 304's own cost beside the socket), and finds none in most."""

    def extract_cookies(self, response: httpx.Response) -> None:
        if "set-cookie" in response.headers or "set-cookie2" in response.headers:
            super().extract_cookies(response)


# the mode of each client `make_client` made, for as long as the client lives
_MODES: weakref.WeakKeyDictionary[httpx.Client, ClientMode] = weakref.WeakKeyDictionary()


def client_mode(client: httpx.Client) -> ClientMode:
    """The client's mode: as `make_client` was told, else online."""
    return _MODES.get(client, ClientMode())


def make_client(
    settings: Settings,
    transport: httpx.BaseTransport | None = None,
    archive: WarcWriter | None = None,
    *,
    offline: bool | None = None,
) -> httpx.Client:
    """The HTTP client for one run: our User-Agent and timeout, redirects left to `fetch`.

    `transport` serves responses from elsewhere (`ReplayArchive.transport(...)`, an
    `httpx.MockTransport` in tests); `offline` says there is no network behind it (default:
    only for an `OfflineTransport`, the replay archive's): a MockTransport standing in for real
    servers keeps the address check, robots.txt and pacing unless `offline=True` is given.
    `archive` keeps every exchange as WARC (the caller owns and closes the writer). Close the
    client when the run ends (`with make_client(...)`).
    """
    if offline is None:
        offline = isinstance(transport, OfflineTransport)
    if offline and transport is None:
        raise ValueError("an offline client needs a transport that answers without the network")
    client = httpx.Client(
        headers={"User-Agent": settings.user_agent, "Accept-Encoding": ACCEPT_ENCODING},
        timeout=httpx.Timeout(settings.http_timeout),
        follow_redirects=False,
        transport=transport,
    )
    client._cookies = _Cookies()  # httpx's setter would copy it into a plain Cookies
    pin_addresses(client, settings)  # inside the deadlines: a connect is still clipped
    clip_to_deadlines(client)
    if archive is not None:  # outermost: it sees what the client sees
        archive_through(client, archive, settings.max_bytes)
    lean = None if offline or transport is not None else lean_revalidator(client, settings, archive)
    if lean is not None:  # its idle connections closed with the client's last reference
        weakref.finalize(client, lean.close)
    _MODES[client] = ClientMode(offline=offline, archive=archive, lean=lean)
    return client


def fetch(
    client: httpx.Client,
    url: str,
    *,
    settings: Settings,
    etag: str | None = None,
    last_modified: str | None = None,
    previous_sha256: str | None = None,
    validated_url: str | None = None,
    source_left: float | None = None,
) -> FetchResult:
    """GET `url`, following up to MAX_REDIRECTS redirects and HTML redirect stubs, each checked.

    `etag` / `last_modified` are the validators of the previous response; they are sent (as
    If-None-Match / If-Modified-Since) only to the hop they belong to: `validated_url` (pass the
    previous result's `final_url`), by default `url` itself. A 304 gives status "unchanged" and no
    snapshot; a 200 whose sha256 equals `previous_sha256` gives "unchanged" with the snapshot.
    The whole call ends by INGEST_FETCH_DEADLINE, or within `source_left` seconds (what is left of
    the caller's INGEST_SOURCE_DEADLINE) if sooner: a transient FetchError naming the deadline.
    Raises FetchError (or a subclass) naming the URL that failed; never retries.
    """
    deadline = attempt_deadline(settings, source_left)
    token = DEADLINE.set(deadline)
    conditional = _conditional_headers(etag, last_modified)
    lean = client_mode(client).lean if conditional else None
    try:
        if lean is not None and normalize_url(validated_url or url) == normalize_url(url):
            answer = _lean_304(lean, url, conditional, settings, deadline)
            if answer is not None:  # unchanged: the full path's result, without its cost
                return FetchResult(
                    status="unchanged", snapshot=None, url=url, final_url=url, http_status=304,
                    etag=answer.etag or etag, last_modified=answer.last_modified or last_modified,
                    redirects=[],
                )  # fmt: skip
        response, current, redirects = _follow(
            client,
            url,
            settings=settings,
            conditional=conditional,
            validated=normalize_url(validated_url or url),
            deadline=deadline,
        )
    finally:
        DEADLINE.reset(token)

    new_etag = response.headers.get("etag")
    new_modified = response.headers.get("last-modified")
    if response.status_code == 304:
        return FetchResult(
            status="unchanged", snapshot=None, url=url, final_url=current, http_status=304,
            etag=new_etag or etag, last_modified=new_modified or last_modified,
            redirects=redirects,
        )  # fmt: skip
    snapshot = Snapshot(
        url=current,
        requested_url=url,
        status_code=response.status_code,
        headers=dict(response.headers),
        body=response.body,
    )
    same = previous_sha256 is not None and snapshot.sha256 == previous_sha256
    return FetchResult(
        status="unchanged" if same else "fetched", snapshot=snapshot, url=url, final_url=current,
        http_status=response.status_code, etag=new_etag, last_modified=new_modified,
        redirects=redirects,
    )  # fmt: skip


def _lean_304(
    lean: LeanRevalidator,
    url: str,
    conditional: dict[str, str],
    settings: Settings,
    deadline: Deadline,
) -> Answer304 | None:
    """The lean path's 304 (ingest.fetch.lean), or None: the full path then; its timeouts
    are the errors `_get` makes of httpx's."""
    try:
        return lean.not_modified(url, conditional, settings, deadline)
    except httpx.TimeoutException as exc:
        if deadline.left() <= DEADLINE_SLACK:
            raise _deadline_error(url, url, deadline) from exc
        reason = timeout_cause(exc, url, settings.http_timeout)
        raise _hop_error(url, url, reason, transient=True) from exc


def _follow(
    client: httpx.Client,
    url: str,
    *,
    settings: Settings,
    conditional: dict[str, str],
    validated: str,
    deadline: Deadline,
) -> tuple[_Response, str, list[str]]:
    """Request `url` and each hop it leads to: (the last answer, its URL, the hops' targets)."""
    offline = client_mode(client).offline
    redirects: list[str] = []
    seen = {normalize_url(url)}
    current = url
    while True:
        if deadline.left() <= 0:
            raise _deadline_error(current, url, deadline)
        addresses = check_url(current, settings=settings, resolve=not offline)
        headers = conditional if normalize_url(current) == validated else {}
        parsed = httpx.URL(current)  # once: the connection's host and port, and the request's
        with connecting_to(*_host_and_port(parsed), addresses):
            response = _get(
                client,
                current,
                headers,
                settings=settings,
                requested=url,
                deadline=deadline,
                parsed=parsed,
            )
        target = response.next_url
        if target is None:
            return response, current, redirects
        refuse_credentials(target, requested_url=url)  # before any message names the target
        if len(redirects) >= MAX_REDIRECTS:
            raise FetchError(
                url,
                f"more than {MAX_REDIRECTS} redirects (last to '{target}')",
                redirects=redirects,
            )
        if normalize_url(target) in seen:
            raise FetchError(
                url,
                f"redirect loop: '{target}' was already visited",
                redirects=[*redirects, target],
            )
        seen.add(normalize_url(target))
        redirects.append(target)
        current = target


def _host_and_port(parts: httpx.URL) -> tuple[str, int]:
    """The host and port a request of `parts` connects to (it has passed `check_url`)."""
    return parts.host, parts.port or DEFAULT_PORTS.get(parts.scheme, 0)


@dataclass
class _Response:
    status_code: int
    headers: dict[str, str]  # lower-cased keys
    body: bytes = b""
    next_url: str | None = None  # where a redirect or a redirect stub points


def _conditional_headers(etag: str | None, last_modified: str | None) -> dict[str, str]:
    headers = {}
    if etag:
        headers["If-None-Match"] = etag
    if last_modified:
        headers["If-Modified-Since"] = last_modified
    return headers


def _get(
    client: httpx.Client,
    url: str,
    headers: dict[str, str],
    *,
    settings: Settings,
    requested: str,
    deadline: Deadline,
    parsed: httpx.URL | None = None,
) -> _Response:
    """One GET without following anything; error statuses and transport failures raise.
    `parsed`: `url` as httpx.URL, when the caller has parsed it already."""
    limit = settings.max_bytes
    try:
        with client.stream("GET", parsed or url, headers=headers) as response:
            found = _Response(
                response.status_code, {k.lower(): v for k, v in response.headers.items()}
            )
            status = response.status_code
            location = found.headers.get("location")
            if status in REDIRECT_STATUSES and location:
                found.next_url = urljoin(url, location.strip())
                return found
            if status == 304:  # never a body; read to the end, the connection is kept alive
                _read_capped(response, url, limit, deadline)
                return found
            if status >= 300:
                raise _status_error(url, response, requested)
            found.body = _read_capped(response, url, limit, deadline)
    except AddressRefused as exc:  # the connection's own lookup (one not made by `_follow`)
        fields = {k: v for k, v in exc.error.fields.items() if k not in ("url", "reason")}
        raise type(exc.error)(url, exc.error.fields["reason"], **fields) from exc
    except httpx.TimeoutException as exc:
        if deadline.left() <= DEADLINE_SLACK:
            raise _deadline_error(url, requested, deadline) from exc
        raise _hop_error(
            url, requested, timeout_cause(exc, url, settings.http_timeout), transient=True
        ) from exc
    except httpx.RemoteProtocolError as exc:
        reason = f"connection failed: the server broke the exchange ({short_text(exc)})"
        raise _hop_error(url, requested, reason, transient=True) from exc
    except httpx.NetworkError as exc:
        raise _hop_error(url, requested, network_cause(exc, url), transient=True) from exc
    except httpx.DecodingError as exc:
        raise _hop_error(url, requested, f"could not decode the body: {exc}") from exc
    except (httpx.InvalidURL, httpx.UnsupportedProtocol) as exc:
        raise RefusedURLError(url, f"not a URL we can request: {exc}") from exc
    except httpx.HTTPError as exc:
        raise _hop_error(url, requested, f"request failed: {exc}") from exc

    content_type = found.headers.get("content-type", "").split(";")[0].strip().lower()
    if content_type in STUB_CONTENT_TYPES:
        target = stub_target(found.body, url)
        if target and normalize_url(target) != normalize_url(url):
            found.next_url = target
    return found


def _read_capped(response: httpx.Response, url: str, limit: int, deadline: Deadline) -> bytes:
    """The decoded body, refused as soon as it grows past `limit` (see `decoded`), or before
    reading when its declared length does; a timeout once `deadline` has passed."""
    declared = response.headers.get("content-length", "").strip()
    if declared.isdigit() and int(declared) > limit:
        raise ResponseTooLargeError(url, limit)
    body = bytearray()
    for chunk in decoded(response, url, limit, deadline):
        body += chunk
    return bytes(body)


def _status_error(url: str, response: httpx.Response, requested: str) -> FetchError:
    if response.headers.get(REPLAY_HEADER) == REPLAY_MISS:
        return ReplayMissError(url, response.headers.get(REPLAY_AS_OF_HEADER) or None)
    err = HTTPStatusError(url, response.status_code, response.reason_phrase)
    return _with_fields(
        err,
        retry_after=retry_after_seconds(response.headers),
        **({"requested_url": requested} if requested != url else {}),
    )


def _hop_error(
    url: str, requested: str, reason: str, *, transient: bool = False, **fields: Any
) -> FetchError:
    extra = {"requested_url": requested} if requested != url else {}
    return FetchError(url, reason, transient=transient, **extra, **fields)


def _deadline_error(url: str, requested: str, deadline: Deadline) -> FetchError:
    """The attempt ran out of time: transient (a later attempt may be quicker)."""
    reason = f"no complete answer within {deadline.setting}"
    return _hop_error(url, requested, reason, transient=True, deadline=deadline.setting)


_Error = TypeVar("_Error", bound=IngestError)


def _with_fields(err: _Error, **fields: Any) -> _Error:
    """Add fields to an error after construction, kept through pickling like the others."""
    err.fields.update(fields)
    for key, value in fields.items():
        setattr(err, key, value)
    return err
