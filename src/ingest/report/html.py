"""A run report as one self-contained HTML page: no external assets, every string escaped.

    render_html(report_json) -> str       the page (RunReport.to_json() in, text out; pure)
    render_pages(report_json, runs)       the page without and with the day's runs, rendered once
    bar_chart_svg(title, bars) -> str     a small inline SVG bar chart, drawn by hand

The page is `templates/report.html` and the chart `templates/bar_chart.svg`,
Jinja2 templates with autoescape on. Text from sources (URLs, names, alerts, statements) is
hostile until escaped: every value a template prints is escaped (with `html.escape`, as this
page always was, through the environment's `finalize`; autoescape stays on beneath it), only
the constants below and the rendered charts are marked safe. http(s) URLs become links an editor
can follow (the `web_url` test: any other scheme stays text, never a javascript: or data: link),
and the page's Content-Security-Policy allows no script, no fetches and no external styles or
images.
"""

from __future__ import annotations

import secrets
from functools import cache
from html import escape
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from jinja2 import Environment, FileSystemLoader, StrictUndefined
from markupsafe import Markup

from ingest.report.run import UnknownPerson, describe, flagged_in, group_facts, unknown_people
from ingest.review.grouping import source_label

TEMPLATES = Path(__file__).resolve().parent / "templates"
# (label, key in "counts", colour): the order and colours of the sources chart
SOURCE_BARS = (
    ("fetched", "fetched", "#2e7d32"),
    ("unchanged", "unchanged", "#607d8b"),
    ("failed", "failed", "#c62828"),
    ("not replayed", "skipped", "#f9a825"),
)
# (label, flag kind, colour): the flags chart
FLAG_BARS = (
    ("added", "added", "#1565c0"),
    ("changed", "changed", "#6a1b9a"),
    ("removed", "removed", "#ef6c00"),
)
CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src 'none'; form-action 'none'"
STYLE = """
body { font: 15px/1.45 system-ui, sans-serif; margin: 2em auto; max-width: 70em; color: #222; }
h1 { font-size: 1.4em; } h2 { font-size: 1.15em; margin-top: 1.6em; }
table { border-collapse: collapse; width: 100%; }
th, td { border-bottom: 1px solid #ddd; padding: .3em .5em; text-align: left;
         vertical-align: top; overflow-wrap: anywhere; }
th { background: #f4f4f4; }
td.n { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap;
       overflow-wrap: normal; }
.charts { display: flex; gap: 2em; flex-wrap: wrap; } .charts svg { border: 1px solid #eee; }
.failed { color: #c62828; } .note { color: #555; } code { font-size: .95em; }
"""
BAR_WIDTH = 56
BAR_GAP = 20
CHART_HEIGHT = 150  # the tallest bar
CHART_TOP = 28  # room for the title
CHART_BOTTOM = 36  # room for the value and label under the bars


def _escaped(value: Any) -> Any:
    """Every printed value escaped as `html.escape` does (quotes too); Markup is left as is."""
    if isinstance(value, Markup):
        return value
    return Markup(escape(str(value), quote=True))


def _is_web_url(value: Any) -> bool:
    return urlsplit(str(value)).scheme.lower() in ("http", "https")


@cache
def _environment() -> Environment:
    env = Environment(
        loader=FileSystemLoader(TEMPLATES),
        autoescape=True,
        finalize=_escaped,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
        undefined=StrictUndefined,
    )
    env.tests["web_url"] = _is_web_url
    env.globals["link"] = _link
    return env


def _unknown_items(unknown: list[UnknownPerson]) -> Markup:
    """The `<li>` of each person not in the wiki, a line each: its name, handles and sources
    (linked). Made here, not in the template: 80,000 of them at 10,000 sources took the
    template ~2 s."""
    lines = []
    links: dict[str, str] = {}  # a source's link made once: each of its people names it
    for person in unknown:
        handles = f" ({_escaped(', '.join(person.handles))})" if person.handles else ""
        linked = ", ".join(
            links.get(url) or links.setdefault(url, _link(url)) for url in person.sources
        )
        lines.append(f"<li>{_escaped(person.name)}{handles}: {linked}</li>\n")
    return Markup("".join(lines))


def _link(url: Any, text: Any = None) -> Markup:
    """A link only to an http(s) URL (never javascript: or data:); anything else stays text.
    Python, not a template macro: a report of 10,000 sources calls it ~90,000 times, and a
    macro call costs ~20 times as much (the same HTML either way)."""
    shown = _escaped(url if text is None else text)
    if _is_web_url(url):
        return Markup(f'<a href="{_escaped(url)}" rel="noopener noreferrer">{shown}</a>')
    return Markup(shown)


def bar_chart_svg(title: str, bars: list[tuple[str, int, str]]) -> str:
    """An inline SVG: one bar per (label, value, colour), heights proportional to the values,
    each value printed above its bar and its label below; `role="img"` with a text title."""
    top = max((value for _label, value, _colour in bars), default=0) or 1
    width = BAR_GAP + len(bars) * (BAR_WIDTH + BAR_GAP)
    drawn = []
    for i, (label, value, colour) in enumerate(bars):
        x = BAR_GAP + i * (BAR_WIDTH + BAR_GAP)
        height = round(CHART_HEIGHT * value / top)
        drawn.append(
            {"label": label, "value": value, "colour": colour, "x": x, "height": height}
            | {"mid": x + BAR_WIDTH // 2}
        )
    svg = (
        _environment()
        .get_template("bar_chart.svg")
        .render(
            title=title,
            bars=drawn,
            width=width,
            height=CHART_TOP + CHART_HEIGHT + CHART_BOTTOM,
            base=CHART_TOP + CHART_HEIGHT,
            gap=BAR_GAP,
            bar_width=BAR_WIDTH,
        )
    )
    return svg.rstrip("\n")  # one line, without the template file's last newline


def render_html(report: dict[str, Any], runs: list[dict[str, str]] | None = None) -> str:
    """The report page for `report` (RunReport.to_json()): summary, two charts, the tables;
    with `runs` (`href` relative to the page, `label`), the day's runs linked at the top."""
    return _render(report, _runs_list(runs or []))


def render_pages(report: dict[str, Any], runs: list[dict[str, str]]) -> tuple[str, str]:
    """The page for `report` without and with `runs` listed at its top (render_html(report)
    and render_html(report, runs)), the report rendered once: the list is spliced in where a
    mark, random per call (no source text can hold it), stood."""
    mark = f"<!--runs {secrets.token_hex(16)}-->"
    page = _render(report, Markup(mark))
    return page.replace(mark, "", 1), page.replace(mark, _runs_list(runs), 1)


def _runs_list(runs: list[dict[str, str]]) -> Markup:
    return Markup(_environment().get_template("runs.html").render(runs=runs))


def _render(report: dict[str, Any], runs_list: Markup) -> str:
    counts: dict[str, int] = report.get("counts", {})
    flags: dict[str, int] = report.get("flags", {})
    kind, run_id = str(report.get("kind", "")), str(report.get("run_id", ""))
    when = f"Started {report.get('started', '')}, finished {report.get('finished', '')}."
    if report.get("replay"):
        when += f" Replaying {report['replay']}"
        when += f" as of {report['as_of']}." if report.get("as_of") else "."
    sources = report.get("sources", [])
    queued = flagged_in(report)
    charts = {
        "sources_chart": bar_chart_svg(
            "Sources", [(label, int(counts.get(key, 0)), c) for label, key, c in SOURCE_BARS]
        ),
        "flags_chart": bar_chart_svg(
            "Flags by kind", [(label, int(flags.get(key, 0)), c) for label, key, c in FLAG_BARS]
        ),
    }
    notice = report.get("notification")
    # the flags first queued by this run apart from those pending from before (reports
    # written before the split have none, and render as they did)
    new, pending = report.get("new"), report.get("still_pending")
    split = (
        {"new": int(new.get("facts", 0)), "pending": int(pending.get("facts", 0))}
        if isinstance(new, dict) and isinstance(pending, dict)
        else None
    )
    new_ids = {str(i) for i in new.get("ids", [])} if split and isinstance(new, dict) else set()
    unknown = unknown_people(sources)
    return (
        _environment()
        .get_template("report.html")
        .render(
            csp=Markup(CSP),
            style=Markup(STYLE),
            title=f"ingest {kind} run {run_id}",
            when=when,
            runs_list=runs_list,
            **{name: Markup(svg) for name, svg in charts.items()},
            notice={"error": notice.get("error"), "message": notice.get("message", "")}
            if notice
            else None,
            sources=sources,
            source_rows=_source_rows(sources),
            alerts=[str(a) for s in sources for a in s.get("alerts", [])],
            facts=[
                _fact_row(group) | {"new": str(group[0].get("id", "")) in new_ids}
                for group in group_facts([ch for _url, ch in queued])
            ],
            split=split,
            flagged=len(queued),
            unknown=unknown,
            unknown_items=_unknown_items(unknown),
            unreachable=[_unreachable_row(ch) for ch in report.get("unreachable", [])],
        )
    )


def _source_rows(sources: list[dict[str, Any]]) -> Markup:
    """The `<tr>` of each source, as the template's loop printed them (every value escaped
    by `_escaped`, the URL by `_link`): made here, not in the template, which took ~0.3 ms a
    row, most of the report of an unchanged 10,000-source nightly."""
    rows = []
    for s in sources:
        row = _source_row(s)
        error = f'<br><span class="failed">{_escaped(row["error"])}</span>' if row["error"] else ""
        rows.append(
            f"<tr><td>{_link(row['url'])}</td><td>{_escaped(row['status'])}{error}</td>"
            f'<td class="n">{row["claims"]}</td><td class="n">{row["people"]}</td>'
            f'<td class="n">{row["flags"]}</td><td>{_escaped("; ".join(row["alerts"]))}</td></tr>'
        )
    return Markup("".join(rows))


def _source_row(s: dict[str, Any]) -> dict[str, Any]:
    return {
        "url": str(s.get("url", "")),
        "status": str(s.get("status", "")),
        "error": str(s["error"]) if s.get("error") else None,
        "claims": int(s.get("claims", 0)),
        "people": int(s.get("people", 0)),
        "flags": len(s.get("changes", [])),
        "alerts": [str(a) for a in s.get("alerts", [])],
    }


def _fact_row(group: list[dict[str, Any]]) -> dict[str, Any]:
    lead = group[0]
    return {
        "id": str(lead.get("id", "")),
        "profile": str(lead.get("profile", "")),
        "kind": str(lead.get("kind", "")),
        "statement": describe(lead),
        "sources": [(str(ch.get("source_url", "")), source_label(ch)) for ch in group],
    }


def _unreachable_row(ch: dict[str, Any]) -> dict[str, Any]:
    reason = ((ch.get("claim") or {}).get("qualifiers") or {}).get("reason", "")
    return {
        "url": str(ch.get("source_url", "")),
        "profile": str(ch.get("profile", "")),
        "reason": str(reason),
    }
