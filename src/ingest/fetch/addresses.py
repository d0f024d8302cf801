"""Which URLs may be requested: the checks every hop passes before anything is sent.

    check_url(url, settings=..., resolve=True)   RefusedURLError for a URL we must not request
    checked_addresses(url, host, port)          resolve once, check all: where to connect
    check_literal(url, settings=...)            no lookup: scheme, credentials, an address
                                                or `localhost` in the URL itself (feed entries)
    normalize_url(url)                          the form URLs are compared in (loops, replay)
    refuse_credentials(url)                     RefusedURLError for a user name or password

http/https only; no user name or password in the URL (refused, and never shown in a message);
unless `allow_private`, no host resolving to a loopback, private, link-local, reserved, multicast
or cloud-metadata address, nor to an IPv6 address that carries such an IPv4 address
(IPv4-mapped, NAT64 64:ff9b::/96, 6to4, Teredo). `ingest.fetch.client` checks each hop with
these, and a client from `make_client` connects only to the addresses checked
(`ingest.fetch.pinning`: the host is resolved once, so a DNS answer that changes between the
check and the connection, rebinding, reaches nothing).
"""

from __future__ import annotations

import ipaddress
import socket
from typing import Any
from urllib.parse import urlsplit, urlunsplit

from ingest.errors import FetchError, RefusedURLError
from ingest.fetch.causes import dns_cause
from ingest.settings import Settings

ALLOWED_SCHEMES = frozenset({"http", "https"})
DEFAULT_PORTS = {"http": 80, "https": 443}
METADATA_ADDRESSES = frozenset(
    {ipaddress.ip_address("169.254.169.254"), ipaddress.ip_address("fd00:ec2::254")}
)
# NAT64's well-known prefix (RFC 6052): the IPv4 address it reaches is the last 32 bits.
NAT64_PREFIX = ipaddress.IPv6Network("64:ff9b::/96")
HIDDEN_CREDENTIALS = "***"  # shown instead of a URL's user name and password

IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address


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


def check_url(url: str, *, settings: Settings, resolve: bool = True) -> list[IPAddress]:
    """Refuse a URL we must not request (RefusedURLError), before anything is sent; the
    addresses its host resolved to, all checked (empty when not resolved).

    A URL with a user name or password is refused first, and named with them hidden.
    With `resolve` False (an offline client) only the URL itself is checked, not its address;
    with INGEST_ALLOW_PRIVATE set nothing is resolved either.
    """
    refuse_credentials(url)
    parts = urlsplit(url)
    scheme = parts.scheme.lower()
    if scheme not in ALLOWED_SCHEMES:
        shown = f"'{scheme}'" if scheme else "a URL without a scheme"
        raise RefusedURLError(url, f"only http and https URLs are fetched, not {shown}")
    host = parts.hostname
    if not host:
        raise RefusedURLError(url, "the URL names no host")
    if settings.allow_private or not resolve:
        return []
    try:
        port = parts.port or DEFAULT_PORTS[scheme]
    except ValueError as exc:
        raise RefusedURLError(url, f"invalid port: {exc}") from exc
    return checked_addresses(url, host, port)


def checked_addresses(url: str, host: str, port: int) -> list[IPAddress]:
    """`host` resolved once, every address it resolves to checked: the addresses to connect to.

    RefusedURLError naming `url` if any of them is loopback, private, link-local, reserved,
    multicast or metadata (also inside an IPv6 address); a transient FetchError if the lookup
    fails. `ingest.fetch.pinning` connects to what this returns, never resolving again.
    """
    addresses = _resolve(url, host, port)
    for address in addresses:
        kind = _forbidden_kind(address)
        if kind:
            raise RefusedURLError(
                url,
                f"host '{host}' resolves to {address}, a {kind} address "
                "(set INGEST_ALLOW_PRIVATE=1 to allow private addresses)",
                address=str(address),
            )
    if not addresses:
        raise FetchError(url, f"DNS lookup failed: no address for host '{host}'", transient=True)
    return addresses


LOOPBACK_NAMES = ("localhost", "localhost.localdomain")


def check_literal(url: str, *, settings: Settings) -> None:
    """`check_url` without a DNS lookup, for a URL registered now and fetched later (a feed's
    entry; the fetch checks its address again): RefusedURLError for a scheme other than http(s),
    credentials, or, unless `allow_private`, a host that is itself a forbidden address (any
    form `inet_aton` reads: `2130706433`, `0x7f.1`) or a name of loopback (`localhost`)."""
    check_url(url, settings=settings, resolve=False)
    if settings.allow_private:
        return
    host = (urlsplit(url).hostname or "").rstrip(".").lower()
    if host in LOOPBACK_NAMES or host.endswith(".localhost"):
        raise RefusedURLError(url, f"host '{host}' is loopback (a name of this machine)")
    address = _literal_address(host)
    kind = _forbidden_kind(address) if address is not None else None
    if kind:
        raise RefusedURLError(
            url, f"host '{host}' is {address}, a {kind} address", address=str(address)
        )


def _literal_address(host: str) -> IPAddress | None:
    try:
        return ipaddress.ip_address(host)
    except ValueError:
        pass
    try:  # the old forms a resolver still reads: 127.1, 0x7f000001, 2130706433
        return ipaddress.IPv4Address(socket.inet_aton(host))
    except (OSError, ValueError):
        return None


def refuse_credentials(url: str, **fields: Any) -> None:
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
        raise FetchError(url, dns_cause(exc, host), transient=True) from exc
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
