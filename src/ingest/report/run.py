"""Run reports: what a run fetched, what it flagged, what needs a person's eye."""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ingest.fact_identity import fact_key
from ingest.files import write_atomic
from ingest.names import fold
from ingest.pipeline.outcome import SourceOutcome
from ingest.review.grouping import source_label
from ingest.statements import notation


@dataclass
class RunReport:
    run_id: str
    kind: str
    started: str
    finished: str = ""
    as_of: str | None = None
    replay: str | None = None
    outcomes: list[SourceOutcome] = field(default_factory=list)
    unreachable: list[dict[str, Any]] = field(default_factory=list)  # flags for dead references
    notification: dict[str, Any] | None = (
        None  # what the webhook said (ingest.report.notify), if sent
    )
    # earlier runs found crashed when this one started (flows.crashes.recover_crashed)
    previous_crashed: list[dict[str, Any]] = field(default_factory=list)

    def crash_alerts(self) -> list[str]:
        """One line per earlier run that did not finish, for the terminal and the report."""
        return [
            f"the previous {run.get('kind', 'nightly')} run {run['run_id']} (started "
            f"{run['started']}) did not finish: {run['reason']}; marked crashed"
            for run in self.previous_crashed
        ]

    # the ids of the changes pending when the run started (None: not known, every flag counts
    # as new): a flag none of whose changes was pending then is new, first queued by this run
    pending_before: frozenset[str] | None = None

    def counts(self) -> dict[str, int]:
        by_status = Counter(o.status for o in self.outcomes)
        return {s: by_status.get(s, 0) for s in ("fetched", "unchanged", "failed", "skipped")}

    def flagged(self) -> list[tuple[str, dict[str, Any]]]:
        """(source URL, change) for every change this run queued, references gone included;
        each change once (a change seen by several sources of one run is listed once). The
        outcomes' own change dicts, not copies (`to_json` copies each outcome whole: called for
        every count of a report, that was most of an unchanged nightly's time)."""
        sources = [{"url": o.url, "changes": o.changes} for o in self.outcomes]
        return flagged_in({"sources": sources, "unreachable": self.unreachable})

    def facts(self) -> list[list[dict[str, Any]]]:
        """The changes this run queued, one list per fact (ingest.review.grouping)."""
        return group_facts([ch for _url, ch in self.flagged()])

    def flags(self) -> Counter[str]:
        """Flags by kind: one per fact, the count the queue, the CLI and the page show."""
        return Counter(group[0]["kind"] for group in self.facts())

    def is_new(self, group: list[dict[str, Any]]) -> bool:
        """Whether the flag (a fact's changes) was first queued by this run: none of its
        changes was pending when the run started (a reopened one was not pending either)."""
        before = self.pending_before
        return before is None or not any(ch["id"] in before for ch in group)

    def split(self) -> tuple[list[list[dict[str, Any]]], list[list[dict[str, Any]]]]:
        """The run's flags as (new: first queued by this run, still pending from before)."""
        new: list[list[dict[str, Any]]] = []
        old: list[list[dict[str, Any]]] = []
        for group in self.facts():
            (new if self.is_new(group) else old).append(group)
        return new, old

    def to_json(self) -> dict[str, Any]:
        return {
            "run_id": self.run_id,
            "kind": self.kind,
            "started": self.started,
            "finished": self.finished,
            "as_of": self.as_of,
            "replay": self.replay,
            "counts": self.counts(),
            "flags": dict(self.flags()),
            "facts": len(self.facts()),
            "changes": len(self.flagged()),
            "sources": [o.to_json() for o in self.outcomes],
            "unreachable": self.unreachable,
            "notification": self.notification,
            "previous_crashed": self.previous_crashed,
        } | self.new_and_pending()

    def new_and_pending(self) -> dict[str, Any]:
        """`new`: the flags first queued by this run (by kind, facts, their changes, and the
        first change id of each); `still_pending`: the run's flags pending from before it.
        Together they are `flags`, `facts` and `changes`."""
        new, old = self.split()
        return {
            "new": tally(new) | {"ids": [group[0]["id"] for group in new]},
            "still_pending": tally(old),
        }

    def summary_rows(self) -> list[dict[str, Any]]:
        """The headline numbers as table rows (a Prefect table artifact)."""
        c, flags = self.counts(), self.flags()
        rows = [
            {"what": "sources", "item": label, "count": c[key]}
            for label, key in (
                ("fetched", "fetched"),
                ("unchanged", "unchanged"),
                ("failed", "failed"),
                ("not replayed", "skipped"),
            )
        ]
        rows += [
            {"what": "flags", "item": kind, "count": flags.get(kind, 0)}
            for kind in ("added", "changed", "removed")
        ]
        split = self.new_and_pending()
        rows += [
            {"what": "new flags", "item": kind, "count": split["new"]["flags"].get(kind, 0)}
            for kind in ("added", "changed", "removed")
        ]
        rows.append(
            {"what": "flags", "item": "still pending", "count": split["still_pending"]["facts"]}
        )
        return rows

    def markdown(self) -> str:
        c = self.counts()
        split = self.new_and_pending()
        new, pending = split["new"], split["still_pending"]
        lines = [
            f"# ingest {self.kind} run {self.run_id}",
            "",
            f"Started {self.started}, finished {self.finished}."
            + (f" Replaying `{self.replay}`" if self.replay else "")
            + (f" as of {self.as_of}" if self.as_of else "")
            + ("." if self.replay else ""),
            "",
            "| fetched | unchanged | failed | not replayed "
            "| new: added | changed | removed | still pending |",
            "|---|---|---|---|---|---|---|---|",
            f"| {c['fetched']} | {c['unchanged']} | {c['failed']} | {c['skipped']} "
            f"| {new['flags'].get('added', 0)} | {new['flags'].get('changed', 0)} "
            f"| {new['flags'].get('removed', 0)} | {pending['facts']} |",
            "",
            "## Sources",
            "",
            "| source | status | claims | people | flags | alerts |",
            "|---|---|---|---|---|---|",
        ]
        for o in self.outcomes:
            lines.append(
                f"| {_cell(o.url)} | {o.status} | {o.claims} | {o.people} "
                f"| {len(o.changes)} | {_cell('; '.join(o.alerts))} |"
            )
        from_files = [o for o in self.outcomes if o.origin == "file"]
        if from_files:
            lines += [""] + [
                f"- {_cell(o.url)}: {_cell(file_words(o.to_json(), self.started[:10]))}"
                for o in from_files
            ]
        warnings = [w for o in self.outcomes for w in o.warnings]
        if warnings:
            lines += ["", "## Warnings", ""] + [f"- {_cell(w)}" for w in warnings]
        if self.previous_crashed:
            lines += ["", "## Runs that did not finish", ""]
            lines += [f"- {_cell(alert)}" for alert in self.crash_alerts()]
        if self.notification:
            lines += ["", f"Notification: {_cell(str(self.notification.get('message', '')))}"]
        all_alerts = [a for o in self.outcomes for a in o.alerts]
        if all_alerts:
            lines += ["", "## Alerts", ""] + [f"- {_cell(a)}" for a in all_alerts]
        facts = self.facts()
        if facts:
            lines += [
                "",
                f"## Flags for review ({len(facts)} facts, {len(self.flagged())} changes: "
                f"{new['facts']} new, {pending['facts']} still pending)",
                "",
                "| id | new | profile | kind | statement | sources |",
                "|---|---|---|---|---|---|",
            ]
            for group in facts:
                ch = group[0]
                lines.append(
                    f"| `{ch['id']}` | {'new' if self.is_new(group) else ''} "
                    f"| {ch['profile']} | {ch['kind']} "
                    f"| {_cell(describe(ch))} | "
                    + "<br>".join(_cell(_source_words(c)) for c in group)
                    + " |"
                )
        # what unknown_people reads of each source, not a copy of every outcome (to_json)
        unknown = unknown_people(
            [{"url": o.url, "unknown_people": o.unknown_people} for o in self.outcomes]
        )
        if unknown:
            lines += [
                "",
                f"## People not in the wiki ({len(unknown)})",
                "",
            ] + [
                f"- {_cell(p.name)}"
                + (f" ({', '.join(p.handles)})" if p.handles else "")
                + f": {_cell(', '.join(p.sources))}"
                for p in unknown
            ]
        if self.unreachable:
            lines += ["", "## References unreachable", ""] + [
                f"- {_cell(ch['source_url'])} (cited by {ch['profile']}): "
                f"{_cell(str(ch['claim']['qualifiers']['reason']))}"
                for ch in self.unreachable
            ]
        return "\n".join(lines) + "\n"

    def write(
        self,
        folder: Path,
        name: str,
        runs: list[dict[str, str]] | None = None,
        texts: tuple[dict[str, Any], str] | None = None,
        page: str | None = None,
        dumped: bytes | None = None,
    ) -> Path:
        """`<name>.md`, `.json` and `.html` (self-contained) in `folder`; returns the .md path.
        `runs` (`href`, `label`): the day's runs, listed at the top of the HTML page; `texts`:
        this report's `to_json()` and `markdown()`, `page` its HTML page and `dumped` its JSON
        file's bytes, when the caller has them already."""
        from ingest.report.html import render_html  # it imports this module

        data, text = texts or (self.to_json(), self.markdown())
        md = _write_texts(folder, name, text, dumped or _dump(data))
        html = page if page is not None else render_html(data, runs)
        write_atomic(folder / f"{name}.html", html.encode("utf-8"))
        return md


def _dump(data: dict[str, Any]) -> bytes:
    return (json.dumps(data, ensure_ascii=False, indent=2) + "\n").encode()


def _write_texts(folder: Path, name: str, text: str, dumped: bytes) -> Path:
    """`<name>.md` and `<name>.json` in `folder`; the .md path."""
    folder.mkdir(parents=True, exist_ok=True)
    md = folder / f"{name}.md"
    write_atomic(md, text.encode("utf-8"))
    write_atomic(folder / f"{name}.json", dumped)
    return md


def write_run(
    report: RunReport, folder: Path, day: str, texts: tuple[dict[str, Any], str] | None = None
) -> Path:
    """Keep every run's report: `<day>/<run_id>.md/.json/.html` in `folder`; `<day>.json` and
    `<day>.html` are the day's latest run (the HTML page listing the day's runs, linked, at its
    top), and `<day>.md` the day's index (a link to each run's files, newest first) followed by
    the latest run's report. Returns the run's .html path. `texts`: the report's `to_json()`
    and `markdown()` when the caller has them already."""
    from ingest.report.day_index import day_runs
    from ingest.report.html import render_pages  # it imports this module

    runs = folder / day
    # the report's JSON, Markdown and HTML page, made once: written under the run's name, the
    # day's, and after the day's index (each made anew cost seconds at 10,000 sources; the page
    # of the day is the run's with the day's runs listed at its top, spliced in)
    texts = texts or (report.to_json(), report.markdown())
    dumped = _dump(texts[0])
    _write_texts(runs, report.run_id, texts[1], dumped)  # listed below with the day's runs
    index = [f"# ingest runs on {day}", ""]
    listed: list[dict[str, str]] = []
    for run in day_runs(folder, day, fresh={report.run_id: texts[0]}):
        index.append(run.line(day))
        listed.append({"href": f"{day}/{run.stem}.html", "label": f"{run.run_id}: {run.label}"})
    page, day_page = render_pages(texts[0], listed)
    write_atomic(runs / f"{report.run_id}.html", page.encode("utf-8"))
    # the latest run under the day's name
    report.write(folder, day, texts=texts, page=day_page, dumped=dumped)
    text = "\n".join(index) + "\n\n## Latest run\n\n" + texts[1]
    write_atomic(folder / f"{day}.md", text.encode("utf-8"))
    return runs / f"{report.run_id}.html"


def failed_too_many(counts: Mapping[str, int], fail_on: float) -> str | None:
    """Why a run with these source counts fails (None: it does not): some source failed and
    the failed share of all the run's sources is `fail_on` (0..1) or more. 1.0 fails a run
    only when every source failed; 0, when any did. Sources not replayed (no recording in
    force) are counted, not as failures."""
    total = sum(counts.values())
    failed = counts.get("failed", 0)
    if not failed or failed / total < fail_on:
        return None
    return f"{failed} of {total} sources failed (--fail-on {fail_on:g})"


def flagged_in(report: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    """(source URL, change) for every change queued by the run `report` (RunReport.to_json()),
    each change id once."""
    every = [(s["url"], ch) for s in report.get("sources", []) for ch in s.get("changes", [])] + [
        (ch["source_url"], ch) for ch in report.get("unreachable", [])
    ]
    seen: set[str] = set()
    out = []
    for url, ch in every:
        if ch["id"] not in seen:
            seen.add(ch["id"])
            out.append((url, ch))
    return out


def tally(groups: list[list[dict[str, Any]]]) -> dict[str, Any]:
    """Flags (facts) by kind, their number and the number of their changes."""
    kinds = Counter(str(group[0]["kind"]) for group in groups)
    return {
        "flags": dict(kinds),
        "facts": len(groups),
        "changes": sum(len(group) for group in groups),
    }


def group_facts(found: list[dict[str, Any]]) -> list[list[dict[str, Any]]]:
    """Changes grouped by the fact they state, in first-seen order."""
    groups: dict[str, list[dict[str, Any]]] = {}
    for ch in found:
        groups.setdefault(fact_key(ch), []).append(ch)
    return list(groups.values())


@dataclass
class UnknownPerson:
    name: str
    handles: list[str]
    sources: list[str]


_HANDLE = re.compile(r"^(?P<name>.*?)\s*\((?P<handle>[^()\s]+)\)\s*$")


_LAST_UNKNOWN: list[tuple[tuple[tuple[str, tuple[str, ...]], ...], list[UnknownPerson]]] = []


def unknown_people(sources: list[dict[str, Any]]) -> list[UnknownPerson]:
    """People on a page without a profile, one entry per person across sources: "Name" and
    "Name (handle)" and names differing only in case or accents are one person. The last answer
    is kept for the same sources: a run's Markdown and HTML report both list them (80,000 lines
    at 10,000 sources), read once (the entries are not to be changed)."""
    key = tuple(
        (str(s["url"]), tuple(str(p) for p in s.get("unknown_people", []))) for s in sources
    )
    if _LAST_UNKNOWN and _LAST_UNKNOWN[0][0] == key:
        return _LAST_UNKNOWN[0][1]
    found = _unknown_people(sources)
    _LAST_UNKNOWN[:] = [(key, found)]
    return found


def _unknown_people(sources: list[dict[str, Any]]) -> list[UnknownPerson]:
    """Linear in the names printed (a person on every source was a scan of its sources list
    per page: quadratic): a source's URL is looked for in a person's list only when an earlier
    entry had the same URL; each name folded once."""
    people: dict[str, UnknownPerson] = {}
    by_handle: dict[str, str] = {}
    folded: dict[str, str] = {}
    done: set[str] = set()  # the URLs of the entries before this one
    for source in sources:
        url = source["url"]
        again = url in done
        for printed in source.get("unknown_people", []):
            text = str(printed).strip()
            match = _HANDLE.match(text)
            name, handle = (match["name"], match["handle"]) if match else (text, None)
            name_key = folded.get(name)
            if name_key is None:
                name_key = folded[name] = fold(name)
            key = name_key or text
            lower = handle.lower() if handle else ""
            if lower and lower in by_handle:
                key = by_handle[lower]
            person = people.get(key)
            if person is None:
                person = people[key] = UnknownPerson(name=name, handles=[], sources=[])
            if handle:
                by_handle.setdefault(lower, key)
                if all(h.lower() != lower for h in person.handles):
                    person.handles.append(handle)
            listed = person.sources
            if not (listed and listed[-1] == url) and not (again and url in listed):
                listed.append(url)
        done.add(url)
    return sorted(people.values(), key=lambda p: folded.get(p.name) or fold(p.name))


def _source_words(change: dict[str, Any]) -> str:
    """A source as the report names it: its label (the paper), then its URL unless the label is
    the URL already."""
    label_text, url = source_label(change), str(change.get("source_url") or "")
    return label_text if label_text == url else f"{label_text} ({url})"


def file_words(source: Mapping[str, Any], today: str | None = None) -> str:
    """A one-off run on a local file, for a person: `read from a local file `F`, evidence for
    2024-10-01: historical, not the page as it is today` (historical: a day before `today`)."""
    from datetime import date

    day = str(source.get("evidence_date") or "")
    text = f"read from a local file `{source.get('file') or '?'}`, evidence for {day or '?'}"
    if day and day < (today or date.today().isoformat()):
        text += ": historical, not the page as it is today"
    return text


def describe(change: Mapping[str, Any]) -> str:
    """The raw notation of a change (ingest.statements.notation), and for an affiliation the
    organisation it resolved to, with where to see the wiki's people there."""
    text = notation(change)
    claim = change.get("claim") or change.get("previous") or {}
    q = claim.get("qualifiers") or {}
    org = q.get("org") if claim.get("predicate") == "affiliation" else None
    if isinstance(org, dict) and org.get("ror"):  # the wiki's people there: `ingest orgs people`
        text += f" [= {org.get('name')}; who else: ingest orgs people {org['ror']}]"
    return text


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")
