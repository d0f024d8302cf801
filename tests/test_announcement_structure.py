"""Candidates from structure alone (`extractors.announcements.structure`), constructed posts."""

from __future__ import annotations

from extractors.announcements import names, structure
from extractors.announcements import post as announcement
from extractors.announcements.decision import Model
from ingest.models import Snapshot

URL = "https://example.org/blog/2025/03/04/new-maintainers/"


def _candidates(text: str) -> list[tuple[str, str, bool]]:
    body = '---\ntitle: "New maintainers"\ndate: 2025-03-04\n---\n\n' + text
    _post, _context, found = announcement.read_candidates(Snapshot(url=URL, body=body.encode()))
    return [(c.person.name, c.spot.kind, c.claimed) for c in found if c.person and c.spot]


def test_a_heading_holding_a_name_alone_is_a_candidate_with_the_lead_in_above() -> None:
    text = (
        "Today we are announcing the addition of two new maintainers.\n\n"
        "### Ada Lovelace\n\nAda works at Example Corp.\n\n"
        "### Grace Hopper\n\nGrace works elsewhere.\n"
    )
    body = '---\ntitle: "New maintainers"\ndate: 2025-03-04\n---\n\n' + text
    _post, _context, found = announcement.read_candidates(Snapshot(url=URL, body=body.encode()))
    headings = [c for c in found if c.spot and c.spot.kind == "heading"]
    assert [c.person.name for c in headings if c.person] == ["Ada Lovelace", "Grace Hopper"]
    # the lead-in is the paragraph under the heading above, not the card's own text
    assert {c.spot.lead for c in headings} == {
        "Today we are announcing the addition of two new maintainers."
    }


def test_name_lines_under_a_lead_in_and_handle_like_items_are_candidates() -> None:
    found = _candidates(
        "The newly elected board seats will be filled by:\n\n<b>Ada Lovelace</b>\n\n"
        "<b>Grace Hopper</b>\n\nCongratulations to our new core team:\n\n- timoreo\n- dada513\n"
    )
    assert ("Ada Lovelace", "line", False) in found and ("Grace Hopper", "line", False) in found
    assert {n for n, kind, _ in found if kind == "item"} >= {"timoreo", "dada513"}


def test_a_one_token_subject_of_a_role_sentence_is_a_candidate() -> None:
    people = structure.extra_people(
        "paragraph", "After two years, Swirl has stepped down from his role as maintainer.", []
    )
    assert [p.name for p in people] == ["Swirl"]
    # no role word: no subject; a pronoun is no one
    assert structure.extra_people("paragraph", "Swirl has gone fishing.", []) == []
    assert structure.extra_people("paragraph", "He has stepped down as maintainer.", []) == []
    # a name the name reader found already is not proposed twice
    known = [names.Person("Swirl Lovelace")]
    assert structure.extra_people("paragraph", "Swirl has stepped down as maintainer.", known) == []


def test_the_context_cues_are_generic() -> None:
    f = structure.context_cues(
        {"sent": "Ada Lovelace", "lead": "Please welcome our new maintainers:", "head": None,
         "intro": None, "title": "Stepping down"},
        "Ada Lovelace", "Ada Lovelace", False,
    )  # fmt: skip
    assert f["role:lead"] == f["change:lead"] == f["ended:title"] == f["spot:name_only"] == 1.0
    code = structure.context_cues(
        {"sent": "[abc](https://github.com/o/r/commit/abc) - fix (Ada Lovelace)"},
        "[abc] - fix (Ada Lovelace)", "Ada Lovelace", False,
        (("abc", "https://github.com/o/r/commit/abc"),),
    )  # fmt: skip
    assert code["link:code"] == 1.0
    assert structure.handle_like("cozyGalvinism") and not structure.handle_like("Ada Lovelace")


def test_a_structure_candidate_a_rule_claim_names_is_fitted_on_but_never_given() -> None:
    body = (
        '---\ntitle: "New maintainers"\ndate: 2025-03-04\n---\n\n'
        "We are happy to welcome Ada Lovelace as a new maintainer.\n"
    )
    _post, context, found = announcement.read_candidates(Snapshot(url=URL, body=body.encode()))
    claimed = [c for c in found if c.claim is None and c.claimed]
    assert claimed, found
    model = Model(weights={"maintainer": {"kind:paragraph": 50.0}}, reader_threshold=0.0)
    from extractors.announcements import reader

    given = reader.decide([c for c in found if c.claim is None], model, context)
    assert given == []


def test_a_name_word_the_post_prints_in_lower_case_is_a_cue_of_a_common_word() -> None:
    lower = structure.lower_words(["The elected delegate of @ada.", "see https://x.org/grace"])
    assert "elected" in lower and "ada" not in lower and "grace" not in lower
    assert structure.name_cues("Elected Delegate", "Elected Delegate", lower, set()) == {
        "person:common_word": 1.0
    }
    assert structure.name_cues("Grace Hopper", "Grace Hopper", lower, set()) == {}


def test_a_spot_another_persons_rule_claim_quotes_is_a_cue() -> None:
    quote = "Ada Lovelace was elected as the Security Officer (uncontested)"
    assert structure.name_cues("uncontested", quote, set(), {quote}) == {"spot:claimed_other": 1.0}
    # a person a rule claim names (claimed None): the claim is their own
    assert structure.name_cues("Ada Lovelace", quote, set(), None) == {}
