"""Pure: the labelled training strings as evidence, a memory of their segments (issue 27).

Affiliation strings repeat their parts: "Bijvoet Center for Biomolecular Research" comes back in
many strings, and the labels say which organisation such a string names (here Utrecht
University, printed after it). The memory maps every segment of the labelled fitting strings
(folded, footnote numbers trimmed: `keys`) to how many distinct strings held it and how many of
those were labelled each organisation. For a new string, a runner's support is what its segments
say of it (rerank.py's `mem_hits`, `mem_share`; `mem_seen` says whether the memory had a say).

Honest by construction: `ingest orgs train` builds a fold's memory from that fold's fitting
strings only, and a fitting string's own rows see the memory without it (`own`: every string
folding to the same text is one entry, as the held-out split keeps duplicates together); the
shipped model's memory is built from all of the fitting side (model.json `memory`).
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass, field

from ingest.orgs.text import fold, segments

# (distinct strings holding the segment, {ror id: strings labelled it})
Entry = tuple[int, dict[str, int]]
NONE: tuple[float, float, float] = (0.0, 0.0, 0.0)


def keys(text: str) -> tuple[str, ...]:
    """The string's segments as memory keys: folded, numbers at their ends trimmed, distinct,
    in order."""
    out: list[str] = []
    for seg in segments(text):
        words = seg.split()
        while words and words[-1].isdigit():
            words = words[:-1]
        while words and words[0].isdigit():
            words = words[1:]
        key = " ".join(words)
        if key and key not in out:
            out.append(key)
    return tuple(out)


@dataclass
class Memory:
    entries: dict[str, Entry] = field(default_factory=dict)

    @classmethod
    def build(cls, labelled: Iterable[tuple[str, frozenset[str]]]) -> Memory:
        """From (text, gold ROR ids) of labelled strings: each distinct folded text once, with
        the union of its labels (an empty gold names no organisation)."""
        by_text: dict[str, tuple[str, set[str]]] = {}
        for text, gold in labelled:
            by_text.setdefault(fold(text), (text, set()))[1].update(gold)
        total: dict[str, int] = {}
        named: dict[str, dict[str, int]] = {}
        for folded in sorted(by_text):
            raw, labels = by_text[folded]
            for k in keys(raw):
                total[k] = total.get(k, 0) + 1
                per = named.setdefault(k, {})
                for g in sorted(labels):
                    per[g] = per.get(g, 0) + 1
        return cls({k: (n, named[k]) for k, n in total.items()})

    def evidence(
        self, text: str, own: frozenset[str] | None = None
    ) -> tuple[float, dict[str, tuple[int, float]]]:
        """(log(1 + strings holding the string's best-known segment), per ROR id: the most
        strings one of its segments was labelled it by, and the highest share of a segment's
        strings labelled it). `own` (a fitting string's own labels) takes the string itself
        out, as if it were new."""
        seen = 0
        per: dict[str, tuple[int, float]] = {}
        for k in keys(text):
            entry = self.entries.get(k)
            if entry is None:
                continue
            n, labels = entry
            if own is not None:
                n -= 1
            if n <= 0:
                continue
            seen = max(seen, n)
            for g, c in labels.items():
                c -= own is not None and g in own
                if c <= 0:
                    continue
                hits, share = per.get(g, (0, 0.0))
                per[g] = (max(hits, c), max(share, c / n))
        return math.log1p(seen), per

    def to_json(self) -> dict[str, list[object]]:
        return {k: [n, dict(sorted(v.items()))] for k, (n, v) in sorted(self.entries.items())}

    @classmethod
    def from_json(cls, data: dict[str, list[object]]) -> Memory:
        out: dict[str, Entry] = {}
        for k, (n, v) in data.items():
            assert isinstance(n, int) and isinstance(v, dict)
            out[k] = (n, {str(g): int(c) for g, c in v.items()})
        return cls(out)
