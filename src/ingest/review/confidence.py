"""Low-confidence flags: a claim whose extractor was unsure (`qualifiers.confidence`, the
governance reader's calibrated probability that the candidate is a person or an organisation)
is shown as such in the queue (`ingest review list`, the change page), so an editor checks its
evidence first. The confidence is descriptive: it never makes a change of its own."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

LOW_CONFIDENCE = 0.7  # below this calibrated probability a flag is marked low-confidence


def confidence_of(claim: Mapping[str, Any] | None) -> float | None:
    """The claim's confidence (0..1), or None when its extractor gives none."""
    if not claim:
        return None
    value = (claim.get("qualifiers") or {}).get("confidence")
    return float(value) if isinstance(value, int | float) else None


def low_confidence(claim: Mapping[str, Any] | None) -> float | None:
    """The confidence when it is below `LOW_CONFIDENCE`, else None."""
    value = confidence_of(claim)
    return value if value is not None and value < LOW_CONFIDENCE else None
