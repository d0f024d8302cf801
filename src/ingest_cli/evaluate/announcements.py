"""Score announcement extraction against gold events (`ingest evaluate --announcements`).

Each labelled post is read as a user's `ingest extract FILE --url URL` reads it (the gold `url`,
`extractors.choose`, then the chosen extractor's claims) and its event claims are compared with
the post's gold events (`gold.json`: `{FILE: {"url", "events", "optional_events", ...}}`):

- an event claim is one whose predicate is a gold predicate (`maintainer`, `affiliation`,
  `program_chair`, `speaker`, `keynote`, `organizer`, `award`) or `panelist` / `participant`;
- a claim matches a gold event when the person is the same (GitHub handle when both have one, else
  the name folded: case, accents, punctuation and markup aside; or the claim's name equal to the
  gold handle), the predicate is the same (or one of the event's `alt_predicates`) and the status
  agrees (`former` and `emeritus` both say the role ended; no status is `current`). Matching is
  one-to-one, claims quoting the event's own text first;
- a claim matching no required event but an `optional_events` one is neither credit nor fault;
  any other event claim is a false positive;
- dates right: matched claims whose date (`date`, else `since`, else `until`) is the gold date.

Precision, recall and dates right: per post and in total (micro: counts summed over posts). A
post whose extraction fails scores nothing found, and its error is listed.
"""

from __future__ import annotations

import json
import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ingest.errors import ConfigError, IngestError
from ingest.models import Claim

ROOT = Path(__file__).resolve().parents[3]
TRAIN = ROOT / "fixtures" / "announcements-train"
DERIVED = TRAIN / "derived"
MAX_BYTES = 50 * 1024 * 1024
EVENT_PREDICATES = frozenset(
    {"maintainer", "affiliation", "program_chair", "speaker", "keynote", "organizer", "award",
     "panelist", "participant"}
)  # fmt: skip
ENDED = frozenset({"former", "emeritus"})


@dataclass(frozen=True)
class EvalSet:
    """Labelled posts: a name for the report, the posts folder, the gold file."""

    label: str
    posts: Path
    gold: Path


PROBES = ROOT / "fixtures" / "announcements"
# the real posts of the blind probe rounds (each set scored blind once, then labelled gold like
# the rest): part of every fit and of the leave-one-project-out figures, reported as their part.
# A folder holding a BLIND file is a set still kept blind: scored only with --gold, never fitted.
PROBE_SETS: tuple[EvalSet, ...] = tuple(
    EvalSet(d.name, d, d / "gold.json")
    for d in sorted(PROBES.glob("real-probe*"), key=lambda d: (len(d.name), d.name))  # 2 < 10
    if (d / "gold.json").is_file() and not (d / "BLIND").is_file()
)
DEFAULT_SETS: tuple[EvalSet, ...] = (
    EvalSet("announcements-train", TRAIN, TRAIN / "gold.json"),
    EvalSet("announcements", PROBES, DERIVED / "announcements.json"),
    *PROBE_SETS,
)


def fold(text: str | None) -> str:
    """A name compared without case, accents, punctuation, markup or spacing."""
    text = unicodedata.normalize("NFKD", text or "")
    text = "".join(c for c in text if not unicodedata.combining(c)).lower()
    return " ".join(re.sub(r"[^\w\s]|_", " ", text).split())


def collapse(text: str | None) -> str:
    return " ".join((text or "").split())


@dataclass(frozen=True)
class GoldEvent:
    name: str
    handle: str | None
    predicate: str
    status: str
    date: str | None
    quote: str
    alt_predicates: tuple[str, ...] = ()
    project: str | None = None  # the body the event is about ("Python Steering Council")

    @classmethod
    def of(cls, raw: dict[str, Any], where: str) -> GoldEvent:
        try:
            return cls(
                name=str(raw["name"]),
                handle=raw.get("handle"),
                predicate=str(raw["predicate"]),
                status=str(raw.get("status") or "current"),
                date=raw.get("date"),
                quote=collapse(raw.get("quote")),
                alt_predicates=tuple(raw.get("alt_predicates") or ()),
                project=raw.get("project") or None,
            )
        except (KeyError, TypeError) as exc:
            raise ConfigError(f"gold event without {exc} in {where}") from None

    def label(self) -> str:
        who = self.name + (f" (@{self.handle})" if self.handle else "")
        return f"{who}: {self.predicate} {self.status} {self.date}"


@dataclass(frozen=True)
class GoldPost:
    file: str
    path: Path
    url: str
    events: tuple[GoldEvent, ...]
    optional: tuple[GoldEvent, ...]


def load_set(s: EvalSet) -> list[GoldPost]:
    """The gold posts of a set; ConfigError naming the file for a missing or malformed one."""
    try:
        data = json.loads(s.gold.read_text("utf-8"))
    except (OSError, ValueError) as exc:
        raise ConfigError(f"cannot read gold file {s.gold}: {exc}") from None
    if not isinstance(data, dict):
        raise ConfigError(f"gold file {s.gold} is not an object keyed by post file name")
    posts = []
    for name, entry in data.items():
        where = f"{s.gold} [{name}]"
        if not isinstance(entry, dict) or not entry.get("url"):
            raise ConfigError(f"gold entry without a url in {where}")
        path = s.posts / name
        if not path.is_file():
            raise ConfigError(f"gold names {name}, which is not in {s.posts}")
        posts.append(
            GoldPost(
                file=name,
                path=path,
                url=str(entry["url"]),
                events=tuple(GoldEvent.of(e, where) for e in entry.get("events") or ()),
                optional=tuple(GoldEvent.of(e, where) for e in entry.get("optional_events") or ()),
            )
        )
    return posts


def _claim_status(claim: Claim) -> str:
    status = str(claim.qualifiers.get("status") or "current")
    return "emeritus" if status in ENDED else "current"


def claim_date(claim: Claim) -> str | None:
    q = claim.qualifiers
    value = q.get("date") or q.get("since") or q.get("until")
    return str(value)[:10] if value else None


def _same_person(claim: Claim, event: GoldEvent) -> bool:
    handle = (claim.subject.github or "").lower()
    gold_handle = (event.handle or "").lower()
    if handle and gold_handle:
        return handle == gold_handle
    name = fold(claim.subject.name)
    return bool(name) and (name == fold(event.name) or name == fold(event.handle))


def _agrees(claim: Claim, event: GoldEvent) -> bool:
    return (
        (claim.predicate == event.predicate or claim.predicate in event.alt_predicates)
        and _claim_status(claim) == event.status
        and _same_person(claim, event)
    )


@dataclass
class PostScore:
    file: str
    url: str
    extractor: str | None = None
    error: str | None = None
    gold: int = 0
    found: int = 0  # event claims, those matching only an optional event left out
    matched: int = 0
    dated: int = 0  # matched with the gold date
    with_project: int = 0  # matched events whose gold names a project
    named: int = 0  # ... and whose claim's object is that project (case and punctuation aside)
    missed: list[str] = field(default_factory=list)
    spurious: list[str] = field(default_factory=list)
    misdated: list[str] = field(default_factory=list)

    def add(self, other: PostScore) -> None:
        self.gold += other.gold
        self.found += other.found
        self.matched += other.matched
        self.dated += other.dated
        self.with_project += other.with_project
        self.named += other.named

    @property
    def precision(self) -> float | None:
        return self.matched / self.found if self.found else None

    @property
    def recall(self) -> float | None:
        return self.matched / self.gold if self.gold else None

    @property
    def dates_right(self) -> float | None:
        return self.dated / self.matched if self.matched else None

    @property
    def projects_right(self) -> float | None:
        return self.named / self.with_project if self.with_project else None

    def figures(self) -> dict[str, Any]:
        return {
            "gold": self.gold,
            "found": self.found,
            "matched": self.matched,
            "dated": self.dated,
            "precision": _round(self.precision),
            "recall": _round(self.recall),
            "dates_right": _round(self.dates_right),
            "projects_right": _round(self.projects_right),
        }


def _round(value: float | None) -> float | None:
    return None if value is None else round(value, 4)


def _claim_label(claim: Claim) -> str:
    who = claim.subject.name + (f" (@{claim.subject.github})" if claim.subject.github else "")
    return (
        f"{who}: {claim.predicate} {_claim_status(claim)} {claim_date(claim)} "
        f"[{claim.object}] «{collapse(claim.evidence.quote)[:90]}»"
    )


def score_claims(post: GoldPost, claims: Sequence[Claim], score: PostScore) -> None:
    """Match a post's event claims with its gold events, one to one, and count."""
    events = [c for c in claims if c.predicate in EVENT_PREDICATES]
    score.gold = len(post.events)
    free = list(range(len(post.events)))
    pairs: list[tuple[Claim, GoldEvent]] = []
    left: list[Claim] = []
    # claims quoting the event's own text first, then any agreeing event
    for strict in (True, False):
        pending = events if strict else left
        left = []
        for claim in pending:
            quote = collapse(claim.evidence.quote)
            hit = next(
                (
                    i
                    for i in free
                    if _agrees(claim, post.events[i])
                    and (not strict or _quotes_meet(quote, post.events[i].quote))
                ),
                None,
            )
            if hit is None:
                left.append(claim)
            else:
                free.remove(hit)
                pairs.append((claim, post.events[hit]))
    for claim in left:
        if any(_agrees(claim, e) or _same_fact(claim, e) for e in post.optional):
            continue
        score.spurious.append(_claim_label(claim))
    score.matched = len(pairs)
    score.found = len(pairs) + len(score.spurious)
    for claim, event in pairs:
        if event.project:
            score.with_project += 1
            score.named += fold(claim.object) == fold(event.project)
        if claim_date(claim) == event.date:
            score.dated += 1
        else:
            score.misdated.append(f"{event.label()}, found {claim_date(claim)}")
    score.missed = [post.events[i].label() + f" «{post.events[i].quote[:90]}»" for i in free]


def _quotes_meet(found: str, gold: str) -> bool:
    return bool(found) and (gold in found or found in gold)


def _same_fact(claim: Claim, event: GoldEvent) -> bool:
    """An optional event allows the person's claim of its predicate whatever the status."""
    return claim.predicate == event.predicate and _same_person(claim, event)


def score_post(post: GoldPost) -> PostScore:
    """One labelled post, read as `ingest extract FILE --url URL` reads it."""
    import extractors
    from ingest.documents import snapshot_from_file

    score = PostScore(file=post.file, url=post.url)
    claims: list[Claim] = []
    try:
        snapshot = snapshot_from_file(post.url, post.path, MAX_BYTES)
        module = extractors.choose(post.url, snapshot)
        score.extractor = extractors.tag(module)
        claims = list(extractors.claims_of(module, snapshot))
    except IngestError as exc:
        score.error = str(exc)
    score_claims(post, claims, score)
    return score


@dataclass
class SetScore:
    label: str
    posts: list[PostScore]

    @property
    def total(self) -> PostScore:
        total = PostScore(file=self.label, url="")
        for p in self.posts:
            total.add(p)
        return total


@dataclass
class Report:
    sets: list[SetScore]

    @property
    def total(self) -> PostScore:
        total = PostScore(file="total", url="")
        for s in self.sets:
            total.add(s.total)
        return total

    def set(self, label: str) -> SetScore:
        for s in self.sets:
            if s.label == label:
                return s
        raise KeyError(label)

    def to_json(self) -> dict[str, Any]:
        return {
            "sets": {
                s.label: {
                    "total": s.total.figures(),
                    "posts": [
                        {"file": p.file, "url": p.url, "extractor": p.extractor, "error": p.error}
                        | p.figures()
                        | {"missed": p.missed, "spurious": p.spurious, "misdated": p.misdated}
                        for p in s.posts
                    ],
                }
                for s in self.sets
            },
            "total": self.total.figures(),
        }


def score(sets: Sequence[EvalSet] = DEFAULT_SETS) -> Report:
    """Score every labelled post of the sets."""
    return Report([SetScore(s.label, [score_post(p) for p in load_set(s)]) for s in sets])


def sets_for(gold: Path | None, posts: Path | None) -> tuple[EvalSet, ...]:
    """What `ingest evaluate --announcements [--gold FILE] [--posts DIR]` scores: the default
    sets, or one set whose gold file defaults to `<posts>/gold.json` and posts folder to the gold
    file's folder."""
    if gold is None and posts is None:
        return DEFAULT_SETS
    posts_dir = posts if posts is not None else gold.parent  # type: ignore[union-attr]
    gold_file = gold if gold is not None else posts_dir / "gold.json"
    return (EvalSet(posts_dir.resolve().name, posts_dir, gold_file),)
