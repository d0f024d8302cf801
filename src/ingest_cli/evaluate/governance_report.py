"""The text table of `ingest evaluate --governance`: per page, per set and in total, then what
each page missed or invented (so a developer sees what to fix)."""

from __future__ import annotations

from ingest_cli.evaluate.governance import Agreement, Counts, PageScore, Report, Totals


def _pct(value: float | None) -> str:
    return "    -" if value is None else f"{value:5.3f}"


def _pr(c: Counts) -> str:
    return f"{_pct(c.precision)} {_pct(c.recall)}"


def _agree(a: Agreement) -> str:
    if not a.rows:
        return f"{0:4d}     -     -     -"
    return f"{a.rows:4d} {a.status / a.rows:5.3f} {a.role / a.rows:5.3f} {a.scope / a.rows:5.3f}"


HEADER = (
    f"{'file':<58} {'pairs':>5}  {'people P  R':>11}  {'section P R':>11}  {'affil P   R':>11}"
    f"  {'rows':>4} {'status':>5} {'role':>5} {'scope':>5}"
)


def format_report(report: Report, *, misses: bool = True) -> str:
    """A table per page and in total, then (with `misses`) what each page missed or invented."""

    def line(label: str, s: PageScore | Totals) -> str:
        return (
            f"{label[:58]:<58} {s.sections.gold:5d}  {_pr(s.people)}  {_pr(s.sections)}  "
            f"{_pr(s.affiliations)}  {_agree(s.agreement)}"
        )

    out = [HEADER]
    for totals in report.sets:
        out += [line(p.file, p) for p in totals.pages]
        out.append(line(f"= {totals.label} ({len(totals.pages)} pages)", totals))
    if len(report.sets) > 1:
        out.append(line(f"= TOTAL ({len(report.pages)} pages)", report.total))
    out.append(
        "pairs = distinct gold (person, section) pairs; rows = gold rows matched to a claim "
        "(status/role/scope: share agreeing)"
    )
    if misses:
        for p in report.pages:
            notes = [f"  error: {p.error}"] if p.error else []
            notes += [f"  missed: {m}" for m in p.missed_rows]
            notes += [f"  spurious person: {m}" for m in p.spurious_people]
            notes += [f"  missed affiliation: {m}" for m in p.missed_affiliations]
            notes += [f"  spurious affiliation: {m}" for m in p.spurious_affiliations]
            if notes:
                out.append("")
                out.append(f"{p.file}  [{p.extractor or 'no extractor'}]  {p.url}")
                out += notes
    return "\n".join(out)
