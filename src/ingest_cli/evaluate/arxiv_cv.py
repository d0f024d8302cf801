"""`ingest evaluate --cv`: the arxiv_pdf figures on the training PDFs beside the
leave-one-template-family-out ones (`ingest_cli.train.cv`: the line model refitted without the
family each PDF belongs to), names found in the PDF and with metadata names, per family.

The training figures use the shipped model, fitted on every PDF: they say how well the reader
fits what it has seen. The cross-validated ones are the honest estimate for a template nobody
here has seen, and the ones eval_floors.json pins. The template rules that read first were
written while looking at the older 46 of these PDFs, so even these figures flatter them there.
"""

from __future__ import annotations

from typing import Any

from ingest_cli.evaluate.arxiv import Counts, Report, score_sets
from ingest_cli.train.cv import CrossValidation, corpus, cross_validate, families

FamilyRow = tuple[str, int, Counts, Counts, Counts, Counts]


def _by_family(report: Report, fams: dict[str, str]) -> dict[str, Report]:
    out: dict[str, Report] = {}
    for f in report.files:
        out.setdefault(fams.get(f.template, f.template), Report(report.use_metadata)).add(f)
    return out


def _status(report: Report) -> str:
    failed = sum(f.status == "failed" for f in report.files)
    bare = sum(f.status == "affiliations not found" for f in report.files)
    return f"without output {failed}, affiliations not found {bare}"


def _runs() -> tuple[Report, Report, CrossValidation]:
    cv = cross_validate(corpus())
    return score_sets(use_metadata=False), score_sets(use_metadata=True), cv


def cv_text() -> str:
    plain, meta, cv = _runs()
    fams = families()

    def f1s(r: Report) -> str:
        return f"{r.authors.f1:5.3f} {r.linked_strict.f1:5.3f}"

    out = [
        "arxiv_pdf: training vs leave-one-template-family-out cross-validation "
        f"({len(cv.plain.files)} PDFs, {len(cv.folds)} families)",
        f"{'family':24} {'files':>5}  {'train PDF':11}  {'CV PDF':11}  |  "
        f"{'train meta':11}  {'CV meta':11}   (author F1, linked F1)",
    ]
    groups = [_by_family(r, fams) for r in (plain, cv.plain, meta, cv.metadata)]
    for name in sorted(groups[1]):
        rows = [g.get(name, Report(False)) for g in groups]
        out.append(
            f"{name[:24]:24} {len(rows[1].files):5}  {f1s(rows[0])}  {f1s(rows[1])}  |  "
            f"{f1s(rows[2])}  {f1s(rows[3])}"
        )
    out.append(
        f"{'OVERALL':24} {len(cv.plain.files):5}  {f1s(plain)}  {f1s(cv.plain)}  |  "
        f"{f1s(meta)}  {f1s(cv.metadata)}"
    )
    out.append(f"training, names found: {_status(plain)}; with metadata: {_status(meta)}")
    out.append(f"CV, names found: {_status(cv.plain)}; with metadata: {_status(cv.metadata)}")
    for f in cv.plain.files:
        if f.status != "ok":
            out.append(f"  CV {f.status}: {f.file}")
    return "\n".join(out)


def cv_json() -> str:
    import json

    plain, meta, cv = _runs()

    def fig(r: Report) -> dict[str, Any]:
        return {"authors": r.authors.figures(), "linked_strict": r.linked_strict.figures(),
                "files": {f.file: f.status for f in r.files}}  # fmt: skip

    data = {
        "training": {"names_found": fig(plain), "metadata": fig(meta)},
        "cross_validated": {"names_found": fig(cv.plain), "metadata": fig(cv.metadata)},
        "families": cv.folds,
    }
    return json.dumps(data, indent=2, ensure_ascii=False)
