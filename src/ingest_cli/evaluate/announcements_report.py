"""The text report of `ingest evaluate --announcements`: a line per post, per set and in total."""

from __future__ import annotations

from ingest_cli.evaluate.announcements import PostScore, Report


def _pct(value: float | None) -> str:
    return "  -  " if value is None else f"{value:.3f}"


def format_report(report: Report) -> str:
    """The report as text: a line per post, per set and in total, then each post's misses."""
    lines = [f"{'post':<72} {'gold':>4} {'found':>5} {'match':>5}   P      R      dates  project"]

    def row(name: str, p: PostScore) -> str:
        return (
            f"{name[:72]:<72} {p.gold:>4} {p.found:>5} {p.matched:>5}  "
            f"{_pct(p.precision)}  {_pct(p.recall)}  {_pct(p.dates_right)}  "
            f"{_pct(p.projects_right)}"
        )

    for s in report.sets:
        for p in s.posts:
            lines.append(row(p.file, p))
        lines.append(row(f"== {s.label}", s.total))
    lines.append(row("== total", report.total))
    for s in report.sets:
        for p in s.posts:
            if not (p.error or p.missed or p.spurious or p.misdated):
                continue
            lines.append("")
            lines.append(f"{p.file} ({p.extractor or 'no extractor'})")
            if p.error:
                lines.append(f"  error: {p.error}")
            lines += [f"  missed: {m}" for m in p.missed]
            lines += [f"  spurious: {m}" for m in p.spurious]
            lines += [f"  misdated: {m}" for m in p.misdated]
    return "\n".join(lines)
