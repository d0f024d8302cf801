"""A profile file's text (ingest.profiles.io.render) is exactly json.dumps(indent=2) of the
profile, though its claims and references are rendered one by one and kept (issue 30: a bulk
accept renders a profile after each of its decisions, each time with one claim more)."""

from __future__ import annotations

import json
from datetime import date

from ingest.models import Change, Profile
from ingest.profiles.io import load_profile, render
from ingest.review.apply import apply_fact
from ingest.settings import BUNDLED_PROFILES


def _plain(profile: Profile) -> str:
    return json.dumps(profile.to_json(), ensure_ascii=False, indent=2) + "\n"


def test_every_bundled_profile_renders_as_json_dumps_does_and_as_its_file_reads() -> None:
    paths = sorted(BUNDLED_PROFILES.glob("*.json"))
    assert paths
    for path in paths:
        profile = load_profile(path)
        assert render(profile) == _plain(profile)
        assert render(profile) == _plain(profile)  # again, from what was kept
        assert render(load_profile(path)) == path.read_text(encoding="utf-8")


def test_a_profile_changed_claim_by_claim_renders_as_json_dumps_after_each_change() -> None:
    profile = load_profile(sorted(BUNDLED_PROFILES.glob("*.json"))[0])
    texts = []
    for n, (obj, qualifiers) in enumerate(
        [
            ("Zürich Ünïversity 東京", {"level": "core", "confidence": 0.875, "works": ["a", "b"]}),
            ("Meta", {"role": '\u2028line\nbreak "quoted" \\ tab\t', "since": 2019}),
            ("NVIDIA", {}),
            ("Zürich Ünïversity 東京", {"level": "core", "confidence": 0.875, "works": ["a", "b"]}),
        ]
    ):
        change = Change(
            id=f"c{n}",
            profile=profile.id,
            kind="added",
            claim={"predicate": "affiliation", "object": obj, "qualifiers": qualifiers},
            source_url=f"https://example.org/{n}",
        )
        info = {"url": change.source_url, "title": f"Page {n}", "accessed": "2026-11-30"}
        apply_fact(profile, [change], [info], date(2026, 12, 1), in_place=True)
        texts.append(render(profile))
        assert texts[-1] == _plain(profile)
    assert len(set(texts)) == len(texts)  # each change shows in the text
    assert json.loads(texts[-1])["claims"][-1]["qualifiers"]["confidence"] == 0.875
