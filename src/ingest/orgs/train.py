"""Fit the organisation model and measure it on strings it never saw.

    uv run ingest orgs train                # fit on ../shared/orgs/affiliation-strings/, write
                                            # data/model.json, print the held-out figures
    uv run ingest orgs train --no-write     # measure only

    uv run ingest orgs train --no-write --kfold  # ... and the same, five times, each fifth
                                                 # held out in turn (the k-fold figure)

The labelled strings (`affiliation,ror_id` CSVs; `NP` = no organisation, several ids separated by
`;` = any of them is right) are split by a hash of the folded string: one in five is held out
(duplicates fall on the same side). On the rest: the scorer (logistic regression over every
candidate's features), the prior (how often each organisation was the label) and the second
stage (gradient-boosted trees over the TOP_K organisations, rerank.py) are refitted per fold to
get out-of-fold scores, the abstention model (model.Abstainer: a logistic regression and
gradient-boosted trees, weighted by CAL_LINEAR_SHARE) is fitted on those, and the threshold is
the lowest confidence whose precision is at least TARGET_PRECISION on confidences cross-fitted
once more (each from an abstention model fitted without that string: trees would look surer on
their own training strings); `inner_out_of_fold` reports that figure, the one settings are
chosen on. The shipped model is the whole chain fitted on the training side with that abstention
model; the held-out strings then give the figures it reports. Names from the registry itself
(`registry_names`) are added to the fitting side only (never to the prior).
Deterministic: scikit-learn's liblinear with `random_state=0`, histogram gradient boosting with
`random_state=0` and no early stopping, folds by hash.
"""

from __future__ import annotations

import csv
import hashlib
import json
import math
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ingest.orgs.augment import registry_names
from ingest.orgs.boost import boost
from ingest.orgs.memory import Memory
from ingest.orgs.model import (
    BUNDLED_MODEL,
    Abstainer,
    Model,
    Pair,
    Scored,
    calibrated,
    decide,
    pairs_of,
    race,
)
from ingest.orgs.registry import Registry, load_registry
from ingest.orgs.rerank import Forest, Runner, race_features
from ingest.orgs.text import fold

DEFAULT_DATA = (
    Path(__file__).resolve().parents[3].parent / "shared" / "orgs" / "affiliation-strings"
)
HELD_OUT = 5  # one string in five is held out
# inner folds for the out-of-fold scores the calibration is fitted on: each fold's chain is
# fitted on (FOLDS-1)/FOLDS of the fitting side, so more folds make them nearer the shipped chain
# (fitted on all of it) and the threshold less timid. Inner out-of-fold recall at
# TARGET_PRECISION, same fits: 3 folds 0.741 (top-1 0.867), 5 folds 0.756 (top-1 0.871), 10
# folds 0.755 (top-1 0.871, and twice the fitting time)
FOLDS = 5
TARGET_PRECISION = 0.955
C = 1.0
TREES = 200  # the second stage: gradient-boosted trees of depth TREE_DEPTH
TREE_DEPTH = 4  # inner out-of-fold: depth 3 top-1 0.860 recall 0.736, depth 4 0.865 0.742
LEARNING_RATE = 0.1
CAL_TREES = 100  # the abstention model's trees, of depth CAL_DEPTH
CAL_DEPTH = 4  # chosen on the inner out-of-fold recall: depth 3 0.727, depth 4 0.736
CAL_LEARNING_RATE = 0.1
# the linear part's weight in the confidence, chosen on the inner out-of-fold recall at
# TARGET_PRECISION (same fits): 0.7 -> 0.731, 0.5 -> 0.738, 0.3 -> 0.740, 0.15 -> 0.742, 0 -> 0.747
CAL_LINEAR_SHARE = 0.0
Prior = dict[str, tuple[int, int]]


@dataclass
class Example:
    text: str
    gold: frozenset[str]  # ROR ids; empty: names no organisation
    source: str
    pairs: list[Pair]  # (org index, features, door, segment) per candidate

    def bucket(self, n: int, salt: str = "") -> int:
        digest = hashlib.sha256((salt + fold(self.text)).encode()).digest()
        return int.from_bytes(digest[:4], "big") % n


def read_labelled(folder: Path) -> list[tuple[str, frozenset[str], str]]:
    out = []
    for path in sorted(folder.glob("*.csv")):
        with path.open(encoding="utf-8-sig", newline="") as handle:
            for r in csv.DictReader(handle):
                label = r["ror_id"].strip()
                gold = (
                    frozenset()
                    if label == "NP"
                    else frozenset(i.strip().rsplit("/", 1)[-1] for i in label.split(";"))
                )
                out.append((r["affiliation"], gold, path.name.split(".")[0]))
    return out


def featurise(text: str, registry: Registry) -> list[Pair]:
    return pairs_of(text, registry)


def _fit(examples: list[Example], registry: Registry) -> list[float]:
    from sklearn.linear_model import LogisticRegression  # training only: not on the CLI path

    xs, ys = [], []
    ids = registry.columns["id"]
    for ex in examples:
        for org, x, _door, _segment in ex.pairs:
            xs.append(x)
            ys.append(int(ids[org] in ex.gold))
    lr = LogisticRegression(
        C=C, solver="liblinear", fit_intercept=False, random_state=0, max_iter=1000
    )
    lr.fit(xs, ys)
    return [round(float(w), 6) for w in lr.coef_[0]]


@dataclass
class Chain:
    """The fitted parts before calibration: scorer weights, prior and second-stage forest."""

    weights: list[float]
    prior: Prior
    forest: Forest
    memory: Memory


def _prior(examples: list[Example], weights: list[float], registry: Registry) -> Prior:
    """Per ROR id: labelled strings naming it, and strings whose race it ran in (labelled
    strings only; the registry's own names say nothing of how strings are labelled)."""
    ids = registry.columns["id"]
    gold: dict[str, int] = {}
    seen: dict[str, int] = {}
    for ex in examples:
        if ex.source == "registry":
            continue
        for g in ex.gold:
            if g in registry.by_id:
                gold[g] = gold.get(g, 0) + 1
        for r in race(ex.pairs, weights):
            seen[ids[r.org]] = seen.get(ids[r.org], 0) + 1
    # what a model ships: organisations labelled, or in three races or more
    return {k: (gold.get(k, 0), v) for k, v in seen.items() if gold.get(k) or v >= 3}


def _race_rows(
    ex: Example,
    weights: list[float],
    registry: Registry,
    prior: Prior,
    memory: Memory,
    leave_out: bool,
) -> tuple[list[Runner], list[list[float]]]:
    """The race of a string and its second-stage rows; `leave_out` takes the string's own part
    out of the prior and the memory (a training string must not see its own label)."""
    runners = race(ex.pairs, weights)
    own = ex.gold if leave_out and ex.source != "registry" else None
    rows = race_features(runners, registry, prior, memory.evidence(ex.text, own))
    if leave_out and ex.source != "registry":
        ids = registry.columns["id"]
        for r, row in zip(runners, rows, strict=True):
            g, n = prior.get(ids[r.org], (0, 0))
            g, n = max(g - (ids[r.org] in ex.gold), 0), max(n - 1, 0)
            row[-2], row[-1] = math.log1p(g), (g + 0.5) / (n + 2.0)
    return runners, rows


def _fit_forest(
    examples: list[Example],
    weights: list[float],
    registry: Registry,
    prior: Prior,
    memory: Memory,
) -> Forest:
    ids = registry.columns["id"]
    xs, ys = [], []
    for ex in examples:
        runners, rows = _race_rows(ex, weights, registry, prior, memory, leave_out=True)
        for r, row in zip(runners, rows, strict=True):
            xs.append(row)
            ys.append(int(ids[r.org] in ex.gold))
    return boost(xs, ys, TREES, LEARNING_RATE, TREE_DEPTH)


def _fit_chain(examples: list[Example], registry: Registry) -> Chain:
    weights = _fit(examples, registry)
    prior = _prior(examples, weights, registry)
    memory = Memory.build((e.text, e.gold) for e in examples if e.source != "registry")
    forest = _fit_forest(examples, weights, registry, prior, memory)
    return Chain(weights, prior, forest, memory)


def _score(ex: Example, chain: Chain, registry: Registry) -> Scored:
    runners, rows = _race_rows(
        ex, chain.weights, registry, chain.prior, chain.memory, leave_out=False
    )
    return decide(runners, [chain.forest.logit(r) for r in rows], registry, rows, ex.pairs)


def _calibrate(scored: list[tuple[Scored, bool]]) -> Abstainer:
    """The abstention model on the winners' out-of-fold scores: a logistic regression and
    gradient-boosted trees (model.Abstainer weighs them by CAL_LINEAR_SHARE)."""
    from sklearn.linear_model import LogisticRegression

    won = [(s, ok) for s, ok in scored if s.org is not None]
    ys = [int(ok) for _s, ok in won]
    lr = LogisticRegression(C=10.0, solver="liblinear", fit_intercept=False, random_state=0)
    lr.fit([s.linear_input() for s, _ok in won], ys)
    linear = [round(float(w), 6) for w in lr.coef_[0]]
    forest = boost(
        [s.calibration_input() for s, _ok in won], ys, CAL_TREES, CAL_LEARNING_RATE, CAL_DEPTH
    )
    return Abstainer(linear, forest, CAL_LINEAR_SHARE)


def _cross_calibrated(oof: list[tuple[Scored, bool, bool, int]]) -> list[tuple[float, bool]]:
    """Confidences the threshold is chosen on: each string's from an abstention model fitted
    without it (trees fitted on a string would make it look surer than a new one)."""
    out = []
    for k in range(FOLDS):
        cal = _calibrate([(s, ok) for s, ok, _kn, b in oof if b != k])
        out += [(calibrated(cal, s), ok) for s, ok, known, b in oof if b == k and known]
    return out


def _threshold(points: list[tuple[float, bool]]) -> float:
    """The lowest confidence at which the answers above it are precise enough."""
    points = sorted(points, key=lambda p: -p[0])
    best, right = 1.0, 0
    for n, (conf, ok) in enumerate(points, 1):
        right += ok
        if right / n >= TARGET_PRECISION:
            best = conf
    return round(best, 4)


def _inner_figures(points: list[tuple[float, bool]], threshold: float) -> dict[str, float]:
    said = [ok for conf, ok in points if conf >= threshold]
    return {
        "strings": len(points),
        "precision": round(sum(said) / len(said), 4) if said else 0.0,
        "recall": round(sum(said) / len(points), 4) if points else 0.0,
        "top1": round(sum(ok for _c, ok in points) / len(points), 4) if points else 0.0,
    }


def figures(examples: list[Example], registry: Registry, model: Model) -> dict[str, Any]:
    """Precision and recall over the strings whose organisation is in the registry, and
    precision over every string (an answer to one naming none, or one the registry lacks, is
    wrong), with a reliability table of `confidence`."""
    ids = registry.columns["id"]
    inreg = answered_in = right = answered_all = 0
    bins: dict[int, list[int]] = {}
    chain = Chain(model.weights, model.prior, model.forest, model.memory)
    for ex in examples:
        s = _score(ex, chain, registry)
        conf = calibrated(model.calibration, s)
        ok = s.org is not None and ids[s.org] in ex.gold
        in_registry = any(g in registry.by_id for g in ex.gold)
        said = s.org is not None and conf >= model.threshold
        inreg += in_registry
        answered_all += said
        if said:
            b = bins.setdefault(min(int(conf * 10), 9), [0, 0])
            b[0] += 1
            b[1] += ok
        if in_registry and said:
            answered_in += 1
            right += ok
    p = right / answered_in if answered_in else 0.0
    r = right / inreg if inreg else 0.0
    return {
        "strings": len(examples),
        "in_registry": inreg,
        "answered_in_registry": answered_in,
        "right": right,
        "precision": round(p, 4),
        "recall": round(r, 4),
        "f1": round(2 * p * r / (p + r), 4) if p + r else 0.0,
        "precision_all_strings": round(right / answered_all, 4) if answered_all else 0.0,
        "reliability": {
            f"{k / 10:.1f}": {"answers": v[0], "right": round(v[1] / v[0], 3)}
            for k, v in sorted(bins.items())
        },
    }


def train(
    data: Path = DEFAULT_DATA, registry: Registry | None = None, held_bucket: int = 0
) -> tuple[Model, dict[str, Any]]:
    registry = registry or load_registry()
    labelled = read_labelled(data)
    examples = [Example(t, g, s, featurise(t, registry)) for t, g, s in labelled]
    held = [e for e in examples if e.bucket(HELD_OUT) == held_bucket]
    fit_on = [e for e in examples if e.bucket(HELD_OUT) != held_bucket]
    fit_on += [Example(t, g, s, featurise(t, registry)) for t, g, s in registry_names(registry)]
    ids = registry.columns["id"]
    # out-of-fold scores: (scored, right, a labelled string whose organisation is registered)
    oof: list[tuple[Scored, bool, bool, int]] = []
    for k in range(FOLDS):
        chain = _fit_chain([e for e in fit_on if e.bucket(FOLDS, "fold") != k], registry)
        for e in fit_on:
            if e.bucket(FOLDS, "fold") == k:
                s = _score(e, chain, registry)
                known = e.source != "registry" and any(g in registry.by_id for g in e.gold)
                ok = s.org is not None and ids[s.org] in e.gold
                oof.append((s, ok, known, e.bucket(FOLDS, "calibration")))
    # the calibration sees the registry's names too (the only companies printed alone); the
    # threshold is set where it is measured, on labelled strings whose organisation is
    # registered (the registry's names are easy, and would make it look safer than it is)
    calibration = _calibrate([(s, ok) for s, ok, _known, _b in oof])
    inner = _cross_calibrated(oof)
    threshold = _threshold(inner)
    chain = _fit_chain(fit_on, registry)
    model = Model(
        chain.weights, chain.forest, chain.prior, calibration, threshold, {}, chain.memory
    )
    report = {
        "trained_on": {
            "strings": len(fit_on),
            "data": [p.name for p in sorted(data.glob("*.csv"))],
        },
        "registry": registry.source,
        # the figure features and settings are chosen on: the fitting side's out-of-fold
        # strings, at the threshold chosen on them (the held-out strings are never looked at)
        "inner_out_of_fold": _inner_figures(inner, threshold),
        "held_out": figures(held, registry, model),
        "held_out_by_file": {
            src: figures([e for e in held if e.source == src], registry, model)
            for src in sorted({e.source for e in held})
        },
    }
    shipped = Model(
        chain.weights, chain.forest, chain.prior, calibration, threshold, report, chain.memory
    )
    return shipped, report


def write_model(model: Model, out: Path) -> None:
    """model.json: the weights and figures one per line, the prior on one line and the forest
    one tree a line (small diffs, and one `json.loads`)."""
    body = model.to_json()
    prior, forest, memory = body.pop("prior"), body.pop("forest"), body.pop("memory")
    compact = {"separators": (",", ":")}
    trees = ",\n".join(json.dumps(t, **compact) for t in forest["trees"])  # type: ignore[arg-type]
    text = (
        json.dumps(body, indent=1)[:-2]
        + ',\n "prior": '
        + json.dumps(prior, **compact)  # type: ignore[arg-type]
        + ',\n "memory": '
        + json.dumps(memory, **compact)  # type: ignore[arg-type]
        + ',\n "forest": {"base": '
        + json.dumps(forest["base"])
        + ', "trees": [\n'
        + trees
        + "]}\n}\n"
    )
    out.write_text(text, encoding="utf-8")


def kfold(data: Path = DEFAULT_DATA) -> dict[str, Any]:
    """Each fifth held out in turn (the same hash as the held-out split): the figures of five
    models, and their pooled precision and recall."""
    registry = load_registry()
    folds = [train(data, registry, k)[1]["held_out"] for k in range(HELD_OUT)]
    inreg = sum(f["in_registry"] for f in folds)
    right = sum(f["right"] for f in folds)
    answered = sum(f["answered_in_registry"] for f in folds)
    return {
        "folds": folds,
        "pooled": {
            "in_registry": inreg,
            "precision": round(right / answered, 4) if answered else 0.0,
            "recall": round(right / inreg, 4) if inreg else 0.0,
        },
    }


def main(
    data: Path = DEFAULT_DATA, out: Path | None = BUNDLED_MODEL, folds: bool = False
) -> dict[str, Any]:
    started = time.monotonic()
    if folds:
        report = kfold(data)
    else:
        model, report = train(data)
        if out is not None:
            write_model(model, out)
    report["seconds"] = round(time.monotonic() - started, 1)
    return report


if __name__ == "__main__":
    print(json.dumps(main(), indent=1))
