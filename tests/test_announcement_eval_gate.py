"""Quality gate: the announcement extractor on the labelled posts stays at or above the floors
of the `announcements` key of eval_floors.json, set by set (training posts, the fixtures).

The floors are only ever raised by hand, in the commit that earns them; this test never writes
the file. A missing set, figure or post fails, so a floor cannot disappear silently.
"""

from __future__ import annotations

from ingest_cli.evaluate.announcements import DEFAULT_SETS, score
from tests.floors import FLOORS, set_floors

FIGURES = ("precision", "recall", "dates_right", "projects_right")


def _floors() -> dict[str, dict[str, float]]:
    return set_floors("announcements", (s.label for s in DEFAULT_SETS), ("posts", *FIGURES))


def test_every_labelled_post_is_scored_and_meets_its_floors() -> None:
    floors = _floors()
    before = FLOORS.read_bytes()
    report = score()
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


def test_the_derived_set_stays_perfect() -> None:
    """The fixtures: gold derived from their hand-checked golden files, all figures 1.0."""
    assert all(_floors()["announcements"][key] == 1.0 for key in FIGURES)
