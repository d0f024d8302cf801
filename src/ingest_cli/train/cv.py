"""`ingest train papers` and `ingest evaluate --cv`: the header line model fitted on every gold
PDF, and its leave-one-template-family-out cross-validation.

    corpus() -> [Paper]                  the gold PDFs, their page-1 lines, labels and features
    train(papers) -> LineModel           fitted on these papers (calibration left as given)
    cross_validate(papers) -> CrossValidation
    train_papers(out) -> CrossValidation the command: CV, calibration on it, the full fit, written

Families (`_families` in fixtures/arxiv/templates.json) group templates of one lineage (NeurIPS
and ICLR; ICML, JMLR and PMLR; the ACM classes and VLDB; the life-science journals; ...). Each
fold refits the model without one family and scores that family's PDFs with it, names found in
the PDF and with metadata names; the held-out affiliations' (raw score, right?) pairs fit the
confidence calibration (Platt) the shipped model carries.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from extractors.papers.linefeatures import line_features
from extractors.papers.linemodel import LABELS, MODEL_FILE, LineModel, transitions
from ingest_cli.evaluate.arxiv import (
    DEFAULT_SETS,
    TEMPLATES,
    UNKNOWN_TEMPLATE,
    Report,
    load_templates,
    score_file,
)
from ingest_cli.train.fit import fit, platt
from ingest_cli.train.labels import label_lines, page_lines

MODEL_VERSION = 1
TOP_LINES = 30  # "other" lines trained on: the first of page 1 ...
FOOT_LINES = 12  # ... and the last (body text in between adds time, not signal)


@dataclass
class Paper:
    gold_path: Path
    pdf_dir: Path
    file: str
    family: str
    labels: list[str]
    features: list[dict[str, float]]


@dataclass
class CrossValidation:
    plain: Report = field(default_factory=lambda: Report(use_metadata=False))
    metadata: Report = field(default_factory=lambda: Report(use_metadata=True))
    folds: dict[str, list[str]] = field(default_factory=dict)  # family -> its files

    def figures(self) -> dict[str, Any]:
        def fig(r: Report) -> dict[str, Any]:
            return {
                "author_f1": round(r.authors.f1, 4),
                "linked_f1": round(r.linked_strict.f1, 4),
                "without_output": sum(f.status == "failed" for f in r.files),
                "affiliations_not_found": sum(
                    f.status == "affiliations not found" for f in r.files
                ),
            }

        return {"files": len(self.plain.files), "families": len(self.folds),
                "names_found": fig(self.plain), "metadata": fig(self.metadata)}  # fmt: skip


def families(path: Path = TEMPLATES) -> dict[str, str]:
    """Template name -> family name."""
    data = json.loads(path.read_text("utf-8")) if path.is_file() else {}
    fams = data.get("_families", {})
    return {k: v for k, v in fams.items() if not k.startswith("_") and isinstance(v, str)}


def corpus(sets: tuple[tuple[Path, Path], ...] = DEFAULT_SETS) -> list[Paper]:
    templates, fams = load_templates(), families()
    papers: list[Paper] = []
    for gold_dir, pdf_dir in sets:
        for gold_path in sorted(gold_dir.glob("*.json")):
            gold = json.loads(gold_path.read_text("utf-8"))
            lines = page_lines((pdf_dir / gold["file"]).read_bytes(), gold["file"])
            template = templates.get(gold["file"], UNKNOWN_TEMPLATE)
            papers.append(
                Paper(
                    gold_path=gold_path,
                    pdf_dir=pdf_dir,
                    file=gold["file"],
                    family=fams.get(template, template),
                    labels=label_lines(lines, gold),
                    features=line_features(lines),
                )
            )
    return papers


def _kept(paper: Paper) -> list[int]:
    """The lines trained on: the top of the page and its foot (footnotes), every labelled one."""
    n = len(paper.labels)
    return [
        i
        for i, label in enumerate(paper.labels)
        if label != "other" or i < TOP_LINES or i >= n - FOOT_LINES
    ]


def train(papers: list[Paper], calibration: dict[str, float] | None = None) -> LineModel:
    samples = [p.features[i] for p in papers for i in _kept(p)]
    targets = [p.labels[i] for p in papers for i in _kept(p)]
    return LineModel(
        labels=LABELS,
        weights=fit(samples, targets, LABELS),
        calibration=dict(calibration or {"a": 1.0, "b": 0.0}),
        transitions=transitions([p.labels for p in papers]),
    )


def cross_validate(papers: list[Paper]) -> CrossValidation:
    result = CrossValidation()
    templates = load_templates()
    for family in sorted({p.family for p in papers}):
        held = [p for p in papers if p.family == family]
        model = train([p for p in papers if p.family != family])  # identity calibration
        result.folds[family] = [p.file for p in held]
        for paper in held:
            for report, meta in ((result.plain, False), (result.metadata, True)):
                report.add(
                    score_file(
                        paper.gold_path,
                        paper.pdf_dir,
                        use_metadata=meta,
                        templates=templates,
                        model=model,
                    )
                )
    return result


def train_papers(out: Path = MODEL_FILE) -> CrossValidation:
    """Cross-validate, calibrate on the held-out affiliations, fit on all, write the model."""
    papers = corpus()
    cv = cross_validate(papers)
    pairs = [c for f in cv.plain.files for c in f.confidences]
    calibration = platt([raw for raw, _ in pairs], [right for _, right in pairs])
    model = train(papers, calibration)
    model.about = {
        "about": "arxiv_pdf header line model (extractors/papers/linemodel.py); written by "
        "`ingest train papers`, do not edit by hand",
        "version": MODEL_VERSION,
        "trained_on": [p.file for p in papers],
        "cross_validation": cv.figures(),
    }
    out.write_text(json.dumps(model.to_json(), indent=1, ensure_ascii=False) + "\n", "utf-8")
    return cv
