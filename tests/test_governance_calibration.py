"""The `confidence` of governance claims, calibrated at the level the editor sees (issue 24).

On the out-of-fold (leave-one-project-out) person claims, whether each emitted claim names a
gold person of its page: an isotonic map from the person model's logit to the share of right
claims (`extractors.people.model.isotonic`), shipped in the model file, and its reliability
table, ECE and Brier score, cross-validated once more (`governance_calibration`). The gate: the
shipped model is the one `ingest evaluate --governance --fit` writes."""

from __future__ import annotations

import json
from typing import Any

import pytest

from extractors.people import model as learned
from extractors.people.model import Linear, isotonic, step
from ingest_cli.evaluate.governance_calibration import (
    OutOfFold,
    calibrate,
    format_calibration,
    reliability,
)


def test_isotonic_is_monotone_pooled_smoothed_and_deterministic() -> None:
    pairs = [(z / 10, z % 7 != 0) for z in range(100)] + [(-1.0, False)] * 30
    curve = isotonic(pairs, min_block=10)
    assert curve == isotonic(list(reversed(pairs)), min_block=10)
    values = [p for _z, p in curve]
    assert values == sorted(values) and all(0 < p < 1 for p in values)
    assert [z for z, _p in curve] == sorted(z for z, _p in curve)
    assert step(curve, -5.0) == values[0] < 0.2  # the block of wrong claims
    assert step(curve, 50.0) == values[-1] > 0.8
    assert isotonic([]) == ()


def test_a_curve_replaces_platt_and_survives_json() -> None:
    linear = Linear({"a": 1.0}, 0.0, (0.01, 2.6), ((0.0, 0.4), (1.0, 0.9)))
    assert linear.confidence({"a": -3.0}) == 0.4 and linear.confidence({"a": 0.5}) == 0.9
    assert linear.confidence({"a": 9.0}) == 0.9  # above the last bound: the last step
    assert Linear.from_json(linear.to_json()) == linear
    assert Linear({"a": 1.0}, 0.0, (1.0, 0.0)).confidence({"a": 0.0}) == 0.5  # no curve: Platt


def test_reliability_table_ece_and_brier() -> None:
    scored = [(0.95, True)] * 9 + [(0.95, False)] + [(0.25, False)] * 3 + [(0.25, True)]
    c = reliability(scored)
    [low, high] = [b for b in c.bins if b.count]
    assert (low.count, round(low.confidence, 3), low.precision) == (4, 0.25, 0.25)
    assert (high.count, round(high.confidence, 3), high.precision) == (10, 0.95, 0.9)
    assert c.ece == pytest.approx((4 * 0.0 + 10 * 0.05) / 14)
    assert c.brier == pytest.approx((9 * 0.05**2 + 0.95**2 + 3 * 0.25**2 + 0.75**2) / 14)
    assert c.mean_right == pytest.approx((9 * 0.95 + 0.25) / 10)
    assert c.mean_wrong == pytest.approx((0.95 + 3 * 0.25) / 4)


def test_each_projects_claims_are_calibrated_without_it() -> None:
    # project "b" alone has low logits: a map fitted without it has never seen them, so it
    # gives them the lowest step learned from "a", not b's own (all right) outcome
    claims = [OutOfFold("a", z / 10, z >= 5) for z in range(10)] * 5
    claims += [OutOfFold("b", -3.0, True)] * 5
    c = calibrate(claims)
    assert c.claims == 55 and c.wrong == 25
    low = [b for b in c.bins if b.count][0]
    assert low.precision is not None and low.precision > low.confidence


@pytest.fixture(scope="module")
def result() -> Any:
    from ingest_cli.evaluate.governance_model import cross_validate

    return cross_validate()


def test_the_shipped_model_is_what_fit_writes(result: Any) -> None:
    shipped = json.loads(learned.MODEL_FILE.read_text(encoding="utf-8"))
    refit = json.loads(json.dumps(result.model.to_json(), ensure_ascii=False, sort_keys=True))
    assert shipped == refit, "run: uv run ingest evaluate --governance --fit"


def test_cross_validated_confidence_is_calibrated_and_lower_for_wrong_claims(result: Any) -> None:
    c = result.calibration
    assert c is not None and c.claims >= 1500 and c.wrong > 0
    assert c.ece < 0.02  # the Platt map it replaces (slope 0.011: ~0.93 for all): ECE 0.059
    assert c.brier < 0.0122  # ... and Brier 0.0122
    # (the wrong claims are not told apart out of fold: most of the few left are a page's
    # whole "CNCF Representative" table, which the gold leaves out; the report says so)
    assert c.mean_right is not None and c.mean_wrong is not None
    curve = result.model.person.curve
    assert len(curve) >= 2 and curve[0][1] < curve[-1][1]  # low logits get less confidence
    assert sum(b.count for b in c.bins) == c.claims
    text = format_calibration(c)
    assert "ECE" in text and "Brier" in text and "mean confidence: right" in text
    found = c.to_json()
    assert found["claims"] == c.claims and len(found["bins"]) == 10
    assert {"count", "mean_confidence", "precision"} <= set(found["bins"][-1])
