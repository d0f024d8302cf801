"""Golden files of the generic governance extractor: which fixture, under which URL.

Regenerate after an intended change of extraction (and commit the result with that change):

    .venv/bin/python -m tests.other_governance_golden

The tests compare against the committed `fixtures/other-governance/**/<file>.claims.jsonl`; they
never regenerate them.
"""

from __future__ import annotations

from pathlib import Path

from extractors.governance import generic as governance
from tests.goldens import GoldenSet

FIXTURE_DIR = Path(__file__).resolve().parent.parent / "fixtures" / "other-governance"
PEP13_URL = "https://peps.python.org/pep-0013/"
PEP13_VERSIONS = [  # in date order (fixtures/other-governance/PROVENANCE.md)
    "python-pep-0013.2019-02-04.9b05b181.rst",
    "python-pep-0013.2020-02-28.6b5dd00b.rst",
    "python-pep-0013.2021-05-05.991815f9.rst",
    "python-pep-0013.2022-01-25.8723bc49.rst",
    "python-pep-0013.2023-01-23.b4a610bc.rst",
    "python-pep-0013.2023-12-12.a05ec2e2.rst",
    "python-pep-0013.2024-12-10.0fd890c3.rst",
    "python-pep-0013.2026-03-21.a087d220.rst",
]
# constructed pages: the URL each stands for (invented projects, invented URLs)
CONSTRUCTED_URLS: dict[str, str] = {
    "constructed/constructed-maintainers-table.md": "https://github.com/lumen-viz/lumen/blob/"
    "main/MAINTAINERS.md",
    "constructed/constructed-sphinx-team.html": "https://orbitflow.readthedocs.io/en/stable/"
    "team.html",
    "constructed/constructed-handles.md": "https://github.com/netsieve/netsieve/blob/main/"
    "MAINTAINERS.md",
    "constructed/constructed-tsc.md": "https://quarkflow.dev/governance/tsc/",
    "constructed/constructed-html-table.html": "https://helix-runtime.example.org/governance/",
    "constructed/constructed-committers.rst": "https://stratumdb.example.org/docs/committers.rst",
    "constructed/constructed-affiliation.v1.md": "https://github.com/pebblestore/pebblestore/"
    "blob/main/MAINTAINERS.md",
    "constructed/constructed-affiliation.v2.md": "https://github.com/pebblestore/pebblestore/"
    "blob/main/MAINTAINERS.md",
}
GOLDEN_URLS: dict[str, str] = {
    **{name: PEP13_URL for name in PEP13_VERSIONS},
    **CONSTRUCTED_URLS,
}


GOLDEN = GoldenSet(FIXTURE_DIR, GOLDEN_URLS, governance.extract)
snapshot, golden_path, render, regenerate = (
    GOLDEN.snapshot,
    GOLDEN.path,
    GOLDEN.render,
    GOLDEN.regenerate,
)

if __name__ == "__main__":
    GOLDEN.main()
