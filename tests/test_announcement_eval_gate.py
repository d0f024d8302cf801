"""Quality gate: the announcement extractor on the labelled posts stays at or above the floors
of the `announcements` key of eval_floors.json, set by set (training posts, the fixtures, the
six real-probe sets: all of them fitted on together).

The floors are the leave-one-project-out cross-validated figures (`ingest evaluate
--announcements --cv`: the learned event decision refitted without the post's project), so the
gate recomputes those; and the shipped model must be the one `--fit` writes from the same
posts (deterministic), so what ships is what was measured.

The floors are only ever raised by hand, in the commit that earns them; this test never writes
the file. A missing set, figure or post fails, so a floor cannot disappear silently.
"""

from __future__ import annotations

import json
from functools import cache

from extractors.announcements.decision import MODEL_FILE
from ingest_cli.evaluate.announcements import DEFAULT_SETS
from ingest_cli.evaluate.announcements_model import CvResult, cross_validate, part_total, parts
from tests.floors import FLOORS, set_floors

FIGURES = ("precision", "recall", "dates_right", "projects_right")


def _floors() -> dict[str, dict[str, float]]:
    return set_floors("announcements", (s.label for s in DEFAULT_SETS), ("posts", *FIGURES))


@cache
def _result() -> CvResult:
    return cross_validate(DEFAULT_SETS)


def test_every_labelled_post_is_scored_and_meets_its_cross_validated_floors() -> None:
    floors = _floors()
    before = FLOORS.read_bytes()
    report = _result().cv
    below = []
    for s in report.sets:
        floor = floors[s.label]
        assert len(s.posts) >= floor["posts"], (s.label, len(s.posts))
        assert not [p.file for p in s.posts if p.error], s.label
        total = s.total
        for key in FIGURES:
            got = getattr(total, key)
            if got is None or got < floor[key]:
                below.append(f"{s.label} {key}: {got} < floor {floor[key]}")
    assert not below, "below the floors: " + "; ".join(below)
    assert FLOORS.read_bytes() == before  # the gate never rewrites its floors


def test_the_shipped_event_model_is_the_one_the_fit_writes() -> None:
    shipped = json.loads(MODEL_FILE.read_text("utf-8"))
    refit = json.loads(json.dumps(_result().model.to_json()))
    assert shipped == refit, "run: uv run ingest evaluate --announcements --fit"


# round 9 (r9-51): a structure candidate is given only above a margin (READER_THRESHOLD), so a
# fold's model may give a candidate the model fitted on everything holds back (its own post's
# negatives pull the margin down): real-probe-5 trains at R 0.727 but cross-validates at 0.909.
# Checked per part, within 2% (real probes: training 0.770, cv 0.783).
RECALL_SLACK = 0.02


def test_the_training_figures_are_at_least_the_cross_validated_recall() -> None:
    """Fitted on every post, the decision finds about what it finds on unseen projects."""
    result = _result()
    for name, labels in parts(result.cv).items():
        trained = part_total(result.training, labels).recall or 0
        assert trained >= (part_total(result.cv, labels).recall or 0) - RECALL_SLACK, name


def test_the_derived_set_stays_perfect() -> None:
    """The fixtures: gold derived from their hand-checked golden files, all figures 1.0."""
    assert all(_floors()["announcements"][key] == 1.0 for key in FIGURES)
