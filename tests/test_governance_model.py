"""The learned decision of the governance reader (issue 24): fitted deterministically, shipped
as readable JSON that loads fast, Platt calibration, folds by project."""

from __future__ import annotations

import json
import time

from extractors.people import model as learned
from extractors.people.features import Candidate, person_features
from ingest_cli.evaluate.governance_model import project_key


def _samples() -> list[learned.Sample]:
    person = {"name:like": 1.0, "acct:handle": 1.0, "hw:maintainers": 1.0}
    group = {"name:group_words": 1.0, "kind:heading": 1.0, "hw:maintainers": 1.0}
    return [learned.Sample(person, True, f"p{i % 3}") for i in range(30)] + [
        learned.Sample(group, False, f"p{i % 3}") for i in range(10)
    ]


def test_fit_is_deterministic_and_separates_people_from_groups() -> None:
    first, second = learned.fit(_samples()), learned.fit(_samples())
    assert first.to_json() == second.to_json()
    assert first.score({"name:like": 1.0, "acct:handle": 1.0}) > 0.8
    assert first.score({"name:group_words": 1.0, "kind:heading": 1.0}) < 0.2


def test_a_heading_word_of_one_project_is_not_learned() -> None:
    samples = [*_samples(), learned.Sample({"hw:donations": 1.0}, False, "only-one")]
    assert "hw:donations" not in learned.fit(samples).weights


def test_platt_calibration_is_monotone_and_bounded() -> None:
    pairs = [(z / 2, z > 0) for z in range(-10, 11)] + [(0.2, False), (-0.2, True)]
    a, b = learned.platt(pairs)
    calibrated = learned.Linear({"x": 1.0}, 0.0, (a, b))
    low, high = calibrated.confidence({"x": -3.0}), calibrated.confidence({"x": 3.0})
    assert 0 < low < 0.5 < high < 1 and a > 0


def test_the_shipped_model_is_readable_json_and_loads_in_well_under_a_second() -> None:
    data = json.loads(learned.MODEL_FILE.read_text(encoding="utf-8"))
    assert data["format"] == 1 and data["person"]["weights"] and data["affiliation"]["weights"]
    assert data["meta"]["calibration"].startswith("person claims: isotonic")
    assert data["person"]["curve"]  # the claim-level map (tests/test_governance_calibration.py)
    learned.shipped.cache_clear()
    start = time.perf_counter()
    model = learned.shipped()
    assert time.perf_counter() - start < 0.5
    assert not model.keep_all and model.affiliation.calibration[0] > 0
    # person claims: the claim-level map, not Platt (whose slope over every candidate says
    # nothing: 0.011 before, now below 0)
    values = [p for _z, p in model.person.curve]
    assert values == sorted(values) and model.person.confidence({}) == model.person.calibrated(
        model.person.bias
    )
    # (a group's heading with its members listed under it, "NumFOCUS Subcommittee", is told
    # from a person's by structure now: tests/test_governance_cards.py)
    path = Candidate("storage", "storage", None, "`storage/`: @storage", "li", "Maintainers",
                     section_role=True, list_size=9)  # fmt: skip
    person = Candidate("Ralf Gommers", "rgommers", None, "Ralf Gommers (@rgommers)", "li",
                       "Steering council", section_role=True, list_size=9)  # fmt: skip
    assert model.person.score(person_features(person)) > model.person.score(person_features(path))
    assert model.person.score(person_features(person)) > learned.THRESHOLD


def test_folds_are_projects() -> None:
    assert project_key("governance-train", "kubernetes-steering-README.2023.md") == "kubernetes"
    assert project_key("governance-train", "python-pep-8106.2024.rst") == "python"
    assert project_key("pep13", "python-pep-0013.2019.rst") == "python"  # with PEP 8106
    assert project_key("pytorch", "docs-2.13.persons_of_interest.md") == "pytorch"
