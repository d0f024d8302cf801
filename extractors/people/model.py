"""The learned decision: is a candidate a person, is a candidate organisation one (logistic
regression over `extractors.people.features`, weights in a JSON file shipped beside this module).

Why plain logistic regression in JSON and not scikit-learn or lightgbm: a few thousand
candidates and a few dozen features; a fitted model is a table of named weights a reviewer can
read and diff; fitting it takes well under a second in pure Python, so leave-one-project-out
evaluation refits it per fold without a new dependency; loading it is one small JSON read, done
once, lazily (`shipped`), and nothing is ever unpickled.

- `fit(samples, groups)`: L2-regularised logistic regression by full-batch gradient descent with
  per-weight step sizes (AdaGrad) from zero weights, a fixed number of rounds: deterministic.
  Identical feature vectors are merged first (with their counts), so a fit sees a few hundred
  rows. `hw:` (heading word) features are kept only when seen in `MIN_GROUPS` projects or more.
- `Model.score(features)`: the probability the candidate is what the gold says (keep it when it
  reaches `THRESHOLD`); `Model.confidence(features)`: the `confidence` qualifier, calibrated at
  the level the editor sees: `curve`, a monotone step map from the logit to the share of
  emitted claims that were right, fitted by `isotonic` on the out-of-fold (leave-one-project-out)
  claims by `ingest evaluate --governance --fit`; without a curve, Platt scaling (a, b).
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

MODEL_FILE = Path(__file__).resolve().parent / "data" / "governance_model.json"
THRESHOLD = 0.5
L2 = 0.01  # on the mean log loss, every weight but the bias
ROUNDS = 600
STEP = 0.5
MIN_GROUPS = 2  # a heading word counts when seen in this many projects

Features = Mapping[str, float]


def sigmoid(z: float) -> float:
    """The logistic function, without overflow for large |z|."""
    if z >= 0:
        return 1.0 / (1.0 + math.exp(-z))
    e = math.exp(z)
    return e / (1.0 + e)


@dataclass
class Linear:
    """One decision: weights, bias and the calibration (a, b): confidence = sigmoid(a*z + b)."""

    weights: dict[str, float] = field(default_factory=dict)
    bias: float = 0.0
    calibration: tuple[float, float] = (1.0, 0.0)
    # (upper logit, confidence) steps, logits ascending: a logit up to the first bound gets its
    # confidence, above the last bound the last one (`isotonic`)
    curve: tuple[tuple[float, float], ...] = ()

    def logit(self, features: Features) -> float:
        w = self.weights
        return self.bias + sum(w.get(k, 0.0) * v for k, v in features.items())

    def score(self, features: Features) -> float:
        return sigmoid(self.logit(features))

    def confidence(self, features: Features) -> float:
        return self.calibrated(self.logit(features))

    def calibrated(self, z: float) -> float:
        """The confidence of a claim whose logit is `z`."""
        if self.curve:
            return step(self.curve, z)
        a, b = self.calibration
        return sigmoid(a * z + b)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "bias": round(self.bias, 6),
            "calibration": [round(self.calibration[0], 6), round(self.calibration[1], 6)],
            "weights": {k: round(v, 6) for k, v in sorted(self.weights.items()) if abs(v) > 1e-6},
        }
        if self.curve:
            out["curve"] = [[round(z, 6), round(p, 6)] for z, p in self.curve]
        return out

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Linear:
        a, b = data.get("calibration", (1.0, 0.0))
        curve = tuple((float(z), float(p)) for z, p in data.get("curve", ()))
        return cls(dict(data.get("weights", {})), float(data.get("bias", 0.0)), (a, b), curve)


@dataclass
class Model:
    """The two decisions the governance reader asks: person, affiliation."""

    person: Linear = field(default_factory=Linear)
    affiliation: Linear = field(default_factory=Linear)
    meta: dict[str, Any] = field(default_factory=dict)
    keep_all: bool = False  # collecting candidates for training: every candidate is kept

    def to_json(self) -> dict[str, Any]:
        return {
            "format": 1,
            "meta": self.meta,
            "threshold": THRESHOLD,
            "person": self.person.to_json(),
            "affiliation": self.affiliation.to_json(),
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Model:
        return cls(
            Linear.from_json(data["person"]),
            Linear.from_json(data["affiliation"]),
            dict(data.get("meta", {})),
        )


KEEP_ALL = Model(keep_all=True)


@cache
def shipped() -> Model:
    """The model shipped in the repository (read once, when first needed)."""
    if not MODEL_FILE.is_file():
        return KEEP_ALL
    return Model.from_json(json.loads(MODEL_FILE.read_text(encoding="utf-8")))


# ============================================================================================
# fitting


@dataclass(frozen=True)
class Sample:
    features: Features
    label: bool
    group: str  # the project, for leave-one-project-out


def _vocabulary(samples: Sequence[Sample]) -> set[str]:
    seen: dict[str, set[str]] = {}
    for s in samples:
        for k in s.features:
            seen.setdefault(k, set()).add(s.group)
    return {k for k, groups in seen.items() if not k.startswith("hw:") or len(groups) >= MIN_GROUPS}


def fit(samples: Sequence[Sample]) -> Linear:
    """Logistic regression on the samples (see the module docstring); deterministic."""
    vocab = _vocabulary(samples)
    merged: dict[tuple[tuple[str, float], ...], list[float]] = {}
    for s in samples:
        key = tuple(sorted((k, v) for k, v in s.features.items() if k in vocab))
        counts = merged.setdefault(key, [0.0, 0.0])
        counts[1 if s.label else 0] += 1.0
    rows = sorted(merged.items())
    total = sum(n + p for n, p in (c for _k, c in rows)) or 1.0
    weights: dict[str, float] = dict.fromkeys(sorted(vocab), 0.0)
    bias = 0.0
    grad_sq: dict[str, float] = dict.fromkeys(weights, 1e-8)
    bias_sq = 1e-8
    for _ in range(ROUNDS):
        grad: dict[str, float] = dict.fromkeys(weights, 0.0)
        gbias = 0.0
        for key, (neg, pos) in rows:
            z = bias + sum(weights[k] * v for k, v in key)
            p = sigmoid(z)
            g = (p * (neg + pos) - pos) / total
            gbias += g
            for k, v in key:
                grad[k] += g * v
        for k in weights:
            g = grad[k] + L2 * weights[k]
            grad_sq[k] += g * g
            weights[k] -= STEP * g / math.sqrt(grad_sq[k])
        bias_sq += gbias * gbias
        bias -= STEP * gbias / math.sqrt(bias_sq)
    return Linear(weights, bias)


def platt(pairs: Iterable[tuple[float, bool]]) -> tuple[float, float]:
    """Calibration (a, b) of logits against outcomes: 2-parameter logistic fit by Newton's
    method, with Platt's smoothed targets (no probability of exactly 0 or 1)."""
    data = list(pairs)
    pos = sum(1 for _z, y in data if y)
    neg = len(data) - pos
    if not pos or not neg:
        return (1.0, 0.0)
    hi, lo = (pos + 1) / (pos + 2), 1 / (neg + 2)
    a, b = 1.0, 0.0
    for _ in range(50):
        ga = gb = haa = hab = hbb = 0.0
        for z, y in data:
            p = sigmoid(a * z + b)
            t = hi if y else lo
            d = p - t
            w = max(p * (1 - p), 1e-9)
            ga += d * z
            gb += d
            haa += w * z * z
            hab += w * z
            hbb += w
        det = haa * hbb - hab * hab
        if abs(det) < 1e-12:
            break
        da = (hbb * ga - hab * gb) / det
        db = (haa * gb - hab * ga) / det
        step = 1.0
        while step > 1e-4 and _platt_loss(data, a - step * da, b - step * db, hi, lo) > (
            _platt_loss(data, a, b, hi, lo)
        ):
            step /= 2  # damped: a step that raises the loss is halved
        a, b = a - step * da, b - step * db
        if step * (abs(da) + abs(db)) < 1e-9:
            break
    return (a, b)


def _platt_loss(data: list[tuple[float, bool]], a: float, b: float, hi: float, lo: float) -> float:
    loss = 0.0
    for z, y in data:
        p = min(max(sigmoid(a * z + b), 1e-12), 1 - 1e-12)
        t = hi if y else lo
        loss -= t * math.log(p) + (1 - t) * math.log(1 - p)
    return loss


# ============================================================================================
# claim-level calibration

MIN_BLOCK = 20  # claims a step of the isotonic map pools at least (fewer: merged with a neighbour)


def step(curve: Sequence[tuple[float, float]], z: float) -> float:
    """The confidence a step map gives the logit `z` (see `Linear.curve`)."""
    for bound, value in curve:
        if z <= bound:
            return value
    return curve[-1][1]


def isotonic(pairs: Iterable[tuple[float, bool]], min_block: int = MIN_BLOCK) -> tuple[
        tuple[float, float], ...]:  # fmt: skip
    """A monotone (non-decreasing) map from logits to the share of right claims: pool adjacent
    violators over the claims sorted by logit, blocks of at least `min_block` claims, each
    block's share smoothed towards the overall one ((right + m * p) / (n + m), m = 2) so that no
    step says 0 or 1 from a handful of claims. Deterministic: ties in logit are one block."""
    data = sorted((float(z), bool(y)) for z, y in pairs)
    if not data:
        return ()
    overall = sum(y for _z, y in data) / len(data)
    blocks: list[list[float]] = []  # [upper logit, right, count]
    for z, y in data:
        if blocks and blocks[-1][0] == z:
            blocks[-1][1] += y
            blocks[-1][2] += 1
        else:
            blocks.append([z, float(y), 1.0])
    merged: list[list[float]] = []
    for block in blocks:
        merged.append(block)
        while len(merged) > 1 and (
            merged[-2][1] / merged[-2][2] >= merged[-1][1] / merged[-1][2]
            or merged[-2][2] < min_block
        ):
            last = merged.pop()
            merged[-1] = [last[0], merged[-1][1] + last[1], merged[-1][2] + last[2]]
    while len(merged) > 1 and merged[-1][2] < min_block:  # the top step pools enough too
        last = merged.pop()
        merged[-1] = [last[0], merged[-1][1] + last[1], merged[-1][2] + last[2]]
    curve: list[tuple[float, float]] = []
    for upper, right, count in merged:
        value = (right + 2 * overall) / (count + 2)
        if curve and value < curve[-1][1]:
            value = curve[-1][1]
        curve.append((upper, value))
    return tuple(curve)
