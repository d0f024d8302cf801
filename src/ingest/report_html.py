"""A run report as one self-contained HTML page: no external assets, every string escaped.

    render_html(report_json) -> str       the page (RunReport.to_json() in, text out; pure)
    bar_chart_svg(title, bars) -> str     a small inline SVG bar chart, drawn by hand

Text from sources (URLs, names, alerts, statements) is hostile until escaped: everything goes
through `html.escape`; http(s) URLs become escaped links an editor can follow (any other scheme
stays text: never a javascript: or data: link), and the page's Content-Security-Policy allows no
script, no fetches and no external styles or images.
"""

from __future__ import annotations

from html import escape
from typing import Any
from urllib.parse import urlsplit

from ingest.grouping import source_label
from ingest.report import describe, flagged_in, group_facts, unknown_people

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


def bar_chart_svg(title: str, bars: list[tuple[str, int, str]]) -> str:
    """An inline SVG: one bar per (label, value, colour), heights proportional to the values,
    each value printed above its bar and its label below; `role="img"` with a text title."""
    top = max((value for _label, value, _colour in bars), default=0) or 1
    width = BAR_GAP + len(bars) * (BAR_WIDTH + BAR_GAP)
    height = CHART_TOP + CHART_HEIGHT + CHART_BOTTOM
    base = CHART_TOP + CHART_HEIGHT
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" role="img" width="{width}" '
        f'height="{height}" viewBox="0 0 {width} {height}" aria-label="{escape(title)}">',
        f"<title>{escape(title)}</title>",
        f'<text x="{BAR_GAP}" y="18" font-size="13" font-weight="bold">{escape(title)}</text>',
        f'<line x1="{BAR_GAP // 2}" y1="{base}" x2="{width - BAR_GAP // 2}" y2="{base}" '
        'stroke="#999"/>',
    ]
    for i, (label, value, colour) in enumerate(bars):
        x = BAR_GAP + i * (BAR_WIDTH + BAR_GAP)
        h = round(CHART_HEIGHT * value / top)
        mid = x + BAR_WIDTH // 2
        parts += [
            f'<rect class="bar" data-label="{escape(label)}" data-value="{value}" x="{x}" '
            f'y="{base - h}" width="{BAR_WIDTH}" height="{h}" fill="{escape(colour)}">'
            f"<title>{escape(label)}: {value}</title></rect>",
            f'<text x="{mid}" y="{base - h - 4}" font-size="12" text-anchor="middle">'
            f"{value}</text>",
            f'<text x="{mid}" y="{base + 16}" font-size="12" text-anchor="middle">'
            f"{escape(label)}</text>",
        ]
    parts.append("</svg>")
    return "".join(parts)


def _table(headers: list[str], rows: list[list[str]], numeric: frozenset[int]) -> str:
    """Rows of already-escaped cells."""
    head = "".join(f"<th>{escape(h)}</th>" for h in headers)
    body = "".join(
        "<tr>"
        + "".join(
            f'<td class="n">{cell}</td>' if i in numeric else f"<td>{cell}</td>"
            for i, cell in enumerate(row)
        )
        + "</tr>"
        for row in rows
    )
    return f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


def _link(url: str, text: str | None = None) -> str:
    """An escaped link to an http(s) URL (never javascript: or data:), else the escaped text."""
    shown = escape(text if text is not None else url)
    if urlsplit(url).scheme.lower() in ("http", "https"):
        return f'<a href="{escape(url, quote=True)}" rel="noopener noreferrer">{shown}</a>'
    return shown


def render_html(report: dict[str, Any]) -> str:
    """The report page for `report` (RunReport.to_json()): summary, two charts, the tables."""
    counts: dict[str, int] = report.get("counts", {})
    flags: dict[str, int] = report.get("flags", {})
    kind, run_id = str(report.get("kind", "")), str(report.get("run_id", ""))
    title = f"ingest {kind} run {run_id}"
    when = f"Started {report.get('started', '')}, finished {report.get('finished', '')}."
    if report.get("replay"):
        when += f" Replaying {report['replay']}"
        when += f" as of {report['as_of']}." if report.get("as_of") else "."
    out = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        f'<meta http-equiv="Content-Security-Policy" content="{CSP}">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>{escape(title)}</title><style>{STYLE}</style></head><body>",
        f"<h1>{escape(title)}</h1>",
        f'<p class="note">{escape(when)}</p>',
        '<div class="charts">',
        bar_chart_svg(
            "Sources", [(label, int(counts.get(key, 0)), c) for label, key, c in SOURCE_BARS]
        ),
        bar_chart_svg(
            "Flags by kind", [(label, int(flags.get(key, 0)), c) for label, key, c in FLAG_BARS]
        ),
        "</div>",
    ]
    notice = report.get("notification")
    if notice:
        cls = ' class="failed"' if notice.get("error") else ""
        out.append(f"<p{cls}>Notification: {escape(str(notice.get('message', '')))}</p>")
    sources = report.get("sources", [])
    out += [f"<h2>Sources ({len(sources)})</h2>"]
    rows = []
    for s in sources:
        status = escape(str(s.get("status", "")))
        if s.get("error"):
            status += f'<br><span class="failed">{escape(str(s["error"]))}</span>'
        rows.append(
            [
                _link(str(s.get("url", ""))),
                status,
                str(int(s.get("claims", 0))),
                str(int(s.get("people", 0))),
                str(len(s.get("changes", []))),
                escape("; ".join(map(str, s.get("alerts", [])))),
            ]
        )
    out.append(
        _table(
            ["source", "status", "claims", "people", "flags", "alerts"], rows, frozenset({2, 3, 4})
        )
    )
    alerts = [str(a) for s in sources for a in s.get("alerts", [])]
    if alerts:
        out += ["<h2>Alerts</h2><ul>"] + [f"<li>{escape(a)}</li>" for a in alerts] + ["</ul>"]
    queued = flagged_in(report)
    facts = group_facts([ch for _url, ch in queued])
    if facts:
        out.append(f"<h2>Flags for review ({len(facts)} facts, {len(queued)} changes)</h2>")
        out.append(
            _table(
                ["id", "profile", "kind", "statement", "sources"],
                [
                    [
                        f"<code>{escape(str(group[0].get('id', '')))}</code>",
                        escape(str(group[0].get("profile", ""))),
                        escape(str(group[0].get("kind", ""))),
                        escape(describe(group[0])),
                        "<br>".join(
                            _link(str(ch.get("source_url", "")), source_label(ch)) for ch in group
                        ),
                    ]
                    for group in facts
                ],
                frozenset(),
            )
        )
    unknown = unknown_people(sources)
    if unknown:
        out.append(f"<h2>People not in the wiki ({len(unknown)})</h2><ul>")
        for person in unknown:
            handles = f" ({escape(', '.join(person.handles))})" if person.handles else ""
            where = ", ".join(_link(u) for u in person.sources)
            out.append(f"<li>{escape(person.name)}{handles}: {where}</li>")
        out.append("</ul>")
    dead = report.get("unreachable", [])
    if dead:
        out.append("<h2>References unreachable</h2><ul>")
        for ch in dead:
            reason = ((ch.get("claim") or {}).get("qualifiers") or {}).get("reason", "")
            out.append(
                f"<li>{_link(str(ch.get('source_url', '')))} (cited by "
                f"{escape(str(ch.get('profile', '')))}): {escape(str(reason))}</li>"
            )
        out.append("</ul>")
    out.append("</body></html>")
    return "\n".join(out) + "\n"
