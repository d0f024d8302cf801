"""Error analysis of the organisation resolver on the held-out split (issue 27).

    uv run python scripts/orgs_errors.py [--examples N] [--write]

Fits the model exactly as `ingest orgs train --no-write` does (held-out bucket 0), then buckets
every held-out string whose organisation is in the registry and that the resolver gets wrong:

  a_not_candidate   the right organisation is not among the candidates at all
  b_lost_to_parent  among the candidates, lost to one of its ancestors (the label is the unit)
  b_lost_to_child   ... lost to one of its units (the label is the parent)
  b_related         ... lost to a relative (a shared ancestor: a sibling)
  b_same_name       ... lost to an organisation with the same name elsewhere
  b_unrelated       ... lost to an unrelated organisation
  c_abstained       right top-1, but its confidence is below the threshold
  and, for a wrong top-1, whether it was answered (a precision loss) or abstained.

Also: the unit-vs-parent labelling convention on the training side (strings whose race holds an
organisation and one of its ancestors: how often the label is the finer one), and recall per ROR
type. Nothing here changes the model.
"""

from __future__ import annotations

import argparse
import json
from collections import Counter
from typing import Any

from ingest.orgs.model import BUNDLED_MODEL, calibrated, race
from ingest.orgs.registry import Registry, load_registry
from ingest.orgs.rerank import ancestors
from ingest.orgs.train import (
    DEFAULT_DATA,
    HELD_OUT,
    Chain,
    Example,
    _score,
    featurise,
    read_labelled,
    train,
    write_model,
)


def _bucket(ex: Example, org: int | None, registry: Registry) -> str:
    cand = {o for o, *_ in ex.pairs}
    gold = {registry.by_id[g] for g in ex.gold if g in registry.by_id}
    if not gold & cand:
        return "a_not_candidate"
    if org is None:
        return "a_no_winner"
    up = ancestors(org, registry)
    if gold & up:
        return "b_lost_to_child"  # the winner is a unit of the labelled organisation
    if any(org in ancestors(g, registry) for g in gold):
        return "b_lost_to_parent"  # the winner is the labelled unit's ancestor
    if any(up & ancestors(g, registry) for g in gold):
        return "b_related"
    names = registry.columns["name"]
    bare = {names[g].rsplit(" (", 1)[0].lower() for g in gold}
    if names[org].rsplit(" (", 1)[0].lower() in bare:
        return "b_same_name"
    return "b_unrelated"


def analyse(examples_shown: int, write: bool = False) -> dict[str, Any]:
    registry = load_registry()
    model, report = train(DEFAULT_DATA, registry, 0)
    if write:  # the same model `ingest orgs train` writes (one fit for both)
        write_model(model, BUNDLED_MODEL)
    labelled = read_labelled(DEFAULT_DATA)
    ids = registry.columns["id"]
    types = registry.columns["types"]
    chain = Chain(model.weights, model.prior, model.forest, model.memory)
    buckets: Counter[str] = Counter()
    answered_wrong: Counter[str] = Counter()
    per_type: dict[str, list[int]] = {}
    shown: dict[str, list[dict[str, Any]]] = {}
    convention: Counter[str] = Counter()
    for text, gold, source in labelled:
        ex = Example(text, gold, source, featurise(text, registry))
        held = ex.bucket(HELD_OUT) == 0
        if not held:
            # the labelling convention: a race holding an organisation and one of its ancestors
            in_race = [r.org for r in race(ex.pairs, model.weights)]
            g = {registry.by_id[x] for x in gold if x in registry.by_id}
            for o in in_race:
                up = ancestors(o, registry) & set(in_race)
                if up and (o in g or up & g):
                    convention["unit" if o in g else "ancestor"] += 1
            continue
        if not any(g in registry.by_id for g in gold):
            continue
        s = _score(ex, chain, registry)
        conf = calibrated(model.calibration, s)
        said = s.org is not None and conf >= model.threshold
        ok = s.org is not None and ids[s.org] in gold
        t = types[registry.by_id[sorted(g for g in gold if g in registry.by_id)[0]]].split()
        for ty in t or ["none"]:
            per_type.setdefault(ty, [0, 0])
            per_type[ty][0] += 1
            per_type[ty][1] += ok and said
        if ok and said:
            continue
        b = "c_abstained" if ok else _bucket(ex, s.org, registry)
        buckets[b] += 1
        if not ok and said:
            answered_wrong[b] += 1
        if len(shown.setdefault(b, [])) < examples_shown:
            shown[b].append(
                {
                    "text": text,
                    "gold": sorted(registry.columns["name"][registry.by_id[x]] for x in gold
                                   if x in registry.by_id),
                    "got": registry.columns["name"][s.org] if s.org is not None else None,
                    "confidence": round(conf, 3),
                }
            )  # fmt: skip
    return {
        "held_out": report["held_out"],
        "threshold": model.threshold,
        "miss_buckets": dict(sorted(buckets.items())),
        "of_which_answered_wrong": dict(sorted(answered_wrong.items())),
        "recall_by_type": {
            k: {"strings": v[0], "recall": round(v[1] / v[0], 3)}
            for k, v in sorted(per_type.items())
        },
        "training_convention_unit_vs_ancestor": dict(convention),
        "examples": shown,
    }


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--examples", type=int, default=8)
    parser.add_argument("--write", action="store_true", help="write the model it fitted")
    args = parser.parse_args()
    print(json.dumps(analyse(args.examples, args.write), indent=1))
