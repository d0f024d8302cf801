"""Score governance extraction against hand-checked gold rows (`ingest evaluate --governance`).

Each labelled page is read as a user's `ingest extract FILE --url URL` reads it (the real public
URL from `governance_gold.page_url`, `extractors.choose`, then the chosen extractor's claims) and
compared with its gold rows:

- **people**: distinct persons holding any role claim (`maintainer`) against distinct gold
  persons. Within one page, rows or claims sharing a GitHub handle or a name are one person. A
  predicted person matches a gold one by handle when both have one, else by name (case, accents,
  punctuation, whitespace and markup folded away), or by its name equal to the gold handle when
  the gold gives no name. Matching is one-to-one.
- **people with section**: distinct (person, section) pairs, sections folded the same way.
- **affiliation**: distinct (person, organisation) pairs from `affiliation` claims and from an
  `affiliation` qualifier of a role claim, organisations compared as `facts.org_tokens` does
  (word order, case, accents and legal suffixes aside), against the gold rows' affiliations.
- extra columns on matched rows (a gold row and a role claim of its person under the same
  section): whether status, role and scope agree.

Precision, recall: per page and in total (micro: counts summed over pages). A page whose
extraction fails scores nothing found, and its error is listed.
"""

from __future__ import annotations

import html
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ingest.errors import IngestError
from ingest.facts import org_tokens
from ingest.models import Claim
from ingest_cli.evaluate.governance_gold import GoldPage, GoldRow, load_set
from ingest_cli.evaluate.governance_people import (
    Person,
    group_people,
    match_people,
    norm,
    norm_handle,
)

ROOT = Path(__file__).resolve().parents[3]
TRAIN = ROOT / "fixtures" / "governance-train"


@dataclass(frozen=True)
class EvalSet:
    """Labelled pages: a name for the report, the pages folder, the gold folder."""

    label: str
    pages: Path
    gold: Path


# the training corpus, PEP 13 and the PyTorch pages (gold rows derived from their hand-checked
# golden claim files: fixtures/governance-train/derived/README.md), the real probe sets
DEFAULT_SETS: tuple[EvalSet, ...] = (
    EvalSet("governance-train", TRAIN, TRAIN / "gold"),
    EvalSet(
        "pep13", ROOT / "fixtures" / "other-governance", TRAIN / "derived" / "other-governance"
    ),
    EvalSet("pytorch", ROOT / "fixtures" / "governance", TRAIN / "derived" / "governance"),
    *(  # the real pages of the blind probe rounds, each scored blind once, then labelled: part
        # of every fit and of the leave-one-project-out figures, reported as their part. A folder
        # holding a BLIND file is a set still kept blind: scored only with --pages, never fitted.
        EvalSet(d.name, d, d / "gold")
        for d in sorted((ROOT / "fixtures" / "governance").glob("real-probe*"))
        if (d / "gold").is_dir() and not (d / "BLIND").is_file()
    ),
)
PROBE_LABELS = frozenset(s.label for s in DEFAULT_SETS if s.label.startswith("real-probe"))
ROLE_PREDICATES = frozenset({"maintainer"})
# the role a claim without a `role` qualifier holds, from its level
LEVEL_ROLES = {
    "lead": "lead core maintainer",
    "core": "core maintainer",
    "module": "module maintainer",
    "library": "library maintainer",
}
MAX_BYTES = 50 * 1024 * 1024


def norm_org(org: str | None) -> frozenset[str]:
    return org_tokens(html.unescape(org or ""))


def claim_role(claim: Claim) -> str:
    role = claim.qualifiers.get("role")
    if isinstance(role, str) and role:
        return role
    return LEVEL_ROLES.get(str(claim.qualifiers.get("level") or ""), "")


@dataclass
class Counts:
    hit: int = 0  # predicted items that are right
    predicted: int = 0
    gold: int = 0
    found: int = 0  # gold items found (equals `hit` for one-to-one matches)

    def add(self, other: Counts) -> None:
        self.hit += other.hit
        self.predicted += other.predicted
        self.gold += other.gold
        self.found += other.found

    @property
    def precision(self) -> float | None:
        return self.hit / self.predicted if self.predicted else None

    @property
    def recall(self) -> float | None:
        return self.found / self.gold if self.gold else None

    def to_json(self) -> dict[str, Any]:
        return {
            "precision": self.precision,
            "recall": self.recall,
            "hit": self.hit,
            "predicted": self.predicted,
            "gold": self.gold,
        }


@dataclass
class Agreement:
    rows: int = 0
    status: int = 0
    role: int = 0
    scope: int = 0

    def add(self, other: Agreement) -> None:
        self.rows += other.rows
        self.status += other.status
        self.role += other.role
        self.scope += other.scope


@dataclass
class PageScore:
    file: str
    url: str
    extractor: str = ""
    error: str | None = None
    people: Counts = field(default_factory=Counts)
    sections: Counts = field(default_factory=Counts)
    affiliations: Counts = field(default_factory=Counts)
    agreement: Agreement = field(default_factory=Agreement)
    missed_rows: list[str] = field(default_factory=list)
    spurious_people: list[str] = field(default_factory=list)
    missed_affiliations: list[str] = field(default_factory=list)
    spurious_affiliations: list[str] = field(default_factory=list)


def _label(name: str | None, handle: str | None) -> str:
    if name and handle:
        return f"{name} (@{handle})"
    return name or f"@{handle}"


def score_claims(rows: Sequence[GoldRow], claims: Iterable[Claim], page: PageScore) -> None:
    """Fill `page`'s figures and misses from the gold rows and the predicted claims."""
    claims = list(claims)
    roles = [c for c in claims if c.predicate in ROLE_PREDICATES]
    affs = [c for c in claims if c.predicate == "affiliation"]
    gold_people, gold_of = group_people(
        [(norm_handle(r.handle), norm(r.name), _label(r.name, r.handle)) for r in rows]
    )
    subjects = roles + affs
    pred_people, pred_of = group_people(
        [
            (
                norm_handle(c.subject.github),
                norm(c.subject.name),
                _label(c.subject.name, c.subject.github),
            )
            for c in subjects
        ]
    )
    role_people = {pred_of[i] for i in range(len(roles))}
    match = match_people(pred_people, gold_people)

    page.people = Counts(
        hit=sum(1 for p in role_people if p in match),
        predicted=len(role_people),
        gold=len(gold_people),
        found=len({match[p] for p in role_people if p in match}),
    )
    page.spurious_people = sorted(pred_people[p].label for p in role_people if p not in match)

    gold_pairs = {(gold_of[i], norm(r.section)) for i, r in enumerate(rows)}
    pred_pairs = {(pred_of[i], norm(_section(c))) for i, c in enumerate(roles)}
    hits = {(match[p], s) for p, s in pred_pairs if p in match and (match[p], s) in gold_pairs}
    page.sections = Counts(
        hit=sum(1 for p, s in pred_pairs if p in match and (match[p], s) in gold_pairs),
        predicted=len(pred_pairs),
        gold=len(gold_pairs),
        found=len(hits),
    )

    _score_affiliations(rows, gold_of, subjects, pred_of, match, pred_people, page)
    _agreement(rows, gold_of, roles, pred_of, match, hits, page)


def _section(claim: Claim) -> str | None:
    value = claim.qualifiers.get("section")
    return value if isinstance(value, str) else None


def _score_affiliations(
    rows: Sequence[GoldRow],
    gold_of: list[int],
    subjects: list[Claim],
    pred_of: list[int],
    match: dict[int, int],
    pred_people: list[Person],
    page: PageScore,
) -> None:
    gold_pairs: dict[tuple[int, frozenset[str]], str] = {}
    for i, r in enumerate(rows):
        if r.affiliation and norm_org(r.affiliation):
            gold_pairs.setdefault((gold_of[i], norm_org(r.affiliation)), r.affiliation)
    pred_pairs: dict[tuple[int, frozenset[str]], str] = {}
    for i, c in enumerate(subjects):
        orgs = [c.object] if c.predicate == "affiliation" else []
        qualifier = c.qualifiers.get("affiliation")
        if isinstance(qualifier, str):
            orgs.append(qualifier)
        for org in orgs:
            if norm_org(org):
                pred_pairs.setdefault((pred_of[i], norm_org(org)), org)
    right = {k for k in pred_pairs if k[0] in match and (match[k[0]], k[1]) in gold_pairs}
    found = {(match[p], o) for p, o in right}
    page.affiliations = Counts(len(right), len(pred_pairs), len(gold_pairs), len(found))
    labels = [_label(r.name, r.handle) for r in rows]
    first_row = {g: i for i, g in reversed(list(enumerate(gold_of)))}
    page.missed_affiliations = [
        f"{labels[first_row[g]]}: {text}"
        for (g, o), text in gold_pairs.items()
        if (g, o) not in found
    ]
    page.spurious_affiliations = [
        f"{pred_people[p].label}: {text}"
        for (p, o), text in pred_pairs.items()
        if (p, o) not in right
    ]


def _agreement(
    rows: Sequence[GoldRow],
    gold_of: list[int],
    roles: list[Claim],
    pred_of: list[int],
    match: dict[int, int],
    hits: set[tuple[int, str]],
    page: PageScore,
) -> None:
    by_pair: dict[tuple[int, str], list[Claim]] = {}
    for i, c in enumerate(roles):
        if pred_of[i] in match:
            by_pair.setdefault((match[pred_of[i]], norm(_section(c))), []).append(c)
    found_under: dict[int, list[str]] = {}
    for i, c in enumerate(roles):
        if pred_of[i] in match:
            found_under.setdefault(match[pred_of[i]], []).append(repr(_section(c)))
    agree = Agreement()
    for i, r in enumerate(rows):
        key = (gold_of[i], norm(r.section))
        if key not in hits:
            seen = found_under.get(gold_of[i])
            where = f"; found under {', '.join(dict.fromkeys(seen))}" if seen else ""
            page.missed_rows.append(
                f"{_label(r.name, r.handle)} under {r.section!r} ({r.role}){where}"
            )
            continue
        pool = by_pair.get(key) or []
        if not pool:
            continue  # a second gold row of the same pair: the claim was used by the first
        claim = pool.pop(0)
        agree.rows += 1
        agree.status += (claim.qualifiers.get("status") or "current") == r.status
        agree.role += norm(claim_role(claim)) == norm(r.role)
        agree.scope += norm(str(claim.qualifiers.get("scope") or "")) == norm(r.scope)
    page.agreement = agree


def score_page(gold: GoldPage, model: Any = None) -> PageScore:
    """One labelled page, read as `ingest extract FILE --url URL` reads it (with `model`, an
    `extractors.people.model.Model`, the generic reader decides with it: cross-validation)."""
    import extractors
    from extractors.governance import generic
    from ingest.documents import snapshot_from_file

    page = PageScore(file=gold.page.name, url=gold.url)
    claims: list[Claim] = []
    try:
        snapshot = snapshot_from_file(gold.url, gold.page, MAX_BYTES)
        module = extractors.choose(gold.url, snapshot)
        page.extractor = extractors.tag(module)
        if model is not None and module is generic:
            claims = list(generic.iter_claims(snapshot, model=model))
        else:
            claims = list(extractors.claims_of(module, snapshot))
    except IngestError as exc:
        page.error = str(exc)
    score_claims(gold.rows, claims, page)
    return page


@dataclass
class Totals:
    """Counts summed over pages (micro-averaged figures)."""

    label: str
    pages: list[PageScore]
    people: Counts = field(default_factory=Counts)
    sections: Counts = field(default_factory=Counts)
    affiliations: Counts = field(default_factory=Counts)
    agreement: Agreement = field(default_factory=Agreement)

    def __post_init__(self) -> None:
        for p in self.pages:
            self.people.add(p.people)
            self.sections.add(p.sections)
            self.affiliations.add(p.affiliations)
            self.agreement.add(p.agreement)

    def figures(self) -> dict[str, float | None]:
        """The gated figures: people / section / affiliation precision and recall."""
        out: dict[str, float | None] = {}
        for name, counts in (
            ("people", self.people),
            ("section", self.sections),
            ("affiliation", self.affiliations),
        ):
            out[f"{name}_precision"] = counts.precision
            out[f"{name}_recall"] = counts.recall
        return out


def _figures_json(s: PageScore | Totals) -> dict[str, Any]:
    a = s.agreement
    return {
        "people": s.people.to_json(),
        "section": s.sections.to_json(),
        "affiliation": s.affiliations.to_json(),
        "matched_rows": a.rows,
        "status_agree": a.status,
        "role_agree": a.role,
        "scope_agree": a.scope,
    }


@dataclass
class Report:
    sets: list[Totals]

    @property
    def pages(self) -> list[PageScore]:
        return [p for s in self.sets for p in s.pages]

    @property
    def total(self) -> Totals:
        return Totals("total", self.pages)

    def set(self, label: str) -> Totals:
        for s in self.sets:
            if s.label == label:
                return s
        raise KeyError(label)

    def to_json(self) -> dict[str, Any]:
        pages = []
        for p in self.pages:
            entry: dict[str, Any] = {
                "file": p.file,
                "url": p.url,
                "extractor": p.extractor,
                "error": p.error,
            }
            entry.update(_figures_json(p))
            entry["missed_rows"] = p.missed_rows
            entry["spurious_people"] = p.spurious_people
            entry["missed_affiliations"] = p.missed_affiliations
            entry["spurious_affiliations"] = p.spurious_affiliations
            pages.append(entry)
        return {
            "pages": pages,
            "sets": {s.label: _figures_json(s) | {"pages": len(s.pages)} for s in self.sets},
            "total": _figures_json(self.total),
        }


def score(sets: Sequence[EvalSet] = DEFAULT_SETS) -> Report:
    """Score every labelled page of the sets."""
    return Report(
        [Totals(s.label, [score_page(g) for g in load_set(s.pages, s.gold)]) for s in sets]
    )


def sets_for(gold: Path | None, pages: Path | None) -> tuple[EvalSet, ...]:
    """What `ingest evaluate --governance [--gold DIR] [--pages DIR]` scores: the default sets,
    or one set whose gold folder defaults to `<pages>/gold` and pages folder to the gold's parent.
    """
    if gold is None and pages is None:
        return DEFAULT_SETS
    pages_dir = pages if pages is not None else gold.parent  # type: ignore[union-attr]
    gold_dir = gold if gold is not None else pages_dir / "gold"
    return (EvalSet(pages_dir.resolve().name, pages_dir, gold_dir),)
