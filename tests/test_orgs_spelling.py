"""Words the registry never prints, read as words it does (ingest.orgs.spelling)."""

from __future__ import annotations

import pytest

from ingest.orgs.candidates import candidates, context
from ingest.orgs.registry import Registry, load_registry
from ingest.orgs.spelling import _one_off, respell, unglue


@pytest.fixture(scope="module")
def registry() -> Registry:
    return load_registry()


@pytest.mark.parametrize(
    ("a", "b", "near"),
    [("genenetech", "genentech", True), ("hitchock", "hitchcock", True),
     ("universiat", "universitat", True), ("laboratoty", "laboratory", True),
     ("abcdefgh", "badcefgh", False), ("hitchcock", "hitchcock", False),
     ("genentech", "genentechs1", False)],
)  # fmt: skip
def test_one_letter_off(a: str, b: str, near: bool) -> None:
    assert _one_off(a, b) is near and _one_off(b, a) is near


def test_a_slip_or_a_written_out_umlaut_is_read_as_the_registry_word(registry: Registry) -> None:
    assert respell("genenetech", registry) == "genentech"
    assert respell("hitchock", registry) == "hitchcock"
    # known words, short ones (acronyms, "Laue") and numbers stay as printed
    for word in ("university", "genentech", "laue", "kaist", "umr3738", "201"):
        assert respell(word, registry) is None


def test_words_run_together_are_split_only_into_registry_words(registry: Registry) -> None:
    assert unglue("Peking UniversityShenzhen Graduate School", registry) == (
        "Peking University Shenzhen Graduate School"
    )
    for kept in ("DeepMind", "McLean Hospital", "PhD Program", "iGReD"):
        assert unglue(kept, registry) == kept


def test_a_misspelt_company_becomes_a_candidate(registry: Registry) -> None:
    ctx = context("Genenetech", registry)
    assert ctx.respelled == {"genentech"}
    names = {registry.columns["name"][c.org] for c in candidates(ctx, registry)}
    assert any(n.startswith("Genentech") for n in names)
