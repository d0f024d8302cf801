"""The governance reader's learned decision: its training data, its fit, its honest figures.

- **data** (`collect`): every labelled page the generic `governance` extractor reads (the
  training corpus, PEP 13 and the real probe sets of `DEFAULT_SETS`, a folder with a BLIND file
  never among them; PyTorch's pages have their own extractor and give none) is read
  with every candidate kept (`model.KEEP_ALL`); each candidate person is labelled by the page's
  gold: true when it is a gold person of the page (`governance_people.same_person`) listed under
  that section, or under no section any of its candidates has; a candidate organisation is true
  when the gold gives that person that organisation. Its group is its project (`project_key`).
- **fit** (`fit_model`): `extractors.people.model.fit` for each decision.
- **cross-validation** (`cross_validate`): leave one project out: for each project, the model
  is fitted on every other project's candidates and that project's pages are read with it and
  scored as `ingest evaluate --governance` scores them; the person claims each fold's model
  emits give the calibration of `confidence` (`governance_calibration`: an isotonic map from the
  logit to the share of those claims that name a gold person, and its reliability table, ECE and
  Brier score, themselves cross-validated); affiliations keep Platt scaling. Training figures:
  the model fitted on everything, scored on the same pages.
- `write_model`: the model fitted on everything, with the cross-validated calibration, written
  to `extractors/people/data/governance_model.json` (`ingest evaluate --governance --fit`).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from extractors.people.model import (
    KEEP_ALL,
    MODEL_FILE,
    THRESHOLD,
    Linear,
    Model,
    Sample,
    fit,
    isotonic,
    platt,
)
from ingest.errors import IngestError
from ingest.models import Claim
from ingest_cli.evaluate.governance import (
    DEFAULT_SETS,
    PROBE_LABELS,
    EvalSet,
    PageScore,
    Report,
    Totals,
    norm_org,
)
from ingest_cli.evaluate.governance_calibration import Calibration, OutOfFold, calibrate
from ingest_cli.evaluate.governance_gold import GoldPage, load_set
from ingest_cli.evaluate.governance_people import (
    Person,
    group_people,
    norm,
    norm_handle,
    same_person,
)

SET_PROJECTS = {"pep13": "python", "pytorch": "pytorch"}  # sets of one project's versions
MAX_BYTES = 50 * 1024 * 1024


def project_key(set_label: str, file_name: str) -> str:
    """The project a labelled page belongs to: a set of one project's pages, else the first
    word of its file name (`kubernetes-steering-README...` -> kubernetes), in every set: a project
    with pages in two sets is one fold."""
    return SET_PROJECTS.get(set_label) or file_name.split("-", 1)[0].split(".", 1)[0].lower()


@dataclass
class PageData:
    set_label: str
    group: str
    gold: GoldPage
    generic: bool  # read by the generic governance extractor
    people: list[Sample] = field(default_factory=list)
    affiliations: list[Sample] = field(default_factory=list)
    in_gold: list[bool] = field(default_factory=list)  # per person candidate: a gold person


def _snapshot(gold: GoldPage) -> Any:
    from ingest.documents import snapshot_from_file

    return snapshot_from_file(gold.url, gold.page, MAX_BYTES)


def _is_generic(gold: GoldPage) -> bool:
    import extractors
    from extractors.governance import generic

    try:
        return extractors.choose(gold.url, _snapshot(gold)) is generic
    except IngestError:
        return False


def _label(gold: GoldPage, sink: list[tuple[str, dict[str, float], Claim]], data: PageData) -> None:
    rows = gold.rows
    people, of_row = group_people([(norm_handle(r.handle), norm(r.name), "") for r in rows])
    sections: dict[int, set[str]] = {}
    orgs: dict[int, set[frozenset[str]]] = {}
    for i, r in enumerate(rows):
        sections.setdefault(of_row[i], set()).add(norm(r.section))
        if r.affiliation:
            orgs.setdefault(of_row[i], set()).add(norm_org(r.affiliation))

    def person_of(claim: Claim) -> int | None:
        """The gold person the candidate names: by handle, by name, or by a name that is the
        gold's handle (a candidate whose name and handle were paired wrongly on a card page
        still names a person: labelling it false would teach the model that rows are not)."""
        handle, name = norm_handle(claim.subject.github), norm(claim.subject.name)
        for cand in (Person({handle} - {""}, set()), Person(set(), {name} - {""})):
            for by_handle in (True, False):
                for g, person in enumerate(people):
                    if same_person(cand, person, by_handle=by_handle):
                        return g
        return None

    matched = [(what, f, c, person_of(c)) for what, f, c in sink]
    placed = {
        g
        for what, _f, c, g in matched
        if what == "person" and g is not None and norm(_section(c)) in sections[g]
    }
    for what, features, claim, g in matched:
        if what == "person":
            ok = g is not None and (norm(_section(claim)) in sections[g] or g not in placed)
            data.people.append(Sample(features, ok, data.group))
            data.in_gold.append(g is not None)
        else:
            ok = g is not None and norm_org(claim.object) in orgs.get(g, set())
            data.affiliations.append(Sample(features, ok, data.group))


def _section(claim: Claim) -> str | None:
    value = claim.qualifiers.get("section")
    return value if isinstance(value, str) else None


def collect(sets: Sequence[EvalSet] = DEFAULT_SETS) -> list[PageData]:
    """Every labelled page with its labelled candidates (see the module docstring)."""
    from extractors import document as _document
    from extractors.governance.reader import Reader

    out = []
    for s in sets:
        for gold in load_set(s.pages, s.gold):
            data = PageData(s.label, project_key(s.label, gold.page.name), gold, _is_generic(gold))
            if data.generic:
                snapshot = _snapshot(gold)
                sink: list[tuple[str, dict[str, float], Claim]] = []
                reader = Reader(_document.parse(snapshot), snapshot, model=KEEP_ALL, sink=sink)
                for _claim in reader.claims():
                    pass
                _label(gold, sink, data)
            out.append(data)
    return out


def fit_model(pages: Sequence[PageData], meta: dict[str, Any] | None = None) -> Model:
    people = [s for p in pages for s in p.people]
    affiliations = [s for p in pages for s in p.affiliations]
    return Model(fit(people), fit(affiliations), dict(meta or {}))


def emitted(data: PageData, model: Model) -> list[OutOfFold]:
    """The page's person claims `model` keeps, each with its logit and whether it names a gold
    person of the page (what the editor checks a `maintainer` claim for)."""
    out = []
    for sample, right in zip(data.people, data.in_gold, strict=True):
        if model.person.score(sample.features) >= THRESHOLD:
            out.append(OutOfFold(data.group, model.person.logit(sample.features), right))
    return out


def score_with(data: PageData, model: Model) -> PageScore:
    """The page as `ingest evaluate --governance` scores it, the generic reader using `model`."""
    from ingest_cli.evaluate.governance import score_page

    return score_page(data.gold, model=model if data.generic else None)


@dataclass
class CrossValidation:
    training: Report
    cv: Report
    model: Model  # fitted on every page, calibrated on the out-of-fold scores
    folds: int
    calibration: Calibration | None = None  # of the person claims' confidence, cross-validated


def _report(pages: Sequence[PageData], scores: dict[int, PageScore]) -> Report:
    sets: dict[str, list[PageScore]] = {}
    for i, p in enumerate(pages):
        sets.setdefault(p.set_label, []).append(scores[i])
    return Report([Totals(label, found) for label, found in sets.items()])


def cross_validate(sets: Sequence[EvalSet] = DEFAULT_SETS) -> CrossValidation:
    pages = collect(sets)
    groups = sorted({p.group for p in pages})
    cv_scores: dict[int, PageScore] = {}
    person_oof: list[tuple[float, bool]] = []
    aff_oof: list[tuple[float, bool]] = []
    claims_oof: list[OutOfFold] = []  # the person claims each fold's model emits
    for group in groups:
        model = fit_model([p for p in pages if p.group != group])
        for i, p in enumerate(pages):
            if p.group != group:
                continue
            cv_scores[i] = score_with(p, model)
            person_oof += [(model.person.logit(s.features), s.label) for s in p.people]
            aff_oof += [(model.affiliation.logit(s.features), s.label) for s in p.affiliations]
            claims_oof += emitted(p, model)
    meta = {
        "trained_on": sorted({f"{p.set_label}:{p.group}" for p in pages if p.generic}),
        "pages": sum(p.generic for p in pages),
        "person_candidates": sum(len(p.people) for p in pages),
        "affiliation_candidates": sum(len(p.affiliations) for p in pages),
        "calibration": "person claims: isotonic map from the logit to the share of right "
        "claims among the claims emitted out of fold (leave-one-project-out); affiliations: "
        "Platt scaling on leave-one-project-out logits",
        "calibration_claims": len(claims_oof),
    }
    full = fit_model(pages, meta)
    curve = isotonic((c.logit, c.right) for c in claims_oof)
    full.person = Linear(full.person.weights, full.person.bias, platt(person_oof), curve)
    full.affiliation = Linear(full.affiliation.weights, full.affiliation.bias, platt(aff_oof))
    training = {i: score_with(p, full) for i, p in enumerate(pages)}
    return CrossValidation(_report(pages, training), _report(pages, cv_scores), full, len(groups),
                           calibrate(claims_oof))  # fmt: skip


def write_model(model: Model) -> None:
    text = json.dumps(model.to_json(), indent=1, ensure_ascii=False, sort_keys=True)
    MODEL_FILE.write_text(text + "\n", encoding="utf-8")


FIGURES = ("people", "section", "affiliation")


def format_comparison(result: CrossValidation) -> str:
    """Training beside cross-validated figures, per set and in total."""
    head = f"{'set':<22} {'':>5}" + "".join(f"  {f + ' P':>14} {'R':>5}" for f in FIGURES)
    out = [f"leave-one-project-out: {result.folds} folds", head]
    rows = [(t.label, t, c) for t, c in zip(result.training.sets, result.cv.sets, strict=True)]
    probes = [i for i, t in enumerate(result.training.sets) if t.label in PROBE_LABELS]
    if len(probes) > 1:  # the real probe sets together: the honest estimate on unseen pages
        rows.append(("== real probes", _part(result.training, probes), _part(result.cv, probes)))
    rows.append(("TOTAL", result.training.total, result.cv.total))
    for label, train, cv in rows:
        for name, totals in (("train", train), ("cv", cv)):
            figs = totals.figures()
            cells = "".join(
                f"  {_pct(figs[f + '_precision']):>14} {_pct(figs[f + '_recall']):>5}"
                for f in FIGURES
            )
            out.append(f"{label:<22} {name:>5}{cells}")
    return "\n".join(out)


def _part(report: Report, indexes: Sequence[int]) -> Totals:
    return Totals("+".join(report.sets[i].label for i in indexes),
                  [p for i in indexes for p in report.sets[i].pages])  # fmt: skip


def _pct(value: float | None) -> str:
    return "-" if value is None else f"{value:.3f}"
