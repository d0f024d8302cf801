"""Score the arxiv_pdf extractor against hand-checked gold labels.

    python -m ingest_cli.evaluate.arxiv [--gold DIR --pdfs DIR] [--metadata] [--json]

By default the whole real corpus is scored: `fixtures/arxiv/gold` (6 PDFs the extractor was first
written on) and `fixtures/arxiv/gold-train` (40 PDFs of other venues and publishers), both without
and with metadata names, with a table per template (`fixtures/arxiv/templates.json`).

For every gold file (`<stem>.json`: title, authors in printed order, each with `affiliations`
and `emails`) the PDF named by its `file` field is parsed with `extractors.papers.pdf.parse_paper`
and compared:

- author names: precision / recall / F1 over one-to-one matches. Names match case- and
  accent-insensitively (NFKD fold via `ingest.names.fold`, typographic apostrophes equal to
  ASCII), so "TAL AUGUST" = "Tal August" and "Cara O'Brien" = "Cara O’Brien".
- linked pairs (author, affiliation): a predicted pair is correct when its author matches a
  gold author and its affiliation matches one of that author's gold affiliations (one-to-one).
  *strict*: equal after normalisation (case, accents, punctuation and whitespace folded away).
  *tolerant*: strict, or one normalised string contains the other, or token-set similarity
  (|A ∩ B| / |A ∪ B| over word sets) >= 0.8.

The gated metric is **strict** linked F1: the claim's `affiliation_text` is shown to editors and
compared with profiles as printed, so a truncated or over-long affiliation ("Harvard University"
vs "Harvard University, {emails}") is a real defect that tolerant matching would hide. Tolerant
figures are reported beside it to show how much of the gap is boundary noise.

Without `--metadata` the extractor finds the names itself (the main figure); with it, the gold
author list stands in for arXiv metadata (`known_authors`). A PDF that fails to parse scores zero
for its file (all gold pairs missed) and its error is listed.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from extractors.papers.linemodel import LineModel
from extractors.papers.pdf import ParsedPaper, parse_paper
from ingest.errors import IngestError
from ingest.names import fold

ROOT = Path(__file__).resolve().parents[3]
DEFAULT_GOLD = ROOT / "fixtures" / "arxiv" / "gold"
DEFAULT_PDFS = ROOT / "fixtures" / "arxiv" / "pdf"
TRAIN_GOLD = ROOT / "fixtures" / "arxiv" / "gold-train"
TRAIN_PDFS = ROOT / "fixtures" / "arxiv" / "pdf-train"
# (gold folder, PDF folder) pairs scored by default: the whole real corpus
DEFAULT_SETS = ((DEFAULT_GOLD, DEFAULT_PDFS), (TRAIN_GOLD, TRAIN_PDFS))
TEMPLATES = ROOT / "fixtures" / "arxiv" / "templates.json"
UNKNOWN_TEMPLATE = "(no template listed)"
TOLERANT_JACCARD = 0.8
APOSTROPHES = str.maketrans({"\u2019": "'", "\u2018": "'", "\u02bc": "'", "`": "'"})


def norm_name(name: str) -> str:
    return fold(name.translate(APOSTROPHES))


def norm_affiliation(text: str) -> str:
    return fold(text)


def strict_match(predicted: str, gold: str) -> bool:
    return norm_affiliation(predicted) == norm_affiliation(gold)


def tolerant_match(predicted: str, gold: str) -> bool:
    a, b = norm_affiliation(predicted), norm_affiliation(gold)
    if not a or not b:
        return False
    if a == b or a in b or b in a:
        return True
    sa, sb = set(a.split()), set(b.split())
    return len(sa & sb) / len(sa | sb) >= TOLERANT_JACCARD


@dataclass
class Counts:
    tp: int = 0
    predicted: int = 0
    gold: int = 0

    def add(self, other: Counts) -> None:
        self.tp += other.tp
        self.predicted += other.predicted
        self.gold += other.gold

    @property
    def precision(self) -> float:
        return self.tp / self.predicted if self.predicted else (1.0 if not self.gold else 0.0)

    @property
    def recall(self) -> float:
        return self.tp / self.gold if self.gold else 1.0

    @property
    def f1(self) -> float:
        p, r = self.precision, self.recall
        return 2 * p * r / (p + r) if p + r else 0.0

    def figures(self) -> dict[str, float]:
        return {
            "precision": round(self.precision, 4),
            "recall": round(self.recall, 4),
            "f1": round(self.f1, 4),
            "tp": self.tp,
            "predicted": self.predicted,
            "gold": self.gold,
        }


@dataclass
class FileScore:
    file: str
    template: str = UNKNOWN_TEMPLATE
    authors: Counts = field(default_factory=Counts)
    linked_strict: Counts = field(default_factory=Counts)
    linked_tolerant: Counts = field(default_factory=Counts)
    error: str | None = None
    misses: list[str] = field(default_factory=list)
    # "ok", "affiliations not found" (authors without any affiliation) or "failed" (no output)
    status: str = "ok"
    # (confidence, strictly right?) of every predicted affiliation of a matched author
    confidences: list[tuple[float, bool]] = field(default_factory=list)


@dataclass
class Report:
    use_metadata: bool
    files: list[FileScore] = field(default_factory=list)
    authors: Counts = field(default_factory=Counts)
    linked_strict: Counts = field(default_factory=Counts)
    linked_tolerant: Counts = field(default_factory=Counts)

    def to_json(self) -> dict[str, Any]:
        def one(s: FileScore | Report) -> dict[str, Any]:
            return {
                "authors": s.authors.figures(),
                "linked_strict": s.linked_strict.figures(),
                "linked_tolerant": s.linked_tolerant.figures(),
            }

        return {
            "use_metadata": self.use_metadata,
            "overall": one(self),
            "templates": {name: one(group) for name, group in self.by_template().items()},
            "files": [
                {"file": f.file, "template": f.template, **one(f), "status": f.status,
                 "error": f.error, "misses": f.misses}
                for f in self.files
            ],
        }  # fmt: skip

    def add(self, file_score: FileScore) -> None:
        self.files.append(file_score)
        self.authors.add(file_score.authors)
        self.linked_strict.add(file_score.linked_strict)
        self.linked_tolerant.add(file_score.linked_tolerant)

    def by_template(self) -> dict[str, Report]:
        """One sub-report per template, in order of first appearance."""
        groups: dict[str, Report] = {}
        for f in self.files:
            groups.setdefault(f.template, Report(use_metadata=self.use_metadata)).add(f)
        return groups


def _match_authors(predicted: list[str], gold: list[str]) -> dict[int, int]:
    """predicted index -> gold index, one-to-one, by folded name."""
    pairs: dict[int, int] = {}
    taken: set[int] = set()
    for i, name in enumerate(predicted):
        for j, other in enumerate(gold):
            if j not in taken and norm_name(name) == norm_name(other):
                pairs[i] = j
                taken.add(j)
                break
    return pairs


def _linked(
    paper: ParsedPaper,
    gold: list[dict[str, Any]],
    pairs: dict[int, int],
    tolerant: bool,
    confidences: list[tuple[float, bool]] | None = None,
) -> tuple[Counts, list[str]]:
    counts = Counts(gold=sum(len(a["affiliations"]) for a in gold))
    misses: list[str] = []
    test = tolerant_match if tolerant else strict_match
    for i, author in enumerate(paper.authors):
        counts.predicted += len(author.affiliations)
        if i not in pairs:
            continue
        remaining = list(gold[pairs[i]]["affiliations"])
        for aff in author.affiliations:
            hit = next((g for g in remaining if test(aff.text, g)), None)
            if confidences is not None:
                confidences.append((aff.confidence, hit is not None))
            if hit is not None:
                remaining.remove(hit)
                counts.tp += 1
            elif not tolerant:
                misses.append(f"{author.name}: {aff.text!r}")
    return counts, misses


def load_templates(path: Path = TEMPLATES) -> dict[str, str]:
    """PDF file name -> template name; empty when the list is missing."""
    if not path.is_file():
        return {}
    data = json.loads(path.read_text("utf-8"))
    return {k: v for k, v in data.items() if not k.startswith("_") and isinstance(v, str)}


def score_file(
    gold_path: Path,
    pdf_dir: Path,
    *,
    use_metadata: bool,
    templates: dict[str, str] | None = None,
    model: LineModel | None = None,
) -> FileScore:
    gold = json.loads(gold_path.read_text("utf-8"))
    gold_authors: list[dict[str, Any]] = gold["authors"]
    template = (templates or {}).get(gold["file"], UNKNOWN_TEMPLATE)
    result = FileScore(file=gold["file"], template=template)
    names = [a["name"] for a in gold_authors]
    n_affs = sum(len(a["affiliations"]) for a in gold_authors)
    try:
        pdf = (pdf_dir / gold["file"]).read_bytes()
        paper = parse_paper(
            pdf,
            known_authors=names if use_metadata else None,
            url=str(pdf_dir / gold["file"]),
            model=model,
        )
    except (OSError, IngestError) as exc:
        result.error, result.status = str(exc), "failed"
        result.authors = Counts(gold=len(names))
        result.linked_strict = Counts(gold=n_affs)
        result.linked_tolerant = Counts(gold=n_affs)
        return result
    predicted = [a.name for a in paper.authors]
    pairs = _match_authors(predicted, names)
    result.authors = Counts(tp=len(pairs), predicted=len(predicted), gold=len(names))
    if not paper.affiliations_found:
        result.status = "affiliations not found"
    result.linked_strict, result.misses = _linked(
        paper, gold_authors, pairs, tolerant=False, confidences=result.confidences
    )
    result.linked_tolerant, _ = _linked(paper, gold_authors, pairs, tolerant=True)
    for j, name in enumerate(names):
        if j not in pairs.values():
            result.misses.append(f"author not found: {name}")
    return result


def score(gold_dir: Path | str, pdf_dir: Path | str, *, use_metadata: bool) -> Report:
    """Per-file and overall author and linked precision/recall/F1 of one gold folder."""
    return score_sets([(Path(gold_dir), Path(pdf_dir))], use_metadata=use_metadata)


def score_sets(
    sets: Iterable[tuple[Path | str, Path | str]] = DEFAULT_SETS,
    *,
    use_metadata: bool,
    model: LineModel | None = None,
) -> Report:
    """One report over several (gold folder, PDF folder) pairs (default: the whole corpus)."""
    report = Report(use_metadata=use_metadata)
    templates = load_templates()
    for gold_dir, pdf_dir in sets:
        for gold_path in sorted(Path(gold_dir).glob("*.json")):
            report.add(
                score_file(
                    gold_path,
                    Path(pdf_dir),
                    use_metadata=use_metadata,
                    templates=templates,
                    model=model,
                )
            )
    return report


def format_report(report: Report) -> str:
    def row(label: str, s: FileScore | Report) -> str:
        a, ls, lt = s.authors, s.linked_strict, s.linked_tolerant
        return (
            f"{label[:52]:52} {a.precision:5.3f} {a.recall:5.3f} {a.f1:5.3f}  "
            f"{ls.precision:5.3f} {ls.recall:5.3f} {ls.f1:5.3f}  "
            f"{lt.precision:5.3f} {lt.recall:5.3f} {lt.f1:5.3f}"
        )

    mode = "with metadata names" if report.use_metadata else "names found in the PDF"
    out = [
        f"arxiv_pdf evaluation ({mode})",
        f"{'file':52} {'author P/R/F1':17}  {'linked strict P/R/F1':18} {'linked tolerant P/R/F1'}",
    ]
    for f in report.files:
        out.append(row(f.file, f))
        if f.error:
            out.append(f"    error: {f.error}")
        elif f.status != "ok":
            out.append(f"    {f.status}")
        out.extend(f"    miss: {m}" for m in f.misses)
    out.append(row("OVERALL", report))
    failed = sum(f.status == "failed" for f in report.files)
    bare = sum(f.status == "affiliations not found" for f in report.files)
    out.append(
        f"files: {len(report.files)}; without output: {failed}; affiliations not found: {bare}"
    )
    return "\n".join(out)


def format_templates(plain: Report, metadata: Report) -> str:
    """Per-template author and linked (strict) P/R/F1, without and with metadata names."""

    def prf(c: Counts) -> str:
        return f"{c.precision:5.3f} {c.recall:5.3f} {c.f1:5.3f}"

    with_meta = metadata.by_template()
    out = [
        "per template: names found in the PDF | with metadata names",
        f"{'template':20} {'files':>5}  {'author P/R/F1':17}  {'linked P/R/F1':17}  |"
        f"  {'author P/R/F1':17}  {'linked P/R/F1':17}",
    ]
    groups = list(plain.by_template().items()) + [("OVERALL", plain)]
    for name, group in groups:
        other = metadata if name == "OVERALL" else with_meta.get(name, Report(use_metadata=True))
        out.append(
            f"{name[:20]:20} {len(group.files):5}  {prf(group.authors)}  "
            f"{prf(group.linked_strict)}  |  {prf(other.authors)}  {prf(other.linked_strict)}"
        )
    return "\n".join(out)


def evaluate_text(
    gold: Path | None = None, pdfs: Path | None = None, *, metadata_only: bool = False
) -> str:
    """The report `ingest evaluate` prints: per file (names found in the PDF), then per template
    both without and with metadata names. One folder pair when given, else the whole corpus."""
    sets = [(gold or DEFAULT_GOLD, pdfs or DEFAULT_PDFS)] if gold or pdfs else list(DEFAULT_SETS)
    metadata = score_sets(sets, use_metadata=True)
    if metadata_only:
        return format_report(metadata)
    plain = score_sets(sets, use_metadata=False)
    return "\n\n".join([format_report(plain), format_templates(plain, metadata)])


def evaluate_json(
    gold: Path | None = None, pdfs: Path | None = None, *, metadata_only: bool = False
) -> dict[str, Any]:
    sets = [(gold or DEFAULT_GOLD, pdfs or DEFAULT_PDFS)] if gold or pdfs else list(DEFAULT_SETS)
    metadata = score_sets(sets, use_metadata=True).to_json()
    if metadata_only:
        return metadata
    return {"names_found": score_sets(sets, use_metadata=False).to_json(), "metadata": metadata}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m ingest_cli.evaluate.arxiv", description=__doc__
    )
    parser.add_argument("--gold", type=Path, help="folder of gold *.json (default: the corpus)")
    parser.add_argument("--pdfs", type=Path, help="folder of the PDFs")
    parser.add_argument("--metadata", action="store_true", help="only with gold names as metadata")
    parser.add_argument("--json", action="store_true", help="print the report as JSON")
    args = parser.parse_args(argv)
    for folder in (args.gold, args.pdfs):
        if folder is not None and not folder.is_dir():
            print(f"error: no such folder: {folder}", file=sys.stderr)
            return 2
    if args.json:
        found = evaluate_json(args.gold, args.pdfs, metadata_only=args.metadata)
        print(json.dumps(found, indent=2, ensure_ascii=False))
    else:
        print(evaluate_text(args.gold, args.pdfs, metadata_only=args.metadata))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
