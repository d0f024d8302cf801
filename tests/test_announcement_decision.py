"""The announcement reader's learned event decision (extractors/announcements: cues, decision,
reader) and its training code (src/ingest_cli/evaluate/announcements_model.py). The posts
here are CONSTRUCTED (made-up people and projects); the real posts are scored by
tests/test_announcement_eval_gate.py."""

from __future__ import annotations

import json
import time

from extractors.announcements import cues, decision, reader
from extractors.announcements import post as announcement
from extractors.announcements.decision import Model
from ingest.fact_identity import fact_key
from ingest.models import Snapshot
from ingest_cli.evaluate.announcements import GoldEvent, GoldPost
from ingest_cli.evaluate.announcements_model import label, project_key

URL = "https://example.org/blog/2025/03/04/news/"
POST = b"""---
title: "Example Conference keynotes"
date: 2025-03-04
---

Meet the people on stage at Example Conference this year:

- Ann Lee, Example Labs
- Bo Chen

## Day 1

- Carla Diaz

Program committee:

### Tuesday

- Dan Evans
"""


def _read() -> tuple[object, object, list[reader.Candidate]]:
    return announcement.read_candidates(Snapshot(url=URL, body=POST))


def test_spots_know_their_lead_in_heading_and_the_lead_in_above_the_heading() -> None:
    post, _context, _found = _read()
    spots = {s.sentence.display: s for s in cues.spots(post)}  # type: ignore[arg-type]
    ann = spots["Ann Lee, Example Labs"]
    lead = "Meet the people on stage at Example Conference this year:"
    assert ann.kind == "item" and ann.lead == lead
    assert ann.list_size == 2 and ann.heading is None
    carla = spots["Carla Diaz"]
    assert carla.heading == "Day 1" and carla.lead == "Day 1"
    assert carla.intro == lead
    assert spots["Dan Evans"].intro == "Program committee:"


def test_words_are_lower_cased_in_headings_and_plurals_folded() -> None:
    assert cues.words("Keynote Speakers of the Day", any_case=True) == {"keynote", "speaker", "day"}
    assert cues.words("Ann Lee joins the Committee") == {"join"}  # names and proper nouns out
    assert cues.event_class("maintainer", "former") == "maintainer/emeritus"
    assert cues.event_class("keynote", None) == "keynote"
    assert cues.event_class("panelist", None) == "none"


def _model(rule_bias: float, keynote: float) -> Model:
    bias = {k: -5.0 for k in cues.CLASSES}
    bias["none"] = 0.0
    return Model(
        weights={"keynote": {"lead:stage": keynote}},
        bias=bias,
        rule_bias=rule_bias,
        calibration=(1.0, 0.0),
    )


def test_the_decision_gives_the_person_readers_events_once_with_a_confidence() -> None:
    _post, context, found = _read()
    people = [c for c in found if c.claim is None]
    assert {c.person.name for c in people if c.person} >= {"Ann Lee", "Bo Chen"}
    claims = reader.decide(found, _model(-1.0, 10.0), context)  # type: ignore[arg-type]
    names = [c.subject.name for c in claims if c.predicate == "keynote"]
    assert sorted(names) == ["Ann Lee", "Bo Chen"]  # under the lead-in the model weighs; once each
    for claim in claims:
        assert 0.5 < claim.qualifiers["confidence"] < 1.0
        assert claim.qualifiers["date"] == "2025-03-04" and claim.object
    assert reader.decide(found, _model(-1.0, 0.0), context) == []  # type: ignore[arg-type]


def test_a_rule_claim_is_kept_only_when_the_decision_says_its_proposal_is_right() -> None:
    text = b"<html><head><title>News</title></head><body><p>Ann Lee has joined the Example "
    text += b"Steering Committee.</p></body></html>"
    _post, context, found = announcement.read_candidates(Snapshot(url=URL, body=text))
    rules = [c for c in found if c.claim is not None]
    assert [c.claim.subject.name for c in rules if c.claim] == ["Ann Lee"]
    assert rules[0].proposal == "maintainer"
    kept = reader.decide(found, _model(2.0, 0.0), context)
    assert [c.subject.name for c in kept] == ["Ann Lee"]
    assert kept[0].qualifiers["confidence"] == round(1 / (1 + 2.718281828459045**-2.0), 3)
    assert reader.decide(found, _model(-2.0, 0.0), context) == []
    assert [c.subject.name for c in reader.decide(found, decision.KEEP_RULES, context)] == [
        "Ann Lee"
    ]


def test_the_model_round_trips_through_json_and_loads_fast() -> None:
    model = _model(1.5, 3.0)
    again = Model.from_json(json.loads(json.dumps(model.to_json())))
    features = {"lead:stage": 1.0}
    assert again.best(features) == model.best(features) == ("keynote", 3.0 - 5.0)
    assert again.rule_margin(features) == 1.5
    p = again.probabilities(features)
    assert abs(sum(p.values()) - 1.0) < 1e-9 and max(p, key=p.__getitem__) == "none"
    decision.shipped.cache_clear()
    start = time.perf_counter()
    shipped = decision.shipped()
    assert time.perf_counter() - start < 0.5
    assert not shipped.keep_rules and shipped.weights and shipped.rule_weights


def test_confidence_is_not_part_of_a_facts_identity() -> None:
    [claim] = [c for c in announcement.extract(Snapshot(url=URL, body=b"<p>Ann Lee has joined "
               b"the Example Steering Committee.</p>")) if c.subject.name == "Ann Lee"]  # fmt: skip
    assert "confidence" in claim.qualifiers
    change = {"profile": "ann-lee", "kind": "added", "claim": claim.model_dump(mode="json")}
    other = json.loads(json.dumps(change))
    other["claim"]["qualifiers"]["confidence"] = 0.123
    assert fact_key(change) == fact_key(other)


def test_candidates_are_labelled_by_the_gold_of_the_same_person_and_quote() -> None:
    _post, _context, found = _read()
    by_name = {c.person.name: c for c in found if c.person}

    def event(name: str, predicate: str, quote: str) -> GoldEvent:
        return GoldEvent(name, None, predicate, "current", "2025-03-04", quote)

    gold = GoldPost(
        "x.md",
        None,  # type: ignore[arg-type]
        URL,
        (event("Ann Lee", "keynote", "Ann Lee, Example Labs"),),
        (event("Carla Diaz", "keynote", "Carla Diaz"),),
    )
    assert label(by_name["Ann Lee"], gold) == "keynote"
    assert label(by_name["Bo Chen"], gold) == "none"
    assert label(by_name["Carla Diaz"], gold) is None  # optional only: not fitted
    assert project_key("kubernetes-dev-2023-10-02-x.md") == project_key("kubernetes-blog-x.md")
    assert project_key("constructed-pytorch-blog-x.html") == "pytorch"
