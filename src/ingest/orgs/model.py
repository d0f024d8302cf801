"""The model decides: fitted weights (`data/model.json`, written by `ingest orgs train`) score
every candidate, and a calibration on the best one gives `confidence`, the chance that the
answer is right; below the fitted threshold the resolver answers "no match".

Two stages, both logistic regressions stored as plain weights:
- `scorer`: candidate features (features.NAMES) -> logit that this is the organisation printed;
- `calibration`: [1, best logit, best minus the runner-up organisation's logit, and the best
  candidate's CALIBRATION_FEATURES] -> the
  probability that the best candidate is right, fitted on out-of-fold scores, so the string that
  names an organisation absent from the registry, or none, learns to get a low one.
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
from ingest.orgs.registry import Org, Registry

BUNDLED_MODEL = Path(__file__).resolve().parent / "data" / "model.json"
MODEL_FORMAT = "ingest-org-model/1"
# the best candidate's own features the calibration sees beside its logit and margin
CALIBRATION_FEATURES = (
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
    calibration: list[float]
    threshold: float
    meta: dict[str, Any]

    def to_json(self) -> dict[str, Any]:
        return {
            "format": MODEL_FORMAT,
            "features": list(NAMES),
            "weights": self.weights,
            "calibration": self.calibration,
            "threshold": self.threshold,
            **self.meta,
        }


def load_model(path: Path = BUNDLED_MODEL) -> Model:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise ConfigError(f"organisation model '{path}' cannot be read: {exc}") from exc
    if data.get("format") != MODEL_FORMAT or list(data.get("features", [])) != list(NAMES):
        raise ConfigError(
            f"organisation model '{path}' does not fit this code: run ingest orgs train"
        )
    meta = {
        k: v
        for k, v in data.items()
        if k not in ("format", "features", "weights", "calibration", "threshold")
    }
    return Model(list(data["weights"]), list(data["calibration"]), float(data["threshold"]), meta)


@dataclass(frozen=True)
class Scored:
    """The best candidate of a string with its scores (what calibration is fitted on)."""

    org: int | None
    logit: float
    margin: float
    features: tuple[float, ...] = ()

    def calibration_input(self) -> list[float]:
        f = dict(zip(NAMES, self.features, strict=True)) if self.features else {}
        return [1.0, self.logit, self.margin, *(f.get(n, 0.0) for n in CALIBRATION_FEATURES)]


def best(text: str, registry: Registry, weights: list[float]) -> Scored:
    ctx = context(text, registry)
    cands = candidates(ctx, registry)
    if not cands:
        return Scored(None, -20.0, 0.0)
    rows = describe(cands, ctx, registry)
    return rank([(c.org, vector(row)) for c, row in zip(cands, rows, strict=True)], weights)


def rank(pairs: list[tuple[int, list[float]]], weights: list[float]) -> Scored:
    """The best organisation among (org index, features) candidates, and its lead."""
    per_org: dict[int, tuple[float, list[float]]] = {}
    for org, x in pairs:
        z = _dot(weights, x)
        if org not in per_org or z > per_org[org][0]:
            per_org[org] = (z, x)
    if not per_org:
        return Scored(None, -20.0, 0.0)
    ranked = sorted(per_org.items(), key=lambda kv: (-kv[1][0], kv[0]))
    top, (z, x) = ranked[0]
    second = ranked[1][1][0] if len(ranked) > 1 else z - 10.0
    return Scored(top, z, min(z - second, 10.0), tuple(x))


def calibrated(calibration: list[float], scored: Scored) -> float:
    if scored.org is None:
        return 0.0
    return _sigmoid(_dot(calibration, scored.calibration_input()))


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
        scored = best(text, self.registry, self.model.weights)
        confidence = calibrated(self.model.calibration, scored)
        if scored.org is None or confidence < self.model.threshold:
            return OrgMatch(text, None, confidence if scored.org is not None else 0.0)
        return OrgMatch(text, self.registry.org(scored.org), confidence)
