"""Candidate events of a post and the learned decision over them.

Two readers propose; one decision disposes:

- the rule readers (`events`, `lists`): their claims are candidates whose cues include the class
  they propose (`rule:maintainer`, ...); the decision keeps a claim when its class beats `none`;
- the person reader: every person the shared entry reader (`extractors.people.entries`) finds in
  a list item, or the sentence reader (`names.mask`, first names resolved to the full names the
  post gave) finds in a sentence or term, that no rule claim names, is a candidate with no
  proposal; the decision gives the most likely event when it beats `none`, built as the rule
  readers build that event (role from the lead-in or heading, body resolved to the project, the
  sentence's date else the post's).

Every claim given carries `confidence` (the decision's margin, calibrated on the
leave-one-project-out figures). A person the person reader proposes at several spots is given
once per class, at the spot the decision is surest of.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from extractors.announcements import cues, dates, events, names, structure
from extractors.announcements.bodies import clean_body
from extractors.announcements.decision import Model
from extractors.announcements.events import Context
from extractors.document.model import collapse
from extractors.people import entries as _entries
from extractors.people import features as _features
from extractors.people import model as _person_model
from extractors.people import names as _people
from ingest.models import Claim

EVENT_CLASSES = frozenset(cues.CLASSES) - {"none"}
PASSED_EVENTS = frozenset({"panelist", "participant"})  # events no labelled post has
READER_KIND = {"item": "li", "paragraph": "paragraph", "term": "dt", "row": "td", "line": "li",
               "heading": "li"}  # fmt: skip


@dataclass
class Candidate:
    features: dict[str, float]
    proposal: str  # the rule readers' class, "none" for the person reader's
    claim: Claim | None = None  # the rule claim
    person: names.Person | None = None  # the person reader's person ...
    spot: cues.Spot | None = None  # ... and where
    claimed: bool = False  # a person a rule claim names: fitted on, never given from here


def person_key(name: str, github: str | None) -> str:
    return (github or "").lower() or " ".join(collapse(name).lower().split())


def _person_score(name: str, github: str | None, spot: cues.Spot | None) -> float:
    if spot is None:
        return 0.0
    candidate = _features.Candidate(
        name=name,
        github=github,
        email=None,
        quote=spot.quote,
        kind=READER_KIND.get(spot.kind, "paragraph"),
        section=spot.lead or spot.heading,
        list_size=spot.list_size,
    )
    return round(_person_model.shipped().person.score(_features.person_features(candidate)), 3)


def _spot_people(spot: cues.Spot, context: Context) -> list[names.Person]:
    found = _named_people(spot, context)
    return found + structure.extra_people(spot.kind, spot.sentence.display, found)


def _named_people(spot: cues.Spot, context: Context) -> list[names.Person]:
    display = spot.sentence.display
    if spot.kind == "row":  # a table row: its person is in its first cell
        first = collapse(display.split(" | ")[0])
        return [names.Person(e.name, e.github) for e in _entries.read(first, spot.links)
                if e.github or _people.looks_like_name(e.name)][:1]  # fmt: skip
    if spot.kind in ("item", "line", "heading"):
        found = [
            names.Person(e.name, e.github)
            for e in _entries.read(display, spot.links)
            if (e.github or _people.looks_like_name(e.name)) and not _label(e.name, display)
        ]
        if found:
            return found
    known = {k: v for k, v in context.known.items() if v.name}
    return names.mask(display, spot.links, known)[1]


def _label(name: str, display: str) -> bool:
    """`name` is the label of a "Label: value" line ("Couchers.org Profile: @emily"), not a
    person: the line opens with it and a colon follows."""
    text = collapse(display).lstrip(" *_")
    return text.startswith(name) and text[len(name) :].lstrip(" *_").startswith(":")


def candidates(post: Any, context: Context, rule_claims: list[Claim]) -> list[Candidate]:
    """The candidates of a post: its rule claims, then the people only the person reader finds."""
    found = cues.spots(post)
    out: list[Candidate] = []
    claimed: set[str] = set()
    for claim in rule_claims:
        proposal = cues.event_class(claim.predicate, claim.qualifiers.get("status"))
        spot = cues.spot_of(claim.evidence.quote, found)
        name, github = claim.subject.name, claim.subject.github
        claimed.add(person_key(name, github))
        claimed.add(person_key(name, None))
        f = cues.cues(spot, name, github, post, proposal, _person_score(name, github, spot), 1)
        out.append(Candidate(f, proposal, claim=claim))
    author = _author(post)
    lower = structure.lower_words(post.texts())
    quoted = {collapse(claim.evidence.quote) for claim in rule_claims}
    for spot in found:
        people = _spot_people(spot, context)
        if author and cues.FIRST_PERSON.search(spot.sentence.display):
            people = [author, *people]  # "I was made a maintainer": the post's one author
        named = {person_key(p.name, p.github) for p in _named_people(spot, context)}
        for person in people:
            key = person_key(person.name, person.github)
            if not person.name:
                continue
            taken = key in claimed or person_key(person.name, None) in claimed
            score = _person_score(person.name, person.github, spot)
            subject = spot.kind == "paragraph" and key not in named and person is not author
            f = cues.cues(spot, person.name, person.github, post, "none", score, len(people),
                          subject)  # fmt: skip
            f.update(structure.name_cues(person.name, spot.quote, lower,
                                         None if taken else quoted))  # fmt: skip
            out.append(Candidate(f, "none", person=person, spot=spot, claimed=taken))
    return out


def _author(post: Any) -> names.Person | None:
    """The post's one author, when the post names one person as its author."""
    authors = [a for a in post.authors if _people.looks_like_name(a)]
    return names.Person(authors[0]) if len(authors) == 1 else None


def decide(found: list[Candidate], model: Model, context: Context,
           trace: list[tuple[Claim, float]] | None = None) -> list[Claim]:  # fmt: skip
    """The claims the decision gives, rule claims in their order, then the person reader's;
    `trace` (when given) receives each claim given with its margin (for the calibration)."""
    out: list[Claim] = []
    day = context.post.date
    best: dict[tuple[str, str], tuple[float, Claim]] = {}
    for c in found:
        if c.claim is not None:
            if model.keep_rules:
                out.append(c.claim)
                continue
            if c.proposal == "none":  # not a class of the decision (a panelist): given as read
                if c.claim.predicate in PASSED_EVENTS:
                    sure = model.confidence(model.rule_margin(c.features))
                    out.append(_with_confidence(c.claim, sure, day))
                else:
                    out.append(c.claim)
                continue
            margin = model.rule_margin(c.features)
            if margin > 0:
                out.append(_with_confidence(c.claim, model.confidence(margin), day))
                if trace is not None:
                    trace.append((out[-1], margin))
            continue
        if model.keep_rules or c.person is None or c.spot is None or c.claimed:
            continue
        klass, margin = model.best(c.features)
        if margin <= model.reader_threshold:
            continue
        claim = build(klass, c.person, c.spot, context)
        if claim is None:
            continue
        key = (person_key(c.person.name, c.person.github), klass)
        if key not in best or margin > best[key][0]:
            best[key] = (margin, _with_confidence(claim, model.confidence(margin), day))
    if trace is not None:
        trace += [(claim, margin) for margin, claim in best.values()]
    return _without_title_repeats(out + [claim for _m, claim in best.values()])


NICKNAME = re.compile(r"^(?P<first>\S+)\s+\((?P<nick>[^()]+)\)\s+(?P<rest>.+)$")


def _facts(claim: Claim) -> set[tuple[str, str, str]]:
    """The claim's (name, predicate, status), under each form of a name with a nickname:
    "Tomasz (Tomek) Zawadzki" is also "Tomasz Zawadzki" and "Tomek Zawadzki"."""
    status = "emeritus" if claim.qualifiers.get("status") in ("emeritus", "former") else "current"
    name = " ".join(collapse(claim.subject.name).lower().split())
    forms = {name}
    nick = NICKNAME.match(name)
    if nick:
        forms |= {f"{nick['first']} {nick['rest']}", f"{nick['nick']} {nick['rest']}"}
    return {(form, claim.predicate, status) for form in forms}


def _without_title_repeats(claims: list[Claim]) -> list[Claim]:
    """A title's claim that the body says too (the same person, predicate and status) is given
    once, from the body ("Welcome A as our newest maintainer!" over "... A is now a maintainer";
    "New maintainer - Tomek Z." over "adding Tomasz (Tomek) Z. to the maintainers")."""
    body = set().union(*(_facts(c) for c in claims if not c.evidence.locator.startswith("title")))
    return [c for c in claims if not (c.evidence.locator.startswith("title") and _facts(c) & body)]


def _with_confidence(claim: Claim, confidence: float, post_date: str | None = None) -> Claim:
    """The claim with its confidence; an event claim no date of which is printed takes the
    post's (`date`), as every event does unless the post states another."""
    q = {**claim.qualifiers, "confidence": confidence}
    if post_date and not (q.get("date") or q.get("since") or q.get("until")):
        q["date"] = post_date
    return claim.model_copy(update={"qualifiers": q})


def build(klass: str, person: names.Person, spot: cues.Spot, context: Context) -> Claim | None:
    """The claim of an event the person reader's candidate is decided to be."""
    sentence = spot.sentence
    stated = dates.sentence_date(sentence.display, sentence.date)
    when = stated.iso if stated else sentence.date
    extra = stated.qualifiers() if stated else {}
    locator, quote = sentence.locator, sentence.quote
    event = clean_body(context.title_event) or ""
    if klass in ("maintainer", "maintainer/emeritus"):
        status = "emeritus" if klass.endswith("emeritus") else "current"
        role = next(
            (r for r in (_people.role_of(spot.lead or ""), _people.role_of(spot.heading or ""))
             if r and not _people.is_generic(r)),
            None,
        ) or (f"{context.title_body} member" if context.title_body else "member")  # fmt: skip
        claim = events._role_claim(context, person, role, status, when, extra, sentence)
        return claim if claim.predicate == "maintainer" else None
    if klass in ("keynote", "speaker"):
        return context.claim(person, klass, event, {"role": klass, "date": when, **extra},
                             locator, quote)  # fmt: skip
    if klass in ("program_chair", "organizer"):
        level = "lead" if klass == "program_chair" else "member"
        role = collapse(spot.lead or spot.heading or klass.replace("_", " "))
        return context.claim(person, klass, event or role,
                             {"role": role, "level": level, "date": when, **extra},
                             locator, quote)  # fmt: skip
    if klass == "award":
        role = collapse(spot.heading or spot.lead or "award")
        return context.claim(person, "award", clean_body(role) or role,
                             {"role": role, "date": when, **extra}, locator, quote)  # fmt: skip
    if klass.startswith("affiliation") and person.note:
        status = "emeritus" if klass.endswith("emeritus") else "current"
        return context.claim(person, "affiliation", person.note,
                             {"status": status, "date": when, **extra}, locator, quote)  # fmt: skip
    return None
