"""The ninth BLIND set of real announcement posts (round 10, branch r10-65), pinned as measured.

`fixtures/announcements/real-probe-9/` holds 11 real posts of 10 projects/sites in no corpus,
fixture or earlier probe set (10 reporting role changes, 1 negative), labelled by hand and scored
once on main (5561ed6) with no fix: P 0.246 R 0.390 dates 0.312 (16 of 41 events found, 65
claims; the 49 false claims all come from the negative, release notes listing contributors). The
folder holds a `BLIND` file, so it is not one of the default fit / leave-one-project-out sets: it
stays blind for the next round. The floors are the blind figures rounded down by 0.02.
"""

from __future__ import annotations

from pathlib import Path

from ingest_cli.evaluate.announcements import PROBE_SETS, EvalSet, score

FOLDER = Path(__file__).resolve().parent.parent / "fixtures" / "announcements" / "real-probe-9"
FLOORS = {"precision": 0.22, "recall": 0.37, "dates_right": 0.29}


def test_the_ninth_probe_set_scores_at_least_its_blind_figures() -> None:
    report = score([EvalSet(FOLDER.name, FOLDER, FOLDER / "gold.json")])
    figures = report.total.figures()
    assert figures["gold"] == 41
    for key, floor in FLOORS.items():
        assert figures[key] >= floor, (key, figures)


def test_the_ninth_probe_set_stays_out_of_the_fit() -> None:
    assert (FOLDER / "BLIND").is_file()
    assert FOLDER.name not in {s.label for s in PROBE_SETS}
