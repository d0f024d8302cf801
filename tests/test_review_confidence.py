"""Low-confidence flags are shown as such (issue 24): the helper, and the change page."""

from __future__ import annotations

from ingest.review.confidence import LOW_CONFIDENCE, confidence_of, low_confidence
from ingest.review.web.app import templates


def _claim(confidence: object) -> dict[str, object]:
    return {
        "predicate": "maintainer",
        "qualifiers": {"status": "current", "confidence": confidence},
    }


def test_low_confidence_is_below_the_line_only() -> None:
    assert low_confidence(_claim(0.31)) == 0.31
    assert low_confidence(_claim(LOW_CONFIDENCE)) is None
    assert low_confidence(_claim(0.98)) is None
    assert low_confidence({"qualifiers": {}}) is None and low_confidence(None) is None
    assert confidence_of(_claim("high")) is None  # not a number: no confidence at all


def test_the_change_page_marks_a_low_confidence_flag() -> None:
    env = templates().env
    source = (
        "{% set confidence = low_confidence(claim) %}"
        "{% if confidence is not none %}LOW {{ '%.2f' | format(confidence) }}{% endif %}"
    )
    page = env.from_string(source)
    assert page.render(claim=_claim(0.42)) == "LOW 0.42"
    assert page.render(claim=_claim(0.93)) == ""
    template = env.loader.get_source(env, "_change.html")[0]  # type: ignore[union-attr]
    assert "low_confidence(row.claim)" in template and "Low confidence" in template
