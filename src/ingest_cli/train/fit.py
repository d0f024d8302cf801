"""Multinomial logistic regression over sparse named features, in plain Python.

    fit(samples, labels, ...) -> {label: {feature: weight}}

AdaGrad on the log loss with L2 shrinkage of the weights a sample touches, samples visited in
their given order (deterministic: no random state at all). Small enough for the ~5,000 lines of
69 papers (a few seconds), and the result is data a reviewer can read.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

EPOCHS = 6
RATE = 0.3
L2 = 1e-4


def fit(
    samples: Sequence[dict[str, float]],
    targets: Sequence[str],
    labels: Sequence[str],
    *,
    epochs: int = EPOCHS,
    rate: float = RATE,
    l2: float = L2,
) -> dict[str, dict[str, float]]:
    weights: dict[str, dict[str, float]] = {label: {} for label in labels}
    squares: dict[str, dict[str, float]] = {label: {} for label in labels}
    for _ in range(epochs):
        for x, y in zip(samples, targets, strict=True):
            scores = {k: sum(weights[k].get(f, 0.0) * v for f, v in x.items()) for k in labels}
            top = max(scores.values())
            exp = {k: math.exp(s - top) for k, s in scores.items()}
            total = sum(exp.values())
            for k in labels:
                error = exp[k] / total - (1.0 if k == y else 0.0)
                w, g2 = weights[k], squares[k]
                for f, v in x.items():
                    old = w.get(f, 0.0)
                    grad = error * v + l2 * old
                    acc = g2.get(f, 0.0) + grad * grad
                    g2[f] = acc
                    w[f] = old - rate * grad / math.sqrt(acc + 1e-8)
    return weights


def platt(raw: Sequence[float], correct: Sequence[bool], steps: int = 400) -> dict[str, float]:
    """sigmoid(a * logit(raw) + b) fitted to (raw score, correct?) pairs by gradient descent."""
    a, b = 1.0, 0.0
    xs = [math.log(min(max(r, 1e-4), 1 - 1e-4) / (1 - min(max(r, 1e-4), 1 - 1e-4))) for r in raw]
    n = len(xs) or 1
    for _ in range(steps):
        ga = gb = 0.0
        for x, c in zip(xs, correct, strict=True):
            p = 1 / (1 + math.exp(-(a * x + b)))
            ga += (p - c) * x
            gb += p - c
        a -= 0.5 * ga / n
        b -= 0.5 * gb / n
    return {"a": round(a, 4), "b": round(b, 4)}
