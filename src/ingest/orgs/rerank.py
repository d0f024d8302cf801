"""Pure: the second stage, which picks one organisation among the scorer's best few.

The first stage (features.py, a logistic scorer) ranks every candidate on its own; it cannot see
that one candidate is another's parent, or that the training labels name Institut Curie and not
Université PSL when both are printed. This stage looks at the TOP_K organisations together:

s1, s1_gap, s1_rank  the first stage's logit, its gap to the best, its rank
orgs                 how many organisations are left in the race
ancestor_of          this organisation is a parent (or grandparent...) of another in the race
descendant_of        ... is a unit of another in the race
units_in_race        how many of the others are its units
depth                how many ancestors it has in the registry
doors, segments      by how many doors (exact, acronym, overlap) / segments it came in
whole_later          organisations outside its family printed as a whole segment after its own
                     segment ("Institute X, University Y": which one the label names is a
                     convention of position)
whole_earlier        ... before its segment
seg_rank             runners outside its family matched in a later segment
mem_seen             log(1 + labelled training strings holding the string's best-known segment)
mem_hits             log(1 + the most of them one segment was labelled this organisation by)
mem_share            the highest share of a segment's strings labelled it (memory.py: the
                     labelled strings as evidence, without the string itself in training)
prior_gold           log(1 + strings of the training labels naming it)
prior_share          (labelled + 0.5) / (times it was in the race + 2): how often it wins
                     when it runs (0.25 for an organisation never seen in training)

Every first-stage feature (features.NAMES) comes along. A gradient-boosted forest (fitted by
`ingest orgs train`, stored as plain arrays in model.json) gives each the chance of being the
organisation the string names; its evaluation here is a few comparisons per tree.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from ingest.orgs.features import NAMES
from ingest.orgs.registry import Registry

TOP_K = 8
REL_NAMES = (
    "s1",
    "s1_gap",
    "s1_rank",
    "orgs",
    "ancestor_of",
    "descendant_of",
    "units_in_race",
    "depth",
    "doors",
    "segments",
    "whole_later",
    "whole_earlier",
    "seg_rank",
    "mem_seen",
    "mem_hits",
    "mem_share",
    "prior_gold",
    "prior_share",
)
RERANK_NAMES = (*NAMES, *REL_NAMES)
MAX_DEPTH = 4  # ancestors followed this far up


@dataclass(frozen=True)
class Runner:
    """One organisation in the race: its index, first-stage logit and best candidate's features,
    and by how many doors and segments it came in."""

    org: int
    logit: float
    x: tuple[float, ...]
    doors: int
    segments: int


def ancestors(org: int, registry: Registry) -> frozenset[int]:
    out: set[int] = set()
    frontier = [org]
    for _ in range(MAX_DEPTH):
        step = []
        for o in frontier:
            for p in registry.columns["parents"][o].split():
                j = registry.by_id.get(p)
                if j is not None and j not in out and j != org:
                    out.add(j)
                    step.append(j)
        frontier = step
    return frozenset(out)


def race_features(
    race: list[Runner],
    registry: Registry,
    prior: dict[str, tuple[int, int]],
    evidence: tuple[float, dict[str, tuple[int, float]]] = (0.0, {}),
) -> list[list[float]]:
    """Second-stage features of each runner (in race order, best first-stage logit first);
    `evidence` is the memory's on the string (memory.Memory.evidence). The prior's two come
    last (train.py replaces them for a string's own rows)."""
    if not race:
        return []
    seen, support = evidence
    best = race[0].logit
    up = {r.org: ancestors(r.org, registry) for r in race}
    ids = registry.columns["id"]
    last = NAMES.index("last_segment")
    whole_at = [
        r.x[last] if r.x[NAMES.index("exact_segment")] or r.x[NAMES.index("segment_same")] else -1.0
        for r in race
    ]
    rows = []
    for k, r in enumerate(race):
        apart = [
            j
            for j, o in enumerate(race)
            if o.org != r.org and o.org not in up[r.org] and r.org not in up[o.org]
        ]
        later = sum(whole_at[j] > r.x[last] for j in apart if whole_at[j] >= 0)
        earlier = sum(0 <= whole_at[j] < r.x[last] for j in apart)
        seg_rank = sum(race[j].x[last] > r.x[last] for j in apart)
        others = [o.org for o in race if o.org != r.org]
        units = sum(r.org in up[o] for o in others)
        gold, runs = prior.get(ids[r.org], (0, 0))
        hits, share = support.get(ids[r.org], (0, 0.0))
        rows.append(
            [
                *r.x,
                r.logit,
                r.logit - best,
                float(k),
                float(len(race)),
                float(units > 0),
                float(any(o in up[r.org] for o in others)),
                float(units),
                float(len(up[r.org])),
                float(r.doors),
                float(r.segments),
                float(later),
                float(earlier),
                float(seg_rank),
                seen,
                math.log1p(hits),
                share,
                math.log1p(gold),
                (gold + 0.5) / (runs + 2.0),
            ]
        )
    return rows


@dataclass(frozen=True)
class Forest:
    """Gradient-boosted regression trees as parallel arrays; `logit(x)` is the base plus every
    tree's leaf (learning rate folded into the leaves). A split sends x[feature] <= threshold
    left; a leaf has left == -1."""

    base: float
    trees: tuple[tuple[list[int], list[float], list[int], list[int], list[float]], ...]

    def logit(self, x: list[float]) -> float:
        z = self.base
        for feature, threshold, left, right, value in self.trees:
            node = 0
            while left[node] != -1:
                node = left[node] if x[feature[node]] <= threshold[node] else right[node]
            z += value[node]
        return z

    def to_json(self) -> dict[str, Any]:
        return {
            "base": self.base,
            "trees": [
                {"feature": f, "threshold": t, "left": lf, "right": rt, "value": v}
                for f, t, lf, rt, v in self.trees
            ],
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Forest:
        return cls(
            float(data["base"]),
            tuple(
                (
                    [int(i) for i in t["feature"]],
                    [float(v) for v in t["threshold"]],
                    [int(i) for i in t["left"]],
                    [int(i) for i in t["right"]],
                    [float(v) for v in t["value"]],
                )
                for t in data["trees"]
            ),
        )
