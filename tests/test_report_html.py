"""The HTML report: self-contained, escaped, with a chart whose bars carry the run's numbers."""

from __future__ import annotations

import json
import re
from pathlib import Path

from ingest.pipeline.outcome import SourceOutcome
from ingest.report.html import bar_chart_svg, render_html
from ingest.report.run import RunReport

HOSTILE = '<script>alert("x")</script><img src=x onerror=alert(1)>'


def _change(kind: str, i: int) -> dict[str, object]:
    return {
        "id": f"c{i:015d}",
        "profile": f"p-{HOSTILE}",
        "kind": kind,
        # distinct facts (one flag each): the same statement from two sources is one flag
        "claim": {
            "predicate": "maintainer",
            "object": f"{HOSTILE} {i}",
            "qualifiers": {"level": "core"},
        },
        "previous": None,
        "source_url": "https://example.org/a",
    }


def _report() -> RunReport:
    report = RunReport(run_id="r1", kind="nightly", started="s", finished="f", replay="w")
    report.outcomes = [
        SourceOutcome(
            url=f"https://example.org/{HOSTILE}",
            status="fetched",
            claims=7,
            people=3,
            changes=[_change("added", 1), _change("added", 2), _change("removed", 3)],
            alerts=[f"layout {HOSTILE}"],
            unknown_people=[HOSTILE],
        ),
        SourceOutcome(url="https://example.org/b", status="fetched"),
        SourceOutcome(url="https://example.org/c", status="unchanged"),
        SourceOutcome(url="https://example.org/d", status="failed", error=f"boom {HOSTILE}"),
        SourceOutcome(url="https://example.org/e", status="skipped"),
        SourceOutcome(url="https://example.org/f", status="skipped"),
    ]
    return report


def _bars(page: str) -> dict[str, int]:
    return {
        label: int(value)
        for label, value in re.findall(r'data-label="([^"]+)" data-value="(\d+)"', page)
    }


def test_hostile_strings_are_escaped_and_nothing_is_loaded() -> None:
    page = render_html(_report().to_json())
    assert "<script" not in page and "<img" not in page
    assert "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;" in page
    assert "Content-Security-Policy" in page and "default-src 'none'" in page
    # self-contained: no external stylesheet, script, image or font; sources are plain links
    # (an editor follows them; nothing is loaded), never javascript: or data:
    assert not re.search(r"<(link|script|img|iframe|object)\b", page)
    assert not re.search(r"""src\s*=\s*["']?https?:""", page)
    hrefs = re.findall(r"<a href=\"([^\"]*)\" rel=\"noopener noreferrer\">", page)
    assert hrefs and all(h.startswith("https://") for h in hrefs)
    assert page.count("href=") == len(hrefs) and "javascript:" not in page
    assert "url(" not in page


def test_the_chart_shows_the_runs_numbers() -> None:
    report = _report()
    page = render_html(report.to_json())
    assert page.count("<svg") == 2
    assert _bars(page) == {
        "fetched": 2,
        "unchanged": 1,
        "failed": 1,
        "not replayed": 2,
        "added": 2,
        "changed": 0,
        "removed": 1,
    }
    assert report.counts() == {"fetched": 2, "unchanged": 1, "failed": 1, "skipped": 2}
    assert "Flags for review (3 facts, 3 changes)" in page and "Sources (6)" in page


def test_bar_heights_are_proportional() -> None:
    svg = bar_chart_svg("t", [("a", 10, "#000"), ("b", 5, "#111"), ("c", 0, "#222")])
    heights = [int(h) for h in re.findall(r'class="bar"[^>]* height="(\d+)"', svg)]
    assert heights[0] == 2 * heights[1] and heights[2] == 0 and heights[0] > 0
    assert "<svg" in bar_chart_svg("empty", [])


def test_write_leaves_md_json_and_html(tmp_path: Path) -> None:
    report = _report()
    report.notification = {"sent": False, "message": "could not notify http://x: HTTP 500"}
    md = report.write(tmp_path, "2026-06-10")
    assert md == tmp_path / "2026-06-10.md"
    html = (tmp_path / "2026-06-10.html").read_text()
    data = json.loads((tmp_path / "2026-06-10.json").read_text())
    assert data["notification"]["message"] in html and "HTTP 500" in md.read_text()
    assert html.startswith("<!DOCTYPE html>")


def test_summary_rows_for_the_table_artifact() -> None:
    rows = {(r["what"], r["item"]): r["count"] for r in _report().summary_rows()}
    assert rows[("sources", "not replayed")] == 2 and rows[("flags", "added")] == 2
    assert rows[("flags", "changed")] == 0 and len(rows) == 11
    assert rows[("new flags", "added")] == 2 and rows[("flags", "still pending")] == 0


def test_numbers_do_not_wrap_and_sources_are_links() -> None:
    page = render_html(_report().to_json())
    assert "white-space: nowrap" in page and 'td class="n"' in page
    assert '<a href="https://example.org/b" rel="noopener noreferrer">' in page


def test_the_page_is_byte_for_byte_the_golden_one() -> None:
    """tests/data/report_html.golden.html was written by the f-string renderer this module had
    before its Jinja2 templates (git show 5bd2b62:src/ingest/report_html.py), from the input
    beside it: the templates changed how the page is built, not a byte of it."""
    data = Path(__file__).parent / "data"
    report = json.loads((data / "report_html.input.json").read_text(encoding="utf-8"))
    golden = (data / "report_html.golden.html").read_text(encoding="utf-8")
    assert render_html(report) == golden


def test_the_templates_escape_even_without_the_finalize_step() -> None:
    from ingest.report.html import _environment

    env = _environment().overlay(finalize=None)  # autoescape alone, as a safety net
    page = env.get_template("report.html").render(
        csp="", style="", title=HOSTILE, when="", sources_chart="", flags_chart="",
        notice=None, sources=[], source_rows="", alerts=[HOSTILE], facts=[], flagged=0,
        unknown=[], split=None, unreachable=[], runs_list="",
    )  # fmt: skip
    assert "<script" not in page and "&lt;script&gt;" in page
    runs = env.get_template("runs.html").render(runs=[{"href": HOSTILE, "label": HOSTILE}])
    assert "<script" not in runs and "&lt;script&gt;" in runs and "<li><a href=" in runs


def test_both_pages_rendered_once_are_the_pages_rendered_apart() -> None:
    """write_run renders the report once for the run's page and the day's (the day's runs
    spliced in): byte for byte what rendering each page on its own gives, hostile text too."""
    from ingest.report.html import render_pages

    data = Path(__file__).parent / "data"
    golden_input = json.loads((data / "report_html.input.json").read_text(encoding="utf-8"))
    runs = [
        {"href": "2026-12-01/r2.html", "label": f"r2: finished f; 3 flags {HOSTILE}"},
        {"href": f"2026-12-01/{HOSTILE}.html", "label": "r1: finished e; 0 flags"},
    ]
    for report in (golden_input, _report().to_json()):
        bare, listed = render_pages(report, runs)
        assert bare == render_html(report)
        assert listed == render_html(report, runs)
        assert "Runs on this day (2)" in listed and "Runs on this day" not in bare
        assert "<!--runs" not in bare + listed
    assert render_pages(golden_input, [])[1] == render_html(golden_input)


def test_the_days_page_links_every_run_of_the_day(tmp_path: Path) -> None:
    import os

    from ingest.report.run import write_run

    first, second = _report(), _report()
    second.run_id = "r2"
    write_run(first, tmp_path, "2026-12-01")
    os.utime(tmp_path / "2026-12-01" / "r1.json", (1, 1))  # older, whatever the clock's grain
    latest = write_run(second, tmp_path, "2026-12-01")
    assert latest == tmp_path / "2026-12-01" / "r2.html" and latest.exists()
    day = (tmp_path / "2026-12-01.html").read_text()
    hrefs = re.findall(r'<a href="(2026-12-01/[^"]+)">(r\d): ', day)
    assert hrefs == [("2026-12-01/r2.html", "r2"), ("2026-12-01/r1.html", "r1")]  # newest first
    assert all((tmp_path / href).exists() for href, _ in hrefs)
    assert "ingest nightly run r2" in day  # the day's page is the latest run's report
    # a run's own page lists no runs; the report data is unchanged by the list
    assert "Runs on this day" not in latest.read_text()
    assert json.loads((tmp_path / "2026-12-01.json").read_text())["run_id"] == "r2"


def test_write_run_with_the_texts_made_already_writes_the_same_files(tmp_path: Path) -> None:
    """publish_nightly hands write_run the report's JSON and Markdown it made for the artifact:
    the files are those write_run makes alone."""
    from ingest.report.run import write_run

    report = _report()
    write_run(report, tmp_path / "alone", "2026-12-01")
    write_run(report, tmp_path / "given", "2026-12-01", texts=(report.to_json(), report.markdown()))
    alone = sorted(p.relative_to(tmp_path / "alone") for p in (tmp_path / "alone").rglob("*.*"))
    given = sorted(p.relative_to(tmp_path / "given") for p in (tmp_path / "given").rglob("*.*"))
    assert alone == given and len(alone) == 6  # the run's 3 files, the day's 3 (.md: its index)
    for name in alone:
        written = (tmp_path / "given" / name).read_bytes()
        assert written == (tmp_path / "alone" / name).read_bytes(), name


def test_the_source_rows_are_what_the_template_loop_printed() -> None:
    """`_source_rows` (Python, for speed) against the Jinja2 loop report.html had: the same
    bytes for hostile URLs, statuses, errors and alerts."""
    from ingest.report.html import _environment, _source_rows

    loop = _environment().from_string(
        "{%- for s in sources -%}\n"
        "<tr><td>{{ link(s.url) }}</td><td>{{ s.status }}\n"
        '{%- if s.error %}<br><span class="failed">{{ s.error }}</span>{% endif -%}\n'
        '</td><td class="n">{{ s.claims }}</td><td class="n">{{ s.people }}</td>'
        '<td class="n">{{ s.flags }}</td><td>{{ s.alerts | join("; ") }}</td></tr>\n'
        "{%- endfor -%}\n"
    )
    from ingest.report.html import _source_row

    sources = [o.to_json() for o in _report().outcomes] + [
        {
            "url": f"javascript:{HOSTILE}",
            "status": HOSTILE,
            "error": "'\"&<>",
            "alerts": [HOSTILE, "a;b"],
        },
        {"url": "https://example.org/?a=1&b='2'", "status": "unchanged", "claims": 3, "people": 2},
    ]
    rows = [_source_row(s) for s in sources]
    assert str(_source_rows(sources)) == loop.render(sources=rows)
    assert "<script" not in str(_source_rows(sources))
