"""URLs as they are stored: percent-encoded, so a space or an escape byte never reaches the
database, a report or a terminal raw.

    encode_url(url) -> str     idempotent; an http(s) URL that is already well formed is unchanged

Leading and trailing whitespace and control characters are dropped; inside, every character a
URL may not hold (space, control bytes, `"<>\\^`{|}`, non-ASCII) is percent-encoded as UTF-8 in
the path, query and fragment, a `%` that starts no escape becomes `%25`, and a non-ASCII host is
written in IDNA (punycode). Other schemes are left as they are (they are refused elsewhere).
"""

from __future__ import annotations

import re
from contextlib import suppress
from urllib.parse import quote, urlsplit, urlunsplit

WEB_SCHEMES = frozenset({"http", "https"})
# RFC 3986 reserved and unreserved characters, and '%' (escapes already there are kept)
URL_SAFE = "!$&'()*+,-./:;=?@[]_~%"
_LONE_PERCENT = re.compile(r"%(?![0-9A-Fa-f]{2})")
_EDGES = "".join(chr(c) for c in range(0x21)) + "\x7f"


def encode_url(url: str) -> str:
    """`url` percent-encoded (see the module docstring); not an http(s) URL: as given."""
    text = url.strip(_EDGES)
    try:
        parts = urlsplit(text)
    except ValueError:
        return text
    if parts.scheme.lower() not in WEB_SCHEMES:
        return url
    netloc = parts.netloc
    host = parts.hostname or ""
    if host and not host.isascii():
        with suppress(UnicodeError):  # else left for the fetch to refuse with its reason
            ascii_host = host.encode("idna").decode("ascii")
            netloc = re.sub(re.escape(host), ascii_host, netloc, count=1, flags=re.IGNORECASE)
    netloc = quote(netloc, safe=URL_SAFE)

    def part(value: str) -> str:
        return quote(_LONE_PERCENT.sub("%25", value), safe=URL_SAFE + "#")

    return urlunsplit(
        (parts.scheme, netloc, part(parts.path), part(parts.query), part(parts.fragment))
    )
