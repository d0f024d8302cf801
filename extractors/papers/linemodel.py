"""The learned line labeller of the header reader: multinomial logistic regression over the
features of `extractors.papers.linefeatures`, its weights a readable JSON shipped beside this
module (`header_model.json`, written by `ingest train papers`).

    LineModel.shipped()            the shipped model, read once, lazily (the only file read)
    model.label(lines)             -> [(label, probabilities)] per line
    model.confidence(raw)          a raw affiliation score -> calibrated probability (Platt)

Labels: title, author, affiliation, email, note, other. The JSON holds `labels`, `weights`
({label: {feature: weight}}), `calibration` ({"a", "b"}: confidence = sigmoid(a * logit(raw) + b),
fitted on the cross-validated affiliations) and what it was trained on.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

from extractors.papers.linefeatures import line_features
from extractors.papers.text import Line

MODEL_FILE = Path(__file__).with_name("header_model.json")
LABELS = ("title", "author", "affiliation", "email", "note", "other")


@dataclass
class LineModel:
    labels: tuple[str, ...] = LABELS
    weights: dict[str, dict[str, float]] = field(default_factory=dict)
    calibration: dict[str, float] = field(default_factory=lambda: {"a": 1.0, "b": 0.0})
    about: dict[str, Any] = field(default_factory=dict)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> LineModel:
        return cls(
            labels=tuple(data["labels"]),
            weights={k: dict(v) for k, v in data["weights"].items()},
            calibration=dict(data.get("calibration") or {"a": 1.0, "b": 0.0}),
            about={k: v for k, v in data.items() if k not in ("labels", "weights", "calibration")},
        )

    def to_json(self) -> dict[str, Any]:
        weights = {
            label: {k: round(v, 4) for k, v in sorted(w.items()) if abs(v) >= 1e-4}
            for label, w in self.weights.items()
        }
        return {**self.about, "labels": list(self.labels), "calibration": self.calibration,
                "weights": weights}  # fmt: skip

    @staticmethod
    def shipped() -> LineModel:
        return _shipped()

    def probabilities(self, features: dict[str, float]) -> dict[str, float]:
        scores = {
            label: sum(self.weights.get(label, {}).get(k, 0.0) * v for k, v in features.items())
            for label in self.labels
        }
        top = max(scores.values())
        exp = {k: math.exp(v - top) for k, v in scores.items()}
        total = sum(exp.values())
        return {k: v / total for k, v in exp.items()}

    def label(self, lines: list[Line]) -> list[tuple[str, dict[str, float]]]:
        out: list[tuple[str, dict[str, float]]] = []
        for features in line_features(lines):
            probs = self.probabilities(features)
            out.append((max(self.labels, key=lambda k: probs[k]), probs))
        return out

    def confidence(self, raw: float) -> float:
        raw = min(max(raw, 1e-4), 1 - 1e-4)
        z = self.calibration["a"] * math.log(raw / (1 - raw)) + self.calibration["b"]
        return round(1 / (1 + math.exp(-z)), 3)


@lru_cache(maxsize=1)
def _shipped() -> LineModel:
    if not MODEL_FILE.is_file():
        return LineModel()  # untrained: every line "title" with equal odds; the rules still read
    return LineModel.from_json(json.loads(MODEL_FILE.read_text("utf-8")))
