"""What a source's last full check settled to, so that an unchanged source costs a conditional
request and nothing else.

A full check (extract or reuse stored claims, resolve, diff, enqueue) of a healthy snapshot ends
by storing `settled` on the source's row:

    {"key": sha256(snapshot, extractor NAME/VERSION, profiles digest, layout ratio),
     "changes": {change id: status after enqueue, ...},   # what the diff proposed
     "claims": n, "people": n, "unknown": [...], "final_url": "...", "extractor": "name/1"}

The next time the source answers "unchanged" (304, or the same bytes), `settled_outcome` returns
the same outcome without extracting, diffing or enqueueing, if and only if

- the key is the same: same snapshot, same extractor version, same profiles (ignoring the
  `accessed` dates, which a healthy live fetch itself refreshes) and the same layout guard; and
- each change the diff proposed last time still has the status it was left with (an editor's
  decision, or another source superseding it, makes the source go the full way again).

The diff is a pure function of the snapshot's claims, the profiles and the source; `enqueue` of
the same proposals over the same statuses changes nothing but `updated` timestamps. So the fast
path's outcome is the full path's, without the work.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

from ingest.extraction import ExtractorSet
from ingest.models import Profile
from ingest.pipeline.outcome import SourceOutcome
from ingest.storage import SourceRow

_DIGESTS: dict[int, tuple[dict[str, Profile], str]] = {}  # id(profiles) -> (profiles, digest)


def _without_accessed(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _without_accessed(v) for k, v in value.items() if k != "accessed"}
    if isinstance(value, list):
        return [_without_accessed(v) for v in value]
    return value


def profiles_digest(profiles: dict[str, Profile]) -> str:
    """A hash of every profile but its references' `accessed` dates; computed once per dict."""
    known = _DIGESTS.get(id(profiles))
    if known is not None and known[0] is profiles:
        return known[1]
    body = [_without_accessed(profiles[pid].model_dump(mode="json")) for pid in sorted(profiles)]
    digest = hashlib.sha256(json.dumps(body, sort_keys=True).encode()).hexdigest()
    if len(_DIGESTS) > 8:
        _DIGESTS.clear()
    _DIGESTS[id(profiles)] = (profiles, digest)
    return digest


def settle_key(snapshot_sha256: str, tag: str, profiles: dict[str, Profile], ratio: float) -> str:
    parts = [snapshot_sha256, tag, profiles_digest(profiles), repr(ratio)]
    return hashlib.sha256("\n".join(parts).encode()).hexdigest()


def settled_record(
    key: str, outcome: SourceOutcome, statuses: dict[str, str], final_url: str
) -> dict[str, Any]:
    """What to store after a full check of a healthy snapshot."""
    return {
        "key": key,
        "changes": statuses,
        "claims": outcome.claims,
        "people": outcome.people,
        "unknown": outcome.unknown_people,
        "final_url": final_url,
        "extractor": outcome.extractor,
    }


def settled_changes(state: SourceRow | None) -> dict[str, str]:
    """The change ids (and statuses) a source's settled record names; {} without one."""
    return dict(((state.settled if state else None) or {}).get("changes") or {})


def current_tag(state: SourceRow, extractors: ExtractorSet) -> str | None:
    """The current NAME/VERSION of the extractor (of `extractors`) that settled this source, if
    still known."""
    settled = state.settled or {}
    name = str(settled.get("extractor") or "").split("/", 1)[0]
    if name not in extractors.REGISTRY:
        return None
    return extractors.tag(extractors.REGISTRY[name])


def settled_outcome(
    state: SourceRow | None,
    snapshot_sha256: str,
    profiles: dict[str, Profile],
    ratio: float,
    statuses: dict[str, str],
    *,
    extractors: ExtractorSet,
) -> SourceOutcome | None:
    """The outcome of an unchanged source from its settled record, or None when it must be
    checked the full way (see the module's docstring). `statuses`: current statuses of (at
    least) the changes the record names; `extractors`: the set whose versions are current."""
    if not state or not state.settled or state.last_sha256 != snapshot_sha256:
        return None
    settled = state.settled
    tag = current_tag(state, extractors)
    if tag is None or tag != settled.get("extractor"):
        return None
    if settled.get("key") != settle_key(snapshot_sha256, tag, profiles, ratio):
        return None
    if any(statuses.get(cid) != status for cid, status in settled["changes"].items()):
        return None
    return SourceOutcome(
        url=state.url,
        status="unchanged",
        snapshot=snapshot_sha256,
        final_url=settled.get("final_url"),
        extractor=tag,
        claims=int(settled.get("claims") or 0),
        people=int(settled.get("people") or 0),
        unknown_people=list(settled.get("unknown") or []),
    )
