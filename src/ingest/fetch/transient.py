"""For the caller's single retry layer: whether a failure may pass, and how long a server asked
to be left alone.

    is_transient(exc)                  timeouts, connection errors, HTTP 429 and 5xx
    retry_after_seconds(headers)       a Retry-After header (delta-seconds or HTTP-date), in seconds
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import UTC, datetime
from email.utils import parsedate_to_datetime

import httpx

from ingest.errors import FetchError, HTTPStatusError


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
