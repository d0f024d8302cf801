"""The eighth real probe (round 10): maintainer, team and board pages of 15 projects outside every
corpus, fixture and earlier probe (databases, ML / data libraries, a language foundation's board,
an association's board), read as a user would give them (their public URLs), scored against hand
gold. It stays BLIND (its folder holds a BLIND file, so no fit and no cross-validation uses it).

Real files: `fixtures/governance/real-probe-8/` (provenance in its PROVENANCE.md, gold in `gold/`,
URLs in `urls.json`, figures and misses in its README.md). Blind figures, measured once on main
(5561ed6) before any change: people P 1.000 R 0.886 (203/229), section P 1.000 R 0.897 (227/253),
affiliation P 1.000 R 0.947 (71/75); three pages give nothing (a board in a YAML front-matter block
scalar, HTML team cards in a reST raw block, a PHP array). The floors are the blind figures minus
0.02, rounded down, so a regression shows.
"""

from __future__ import annotations

import json
from pathlib import Path

from .helpers import assert_probe_above, assert_probe_layout

ROOT = Path(__file__).resolve().parent.parent
PROBE = ROOT / "fixtures" / "governance" / "real-probe-8"
URLS = json.loads((PROBE / "urls.json").read_text(encoding="utf-8"))
FLOORS = {
    "people_precision": 0.98,
    "people_recall": 0.86,
    "section_precision": 0.98,
    "section_recall": 0.87,
    "affiliation_precision": 0.98,
    "affiliation_recall": 0.92,
}


def test_the_eighth_probe_is_blind_and_scores_above_its_floors_with_ingest_evaluate() -> None:
    assert (PROBE / "BLIND").is_file()
    assert_probe_layout(PROBE, URLS, 15)
    assert_probe_above(PROBE, FLOORS)
