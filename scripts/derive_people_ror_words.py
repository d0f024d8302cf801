"""Derive `extractors/people/data/ror_words.txt` from the ROR registry extract.

    uv run python scripts/derive_people_ror_words.py /work/shared/orgs/ror-orgs.jsonl.gz

The shipped list is every ASCII word of three or more letters that appears in the names of at
least MIN_ORGS organisations of the registry: words organisations are named with ("university",
"labs", "foundation", "council"), a signal (a feature of the learned decision in
`extractors.people.features`), not a verdict. A word list, not the registry: 51,370 names would
be a 1.5 MB file read at every start for one feature.
"""

from __future__ import annotations

import collections
import gzip
import json
import re
import sys
from pathlib import Path

MIN_ORGS = 40
OUT = Path(__file__).resolve().parents[1] / "extractors" / "people" / "data" / "ror_words.txt"
SOURCE = (
    "ROR (Research Organization Registry) records, CC0 1.0, from ror-community/ror-records at "
    "commit d93fc667872f8ef9386896bd6c68bd3c6103603e (2026-06-23), as extracted in "
    "/work/shared/orgs/ror-orgs.jsonl.gz (51,370 organisations; see its README.md)"
)


def main(path: str) -> None:
    counts: collections.Counter[str] = collections.Counter()
    with gzip.open(path, "rt", encoding="utf-8") as handle:
        for line in handle:
            name = json.loads(line)["name"].lower()
            counts.update(set(re.findall(r"(?<![^\W\d_])[a-z]{3,}(?![^\W\d_])", name)))
    words = sorted(w for w, n in counts.items() if n >= MIN_ORGS)
    header = [
        "# Words of organisation names: each is in the names of at least "
        f"{MIN_ORGS} organisations of the ROR registry.",
        f"# Source: {SOURCE}.",
        "# Derived by scripts/derive_people_ror_words.py; do not edit by hand.",
    ]
    OUT.write_text("\n".join(header + words) + "\n", encoding="utf-8")
    print(f"{len(words)} words -> {OUT}")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "/work/shared/orgs/ror-orgs.jsonl.gz")
