"""The organisation resolver's memory of labelled segments (orgs/memory.py, issue 27)."""

from __future__ import annotations

import math

import pytest

from ingest.orgs.memory import Memory, keys

UTRECHT, UMC = "04pp8hn57", "0575yy874"


def test_keys_are_the_folded_segments_without_footnote_numbers() -> None:
    text = "1 Bijvoet Center for Biomolecular Research, Utrecht University 3; Utrecht University"
    assert keys(text) == ("bijvoet center for biomolecular research", "utrecht university")


def _memory() -> Memory:
    return Memory.build(
        [
            ("Bijvoet Center for Biomolecular Research, Utrecht University", frozenset({UTRECHT})),
            ("Bijvoet Center for Biomolecular Research, Utrecht", frozenset({UTRECHT})),
            ("bijvoet center for biomolecular research; utrecht university", frozenset({UTRECHT})),
            ("Bijvoet Center for Biomolecular Research, UMC Utrecht", frozenset({UMC})),
            ("Optomechatronics Group", frozenset()),
        ]
    )


def test_a_segment_seen_labelled_is_evidence_for_its_label() -> None:
    memory = _memory()
    # the third string folds as the first: one entry, so four strings hold the segment
    assert memory.entries["bijvoet center for biomolecular research"] == (3, {UTRECHT: 2, UMC: 1})
    seen, per = memory.evidence("Bijvoet Center for Biomolecular Research, The Netherlands")
    assert seen == pytest.approx(math.log1p(3))
    assert per[UTRECHT] == (2, pytest.approx(2 / 3)) and per[UMC] == (1, pytest.approx(1 / 3))
    assert memory.evidence("Somewhere else entirely") == (0.0, {})


def test_a_fitting_string_sees_the_memory_without_itself() -> None:
    """Leave-one-out: the string's own entry is taken out, as the held-out split would."""
    memory = _memory()
    text = "Bijvoet Center for Biomolecular Research, UMC Utrecht"
    _seen, with_itself = memory.evidence(text)
    seen, per = memory.evidence(text, frozenset({UMC}))
    assert with_itself[UMC][0] == 1 and UMC not in per
    assert seen == pytest.approx(math.log1p(2)) and per[UTRECHT] == (2, pytest.approx(1.0))
    # a string labelled no organisation still counts as a string holding the segment
    assert memory.evidence("Optomechatronics Group", frozenset()) == (0.0, {})
    assert memory.evidence("Optomechatronics Group")[0] == pytest.approx(math.log1p(1))


def test_the_memory_round_trips_through_json() -> None:
    memory = _memory()
    again = Memory.from_json(memory.to_json())
    assert again.entries == memory.entries


def test_the_shipped_model_carries_a_memory_the_race_uses() -> None:
    from ingest.orgs.model import load_model

    model = load_model()
    assert len(model.memory.entries) > 1000
    # the labelled strings print "San Francisco" beside UCSF's units, and label UCSF
    _seen, per = model.memory.evidence("Department of Medicine, San Francisco, CA")
    assert max(per, key=lambda g: per[g][0]) == "043mz5j54"


def test_the_race_sees_what_the_memory_says_of_each_runner() -> None:
    from ingest.orgs.features import NAMES
    from ingest.orgs.registry import load_registry
    from ingest.orgs.rerank import REL_NAMES, Runner, race_features

    reg = load_registry()
    utrecht, umc = reg.by_id[UTRECHT], reg.by_id[UMC]
    x = tuple(0.0 for _ in NAMES)
    race = [Runner(umc, 2.0, x, 1, 1), Runner(utrecht, 1.5, x, 1, 1)]
    evidence = _memory().evidence("Bijvoet Center for Biomolecular Research, The Netherlands")
    rows = race_features(race, reg, {}, evidence)
    rel = [dict(zip(REL_NAMES, row[len(NAMES) :], strict=True)) for row in rows]
    assert rel[0]["mem_seen"] == rel[1]["mem_seen"] == pytest.approx(math.log1p(3))
    assert (rel[0]["mem_hits"], rel[1]["mem_hits"]) == (
        pytest.approx(math.log1p(1)),
        pytest.approx(math.log1p(2)),
    )
    assert rel[1]["mem_share"] == pytest.approx(2 / 3)
    # without evidence the memory's features are zero
    bare = race_features(race, reg, {})
    assert all(row[len(NAMES) + REL_NAMES.index("mem_share")] == 0.0 for row in bare)
