"""The model decides: fitted weights (`data/model.json`, written by `ingest orgs train`) score
every candidate, a second stage picks one organisation among the best few, and a calibration
gives `confidence`, the chance that the answer is right; below the fitted threshold the resolver
answers "no match".

Three parts, stored as plain numbers:
- `weights` (the scorer, a logistic regression): candidate features (features.NAMES) -> logit;
  each organisation keeps its best candidate, and the TOP_K organisations go on;
- `forest` (rerank.py, gradient-boosted trees): those organisations seen together (who is whose
  unit, how often each was the label in training: `prior`) -> logit that this is the one;
- `calibration` (the abstention model): a weighted mean of two probabilities that the winner is
  right (`calibration_share` the linear one's weight): a logistic regression over [1, the
  winner's logit, its lead over the runner-up, its lead over the best organisation outside its
  own family (parents and units), whether the runner-up is
  family, and the winner's LINEAR_FEATURES], and gradient-boosted trees over those leads and the
  second-stage features of the winner and of the runner-up. Both are fitted on out-of-fold
  scores, so the string that names an organisation absent from the registry, or none, learns to
  get a low one. The trees separate right from wrong winners better (more answers at the same
  precision); a linear share would keep the confidence of what the labelled strings rarely show
  (a company printed with a unit: "Facebook AI Research") from resting on a few leaves, and is
  kept in the file so a fit can choose it (train.CAL_LINEAR_SHARE: the trees alone answer more
  at the same out-of-fold precision, and the companies still resolve).
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from ingest.errors import ConfigError
from ingest.orgs.candidates import candidates, context
from ingest.orgs.features import NAMES, describe, vector
from ingest.orgs.memory import Memory
from ingest.orgs.registry import Org, Registry
from ingest.orgs.rerank import RERANK_NAMES, TOP_K, Forest, Runner, ancestors, race_features

BUNDLED_MODEL = Path(__file__).resolve().parent / "data" / "model.json"
MODEL_FORMAT = "ingest-org-model/4"
# (org index, features, door, segment) of one candidate
Pair = tuple[int, list[float], str, int]
ABSENT = -1.0  # the runner-up's features when there is no runner-up
# the best candidate's own features the linear part of the abstention model sees
LINEAR_FEATURES = (
    "exact",
    "acronym",
    "segment_cov",
    "string_cov",
    "unit_start",
    "country_other",
    "last_segment",
)


@dataclass(frozen=True)
class OrgMatch:
    """What an affiliation string resolves to; `org` is None when it names no organisation the
    registry knows (or the resolver is not sure enough to say)."""

    input: str
    org: Org | None
    confidence: float

    def to_json(self) -> dict[str, Any]:
        o = self.org
        return {
            "input": self.input,
            "ror": o.id if o else None,
            "name": o.name if o else None,
            "country": o.country if o else None,
            "confidence": round(self.confidence, 4),
        }


def _sigmoid(z: float) -> float:
    if z < -60:
        return 0.0
    return 1.0 / (1.0 + math.exp(-z))


def _dot(w: list[float], x: list[float]) -> float:
    return sum(a * b for a, b in zip(w, x, strict=True))


@dataclass(frozen=True)
class Model:
    weights: list[float]
    forest: Forest
    prior: dict[str, tuple[int, int]]
    calibration: Abstainer
    threshold: float
    meta: dict[str, Any]
    memory: Memory

    def to_json(self) -> dict[str, Any]:
        return {
            "format": MODEL_FORMAT,
            "features": list(NAMES),
            "rerank_features": list(RERANK_NAMES),
            "weights": self.weights,
            "threshold": self.threshold,
            **self.meta,
            "prior": {k: list(v) for k, v in sorted(self.prior.items())},
            "memory": self.memory.to_json(),
            "forest": self.forest.to_json(),
            "calibration": self.calibration.linear,
            "calibration_share": self.calibration.linear_share,
            "calibration_forest": self.calibration.forest.to_json(),
        }


def load_model(path: Path = BUNDLED_MODEL) -> Model:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise ConfigError(f"organisation model '{path}' cannot be read: {exc}") from exc
    if (
        data.get("format") != MODEL_FORMAT
        or list(data.get("features", [])) != list(NAMES)
        or list(data.get("rerank_features", [])) != list(RERANK_NAMES)
    ):
        raise ConfigError(
            f"organisation model '{path}' does not fit this code: run ingest orgs train"
        )
    parts = (
        "format",
        "features",
        "rerank_features",
        "weights",
        "calibration",
        "calibration_share",
        "threshold",
    )
    meta = {
        k: v
        for k, v in data.items()
        if k not in (*parts, "prior", "memory", "forest", "calibration_forest")
    }
    prior = {k: (int(v[0]), int(v[1])) for k, v in data["prior"].items()}
    return Model(
        list(data["weights"]),
        Forest.from_json(data["forest"]),
        prior,
        Abstainer(
            list(data["calibration"]),
            Forest.from_json(data["calibration_forest"]),
            float(data.get("calibration_share", 0.5)),
        ),
        float(data["threshold"]),
        meta,
        Memory.from_json(data["memory"]),
    )


@dataclass(frozen=True)
class Scored:
    """The winner of a string with its scores (what the abstention model is fitted on)."""

    org: int | None
    logit: float
    margin: float
    apart: float = 10.0  # lead over the best organisation outside the winner's family
    features: tuple[float, ...] = ()
    kin: float = 0.0  # 1.0 when the runner-up is of the winner's family ("Red Hat (Canada)")
    row: tuple[float, ...] = ()  # the winner's second-stage features (rerank.RERANK_NAMES)
    second: tuple[float, ...] = ()  # the runner-up's, when there is one
    shape: tuple[float, ...] = ()  # the string's (string_shape): how many organisations it prints

    def calibration_input(self) -> list[float]:
        """[the winner's logit, its lead over the runner-up, over the best organisation outside
        its family, whether the runner-up is family, the winner's second-stage features, the
        runner-up's (ABSENT when there is none), the string's shape]."""
        width = len(RERANK_NAMES)
        row = list(self.row) if self.row else [ABSENT] * width
        second = list(self.second) if self.second else [ABSENT] * width
        shape = list(self.shape) if self.shape else [ABSENT] * SHAPE_WIDTH
        return [self.logit, self.margin, self.apart, self.kin, *row, *second, *shape]

    def linear_input(self) -> list[float]:
        f = dict(zip(NAMES, self.features, strict=True)) if self.features else {}
        return [
            1.0,
            self.logit,
            self.margin,
            self.apart,
            self.kin,
            *(f.get(n, 0.0) for n in LINEAR_FEATURES),
        ]


NOTHING = Scored(None, -20.0, 0.0, 0.0)
_EXACT, _WHOLE, _SAME = (NAMES.index(n) for n in ("exact", "exact_segment", "segment_same"))
SHAPE_WIDTH = 7


def string_shape(pairs: list[Pair], winner: int) -> tuple[float, ...]:
    """What the abstention model sees of the whole string: its segments, the organisations
    printed word for word and as a whole segment, whether the winner is one, how many of those
    come after and before its segment, and the organisations proposed (a string printing several
    organisations is labelled less consistently than one printing one)."""
    whole: dict[int, int] = {}
    exact: set[int] = set()
    for org, x, _door, segment in pairs:
        if x[_WHOLE] or x[_SAME]:
            whole[org] = max(whole.get(org, -1), segment)
        if x[_EXACT]:
            exact.add(org)
    at = whole.get(winner, -1)
    later = sum(seg > at for o, seg in whole.items() if o != winner)
    earlier = sum(seg < at for o, seg in whole.items() if o != winner) if at >= 0 else 0
    return (
        float(1 + max((p[3] for p in pairs), default=0)),
        float(len(exact)),
        float(len(whole)),
        float(winner in whole),
        float(later),
        float(earlier),
        float(len({p[0] for p in pairs})),
    )


def pairs_of(text: str, registry: Registry) -> list[Pair]:
    ctx = context(text, registry)
    cands = candidates(ctx, registry)
    rows = describe(cands, ctx, registry)
    return [(c.org, vector(row), c.door, c.segment) for c, row in zip(cands, rows, strict=True)]


def race(pairs: list[Pair], weights: list[float]) -> list[Runner]:
    """The TOP_K organisations by their best candidate's first-stage logit, best first."""
    best: dict[int, tuple[float, list[float]]] = {}
    doors: dict[int, set[str]] = {}
    segs: dict[int, set[int]] = {}
    for org, x, door, segment in pairs:
        z = _dot(weights, x)
        if org not in best or z > best[org][0]:
            best[org] = (z, x)
        doors.setdefault(org, set()).add(door)
        segs.setdefault(org, set()).add(segment)
    ranked = sorted(best.items(), key=lambda kv: (-kv[1][0], kv[0]))[:TOP_K]
    return [Runner(o, z, tuple(x), len(doors[o]), len(segs[o])) for o, (z, x) in ranked]


def decide(
    runners: list[Runner],
    logits: list[float],
    registry: Registry,
    rows: list[list[float]],
    pairs: list[Pair],
) -> Scored:
    """The winner among runners given the second stage's logits (and rows), and its leads."""
    if not runners:
        return NOTHING
    order = sorted(range(len(runners)), key=lambda i: (-logits[i], runners[i].org))
    top = order[0]
    z = logits[top]
    second = logits[order[1]] if len(order) > 1 else z - 10.0
    winner = runners[top].org
    family = ancestors(winner, registry)

    def kin(i: int) -> bool:
        return runners[i].org in family or winner in ancestors(runners[i].org, registry)

    apart = [logits[i] for i in order[1:] if not kin(i)]
    return Scored(
        winner,
        z,
        min(z - second, 10.0),
        min(z - (apart[0] if apart else z - 10.0), 10.0),
        runners[top].x,
        float(len(order) > 1 and kin(order[1])),
        tuple(rows[top]),
        tuple(rows[order[1]]) if len(order) > 1 else (),
        string_shape(pairs, winner),
    )


def best(text: str, registry: Registry, model: Model) -> Scored:
    return score_pairs(pairs_of(text, registry), registry, model, text)


def score_pairs(pairs: list[Pair], registry: Registry, model: Model, text: str = "") -> Scored:
    runners = race(pairs, model.weights)
    rows = race_features(runners, registry, model.prior, model.memory.evidence(text))
    return decide(runners, [model.forest.logit(r) for r in rows], registry, rows, pairs)


@dataclass(frozen=True)
class Abstainer:
    """`confidence`: the linear and the trees' probabilities, the linear one weighing
    `linear_share` (see the module)."""

    linear: list[float]
    forest: Forest
    linear_share: float = 0.5

    def confidence(self, scored: Scored) -> float:
        if scored.org is None:
            return 0.0
        trees = _sigmoid(self.forest.logit(scored.calibration_input()))
        if not self.linear_share:
            return trees
        lin = _sigmoid(_dot(self.linear, scored.linear_input()))
        return self.linear_share * lin + (1.0 - self.linear_share) * trees


def calibrated(calibration: Abstainer, scored: Scored) -> float:
    return calibration.confidence(scored)


@lru_cache(maxsize=2)
def shared_resolver(dump: Path | None = None) -> Resolver:
    """One resolver per process (the pipeline's): the registry and the model load once."""
    return Resolver.load(dump)


class Resolver:
    """Affiliation string -> OrgMatch. Load once (`Resolver.load()`), match many."""

    def __init__(self, registry: Registry, model: Model) -> None:
        self.registry = registry
        self.model = model

    @classmethod
    def load(cls, dump: Path | None = None, model: Path = BUNDLED_MODEL) -> Resolver:
        from ingest.orgs.registry import load_registry

        return cls(load_registry(dump), load_model(model))

    def match(self, text: str) -> OrgMatch:
        scored = best(text, self.registry, self.model)
        confidence = calibrated(self.model.calibration, scored)
        if scored.org is None or confidence < self.model.threshold:
            return OrgMatch(text, None, confidence if scored.org is not None else 0.0)
        return OrgMatch(text, self.registry.org(scored.org), confidence)
