"""Run reports: what a run fetched, what it flagged, what needs a person's eye."""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ingest.files import write_atomic
from ingest.outcome import SourceOutcome


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
    notification: dict[str, Any] | None = None  # what the webhook said (ingest.notify), if sent

    def counts(self) -> dict[str, int]:
        by_status = Counter(o.status for o in self.outcomes)
        return {s: by_status.get(s, 0) for s in ("fetched", "unchanged", "failed", "skipped")}

    def flagged(self) -> list[tuple[str, dict[str, Any]]]:
        """(source URL, change) for every change this run queued, references gone included."""
        return [(o.url, ch) for o in self.outcomes for ch in o.changes] + [
            (ch["source_url"], ch) for ch in self.unreachable
        ]

    def flags(self) -> Counter[str]:
        return Counter(ch["kind"] for _url, ch in self.flagged())

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
            "sources": [o.to_json() for o in self.outcomes],
            "unreachable": self.unreachable,
            "notification": self.notification,
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
        return rows

    def markdown(self) -> str:
        c = self.counts()
        flags = self.flags()
        lines = [
            f"# ingest {self.kind} run {self.run_id}",
            "",
            f"Started {self.started}, finished {self.finished}."
            + (f" Replaying `{self.replay}`" if self.replay else "")
            + (f" as of {self.as_of}" if self.as_of else "")
            + ("." if self.replay else ""),
            "",
            "| fetched | unchanged | failed | not replayed | flags added | changed | removed |",
            "|---|---|---|---|---|---|---|",
            f"| {c['fetched']} | {c['unchanged']} | {c['failed']} | {c['skipped']} "
            f"| {flags.get('added', 0)} | {flags.get('changed', 0)} "
            f"| {flags.get('removed', 0)} |",
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
        if self.notification:
            lines += ["", f"Notification: {_cell(str(self.notification.get('message', '')))}"]
        all_alerts = [a for o in self.outcomes for a in o.alerts]
        if all_alerts:
            lines += ["", "## Alerts", ""] + [f"- {_cell(a)}" for a in all_alerts]
        flagged = self.flagged()
        if flagged:
            lines += [
                "",
                "## Flags for review",
                "",
                "| id | profile | kind | statement | source |",
                "|---|---|---|---|---|",
            ]
            for url, ch in flagged:
                lines.append(
                    f"| `{ch['id']}` | {ch['profile']} | {ch['kind']} "
                    f"| {_cell(describe(ch))} | {_cell(url)} |"
                )
        unknown = sorted({p for o in self.outcomes for p in o.unknown_people})
        if unknown:
            lines += [
                "",
                f"## People not in the wiki ({len(unknown)})",
                "",
                ", ".join(_cell(p) for p in unknown),
            ]
        if self.unreachable:
            lines += ["", "## References unreachable", ""] + [
                f"- {_cell(ch['source_url'])} (cited by {ch['profile']}): "
                f"{_cell(str(ch['claim']['qualifiers']['reason']))}"
                for ch in self.unreachable
            ]
        return "\n".join(lines) + "\n"

    def write(self, folder: Path, name: str) -> Path:
        """`<name>.md`, `.json` and `.html` (self-contained) in `folder`; returns the .md path."""
        from ingest.report_html import render_html  # it imports this module

        folder.mkdir(parents=True, exist_ok=True)
        md = folder / f"{name}.md"
        data = self.to_json()
        write_atomic(md, self.markdown().encode("utf-8"))
        write_atomic(
            folder / f"{name}.json",
            (json.dumps(data, ensure_ascii=False, indent=2) + "\n").encode(),
        )
        write_atomic(folder / f"{name}.html", render_html(data).encode("utf-8"))
        return md


def flagged_in(report: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    """(source URL, change) for every change queued by the run `report` (RunReport.to_json())."""
    return [(s["url"], ch) for s in report.get("sources", []) for ch in s.get("changes", [])] + [
        (ch["source_url"], ch) for ch in report.get("unreachable", [])
    ]


def describe(change: dict[str, Any]) -> str:
    claim = change.get("claim") or change.get("previous") or {}
    q = claim.get("qualifiers") or {}
    detail = ", ".join(f"{k} {q[k]}" for k in ("level", "section", "status") if k in q)
    text = f"{claim.get('predicate', '?')} {claim.get('object', '?')}"
    if change.get("kind") == "changed" and change.get("previous"):
        pq = change["previous"].get("qualifiers") or {}
        moved = [
            f"{k}: {pq.get(k)} -> {q.get(k)}"
            for k in sorted(set(pq) | set(q))
            if pq.get(k) != q.get(k) and k in ("status", "section", "scope", "level")
        ]
        return f"{text} ({'; '.join(moved)})"
    return f"{text} ({detail})" if detail else text


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")
