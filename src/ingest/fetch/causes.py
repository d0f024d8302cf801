"""The root cause of a network failure, in a few words: what an operator acts on.

    network_cause(exc, url) -> "DNS lookup failed: no such host 'nowhere.example'"
                               "connection refused by 127.0.0.1:9"
                               "timed out connecting to arxiv.org:443"
                               "connection reset by example.org:443"

httpx, requests and urllib3 wrap the socket's error two or three times (urllib3's
`MaxRetryError(... Caused by NewConnectionError('<urllib3.connection.HTTPSConnection object at
0x7f...>: Failed to establish a new connection: [Errno 111] Connection refused'))` is 400
characters); the chain (`__cause__`, `__context__`, urllib3's `reason`, exceptions in `args`) is
walked to the socket's error and that is named, with the host and port it concerns.
"""

from __future__ import annotations

import errno
import socket
import ssl
from collections.abc import Iterator
from urllib.parse import urlsplit

DEFAULT_PORTS = {"http": 80, "https": 443}
_DNS_WORDS = (
    "name or service not known",
    "nodename nor servname",
    "temporary failure in name resolution",
    "no address associated with hostname",
    "failed to resolve",
    "getaddrinfo failed",
)
MAX_DETAIL = 120  # characters of an unrecognised error's own text


def network_cause(exc: BaseException, url: str | None = None) -> str:
    """What went wrong under `exc`, root cause first, one short line (see the module doc)."""
    host, where = _where(url)
    chain = list(_chain(exc))
    for found in chain:
        if isinstance(found, socket.gaierror):
            return dns_cause(found, host)
    for found in chain:
        if isinstance(found, ConnectionRefusedError) or _errno(found) == errno.ECONNREFUSED:
            return f"connection refused by {where}"
        if isinstance(found, ConnectionResetError) or _errno(found) == errno.ECONNRESET:
            return f"connection reset by {where}"
        if _errno(found) in (errno.ENETUNREACH, errno.EHOSTUNREACH):
            return f"no route to {where} ({found.strerror})"  # type: ignore[attr-defined]
        if isinstance(found, ssl.SSLError):
            return f"TLS handshake with {where} failed: {found.reason or found}"
    text = " ".join(str(found) for found in chain).lower()
    if any(words in text for words in _DNS_WORDS):
        return f"DNS lookup failed: no such host '{host}'"
    if "connection refused" in text:
        return f"connection refused by {where}"
    if any(_is_timeout(found) for found in chain):
        return f"timed out talking to {where}"
    return f"connection to {where} failed: {short_text(chain[-1] if chain else exc)}"


def timeout_cause(exc: BaseException, url: str, seconds: float) -> str:
    """A timeout, saying which step waited too long: connecting, or waiting for the answer."""
    _host, where = _where(url)
    if any("connecttimeout" in type(found).__name__.lower() for found in _chain(exc)):
        return f"timed out connecting to {where} after {seconds:g}s"
    return f"timed out waiting for {where} to answer, after {seconds:g}s"


def dns_cause(exc: socket.gaierror | UnicodeError, host: str) -> str:
    """A failed name lookup, as a person reads it."""
    code = exc.errno if isinstance(exc, socket.gaierror) else None
    if code in (socket.EAI_NONAME, getattr(socket, "EAI_NODATA", None)):
        return f"DNS lookup failed: no such host '{host}'"
    if code == socket.EAI_AGAIN:
        return f"DNS lookup failed for '{host}': temporary failure (no answer from the resolver)"
    detail = exc.strerror if isinstance(exc, socket.gaierror) and exc.strerror else str(exc)
    return f"DNS lookup failed for '{host}': {detail}"


def _where(url: str | None) -> tuple[str, str]:
    """(host, host:port) of `url`, as far as it can be read."""
    if not url:
        return "?", "the server"
    try:
        parts = urlsplit(url)
        host = parts.hostname or "?"
        port = parts.port or DEFAULT_PORTS.get(parts.scheme.lower())
    except ValueError:
        return "?", "the server"
    shown = f"[{host}]" if ":" in host else host
    return host, f"{shown}:{port}" if port else shown


def _chain(exc: BaseException) -> Iterator[BaseException]:
    """`exc` and every exception under it, outermost first, each once."""
    seen: set[int] = set()
    todo = [exc]
    while todo:
        found = todo.pop(0)
        if id(found) in seen:
            continue
        seen.add(id(found))
        yield found
        under = [found.__cause__, found.__context__, getattr(found, "reason", None)]
        under += [arg for arg in getattr(found, "args", ()) if isinstance(arg, BaseException)]
        todo += [e for e in under if isinstance(e, BaseException)]


def _errno(exc: BaseException) -> int | None:
    return exc.errno if isinstance(exc, OSError) and isinstance(exc.errno, int) else None


def _is_timeout(exc: BaseException) -> bool:
    return isinstance(exc, TimeoutError) or "timeout" in type(exc).__name__.lower()


def short_text(exc: BaseException) -> str:
    """The exception's own text on one line, at most MAX_DETAIL characters."""
    text = " ".join(str(exc).split()) or type(exc).__name__
    return text if len(text) <= MAX_DETAIL else text[: MAX_DETAIL - 1] + "\N{HORIZONTAL ELLIPSIS}"
