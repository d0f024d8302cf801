"""Derive `extractors/papers/ror_words.txt` from the ROR registry copy in ../shared/orgs/.

    uv run python scripts/derive_paper_ror_words.py [/work/shared/orgs/ror-orgs.jsonl.gz]

Words (folded as `ingest.names.fold` folds them) printed in at least MIN_NAMES active
organisation names (name, labels, aliases) of the registry, stop words left out: a cheap
organisation-word signal for the arxiv_pdf line model. ROR data is CC0 1.0.
"""

from __future__ import annotations

import gzip
import json
import sys
from collections import Counter
from pathlib import Path

from ingest.names import fold

ROOT = Path(__file__).resolve().parent.parent
SOURCE = Path("/work/shared/orgs/ror-orgs.jsonl.gz")
OUT = ROOT / "extractors" / "papers" / "ror_words.txt"
MIN_NAMES = 40
STOP = {
    "the", "and", "for", "of", "de", "la", "le", "du", "des", "der", "und", "di", "da", "del",
    "von", "van", "en", "et", "in", "at", "on", "y", "e", "i", "a", "an", "to", "zu", "im",
}  # fmt: skip


def main(argv: list[str]) -> int:
    source = Path(argv[1]) if len(argv) > 1 else SOURCE
    counts: Counter[str] = Counter()
    release = set()
    with gzip.open(source, "rt", encoding="utf-8") as fh:
        for line in fh:
            org = json.loads(line)
            if org.get("status") != "active":
                continue
            release.add(org.get("release", ""))
            words: set[str] = set()
            for name in [org["name"], *org.get("labels", []), *org.get("aliases", [])]:
                words |= {w for w in fold(name).split() if len(w) >= 3 and not w.isdigit()}
            counts.update(words - STOP)
    kept = sorted(w for w, n in counts.items() if n >= MIN_NAMES)
    header = (
        f"# Organisation words: folded words in >= {MIN_NAMES} active ROR organisation names\n"
        f"# (name, labels, aliases) of {source.name} (ror-community/ror-records @ d93fc667,\n"
        "# 2026-06-23; CC0 1.0). Written by scripts/derive_paper_ror_words.py; do not edit\n"
        "# by hand.\n"
    )
    OUT.write_text(header + "\n".join(kept) + "\n", encoding="utf-8")
    print(f"{len(kept)} words -> {OUT}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv))
