"""Fit the organisation model and measure it on strings it never saw.

    uv run ingest orgs train                # fit on ../shared/orgs/affiliation-strings/, write
                                            # data/model.json, print the held-out figures
    uv run ingest orgs train --no-write     # measure only

The labelled strings (`affiliation,ror_id` CSVs; `NP` = no organisation, several ids separated by
`;` = any of them is right) are split by a hash of the folded string: one in five is held out
(duplicates fall on the same side). On the rest: the scorer (logistic regression over every
candidate's features) is refitted per fold to get out-of-fold scores, the calibration is fitted
on those, and the threshold is the lowest confidence whose out-of-fold precision is at least
TARGET_PRECISION. The shipped model is the scorer fitted on the whole training side with that
calibration; the held-out strings then give the figures it reports. Names from the registry
itself (`registry_names`) are added to the fitting side only.
Deterministic: scikit-learn's
liblinear with `random_state=0`, folds by hash.
"""

from __future__ import annotations

import csv
import hashlib
import json
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ingest.orgs.candidates import candidates, context
from ingest.orgs.features import describe, vector
from ingest.orgs.model import BUNDLED_MODEL, Model, Scored, calibrated, rank
from ingest.orgs.registry import Registry, load_registry
from ingest.orgs.text import fold

DEFAULT_DATA = (
    Path(__file__).resolve().parents[3].parent / "shared" / "orgs" / "affiliation-strings"
)
HELD_OUT = 5  # one string in five is held out
AUGMENT_EVERY = 40  # registry names added to the fitting side: one organisation in 40
FOLDS = 5
TARGET_PRECISION = 0.955
C = 1.0


@dataclass
class Example:
    text: str
    gold: frozenset[str]  # ROR ids; empty: names no organisation
    source: str
    pairs: list[tuple[int, list[float]]]  # (org index, features) per candidate

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


def registry_names(
    registry: Registry, every: int = AUGMENT_EVERY
) -> list[tuple[str, frozenset[str], str]]:
    """Strings made from the registry itself, for fitting only (never measured): one
        organisation in `every` (by a hash of its id) as its display name, and with its city, and by
        its city alone (no organisation: a city is not its university), and a name ROR tails with
    "(Country)" without it. The labelled strings are mostly
        academic and departmental; these teach the model what a company or a lab printed alone
        looks like ("Google", "NVIDIA"), homonyms included."""
    out: list[tuple[str, frozenset[str], str]] = []
    cols = registry.columns
    for i, oid in enumerate(cols["id"]):
        if (
            int(hashlib.sha256(oid.encode()).hexdigest()[:6], 16) % every
            or cols["status"][i] != "active"
        ):
            continue
        name, city, gold = cols["name"][i], cols["city"][i].title(), frozenset({oid})
        out.append((name, gold, "registry"))
        bare = name.rsplit(" (", 1)[0] if name.endswith(")") else ""
        if bare:  # companies are printed without ROR's "(United States)": "Meta", "NVIDIA"
            out.append((bare, gold, "registry"))
        if city:
            out.append((f"{name}, {city}", gold, "registry"))
            out.append((city, frozenset(), "registry"))  # a city alone names no organisation
    return out


def featurise(text: str, registry: Registry) -> list[tuple[int, list[float]]]:
    ctx = context(text, registry)
    cands = candidates(ctx, registry)
    return [
        (c.org, vector(row)) for c, row in zip(cands, describe(cands, ctx, registry), strict=True)
    ]


def _fit(examples: list[Example], registry: Registry) -> list[float]:
    from sklearn.linear_model import LogisticRegression  # training only: not on the CLI path

    xs, ys = [], []
    ids = registry.columns["id"]
    for ex in examples:
        for org, x in ex.pairs:
            xs.append(x)
            ys.append(int(ids[org] in ex.gold))
    lr = LogisticRegression(
        C=C, solver="liblinear", fit_intercept=False, random_state=0, max_iter=1000
    )
    lr.fit(xs, ys)
    return [round(float(w), 6) for w in lr.coef_[0]]


def _score(ex: Example, weights: list[float]) -> Scored:
    return rank(ex.pairs, weights)


def _calibrate(scored: list[tuple[Scored, bool]]) -> list[float]:
    from sklearn.linear_model import LogisticRegression

    xs = [s.calibration_input() for s, _ in scored if s.org is not None]
    ys = [int(ok) for s, ok in scored if s.org is not None]
    lr = LogisticRegression(C=10.0, solver="liblinear", fit_intercept=False, random_state=0)
    lr.fit(xs, ys)
    return [round(float(w), 6) for w in lr.coef_[0]]


def _threshold(points: list[tuple[float, bool]]) -> float:
    """The lowest confidence at which the answers above it are precise enough."""
    points = sorted(points, key=lambda p: -p[0])
    best, right = 1.0, 0
    for n, (conf, ok) in enumerate(points, 1):
        right += ok
        if right / n >= TARGET_PRECISION:
            best = conf
    return round(best, 4)


def figures(examples: list[Example], registry: Registry, model: Model) -> dict[str, Any]:
    """Precision and recall over the strings whose organisation is in the registry, and
    precision over every string (an answer to one naming none, or one the registry lacks, is
    wrong), with a reliability table of `confidence`."""
    ids = registry.columns["id"]
    inreg = answered_in = right = answered_all = 0
    bins: dict[int, list[int]] = {}
    for ex in examples:
        s = _score(ex, model.weights)
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
    data: Path = DEFAULT_DATA, registry: Registry | None = None
) -> tuple[Model, dict[str, Any]]:
    registry = registry or load_registry()
    labelled = read_labelled(data)
    examples = [Example(t, g, s, featurise(t, registry)) for t, g, s in labelled]
    held = [e for e in examples if e.bucket(HELD_OUT) == 0]
    fit_on = [e for e in examples if e.bucket(HELD_OUT) != 0]
    fit_on += [Example(t, g, s, featurise(t, registry)) for t, g, s in registry_names(registry)]
    ids = registry.columns["id"]
    oof: list[tuple[Scored, bool]] = []
    for k in range(FOLDS):
        inner = [e for e in fit_on if e.bucket(FOLDS, "fold") != k]
        weights = _fit(inner, registry)
        for e in fit_on:
            if e.bucket(FOLDS, "fold") == k:
                s = _score(e, weights)
                oof.append((s, s.org is not None and ids[s.org] in e.gold))
    calibration = _calibrate(oof)
    threshold = _threshold([(calibrated(calibration, s), ok) for s, ok in oof])
    weights = _fit(fit_on, registry)
    model = Model(weights, calibration, threshold, {})
    report = {
        "trained_on": {
            "strings": len(fit_on),
            "data": [p.name for p in sorted(data.glob("*.csv"))],
        },
        "registry": registry.source,
        "held_out": figures(held, registry, model),
        "held_out_by_file": {
            src: figures([e for e in held if e.source == src], registry, model)
            for src in sorted({e.source for e in held})
        },
    }
    return Model(weights, calibration, threshold, report), report


def main(data: Path = DEFAULT_DATA, out: Path | None = BUNDLED_MODEL) -> dict[str, Any]:
    started = time.monotonic()
    model, report = train(data)
    if out is not None:
        out.write_text(json.dumps(model.to_json(), indent=1) + "\n", encoding="utf-8")
    report["seconds"] = round(time.monotonic() - started, 1)
    return report


if __name__ == "__main__":
    print(json.dumps(main(), indent=1))
