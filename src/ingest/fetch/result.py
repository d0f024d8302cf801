"""What one fetch found (`ingest.fetch.client.fetch`), apart from the client so that the layers
that only read a result (the pipeline, the references, a run given a local file) do not import
httpx and the rest of the fetch layer (about 0.2 s)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from ingest.models import Snapshot


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
