"""The sixth real probe (round 8): maintainer and team pages of 9 projects outside every corpus,
fixture and earlier probe, read as a user would give them (their public URLs), scored against hand
gold. A BLIND set: measured once on main (c2033f5) and nothing changed for it.

Real files: `fixtures/governance/real-probe-6/` (provenance in its PROVENANCE.md, gold in `gold/`,
URLs in `urls.json`, figures and misses in its README.md). Blind figures: people P 1.000 R 0.708,
section P 1.000 R 0.713, affiliation P 1.000 R 0.851 (the JavaScript and CUE data files give
nothing). After the fix (round 8, helper 50: JavaScript data modules and CUE data files read as
data trees) the set scores people 1.000 / 1.000, section 1.000 / 1.000, affiliation 1.000 / 0.851;
the floors are these after-fix figures minus 0.02, so a regression shows.
"""

from __future__ import annotations

import json
from pathlib import Path

from .helpers import assert_probe_above, assert_probe_layout

ROOT = Path(__file__).resolve().parent.parent
PROBE = ROOT / "fixtures" / "governance" / "real-probe-6"
URLS = json.loads((PROBE / "urls.json").read_text(encoding="utf-8"))
FLOORS = {
    "people_precision": 0.98,
    "people_recall": 0.98,
    "section_precision": 0.98,
    "section_recall": 0.98,
    "affiliation_precision": 0.98,
    "affiliation_recall": 0.83,
}


def test_the_sixth_probe_scores_above_its_blind_floors_with_ingest_evaluate() -> None:
    assert_probe_layout(PROBE, URLS, 9)
    assert_probe_above(PROBE, FLOORS)
