"""Time parse_paper on the real PDFs, beside plain pypdf first-page extract_text().

    .venv/bin/python bench/pdf_first_page.py [--repeat N] [--pdfs DIR ...]

The real corpus by default (fixtures/arxiv/pdf and pdf-train: 46 PDFs). Each PDF is parsed N
times (default 7) from bytes, including opening the reader, as the extractor does (a PDF the
extractor refuses is timed to its error); the baseline opens the reader and runs
`pages[0].extract_text()`. Prints per-file median and p95 in milliseconds, then the median of
the per-file medians (target: <= 150 ms).
"""

from __future__ import annotations

import argparse
import contextlib
import io
import logging
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "src"))

from pypdf import PdfReader  # noqa: E402

from extractors.papers.pdf import parse_paper  # noqa: E402
from ingest.errors import ExtractionError  # noqa: E402


def baseline(data: bytes) -> None:
    PdfReader(io.BytesIO(data)).pages[0].extract_text()


def ours(data: bytes) -> None:
    with contextlib.suppress(ExtractionError):  # a per-file error is an answer too: timed
        parse_paper(data)


def timings(func: Callable[[bytes], None], data: bytes, repeat: int) -> list[float]:
    func(data)  # warm-up
    out = []
    for _ in range(repeat):
        start = time.perf_counter()
        func(data)
        out.append((time.perf_counter() - start) * 1000)
    return out


def p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument(
        "--pdfs",
        type=Path,
        action="append",
        help="folder of PDFs (repeatable; default: fixtures/arxiv/pdf and pdf-train, 46 PDFs)",
    )
    args = parser.parse_args()
    folders = args.pdfs or [
        ROOT / "fixtures" / "arxiv" / "pdf",
        ROOT / "fixtures" / "arxiv" / "pdf-train",
    ]
    logging.getLogger("pypdf").setLevel(logging.ERROR)
    print(f"{'file':52} {'parse_paper med/p95 ms':>24} {'pypdf extract_text med/p95 ms':>31}")
    medians_ours, medians_base = [], []
    for path in sorted(p for folder in folders for p in folder.glob("*.pdf")):
        data = path.read_bytes()
        a = timings(ours, data, args.repeat)
        b = timings(baseline, data, args.repeat)
        medians_ours.append(statistics.median(a))
        medians_base.append(statistics.median(b))
        print(
            f"{path.name[:52]:52} {statistics.median(a):14.1f} / {p95(a):6.1f}"
            f" {statistics.median(b):21.1f} / {p95(b):6.1f}"
        )
    print(
        f"{'median of medians':52} {statistics.median(medians_ours):14.1f}"
        f"          {statistics.median(medians_base):21.1f}"
    )
    print(f"{'p95 of medians':52} {p95(medians_ours):14.1f}          {p95(medians_base):21.1f}")


if __name__ == "__main__":
    main()
