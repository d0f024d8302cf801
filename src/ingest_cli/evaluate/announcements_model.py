"""The announcement reader's learned event decision: its data, its fit, its honest figures.

- **data** (`collect`): every labelled post the `announcement` extractor reads is read into its
  candidate events (`extractors.announcements.post.read_candidates`: the rule readers' claims
  and the people only the person reader finds), each labelled by the post's gold: the class
  (`cues.event_class`) of the gold event of the same person whose quote meets the candidate's
  spot, else of one of that person agreeing with the rule readers' proposal; a candidate that
  only an optional event names, or a person reader's candidate of a person whose gold event is
  quoted at another spot, is left out of the fit; any other is `none`. Its group is its project
  (the first word of the file name: `rust-blog-...` -> rust; `kubernetes-blog` and
  `kubernetes-dev` are one project; a real-probe post's source project likewise, so the same
  project in two probe sets is one fold). The posts: every set of `DEFAULT_SETS`, the real-probe
  sets included, reported per set and per part (`parts`).
- **fit** (`fit_model`): for the rule claims, a binary logistic regression (is the proposal
  right?); for the event, a multinomial one over the structure candidates alone (every person
  the layout offers, those a rule claim names too, so positives and negatives come from one
  generator), without the `rule:` / `bias:` cues (which reader proposed is no evidence);
  both (scikit-learn, lbfgs, fixed C: a
  deterministic fit), word cues (`lead:`, `head:`, `title:`, `sent:`) kept only when seen in
  `MIN_GROUPS` projects or more; the weights go to JSON.
- **cross-validation** (`cross_validate`): leave one project out: the decision is refitted
  without the project and that project's posts are decided with it and scored as
  `ingest evaluate --announcements` scores them. The out-of-fold margins of the claims given,
  against whether the gold (required or optional) has them, give the calibration of
  `confidence` (Platt scaling). Training figures: the model fitted on everything, scored on the
  same posts.
- `write_model` (`ingest evaluate --announcements --fit`): the model fitted on everything, with
  the cross-validated calibration, to `extractors/announcements/data/event_model.json`.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from extractors.announcements import cues, reader
from extractors.announcements import post as announcement
from extractors.announcements.decision import MODEL_FILE, Model
from extractors.announcements.events import Context
from extractors.people.model import platt
from ingest.errors import IngestError
from ingest.models import Claim
from ingest_cli.evaluate.announcements import (
    MAX_BYTES,
    PROBE_SETS,
    EvalSet,
    GoldEvent,
    GoldPost,
    PostScore,
    Report,
    SetScore,
    _agrees,
    _quotes_meet,
    _same_fact,
    collapse,
    fold,
    load_set,
    score_claims,
)

C = 0.3  # leave-one-project-out, structure candidates: C 1.0 real probes P 0.947 R 0.770,
# C 0.3 P 0.955 R 0.783 (both at READER_THRESHOLD 3)
# the margin a structure candidate's class must beat `none` by: the sweep 0 / 1 / 2 / 3 gave CV
# precision (train corpus) 0.863 / 0.928 / 0.972 / 0.993 at recall 0.959 / 0.959 / 0.956 / 0.956,
# (real probes) 0.845 / 0.914 / 0.947 / 0.955 at 0.845 / 0.795 / 0.783 / 0.783; with the name
# cues (`structure.name_cues`) 2 / 2.5 / 3: train P 0.972 / 0.976 / 0.993 at R 0.956, real probes
# P 0.955 / 0.969 / 0.969 at R 0.795 / 0.783 / 0.783 (tried too, no better: a handle no link of
# its spot holds; a first word in -ing/-ed; a name before a colon; C 0.1; event weight 2)
READER_THRESHOLD = 3.0
EVENT_WEIGHT = 1.0  # the weight of an event example against a `none` one, in the event fit
MIN_GROUPS = 2
WORD_CUES = ("lead:", "head:", "intro:", "title:", "sent:")
# cues the event decision is not fitted on: which reader proposed a candidate is no evidence of
# its event (a per-reader intercept would teach "a structure-only candidate is none")
READER_CUES = ("rule:", "bias:")
ABSENT = -30.0  # the bias of a class no training post has


def project_key(file_name: str) -> str:
    """The first word of the file name (a constructed fixture's after `constructed-`)."""
    name = file_name.removeprefix("constructed-")
    return name.split("-", 1)[0].split(".", 1)[0].lower()


@dataclass
class PostData:
    set_label: str
    group: str
    gold: GoldPost
    context: Context | None = None
    candidates: list[reader.Candidate] = field(default_factory=list)
    labels: list[str | None] = field(default_factory=list)  # None: optional only, not fitted
    other: list[Claim] | None = None  # read by another extractor: its claims, as they are
    error: str | None = None
    extractor: str | None = None


def _same(name: str, github: str | None, event: GoldEvent) -> bool:
    handle, gold_handle = (github or "").lower(), (event.handle or "").lower()
    if handle and gold_handle:
        return handle == gold_handle
    folded = fold(name)
    return bool(folded) and folded in (fold(event.name), fold(event.handle))


def label(c: reader.Candidate, post: GoldPost) -> str | None:
    """The candidate's class by the gold (see the module docstring); None: optional only."""
    if c.claim is not None:
        name, github, quote = c.claim.subject.name, c.claim.subject.github, c.claim.evidence.quote
    elif c.person is not None and c.spot is not None:
        name, github, quote = c.person.name, c.person.github, c.spot.sentence.quote
    else:
        return "none"
    quote = collapse(quote)
    own = [e for e in post.events if _same(name, github, e)]
    for e in own:
        if _quotes_meet(quote, e.quote):
            return cues.event_class(e.predicate, e.status)
    for e in own:
        if cues.event_class(e.predicate, e.status) == c.proposal:
            return c.proposal
    if any(_same(name, github, e) for e in post.optional):
        return None
    if c.claim is None and own:
        return None  # the person reader's: the gold quotes the person's event elsewhere
    return "none"


def collect(sets: Sequence[EvalSet]) -> list[PostData]:
    """Every labelled post, read into candidates and labelled (or its other extractor's claims)."""
    import extractors
    from ingest.documents import snapshot_from_file

    out = []
    for s in sets:
        for gold in load_set(s):
            data = PostData(s.label, project_key(gold.file), gold)
            out.append(data)
            try:
                snapshot = snapshot_from_file(gold.url, gold.path, MAX_BYTES)
                module = extractors.choose(gold.url, snapshot)
                data.extractor = extractors.tag(module)
                if module is not announcement:
                    data.other = list(extractors.claims_of(module, snapshot))
                    continue
                _post, data.context, data.candidates = announcement.read_candidates(snapshot)
            except IngestError as exc:
                data.error = str(exc)
                continue
            data.labels = [label(c, gold) for c in data.candidates]
    return out


def _kept_features(posts: Sequence[PostData]) -> set[str]:
    groups: dict[str, set[str]] = {}
    for p in posts:
        for c in p.candidates:
            for k in c.features:
                groups.setdefault(k, set()).add(p.group)
    return {k for k, g in groups.items() if not k.startswith(WORD_CUES) or len(g) >= MIN_GROUPS}


def _rows(posts: Sequence[PostData], rule: bool) -> tuple[list[dict[str, float]], list[str]]:
    keep = _kept_features(posts)
    rows, ys = [], []
    for p in posts:
        for c, y in zip(p.candidates, p.labels, strict=True):
            if y is None or (rule and c.claim is None):
                continue
            if rule and c.proposal == "none":
                continue  # not an event claim: given as it is
            if not rule and c.claim is not None:
                continue  # the event decision is fitted on the structure candidates alone
            rows.append({k: v for k, v in sorted(c.features.items())
                         if k in keep and (rule or not k.startswith(READER_CUES))})  # fmt: skip
            ys.append(("keep" if y == c.proposal else "none") if rule else y)
    return rows, ys


def _logistic(
    rows: list[dict[str, float]], ys: list[str], event_weight: float = 1.0
) -> tuple[list[str], Any, Any, Any]:
    from sklearn.feature_extraction import DictVectorizer  # training only: not on the CLI path
    from sklearn.linear_model import LogisticRegression

    vec = DictVectorizer(sort=True)
    x = vec.fit_transform(rows)
    lr = LogisticRegression(C=C, solver="lbfgs", max_iter=3000, random_state=0)
    lr.fit(x, ys, sample_weight=[1.0 if y in ("none", "keep") else event_weight for y in ys])
    return [str(n) for n in vec.get_feature_names_out()], lr.classes_, lr.coef_, lr.intercept_


def _named(names: list[str], row: Any) -> dict[str, float]:
    return {n: round(float(w), 6) for n, w in zip(names, row, strict=True) if abs(w) > 1e-6}


def fit_model(posts: Sequence[PostData]) -> Model:
    """The two decisions fitted on the posts' labelled candidates; deterministic."""
    model = Model(bias={k: (0.0 if k == "none" else ABSENT) for k in cues.CLASSES},
                  reader_threshold=READER_THRESHOLD)  # fmt: skip
    rows, ys = _rows(posts, rule=True)
    if len(set(ys)) == 2:
        names, _classes, coef, intercept = _logistic(rows, ys)
        sign = 1.0 if _classes[1] == "none" else -1.0  # the log-odds of "keep"
        model.rule_weights = {k: -sign * v for k, v in _named(names, coef[0]).items()}
        model.rule_bias = round(-sign * float(intercept[0]), 6)
    else:
        model.rule_bias = 10.0 if ys and ys[0] == "keep" else 0.0
    reader_rows, reader_ys = _rows(posts, rule=False)
    model.meta = {"rule_candidates": len(ys), "reader_candidates": len(reader_ys), "C": C}
    if len(set(reader_ys)) < 2:
        return model
    names, classes, coef, intercept = _logistic(reader_rows, reader_ys, EVENT_WEIGHT)
    if len(classes) == 2:  # binary: one row of weights, for the second class
        coef, intercept = [-coef[0] / 2, coef[0] / 2], [-intercept[0] / 2, intercept[0] / 2]
    for i, klass in enumerate(classes):
        model.weights[str(klass)] = _named(names, coef[i])
        model.bias[str(klass)] = round(float(intercept[i]), 6)
    model.meta["classes"] = [str(k) for k in classes]
    return model


def decide_post(p: PostData, model: Model, trace: list[tuple[Claim, float]] | None) -> PostScore:
    score = PostScore(file=p.gold.file, url=p.gold.url, extractor=p.extractor, error=p.error)
    if p.other is not None:
        claims = p.other
    elif p.context is None:
        claims = []
    else:
        claims = reader.decide(p.candidates, model, p.context, trace)
    score_claims(p.gold, claims, score)
    return score


def _report(posts: Sequence[PostData], scores: dict[int, PostScore]) -> Report:
    sets: dict[str, list[PostScore]] = {}
    for i, p in enumerate(posts):
        sets.setdefault(p.set_label, []).append(scores[i])
    return Report([SetScore(label, found) for label, found in sets.items()])


def _given_right(claim: Claim, post: GoldPost) -> bool:
    return any(_agrees(claim, e) for e in post.events) or any(
        _agrees(claim, e) or _same_fact(claim, e) for e in post.optional
    )


@dataclass
class CvResult:
    model: Model
    training: Report
    cv: Report
    folds: list[str]


def cross_validate(sets: Sequence[EvalSet]) -> CvResult:
    """Leave-one-project-out figures, training figures and the calibrated full model."""
    posts = collect(sets)
    groups = sorted({p.group for p in posts})
    cv_scores: dict[int, PostScore] = {}
    pairs: list[tuple[float, bool]] = []
    for g in groups:
        model = fit_model([p for p in posts if p.group != g])
        for i, p in enumerate(posts):
            if p.group == g:
                trace: list[tuple[Claim, float]] = []
                cv_scores[i] = decide_post(p, model, trace)
                pairs += [(m, _given_right(c, p.gold)) for c, m in trace]
    full = fit_model(posts)
    full.calibration = platt(pairs)
    full.meta["calibration_claims"] = len(pairs)
    train_scores = {i: decide_post(p, full, None) for i, p in enumerate(posts)}
    return CvResult(full, _report(posts, train_scores), _report(posts, cv_scores), groups)


def write_model(model: Model) -> None:
    MODEL_FILE.parent.mkdir(parents=True, exist_ok=True)
    text = json.dumps(model.to_json(), indent=1, sort_keys=True, ensure_ascii=False)
    MODEL_FILE.write_text(text + "\n", encoding="utf-8")


def _figures(p: PostScore) -> str:
    def pct(v: float | None) -> str:
        return "  -  " if v is None else f"{v:.3f}"

    return (
        f"P {pct(p.precision)}  R {pct(p.recall)}  dates {pct(p.dates_right)}  "
        f"projects {pct(p.projects_right)}  ({p.matched}/{p.gold} matched, {p.found} found)"
    )


def part_total(report: Report, labels: Sequence[str]) -> PostScore:
    """The figures of several sets of a report together (micro: counts summed)."""
    total = PostScore(file="+".join(labels), url="")
    for s in report.sets:
        if s.label in labels:
            total.add(s.total)
    return total


def parts(report: Report) -> dict[str, list[str]]:
    """The report's sets by part: the training corpus, the fixtures, the real probe posts."""
    probes = {s.label for s in PROBE_SETS}
    out: dict[str, list[str]] = {}
    for s in report.sets:
        out.setdefault("real probes" if s.label in probes else s.label, []).append(s.label)
    return out


def format_comparison(result: CvResult) -> str:
    lines = [f"leave-one-project-out over {len(result.folds)} projects: {', '.join(result.folds)}"]
    for s in result.cv.sets:
        lines.append(f"{s.label:<22} training  {_figures(result.training.set(s.label).total)}")
        lines.append(f"{'':<22} cv        {_figures(s.total)}")
    for name, labels in parts(result.cv).items():
        if len(labels) > 1:
            lines.append(f"== {name:<19} training  {_figures(part_total(result.training, labels))}")
            lines.append(f"{'':<22} cv        {_figures(part_total(result.cv, labels))}")
    return "\n".join(lines)


def to_json(result: CvResult) -> dict[str, Any]:
    grouped = {name: {"sets": labels,
                      "training": part_total(result.training, labels).figures(),
                      "cv": part_total(result.cv, labels).figures()}
               for name, labels in parts(result.cv).items()}  # fmt: skip
    return {"folds": result.folds, "training": result.training.to_json(),
            "cv": result.cv.to_json(), "parts": grouped}  # fmt: skip
