"""The learned event decision: which event (if any) a candidate is, and how sure.

A multinomial logistic regression over the cues of `extractors.announcements.cues` (classes
`cues.CLASSES`: none, maintainer, maintainer/emeritus, affiliation, ..., award), weights in
`data/event_model.json` beside this module, fitted by `ingest evaluate --announcements --fit`
(src/ingest_cli/evaluate/announcements_model.py). A table of named weights a reviewer can read;
loading it is one small JSON read, done once (`shipped`); scoring is a few dot products in pure
Python; nothing is unpickled.

- `Model.rule_margin(features)`: for a rule readers' claim, the log-odds that its proposed
  class is right (a binary decision: the rules' proposals are seldom wrong, whatever the class,
  and a class few posts print would have too few examples of its own); kept when positive.
- `Model.probabilities(features)`: for a structure candidate (a person the layout offers, see
  `extractors.announcements.structure`), the softmax over the classes; it is given as its best
  class when that class's margin over `none` beats `reader_threshold`. The event weights know
  nothing of which reader proposed a candidate (no per-reader intercept).
- `Model.margin(features, klass)`: log P(klass) - log P(none): a candidate is given as `klass`
  when it is positive.
- `Model.confidence(margin)`: the margin calibrated (Platt scaling fitted on the
  leave-one-project-out margins of the claims given, against whether the gold has them): the
  `confidence` qualifier. It describes the reading, not the fact (`ingest.fact_identity`
  SOURCE_DETAILS leaves it out of a fact's identity).
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from extractors.announcements.cues import CLASSES
from extractors.people.model import sigmoid

MODEL_FILE = Path(__file__).resolve().parent / "data" / "event_model.json"

Features = Mapping[str, float]


@dataclass
class Model:
    """Per class: weights and a bias; the calibration (a, b) of the margin."""

    weights: dict[str, dict[str, float]] = field(default_factory=dict)
    bias: dict[str, float] = field(default_factory=dict)
    calibration: tuple[float, float] = (1.0, 0.0)
    meta: dict[str, Any] = field(default_factory=dict)
    keep_rules: bool = False  # no model: every rule claim is given, nothing else
    rule_weights: dict[str, float] = field(default_factory=dict)  # is a rule claim right?
    rule_bias: float = 0.0
    reader_threshold: float = 0.0  # a structure candidate is given when its margin beats this

    def rule_margin(self, features: Features) -> float:
        """The log-odds that the rule readers' proposal is right (a binary decision)."""
        w = self.rule_weights
        return self.rule_bias + sum(w.get(k, 0.0) * v for k, v in features.items())

    def logits(self, features: Features) -> dict[str, float]:
        out = {}
        for klass in CLASSES:
            w = self.weights.get(klass, {})
            z = self.bias.get(klass, 0.0)
            out[klass] = z + sum(w.get(k, 0.0) * v for k, v in features.items())
        return out

    def probabilities(self, features: Features) -> dict[str, float]:
        z = self.logits(features)
        top = max(z.values())
        e = {k: math.exp(v - top) for k, v in z.items()}
        total = sum(e.values())
        return {k: v / total for k, v in e.items()}

    def margin(self, features: Features, klass: str) -> float:
        z = self.logits(features)
        return z[klass] - z["none"]

    def best(self, features: Features) -> tuple[str, float]:
        """The most likely class other than none, and its margin over none."""
        z = self.logits(features)
        klass = max((k for k in CLASSES if k != "none"), key=lambda k: (z[k], k))
        return klass, z[klass] - z["none"]

    def confidence(self, margin: float) -> float:
        a, b = self.calibration
        return round(sigmoid(a * margin + b), 3)

    def to_json(self) -> dict[str, Any]:
        return {
            "format": 1,
            "meta": self.meta,
            "classes": list(CLASSES),
            "calibration": [round(self.calibration[0], 6), round(self.calibration[1], 6)],
            "reader_threshold": self.reader_threshold,
            "rule": {
                "bias": round(self.rule_bias, 6),
                "weights": {
                    k: round(v, 6) for k, v in sorted(self.rule_weights.items()) if abs(v) > 1e-6
                },  # fmt: skip
            },
            "bias": {k: round(v, 6) for k, v in sorted(self.bias.items())},
            "weights": {
                klass: {k: round(v, 6) for k, v in sorted(w.items()) if abs(v) > 1e-6}
                for klass, w in sorted(self.weights.items())
            },
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Model:
        a, b = data.get("calibration", (1.0, 0.0))
        weights = {str(k): dict(v) for k, v in dict(data.get("weights", {})).items()}
        bias = {str(k): float(v) for k, v in dict(data.get("bias", {})).items()}
        rule = dict(data.get("rule", {}))
        return cls(weights, bias, (float(a), float(b)), dict(data.get("meta", {})),
                   rule_weights=dict(rule.get("weights", {})),
                   rule_bias=float(rule.get("bias", 0.0)),
                   reader_threshold=float(data.get("reader_threshold", 0.0)))  # fmt: skip


KEEP_RULES = Model(keep_rules=True)


@cache
def shipped() -> Model:
    """The model shipped in the repository (read once, when first needed)."""
    if not MODEL_FILE.is_file():
        return KEEP_RULES
    return Model.from_json(json.loads(MODEL_FILE.read_text(encoding="utf-8")))
