"""The day's index of runs is made from the last index and the new JSON files only, and says
what reading every run's JSON again says (ingest.report.day_index)."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from ingest.pipeline.outcome import SourceOutcome
from ingest.report.day_index import DayRun, day_runs, label_of
from ingest.report.run import RunReport, write_run

DAY = "2026-12-01"


def _report(run_id: str, finished: str) -> RunReport:
    report = RunReport(run_id=run_id, kind="nightly", started="s", finished=finished)
    report.outcomes = [SourceOutcome(url="https://example.org/a", status="fetched")]
    return report


def _read_all(folder: Path) -> list[DayRun]:
    """The index as it was made before: every JSON of the day read, newest first."""
    paths = sorted((folder / DAY).glob("*.json"), key=lambda p: p.stat().st_mtime, reverse=True)
    out = []
    for path in paths:
        data = json.loads(path.read_text(encoding="utf-8"))
        out.append(DayRun(path.stem, str(data.get("run_id", path.stem)), label_of(data)))
    return out


def _write(folder: Path, n: int, finished: str) -> None:
    write_run(_report(f"r{n}", finished), folder, DAY)
    os.utime(folder / DAY / f"r{n}.json", (n, n))  # ordered, whatever the clock's grain
    os.utime(folder / f"{DAY}.md", (n, n))


def test_the_index_made_from_the_last_one_is_the_index_made_from_every_report(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for n in (1, 2):
        _write(tmp_path, n, f"2026-12-01T0{n}:00:00Z")
    reads: list[str] = []
    real = Path.read_text

    def counted(self: Path, *args: object, **kwargs: object) -> str:
        reads.append(self.name)
        return real(self, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(Path, "read_text", counted)
    write_run(_report("r3", "2026-12-01T03:00:00Z"), tmp_path, DAY)
    monkeypatch.undo()
    assert not [name for name in reads if name.endswith(".json")]  # none read back
    runs = day_runs(tmp_path, DAY)
    assert [run.stem for run in runs] == ["r3", "r2", "r1"]
    assert runs == _read_all(tmp_path)
    index = (tmp_path / f"{DAY}.md").read_text(encoding="utf-8")
    assert [run.line(DAY) for run in runs] == index.splitlines()[2:5]
    assert "r1: finished 2026-12-01T01:00:00Z; 0 flags" in (tmp_path / f"{DAY}.html").read_text()


def test_a_report_changed_or_not_listed_since_the_index_is_read_again(tmp_path: Path) -> None:
    for n in (1, 2):
        _write(tmp_path, n, f"2026-12-01T0{n}:00:00Z")
    path = tmp_path / DAY / "r1.json"
    data = json.loads(path.read_text(encoding="utf-8"))
    path.write_text(json.dumps(data | {"finished": "later"}), encoding="utf-8")
    os.utime(path, (5, 5))  # newer than the index
    (tmp_path / DAY / "x.json").write_text(json.dumps({"finished": "by hand"}), encoding="utf-8")
    os.utime(tmp_path / DAY / "x.json", (1.5, 1.5))
    (tmp_path / DAY / "broken.json").write_text("{", encoding="utf-8")
    runs = day_runs(tmp_path, DAY)
    assert runs == _read_all_but_broken(tmp_path)
    assert [(run.stem, run.label) for run in runs] == [
        ("r1", "finished later; 0 flags (0 new, 0 still pending)"),
        ("r2", "finished 2026-12-01T02:00:00Z; 0 flags (0 new, 0 still pending)"),
        ("x", "finished by hand; 0 flags"),
    ]


def test_an_index_line_that_does_not_read_back_is_not_trusted(tmp_path: Path) -> None:
    _write(tmp_path, 1, "2026-12-01T01:00:00Z")
    md = tmp_path / f"{DAY}.md"
    md.write_text(md.read_text().replace("0 flags", "9 flags (garbled"), encoding="utf-8")
    os.utime(md, (2, 2))
    assert day_runs(tmp_path, DAY) == _read_all(tmp_path)


def _read_all_but_broken(folder: Path) -> list[DayRun]:
    (folder / DAY / "broken.json").rename(folder / "broken.json.kept")
    try:
        return _read_all(folder)
    finally:
        (folder / "broken.json.kept").rename(folder / DAY / "broken.json")
