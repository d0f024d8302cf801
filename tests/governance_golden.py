"""Golden files of the pytorch_governance extractor: which fixture, under which URL.

Regenerate after an intended change of extraction (and commit the result with that change):

    .venv/bin/python -m tests.governance_golden

The tests compare against the committed `fixtures/governance/<file>.claims.jsonl`; they never
regenerate them.
"""

from __future__ import annotations

from pathlib import Path

from extractors.governance import pytorch as pytorch_governance
from tests.goldens import GoldenSet

FIXTURE_DIR = Path(__file__).resolve().parent.parent / "fixtures" / "governance"

# fixture file -> the fixed evidence URL its golden file is made with (the original public URL,
# from fixtures/governance/PROVENANCE.md)
GOLDEN_URLS: dict[str, str] = {
    "persons_of_interest.04153e20.rst": "https://github.com/pytorch/pytorch/blob/"
    "04153e2079fc82eb9e6c07ba7dfeccb7e31365fe/docs/source/community/persons_of_interest.rst",
    "docs-2.2.persons_of_interest.e3880b57.article-excerpt.html": "https://docs.pytorch.org/docs/"
    "2.2/community/persons_of_interest.html",
    "persons_of_interest.06b24a9d.rst": "https://github.com/pytorch/pytorch/blob/"
    "06b24a9d8bc29d5600435f56c66abc8734a8f574/docs/source/community/persons_of_interest.rst",
    "persons_of_interest.0c2702b7.md": "https://github.com/pytorch/pytorch/blob/"
    "0c2702b7ffd35fe011289e679fae0ffb238af224/docs/source/community/persons_of_interest.md",
    "docs-stable.persons_of_interest.e1516b10.md": "https://docs.pytorch.org/docs/stable/"
    "community/persons_of_interest.md",
    "docs-main.persons_of_interest.4bc782c2.md": "https://docs.pytorch.org/docs/main/"
    "community/persons_of_interest.md",
    "persons_of_interest.7f149bc3.md": "https://github.com/pytorch/pytorch/blob/"
    "7f149bc3c829cf944ed157f64c7eec52f0e9af9d/docs/source/community/persons_of_interest.md",
    "docs-2.13.persons_of_interest.97dd649d.md": "https://docs.pytorch.org/docs/2.13/"
    "community/persons_of_interest.md",
    "constructed.docs-2.13.persons_of_interest.pydata.html": "https://docs.pytorch.org/docs/2.13/"
    "community/persons_of_interest.html",
    "constructed.docs-2.14.persons_of_interest.pydata.html": "https://docs.pytorch.org/docs/2.14/"
    "community/persons_of_interest.html",
}


GOLDEN = GoldenSet(FIXTURE_DIR, GOLDEN_URLS, pytorch_governance.extract)
snapshot, golden_path, render, regenerate = (
    GOLDEN.snapshot,
    GOLDEN.path,
    GOLDEN.render,
    GOLDEN.regenerate,
)

if __name__ == "__main__":
    GOLDEN.main()
