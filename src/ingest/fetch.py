"""Fetch one URL safely: checked addresses, our own redirect following, a size cap, no retries.

    make_client(settings, transport=None, archive=None) -> httpx.Client   one per run, passed in
    fetch(client, url, settings=...) -> FetchResult            one document (after redirects/stubs)
    is_transient(exc), retry_after_seconds(headers)            for the caller's single retry layer

Every hop (the URL asked for, each HTTP redirect, each HTML redirect stub) is checked before a
request is sent: http/https only and, unless `allow_private`, no host resolving to a loopback,
private, link-local, reserved, multicast or cloud-metadata address. A client built on an
`httpx.MockTransport` (the replay archive, tests) reaches no network, so the address check is
skipped for it; the scheme check always applies. The address is checked when the hop is
resolved here; httpx resolves again to connect, so a DNS answer that changes in between
(rebinding) is not caught: deployments that must be airtight add an egress firewall.

A client made with `archive=WarcWriter(...)` records every hop's request and response as WARC
(`ingest.warc`), errors and 304s included; `fetch` behaves and returns exactly as without it.
"""

from __future__ import annotations

import ipaddress
import socket
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from email.utils import parsedate_to_datetime
from typing import Any, Literal
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
from ingest.models import Snapshot
from ingest.redirects import stub_target
from ingest.settings import Settings
from ingest.warc import WarcWriter

MAX_REDIRECTS = 10
REDIRECT_STATUSES = frozenset({301, 302, 303, 307, 308})
ALLOWED_SCHEMES = frozenset({"http", "https"})
DEFAULT_PORTS = {"http": 80, "https": 443}
METADATA_ADDRESSES = frozenset(
    {ipaddress.ip_address("169.254.169.254"), ipaddress.ip_address("fd00:ec2::254")}
)
# Bodies of these types (or of no declared type) are checked for meta-refresh/canonical stubs.
STUB_CONTENT_TYPES = frozenset({"text/html", "application/xhtml+xml", ""})
RETRY_AFTER_CAP = 300.0  # seconds: a longer Retry-After is waited as this much
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


class IngestClient(httpx.Client):
    """An httpx.Client that knows whether its transport reaches the network, and its archive."""

    def __init__(
        self, *, offline: bool = False, archive: WarcWriter | None = None, **kwargs: Any
    ) -> None:
        super().__init__(**kwargs)
        self.offline = offline
        self.archive = archive


def make_client(
    settings: Settings,
    transport: httpx.BaseTransport | None = None,
    archive: WarcWriter | None = None,
) -> httpx.Client:
    """The HTTP client for one run: our User-Agent and timeout, redirects left to `fetch`.

    Pass `transport` to serve responses without the network (`ReplayArchive.transport(...)`,
    `httpx.MockTransport` in tests), `archive` to keep every exchange as WARC (the caller owns
    and closes the writer). Close the client when the run ends (`with make_client(...)`).
    """
    return IngestClient(
        offline=isinstance(transport, httpx.MockTransport),
        archive=archive,
        headers={"User-Agent": settings.user_agent},
        timeout=httpx.Timeout(settings.http_timeout),
        follow_redirects=False,
        transport=transport,
    )


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

    With `resolve` False (an offline client) only the scheme and host are checked.
    """
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
    """Why we refuse to connect to `address`, or None when it is a public address."""
    if address in METADATA_ADDRESSES:
        return "cloud metadata"
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        return _forbidden_kind(address.ipv4_mapped)
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


def fetch(
    client: httpx.Client,
    url: str,
    *,
    settings: Settings,
    etag: str | None = None,
    last_modified: str | None = None,
    previous_sha256: str | None = None,
    validated_url: str | None = None,
) -> FetchResult:
    """GET `url`, following up to MAX_REDIRECTS redirects and HTML redirect stubs, each checked.

    `etag` / `last_modified` are the validators of the previous response; they are sent (as
    If-None-Match / If-Modified-Since) only to the hop they belong to: `validated_url` (pass the
    previous result's `final_url`), by default `url` itself. A 304 gives status "unchanged" and no
    snapshot; a 200 whose sha256 equals `previous_sha256` gives "unchanged" with the snapshot.
    Raises FetchError (or a subclass) naming the URL that failed; never retries.
    """
    offline = isinstance(client, IngestClient) and client.offline
    conditional = _conditional_headers(etag, last_modified)
    validated = normalize_url(validated_url or url)
    redirects: list[str] = []
    seen = {normalize_url(url)}
    current = url
    while True:
        check_url(current, settings=settings, resolve=not offline)
        headers = conditional if normalize_url(current) == validated else {}
        response = _get(client, current, headers, settings=settings, requested=url)
        target = response.next_url
        if target is None:
            break
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
    client: httpx.Client, url: str, headers: dict[str, str], *, settings: Settings, requested: str
) -> _Response:
    """One GET without following anything; error statuses and transport failures raise."""
    try:
        with (
            client.stream("GET", url, headers=headers) as response,
            _archiving(client, response, settings) as body,
        ):
            found = _Response(
                response.status_code, {k.lower(): v for k, v in response.headers.items()}
            )
            status = response.status_code
            location = found.headers.get("location")
            if status in REDIRECT_STATUSES and location:
                found.next_url = urljoin(url, location.strip())
                return found
            if status == 304:
                response.read()  # never a body; read to the end, the connection is kept alive
                return found
            if status >= 300:
                raise _status_error(url, response, requested)
            found.body = _read_capped(response, url, settings.max_bytes, into=body)
    except httpx.TimeoutException as exc:
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
    response: httpx.Response, url: str, limit: int, *, into: bytearray | None = None
) -> bytes:
    """The decoded body, refused as soon as it grows past `limit` (also catches gzip bombs).

    Read into `into` when given, so the caller keeps what arrived even when this raises.
    """
    declared = response.headers.get("content-length", "").strip()
    if declared.isdigit() and int(declared) > limit:
        raise ResponseTooLargeError(url, limit)
    body = into if into is not None else bytearray()
    for chunk in response.iter_bytes():  # decoded: counts decompressed bytes
        body += chunk
        if len(body) > limit:
            raise ResponseTooLargeError(url, limit)
    return bytes(body)


@contextmanager
def _archiving(
    client: httpx.Client, response: httpx.Response, settings: Settings
) -> Iterator[bytearray]:
    """The buffer `_get` reads the body into; on the way out, the hop goes to the client's WARC
    archive (when it has one) with whatever was read and whatever was raised (`ingest.warc`).
    """
    body = bytearray()
    archive = client.archive if isinstance(client, IngestClient) else None
    if archive is None:
        yield body
        return
    exchange = archive.begin(response)
    try:
        yield body
    except BaseException as exc:
        exchange.finish(body, limit=settings.max_bytes, failure=exc)
        raise
    exchange.finish(body, limit=settings.max_bytes)


def _status_error(url: str, response: httpx.Response, requested: str) -> FetchError:
    if response.headers.get(REPLAY_HEADER) == REPLAY_MISS:
        return ReplayMissError(url, response.headers.get(REPLAY_AS_OF_HEADER) or None)
    err = HTTPStatusError(url, response.status_code, response.reason_phrase)
    return _with_fields(
        err,
        retry_after=retry_after_seconds(response.headers),
        **({"requested_url": requested} if requested != url else {}),
    )


def _hop_error(url: str, requested: str, reason: str, *, transient: bool = False) -> FetchError:
    extra = {"requested_url": requested} if requested != url else {}
    return FetchError(url, reason, transient=transient, **extra)


def _with_fields(err: IngestError, **fields: Any) -> Any:
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
    """Seconds to wait from a Retry-After header (delta-seconds or HTTP-date), at most 300.

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
    return min(max(seconds, 0.0), RETRY_AFTER_CAP)
