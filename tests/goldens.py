"""Golden files: a fixture folder, the URL each fixture was served at, and the extractor.

Each `tests/<name>_golden.py` describes one set; `python -m tests.<name>_golden` regenerates it
after an intended change of extraction (commit the result with that change). Tests compare
against the committed `<fixture>.claims.jsonl`; they never regenerate them.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from ingest.models import Claim, Snapshot


@dataclass(frozen=True)
class GoldenSet:
    folder: Path
    urls: dict[str, str]  # fixture file -> the URL it is served from in the golden files
    extract: Callable[[Snapshot], list[Claim]]

    def snapshot(self, name: str, url: str | None = None) -> Snapshot:
        """The fixture as a Snapshot served from its golden URL (or `url`)."""
        return Snapshot(url=url or self.urls[name], body=(self.folder / name).read_bytes())

    def path(self, name: str) -> Path:
        return self.folder / f"{name}.claims.jsonl"

    def render(self, name: str) -> str:
        """The golden file's text: one claim a line, in document order."""
        return "".join(claim.to_line() + "\n" for claim in self.extract(self.snapshot(name)))

    def regenerate(self) -> list[Path]:
        written = []
        for name in self.urls:
            self.path(name).write_text(self.render(name), encoding="utf-8")
            written.append(self.path(name))
        return written

    def main(self) -> None:
        for path in self.regenerate():
            print(f"wrote {path}")
