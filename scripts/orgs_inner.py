"""The organisation resolver's inner out-of-fold figures and their error buckets (issue 27).

    uv run python scripts/orgs_inner.py featurise CACHE        # ~2 min: every string's candidates
    uv run python scripts/orgs_inner.py oof CACHE OOF          # ~8 min: five inner folds' chains
    uv run python scripts/orgs_inner.py report CACHE OOF [--examples N]   # seconds

The figure `ingest orgs train` chooses settings on is `inner_out_of_fold`: the fitting side
(held-out bucket 0 left out, the registry's own names added) scored by chains fitted without
each string's fold, confidences cross-fitted once more. This script computes exactly that figure
in three steps whose results are cached (pickles under /tmp, never committed), so an experiment
on the abstention model reruns only `report`, and one on the second stage only `oof` and
`report`: the held-out strings are never scored. `report` prints the figure, and buckets every
labelled fitting-side string whose organisation is registered and which the resolver does not
answer right (scripts/orgs_errors.py's buckets: a_not_candidate, b_lost_to_parent, ...,
c_abstained; `_SAID` marks a wrong answer given, a precision loss), with examples.

Measured on the model of 2026-12-03 (inner P 0.955 R 0.761, top-1 0.872): of the 1,232 misses,
571 right but abstained, 284 lost to an unrelated organisation printed with it (92 answered),
202 never a candidate (40 answered), 86 lost to the labelled unit's parent, 56 to a unit of the
labelled organisation, 24 to a relative (University of California strings labelled with one
campus), 9 to a same-named one. Many "never a candidate" labels name an organisation the string
does not print (strings joined by a slash labelled Witten/Herdecke University or
Dana-Farber/Harvard Cancer Center; Wageningen's short group names labelled Wageningen
University & Research): no candidate door can fix those. With the memory of labelled segments
(orgs/memory.py, 2026-12-04): inner P 0.955 R 0.776, top-1 0.874; 1,155 misses (506 right but
abstained, 271 lost to an unrelated organisation, 202 never a candidate).
"""

from __future__ import annotations

import argparse
import pickle
import random
import sys
from collections import Counter
from pathlib import Path
from typing import Any

from ingest.orgs.augment import registry_names
from ingest.orgs.model import Scored, calibrated
from ingest.orgs.registry import load_registry
from ingest.orgs.train import (
    DEFAULT_DATA,
    FOLDS,
    HELD_OUT,
    Example,
    _calibrate,
    _fit_chain,
    _inner_figures,
    _score,
    _threshold,
    featurise,
    read_labelled,
)

sys.path.insert(0, str(Path(__file__).resolve().parent))
from orgs_errors import _bucket  # noqa: E402  (a sibling script)

# (scored, right, labelled and registered, calibration bucket, index into the fitting side)
Row = tuple[Scored, bool, bool, int, int]


def fitting_side(cache: Path) -> list[Example]:
    labelled, names = pickle.loads(cache.read_bytes())
    return [e for e in labelled if e.bucket(HELD_OUT) != 0] + names


def featurise_all(cache: Path) -> None:
    registry = load_registry()
    labelled = [Example(t, g, s, featurise(t, registry)) for t, g, s in read_labelled(DEFAULT_DATA)]
    names = [Example(t, g, s, featurise(t, registry)) for t, g, s in registry_names(registry)]
    cache.write_bytes(pickle.dumps((labelled, names)))


def out_of_fold(cache: Path, out: Path) -> None:
    registry = load_registry()
    ids = registry.columns["id"]
    fit_on = fitting_side(cache)
    rows: list[Row] = []
    for k in range(FOLDS):
        chain = _fit_chain([e for e in fit_on if e.bucket(FOLDS, "fold") != k], registry)
        for i, e in enumerate(fit_on):
            if e.bucket(FOLDS, "fold") == k:
                s = _score(e, chain, registry)
                known = e.source != "registry" and any(g in registry.by_id for g in e.gold)
                ok = s.org is not None and ids[s.org] in e.gold
                rows.append((s, ok, known, e.bucket(FOLDS, "calibration"), i))
    out.write_bytes(pickle.dumps(rows))


def report(cache: Path, oof: Path, examples: int) -> dict[str, Any]:
    registry = load_registry()
    names = registry.columns["name"]
    fit_on = fitting_side(cache)
    rows: list[Row] = pickle.loads(oof.read_bytes())
    conf: dict[int, float] = {}
    for k in range(FOLDS):  # as train._cross_calibrated: each string's from a model without it
        cal = _calibrate([(s, ok) for s, ok, _kn, b, _i in rows if b != k])
        conf.update((i, calibrated(cal, s)) for s, _ok, _kn, b, i in rows if b == k)
    points = [(conf[i], ok) for _s, ok, known, _b, i in rows if known]
    threshold = _threshold(points)
    buckets: Counter[str] = Counter()
    shown: dict[str, list[dict[str, Any]]] = {}
    for s, ok, known, _b, i in rows:
        said = conf[i] >= threshold
        if not known or (ok and said):
            continue
        e = fit_on[i]
        b = "c_abstained" if ok else _bucket(e, s.org, registry) + ("_SAID" if said else "")
        buckets[b] += 1
        shown.setdefault(b, []).append(
            {
                "text": e.text[:160],
                "gold": sorted(names[registry.by_id[g]] for g in e.gold if g in registry.by_id),
                "got": names[s.org] if s.org is not None else None,
                "confidence": round(conf[i], 3),
            }
        )
    rng = random.Random(1)
    return {
        "inner_out_of_fold": _inner_figures(points, threshold),
        "threshold": threshold,
        "miss_buckets": dict(buckets.most_common()),
        "examples": {k: rng.sample(v, min(examples, len(v))) for k, v in sorted(shown.items())},
    }


if __name__ == "__main__":
    import json

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("step", choices=("featurise", "oof", "report"))
    parser.add_argument("cache", type=Path)
    parser.add_argument("oof", type=Path, nargs="?")
    parser.add_argument("--examples", type=int, default=8)
    args = parser.parse_args()
    if args.step == "featurise":
        featurise_all(args.cache)
    elif args.oof is None:
        parser.error("oof and report need the OOF file")
    elif args.step == "oof":
        out_of_fold(args.cache, args.oof)
    else:
        print(json.dumps(report(args.cache, args.oof, args.examples), indent=1))
