"""The day's index of runs (`<day>.md`'s list, the HTML page's "Runs on this day"), made
without reading again the reports it lists already.

    day_runs(folder, day) -> [DayRun(stem, run_id, label), ...]   newest first

Every run's report is kept as `<day>/<run_id>.json` (10 MB at 10,000 sources); the index names
each with a one-line label (when it finished, its flags). Made by reading every one of the day's
JSON files, each run of a day read all the runs before it again: the second of the day a whole
10,000-source report, the tenth nine of them. The labels of the runs the last index listed are
taken from that index (`<day>.md`, which `write_run` writes last), so a run reads only the JSON
files that are new since: its own. A file the index does not list, or changed after it was
written (its mtime later than the index's), or a line that does not read back as the index
writes it, is read from its JSON as before: the index is the same either way.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

# "- [run_id](day/stem.md) ([html](day/stem.html), [json](day/stem.json)): label"
_LINE = re.compile(
    r"- \[(?P<run_id>.*)\]\((?P<day>.*)/(?P<stem>[^/]*)\.md\) "
    r"\(\[html\]\((?P=day)/(?P=stem)\.html\), \[json\]\((?P=day)/(?P=stem)\.json\)\): "
    r"(?P<label>finished .*; \d+ flags(?: \(\d+ new, \d+ still pending\))?)"
)


@dataclass(frozen=True)
class DayRun:
    stem: str  # the run's files: <day>/<stem>.md/.html/.json
    run_id: str
    label: str

    def line(self, day: str) -> str:
        """The run's line in the day's Markdown index."""
        return (
            f"- [{self.run_id}]({day}/{self.stem}.md) "
            f"([html]({day}/{self.stem}.html), [json]({day}/{self.stem}.json)): {self.label}"
        )


def label_of(data: dict[str, Any]) -> str:
    """A run's label in the day's index, from its report JSON."""
    flags = data.get("flags", {})
    facts = data.get("facts", sum(flags.values()))
    return (
        f"finished {data.get('finished', '?')}"
        + (f", as of {data['as_of']}" if data.get("as_of") else "")
        + f"; {facts} flags"
        + (
            f" ({data['new']['facts']} new, {data['still_pending']['facts']} still pending)"
            if "new" in data and "still_pending" in data
            else ""
        )
    )


def listed(folder: Path, day: str) -> dict[str, DayRun]:
    """The runs the day's last index (`<folder>/<day>.md`) lists, by stem, each line checked to
    read back as written; {} without one."""
    try:
        text = (folder / f"{day}.md").read_text(encoding="utf-8")
    except (OSError, ValueError):
        return {}
    found: dict[str, DayRun] = {}
    for line in text.split("\n## Latest run\n", 1)[0].splitlines():
        match = _LINE.fullmatch(line)
        if match is None or match["day"] != day:
            continue
        run = DayRun(match["stem"], match["run_id"], match["label"])
        if run.line(day) == line:
            found[run.stem] = run
    return found


def day_runs(
    folder: Path, day: str, fresh: dict[str, dict[str, Any]] | None = None
) -> list[DayRun]:
    """Each report JSON in `<folder>/<day>/`, newest first (by mtime), with its label: from the
    day's last index when it lists the file and the file is no newer, else read from the file
    (one that cannot be read is left out). `fresh`: the data of files just written, by stem
    (the run's own report: not read back)."""
    runs = folder / day
    stamped = [(path, path.stat().st_mtime) for path in runs.glob("*.json")]
    stamped.sort(key=lambda item: item[1], reverse=True)
    try:
        written: float | None = (folder / f"{day}.md").stat().st_mtime
    except OSError:
        written = None
    known = listed(folder, day) if written is not None else {}
    out: list[DayRun] = []
    for path, mtime in stamped:
        run = known.get(path.stem)
        if run is not None and written is not None and mtime <= written:
            out.append(run)
            continue
        data = (fresh or {}).get(path.stem)
        if data is None:
            try:
                data = json.loads(path.read_text(encoding="utf-8"))
            except (OSError, ValueError):
                continue
        out.append(DayRun(path.stem, str(data.get("run_id", path.stem)), label_of(data)))
    return out
