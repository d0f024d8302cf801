"""The learned line labeller of the header reader: multinomial logistic regression over the
features of `extractors.papers.linefeatures`, its weights a readable JSON shipped beside this
module (`header_model.json`, written by `ingest train papers`).

    LineModel.shipped()            the shipped model, read once, lazily (the only file read)
    model.label(lines)             -> [(label, probabilities)] per line (Viterbi-decoded)
    model.confidence(raw)          a raw affiliation score -> calibrated probability (Platt)

Labels: title, author, affiliation, email, note, other. The JSON holds `labels`, `weights`
({label: {feature: weight}}), `calibration` ({"a", "b"}: confidence = sigmoid(a * logit(raw) + b),
fitted on the cross-validated affiliations), `transitions` ({previous: {next: log P}}, "start"
for the first line: the label sequences of the training pages) and what it was trained on.

The sequence layer: each line's label is not its own most probable one but the best path
through the page (Viterbi over log P(label | line) + TRANSITION_WEIGHT * log P(label | label of
the line above)), so a byline's second line reads as author after the first even when its own
features are ambiguous, and a lone "author" line inside the body text loses to its neighbours.
Without transitions (an older model file) every line keeps its own best label.
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
START = "start"
OWN_KEYS = ("labels", "weights", "calibration", "transitions")
TRANSITION_WEIGHT = 1.0  # the weight of log P(label | previous label) beside the line's own
MIN_LOG = -12.0  # log P of an emission or transition never seen


@dataclass
class LineModel:
    labels: tuple[str, ...] = LABELS
    weights: dict[str, dict[str, float]] = field(default_factory=dict)
    calibration: dict[str, float] = field(default_factory=lambda: {"a": 1.0, "b": 0.0})
    transitions: dict[str, dict[str, float]] = field(default_factory=dict)
    about: dict[str, Any] = field(default_factory=dict)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> LineModel:
        return cls(
            labels=tuple(data["labels"]),
            weights={k: dict(v) for k, v in data["weights"].items()},
            calibration=dict(data.get("calibration") or {"a": 1.0, "b": 0.0}),
            transitions={k: dict(v) for k, v in (data.get("transitions") or {}).items()},
            about={k: v for k, v in data.items() if k not in OWN_KEYS},
        )

    def to_json(self) -> dict[str, Any]:
        weights = {
            label: {k: round(v, 4) for k, v in sorted(w.items()) if abs(v) >= 1e-4}
            for label, w in self.weights.items()
        }
        transitions = {
            prev: {k: round(v, 4) for k, v in sorted(row.items())}
            for prev, row in sorted(self.transitions.items())
        }
        return {**self.about, "labels": list(self.labels), "calibration": self.calibration,
                "transitions": transitions, "weights": weights}  # fmt: skip

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
        probs = [self.probabilities(features) for features in line_features(lines)]
        return list(zip(self.decode(probs), probs, strict=True))

    def decode(self, probs: list[dict[str, float]]) -> list[str]:
        """The most probable label path (Viterbi); each line's argmax without transitions."""
        if not self.transitions:
            return [max(self.labels, key=lambda k: p[k]) for p in probs]

        def emit(p: dict[str, float], k: str) -> float:
            return math.log(p[k]) if p[k] > 0 else MIN_LOG

        def move(prev: str, k: str) -> float:
            return TRANSITION_WEIGHT * self.transitions.get(prev, {}).get(k, MIN_LOG)

        if not probs:
            return []
        score = {k: emit(probs[0], k) + move(START, k) for k in self.labels}
        back: list[dict[str, str]] = []
        for p in probs[1:]:
            step: dict[str, float] = {}
            came: dict[str, str] = {}
            for k in self.labels:
                prev = max(self.labels, key=lambda j: score[j] + move(j, k))
                step[k], came[k] = score[prev] + move(prev, k) + emit(p, k), prev
            score = step
            back.append(came)
        last = max(self.labels, key=lambda k: score[k])
        path = [last]
        for came in reversed(back):
            path.append(came[path[-1]])
        return path[::-1]

    def confidence(self, raw: float) -> float:
        raw = min(max(raw, 1e-4), 1 - 1e-4)
        z = self.calibration["a"] * math.log(raw / (1 - raw)) + self.calibration["b"]
        return round(1 / (1 + math.exp(-z)), 3)


def transitions(
    sequences: list[list[str]], labels: tuple[str, ...] = LABELS
) -> dict[str, dict[str, float]]:
    """log P(label | previous label) from label sequences (add-one smoothed), "start" first."""
    counts: dict[str, dict[str, float]] = {p: dict.fromkeys(labels, 1.0) for p in (START, *labels)}
    for seq in sequences:
        prev = START
        for label in seq:
            counts[prev][label] += 1.0
            prev = label
    return {
        prev: {k: math.log(v / sum(row.values())) for k, v in row.items()}
        for prev, row in counts.items()
    }


@lru_cache(maxsize=1)
def _shipped() -> LineModel:
    if not MODEL_FILE.is_file():
        return LineModel()  # untrained: every line "title" with equal odds; the rules still read
    return LineModel.from_json(json.loads(MODEL_FILE.read_text("utf-8")))
