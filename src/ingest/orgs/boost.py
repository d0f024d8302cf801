"""Gradient-boosted trees for the organisation model's second stage and abstention model:
fitted with scikit-learn (training only) and exported to plain arrays (rerank.Forest), which
the command line evaluates in pure Python."""

from __future__ import annotations

from typing import Any

from ingest.orgs.rerank import Forest


def boost(xs: list[list[float]], ys: list[int], trees: int, rate: float, depth: int) -> Forest:
    """Histogram gradient-boosted trees (deterministic: `random_state=0`, no early stopping),
    exported to plain arrays and checked against scikit-learn."""
    from sklearn.ensemble import HistGradientBoostingClassifier  # training only

    clf = HistGradientBoostingClassifier(
        max_iter=trees,
        max_depth=depth,
        learning_rate=rate,
        early_stopping=False,
        random_state=0,
    )
    clf.fit(xs, ys)
    forest = export(clf)
    for x, want in zip(xs[:500], clf.decision_function(xs[:500]), strict=True):
        if abs(forest.logit(x) - float(want)) > 1e-6:  # the export must be the model
            raise AssertionError("exported forest disagrees with scikit-learn")
    return forest


def export(clf: Any) -> Forest:
    """scikit-learn's fitted histogram trees as plain arrays (shrinkage is in the leaves)."""
    trees = []
    for (predictor,) in clf._predictors:
        nodes = predictor.nodes
        leaf = [bool(v) for v in nodes["is_leaf"]]

        def child(side: str, leaf: list[bool] = leaf, nodes: Any = nodes) -> list[int]:
            return [-1 if lf else int(v) for v, lf in zip(nodes[side], leaf, strict=True)]

        trees.append(
            (
                [int(v) for v in nodes["feature_idx"]],
                [float(v) for v in nodes["num_threshold"]],
                child("left"),
                child("right"),
                [float(v) for v in nodes["value"]],
            )
        )
    base = float(clf._baseline_prediction.ravel()[0])
    return Forest(base, tuple(trees))
