"""Fetch one URL safely: checked addresses, our own redirect following, a size cap, no retries.

    make_client(settings, transport=None, archive=None, offline=None)   one client per run
    client_mode(client) -> ClientMode                       its offline flag and WARC archive
    fetch(client, url, settings=...) -> FetchResult            one document (after redirects/stubs)
    is_transient(exc), retry_after_seconds(headers)            for the caller's single retry layer

Every hop (the URL asked for, each HTTP redirect, each HTML redirect stub) is checked before a
request is sent: http/https only, no user name or password in the URL (refused, and never shown
in a message) and, unless `allow_private`, no host resolving to a loopback, private, link-local,
reserved, multicast or cloud-metadata address, nor to an IPv6 address that carries such an IPv4
address (IPv4-mapped, NAT64 64:ff9b::/96, 6to4, Teredo). An offline client (made with
`offline=True`, or on an `OfflineTransport`: the replay archive's) reaches no network, so the
address check is skipped for it (and `ingest.fetch.polite` neither reads robots.txt nor paces it);
the other checks always apply. Whether a client is offline is said when it is made, never
guessed from its transport's type. The address is checked when the hop is
resolved here; httpx resolves again to connect, so a DNS answer that changes in between
(rebinding) is not caught: deployments that must be airtight add an egress firewall.

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

A client made with `archive=WarcWriter(...)` records every hop's request and response as WARC
(`ingest.fetch.warc`), errors and 304s included; `fetch` behaves and returns exactly as without it.
The mode and the archive are kept beside the client (`client_mode`), not in a subclass of it:
any httpx.Client can be passed, one not made by `make_client` is online and unarchived.
"""

from __future__ import annotations

import ipaddress
import socket
import weakref
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from email.utils import parsedate_to_datetime
from typing import Any, Literal, TypeVar
from urllib.parse import urljoin, urlsplit, urlunsplit

import httpx

from ingest.errors import (
    FetchError,
    HTTPStatusError,
    IngestError,
    RefusedURLError,
    ReplayMissError,
    ResponseTooLargeError,
)
from ingest.fetch.deadlines import DEADLINE, Deadline, attempt_deadline, clip_to_deadlines
from ingest.fetch.decoding import ACCEPT_ENCODING, decoded
from ingest.fetch.warc import WarcWriter
from ingest.models import Snapshot
from ingest.redirects import stub_target
from ingest.settings import Settings

MAX_REDIRECTS = 10
REDIRECT_STATUSES = frozenset({301, 302, 303, 307, 308})
ALLOWED_SCHEMES = frozenset({"http", "https"})
DEFAULT_PORTS = {"http": 80, "https": 443}
METADATA_ADDRESSES = frozenset(
    {ipaddress.ip_address("169.254.169.254"), ipaddress.ip_address("fd00:ec2::254")}
)
# NAT64's well-known prefix (RFC 6052): the IPv4 address it reaches is the last 32 bits.
NAT64_PREFIX = ipaddress.IPv6Network("64:ff9b::/96")
HIDDEN_CREDENTIALS = "***"  # shown instead of a URL's user name and password
# Content codings we ask for and undo ourselves, with the zlib window bits that read each.
DEADLINE_SLACK = 0.05  # seconds: a timeout this close to the deadline was the deadline's
# Bodies of these types (or of no declared type) are checked for meta-refresh/canonical stubs.
STUB_CONTENT_TYPES = frozenset({"text/html", "application/xhtml+xml", ""})
# The replay archive answers a URL it has no recording for with a 404 carrying this header.
REPLAY_HEADER = "x-ingest-replay"
REPLAY_MISS = "miss"
REPLAY_AS_OF_HEADER = "x-ingest-replay-as-of"
REPLAY_DATE_HEADER = "x-ingest-replay-date"

IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address


@dataclass
class FetchResult:
    """What one fetch found. `snapshot` is None only for a 304 (status "unchanged")."""

    status: Literal["fetched", "unchanged"]
    snapshot: Snapshot | None
    url: str  # the URL asked for
    final_url: str  # the URL that answered, after redirects and stubs
    http_status: int
    etag: str | None = None
    last_modified: str | None = None
    redirects: list[str] = field(default_factory=list)  # each hop's target, in order


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
    robots.txt or pacing in `ingest.fetch.polite`, since there is no server to protect or spare),
    and the WARC `archive` each exchange goes to."""

    offline: bool = False
    archive: WarcWriter | None = None


# the mode of each client `make_client` made, for as long as the client lives
_MODES: weakref.WeakKeyDictionary[httpx.Client, ClientMode] = weakref.WeakKeyDictionary()


def client_mode(client: httpx.Client) -> ClientMode:
    """The client's mode: as `make_client` was told, else online without an archive."""
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
    _MODES[client] = ClientMode(offline=offline, archive=archive)
    clip_to_deadlines(client)
    return client


def normalize_url(url: str) -> str:
    """`url` as compared for loops and replay: lower-case scheme/host, no fragment/default port."""
    parts = urlsplit(url.strip())
    scheme = parts.scheme.lower()
    host = (parts.hostname or "").lower()
    if ":" in host:
        host = f"[{host}]"
    try:
        port = parts.port
    except ValueError:
        port = None
    netloc = host if port is None or DEFAULT_PORTS.get(scheme) == port else f"{host}:{port}"
    if parts.username is not None:
        userinfo = parts.username + (f":{parts.password}" if parts.password is not None else "")
        netloc = f"{userinfo}@{netloc}"
    path = parts.path or ("/" if netloc else "")
    return urlunsplit((scheme, netloc, path, parts.query, ""))


def check_url(url: str, *, settings: Settings, resolve: bool = True) -> None:
    """Refuse a URL we must not request (RefusedURLError), before anything is sent.

    A URL with a user name or password is refused first, and named with them hidden.
    With `resolve` False (an offline client) only the URL itself is checked, not its address.
    """
    _refuse_credentials(url)
    parts = urlsplit(url)
    scheme = parts.scheme.lower()
    if scheme not in ALLOWED_SCHEMES:
        shown = f"'{scheme}'" if scheme else "a URL without a scheme"
        raise RefusedURLError(url, f"only http and https URLs are fetched, not {shown}")
    host = parts.hostname
    if not host:
        raise RefusedURLError(url, "the URL names no host")
    if settings.allow_private or not resolve:
        return
    try:
        port = parts.port or DEFAULT_PORTS[scheme]
    except ValueError as exc:
        raise RefusedURLError(url, f"invalid port: {exc}") from exc
    for address in _resolve(url, host, port):
        kind = _forbidden_kind(address)
        if kind:
            raise RefusedURLError(
                url,
                f"host '{host}' resolves to {address}, a {kind} address "
                "(set INGEST_ALLOW_PRIVATE=1 to allow private addresses)",
                address=str(address),
            )


def _refuse_credentials(url: str, **fields: Any) -> None:
    """RefusedURLError if `url` carries a user name or password (httpx would send them as Basic
    auth, and they would end up in the database, reports and WARC files); its message and `url`
    show the URL with them hidden."""
    parts = urlsplit(url)
    if "@" in parts.netloc:
        hidden = f"{HIDDEN_CREDENTIALS}@{parts.netloc.rpartition('@')[2]}"
        shown = urlunsplit(parts._replace(netloc=hidden))
        raise RefusedURLError(shown, "credentials in URLs are not accepted", **fields)


def _resolve(url: str, host: str, port: int) -> list[IPAddress]:
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except (socket.gaierror, UnicodeError) as exc:
        raise FetchError(url, f"could not resolve host '{host}': {exc}", transient=True) from exc
    addresses: list[IPAddress] = []
    for info in infos:
        text = str(info[4][0]).split("%", 1)[0]  # drop an IPv6 scope id
        addresses.append(ipaddress.ip_address(text))
    return addresses


def _forbidden_kind(address: IPAddress) -> str | None:
    """Why we refuse to connect to `address`, or None when it is a public address.

    An IPv6 address carrying an IPv4 one is refused for what that IPv4 address is; an
    IPv4-mapped or NAT64 address goes to its IPv4 address, so that decides alone.
    """
    if address in METADATA_ADDRESSES:
        return "cloud metadata"
    if isinstance(address, ipaddress.IPv6Address):
        for form, inner in _embedded_ipv4(address):
            kind = _forbidden_kind(inner)
            if kind:
                return f"{kind} ({inner} via {form})"
        if address.ipv4_mapped is not None or address in NAT64_PREFIX:
            return None
    checks = (
        ("loopback", address.is_loopback),
        ("link-local", address.is_link_local),
        ("multicast", address.is_multicast),
        ("unspecified", address.is_unspecified),
        ("private", address.is_private),
        ("reserved", address.is_reserved),
        ("non-public", not address.is_global),
    )
    for kind, hit in checks:
        if hit:
            return kind
    return None


def _embedded_ipv4(address: ipaddress.IPv6Address) -> list[tuple[str, ipaddress.IPv4Address]]:
    """The IPv4 addresses `address` carries, each with the name of its form."""
    found = []
    if address.ipv4_mapped is not None:
        found.append(("IPv4-mapped", address.ipv4_mapped))
    if address in NAT64_PREFIX:
        found.append(("NAT64", ipaddress.IPv4Address(int(address) & 0xFFFFFFFF)))
    if address.sixtofour is not None:
        found.append(("6to4", address.sixtofour))
    if address.teredo is not None:
        server, client = address.teredo
        found += [("Teredo server", server), ("Teredo client", client)]
    return found


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
    try:
        response, current, redirects = _follow(
            client,
            url,
            settings=settings,
            conditional=_conditional_headers(etag, last_modified),
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
        check_url(current, settings=settings, resolve=not offline)
        headers = conditional if normalize_url(current) == validated else {}
        response = _get(
            client, current, headers, settings=settings, requested=url, deadline=deadline
        )
        target = response.next_url
        if target is None:
            return response, current, redirects
        _refuse_credentials(target, requested_url=url)  # before any message names the target
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
) -> _Response:
    """One GET without following anything; error statuses and transport failures raise."""
    limit = settings.max_bytes
    try:
        with (
            client.stream("GET", url, headers=headers) as response,
            _archiving(client, response, url, limit, deadline) as body,
        ):
            found = _Response(
                response.status_code, {k.lower(): v for k, v in response.headers.items()}
            )
            status = response.status_code
            location = found.headers.get("location")
            if status in REDIRECT_STATUSES and location:
                found.next_url = urljoin(url, location.strip())
                return found
            if status == 304:  # never a body; read to the end, the connection is kept alive
                _read_into(body, response, url, limit, deadline)
                return found
            if status >= 300:
                raise _status_error(url, response, requested)
            found.body = _read_capped(response, url, limit, deadline, into=body)
    except httpx.TimeoutException as exc:
        if deadline.left() <= DEADLINE_SLACK:
            raise _deadline_error(url, requested, deadline) from exc
        raise _hop_error(
            url, requested, f"timed out after {settings.http_timeout:g}s", transient=True
        ) from exc
    except (httpx.NetworkError, httpx.RemoteProtocolError) as exc:
        raise _hop_error(url, requested, f"connection failed: {exc}", transient=True) from exc
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


def _read_capped(
    response: httpx.Response,
    url: str,
    limit: int,
    deadline: Deadline,
    *,
    into: bytearray | None = None,
) -> bytes:
    """The decoded body, refused as soon as it grows past `limit` (see `decoded`), or before
    reading when its declared length does; a timeout once `deadline` has passed.

    Read into `into` when given, so the caller keeps what arrived even when this raises.
    """
    declared = response.headers.get("content-length", "").strip()
    if declared.isdigit() and int(declared) > limit:
        raise ResponseTooLargeError(url, limit)
    body = into if into is not None else bytearray()
    _read_into(body, response, url, limit, deadline)
    return bytes(body)


def _read_into(
    body: bytearray, response: httpx.Response, url: str, limit: int, deadline: Deadline
) -> None:
    for chunk in decoded(response, url, limit, deadline):
        body += chunk


@contextmanager
def _archiving(
    client: httpx.Client, response: httpx.Response, url: str, limit: int, deadline: Deadline
) -> Iterator[bytearray]:
    """The buffer `_get` reads the body into; on the way out, the hop goes to the client's WARC
    archive (when it has one) with whatever was read and whatever was raised (`ingest.fetch.warc`).
    A body `_get` left unread is read for the record first, bounded the same way.
    """
    body = bytearray()
    archive = client_mode(client).archive
    if archive is None:
        yield body
        return
    exchange = archive.begin(response)
    try:
        yield body
    except BaseException as exc:
        failure = _read_rest(response, url, body, limit, deadline, exc)
        exchange.finish(body, limit=limit, failure=failure)
        raise
    exchange.finish(body, limit=limit, failure=_read_rest(response, url, body, limit, deadline))


def _read_rest(
    response: httpx.Response,
    url: str,
    body: bytearray,
    limit: int,
    deadline: Deadline,
    failure: BaseException | None = None,
) -> BaseException | None:
    """Read a body `_get` did not (a redirect's, an error page's) into `body`, up to `limit`;
    the failure that cut it short (the archive marks the record truncated), else `failure`."""
    unread = not response.is_stream_consumed and not response.is_closed
    status_error = isinstance(failure, FetchError) and not isinstance(
        failure, ResponseTooLargeError
    )
    if not unread or not (failure is None or status_error):
        return failure
    try:
        _read_into(body, response, url, limit, deadline)
    except (ResponseTooLargeError, httpx.HTTPError) as exc:
        return exc
    return failure


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


def is_transient(exc: BaseException) -> bool:
    """Whether retrying later may help: timeouts, connection errors, HTTP 429 and 5xx."""
    if isinstance(exc, HTTPStatusError):
        status = int(exc.fields.get("status", 0))
        return status == 429 or 500 <= status <= 599
    if isinstance(exc, FetchError):
        return bool(exc.fields.get("transient", False))
    return isinstance(exc, httpx.TimeoutException | httpx.NetworkError | httpx.RemoteProtocolError)


def retry_after_seconds(
    headers: Mapping[str, str] | httpx.Headers, *, now: datetime | None = None
) -> float | None:
    """Seconds to wait from a Retry-After header (delta-seconds or HTTP-date), as the server
    asked: whether that is too long is the retry layer's call (INGEST_MAX_RETRY_AFTER).

    None when the header is absent or unreadable; 0.0 for a date already past.
    """
    value = next((v for k, v in headers.items() if k.lower() == "retry-after"), None)
    if value is None:
        return None
    value = value.strip()
    seconds: float
    if value.isdigit():
        seconds = float(value)
    else:
        try:
            when = parsedate_to_datetime(value)
        except (TypeError, ValueError, IndexError):
            return None
        if when.tzinfo is None:
            when = when.replace(tzinfo=UTC)
        seconds = (when - (now or datetime.now(UTC))).total_seconds()
    return max(seconds, 0.0)
