"""An unchanged page is read by the extractor that read the same bytes before: choosing by content
parses the page, which a nightly's unchanged sources need not pay again."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import extractors
from ingest.models import Snapshot, Source
from ingest.pipeline.process import process_snapshot
from ingest.profiles.io import load_profiles
from ingest.settings import Settings
from ingest.storage import Store

# CONSTRUCTED page (invented people): a README URL, so only its content makes it a role page
PAGE = (
    b"# Example Council\n\n## Members\n\n- Jane Roe (@jroe)\n- Max Muster (@mmuster)\n- Ada Byron\n"
)
URL = "https://github.com/example/council/blob/main/README.md"


def test_an_unchanged_page_is_not_chosen_for_again(store: Store, workspace: Settings) -> None:
    asked: list[str | None] = []

    def choose(url: str, snapshot: Any = None, name: str | None = None) -> Any:
        asked.append(name)
        return extractors.choose(url, snapshot, name)

    counting = SimpleNamespace(**{k: getattr(extractors, k) for k in dir(extractors)})
    counting.choose = choose
    profiles = load_profiles(workspace.profiles_dir)
    snapshot = Snapshot(url=URL, body=PAGE)
    first = process_snapshot(store, workspace, Source(url=URL), snapshot, profiles,
                             extractors=counting)  # fmt: skip
    again = process_snapshot(store, workspace, Source(url=URL), Snapshot(url=URL, body=PAGE),
                             profiles, status="unchanged", extractors=counting)  # fmt: skip
    assert first.extractor == again.extractor == "governance/16"
    assert first.claims == again.claims == 3
    assert asked == [None, "governance"]  # the second time, the stored claims' extractor
