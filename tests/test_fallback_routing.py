"""Routing's last word is the fallback reader: a page no reader and no URL claims is read as a
role page when the fallback's strict decision finds people in it (real-probe-10's Godot
AUTHORS.md: `Name (login)` lines under role headings at a URL no pattern knows), and one
structure's `Name (x)` entries follow one convention (logins, not organisations)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import extractors
from ingest.documents import snapshot_from_file
from ingest.errors import NoExtractorError
from ingest.models import Snapshot

SET = Path(__file__).resolve().parent.parent / "fixtures/governance/real-probe-10"
URLS = json.loads((SET / "urls.json").read_text(encoding="utf-8"))
GODOT = "godot-AUTHORS.0137cc53.md"


def _snapshot(name: str) -> Snapshot:
    return snapshot_from_file(URLS[name], SET / name, 50 * 1024 * 1024)


def test_a_page_only_the_fallback_reads_is_routed_to_governance() -> None:
    assert extractors.choose(URLS[GODOT], _snapshot(GODOT)).NAME == "governance"


def test_logins_in_parentheses_are_logins_whatever_their_case() -> None:
    claims = extractors.get("governance").extract(_snapshot(GODOT))
    people = {c.subject.name: c.subject.github for c in claims if c.predicate == "maintainer"}
    assert people["Juan Linietsky"] == "reduz"
    assert people["Paul Batty"] == "Paulb23"  # capitalised: read as an organisation before
    assert not [c for c in claims if c.predicate == "affiliation"]


def test_a_donors_page_is_still_claimed_by_no_one() -> None:
    name = "spiffe-APPRECIATION_BOARD.b28660a1.md"
    with pytest.raises(NoExtractorError):
        extractors.choose(URLS[name], _snapshot(name))
