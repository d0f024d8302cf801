"""Derive `extractors/people/data/ror_companies.txt` from the ROR registry extract.

    uv run python scripts/derive_people_ror_names.py /work/shared/orgs/ror-orgs.jsonl.gz

The shipped list is the names, aliases and acronyms (three characters or more) of every
organisation of type "company" in the registry, lower-cased, a trailing parenthesised
qualifier removed ("Google (United States)" -> "google"): the strong "this is an organisation"
signal of the governance reader's affiliation decision (`org:ror_name` in
`extractors.people.features`). Companies only: they are what role lists print beside people,
and about 16,000 names (some 290 kB, read once when first needed) against 1.5 MB for every type;
universities and institutes are known by their words (`ror_words.txt`).
"""

from __future__ import annotations

import gzip
import json
import re
import sys
from pathlib import Path

OUT = Path(__file__).resolve().parents[1] / "extractors" / "people" / "data" / "ror_companies.txt"
SOURCE = (  # as scripts/derive_people_ror_words.py says it
    "ROR (Research Organization Registry) records, CC0 1.0, from ror-community/ror-records at "
    "commit d93fc667872f8ef9386896bd6c68bd3c6103603e (2026-06-23), as extracted in "
    "/work/shared/orgs/ror-orgs.jsonl.gz (51,370 organisations; see its README.md)"
)
QUALIFIER = re.compile(r"\s*\([^()]*\)\s*$")


def fold(name: str) -> str:
    return " ".join(QUALIFIER.sub("", name).lower().split())


def main(path: str) -> None:
    names: set[str] = set()
    with gzip.open(path, "rt", encoding="utf-8") as handle:
        for line in handle:
            record = json.loads(line)
            if "company" not in record["types"]:
                continue
            acronyms = [a for a in record["acronyms"] if len(a) >= 3]
            for name in [record["name"], *record["aliases"], *acronyms]:
                folded = fold(name)
                if folded and "\n" not in folded:
                    names.add(folded)
    header = [
        "# Names, aliases and acronyms (3+ characters) of the organisations of type company in "
        "the ROR registry, lower-cased, a trailing parenthesised qualifier removed.",
        f"# Source: {SOURCE}.",
        "# Derived by scripts/derive_people_ror_names.py; do not edit by hand.",
    ]
    OUT.write_text("\n".join(header + sorted(names)) + "\n", encoding="utf-8")
    print(f"{len(names)} names -> {OUT}")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "/work/shared/orgs/ror-orgs.jsonl.gz")
