"""Gold labels of governance pages: reading them, finding each page and its public URL.

A gold folder holds `<page file name>.json` files, each a JSON list of rows
`{name, handle, section, role, status, affiliation, scope}` (conventions in
`fixtures/governance-train/README.md`). The page a gold file labels is the file of the same name
in the pages folder. Its URL, the one the extractor is given as a user would give it, is looked up
in this order: a `urls.json` (`{"<file name>": "<url>"}`) in the pages folder, then in the gold
folder; a `PROVENANCE.md` or `MANIFEST.md` table row naming the file (its first http(s) URL), in
the pages folder, then in the gold folder; else the `file://` URL of the page.

Every problem is one ConfigError naming the file: a missing folder, a gold file without its page,
malformed JSON, a row that is not an object with the seven fields.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ingest.errors import ConfigError

GOLD_FIELDS = ("name", "handle", "section", "role", "status", "affiliation", "scope")
STATUSES = frozenset({"current", "emeritus"})
URL_FILES = ("urls.json",)
TABLE_FILES = ("PROVENANCE.md", "MANIFEST.md")
_CELL_SPLIT = re.compile(r"(?<!\\)\|")  # a Markdown table cell boundary (not an escaped `\|`)
_URL = re.compile(r"https?://[^\s|)>\]]+")


@dataclass(frozen=True)
class GoldRow:
    """One person in one role list, as the gold labels it."""

    name: str | None
    handle: str | None
    section: str | None
    role: str | None
    status: str
    affiliation: str | None
    scope: str | None


@dataclass(frozen=True)
class GoldPage:
    """A labelled page: its file, the URL it is extracted under, and its gold rows."""

    page: Path
    gold: Path
    url: str
    rows: tuple[GoldRow, ...]


def _text(value: Any, where: str, key: str) -> str | None:
    if value is None:
        return None
    if not isinstance(value, str):
        raise ConfigError(f"{where}: '{key}' must be a string or null, not {value!r}")
    return value


def parse_rows(data: Any, where: str) -> tuple[GoldRow, ...]:
    """Gold rows from decoded JSON; `where` names the file in errors."""
    if not isinstance(data, list):
        raise ConfigError(f"{where}: a gold file must hold a JSON list of rows")
    rows = []
    for index, item in enumerate(data, 1):
        at = f"{where}: row {index}"
        if not isinstance(item, dict):
            raise ConfigError(f"{at} is not a JSON object")
        missing = [k for k in GOLD_FIELDS if k not in item]
        if missing:
            raise ConfigError(f"{at} lacks {', '.join(repr(k) for k in missing)}")
        values = {k: _text(item[k], at, k) for k in GOLD_FIELDS}
        if values["status"] not in STATUSES:
            raise ConfigError(f"{at}: status must be 'current' or 'emeritus'")
        if not values["name"] and not values["handle"]:
            raise ConfigError(f"{at} has neither a name nor a handle")
        rows.append(GoldRow(**values))  # type: ignore[arg-type]
    return tuple(rows)


def read_rows(path: Path) -> tuple[GoldRow, ...]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise ConfigError(f"cannot read gold file '{path}': {exc.strerror or exc}") from exc
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise ConfigError(f"gold file '{path}' is not valid JSON: {exc}") from exc
    return parse_rows(data, f"gold file '{path}'")


def _urls_json(folder: Path) -> dict[str, str]:
    path = folder / "urls.json"
    if not path.is_file():
        return {}
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise ConfigError(f"'{path}' is not a readable JSON object of file -> URL: {exc}") from exc
    if not isinstance(data, dict) or not all(isinstance(v, str) for v in data.values()):
        raise ConfigError(f"'{path}' must be a JSON object of file name -> URL")
    return data


def _table_url(path: Path, name: str) -> str | None:
    """The first URL of the table row whose cell names the file (`name` or `folder/name`)."""
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.startswith("|"):
            continue
        cells = [c.strip().strip("`") for c in _CELL_SPLIT.split(line)]
        for at, cell in enumerate(cells):
            if cell == name or cell.endswith("/" + name):
                found = _URL.search("|".join(cells[at + 1 :]))
                if found:
                    return found.group(0)
    return None


def page_url(page: Path, gold_dir: Path) -> str:
    """The URL a page is extracted under (see the module docstring for the order)."""
    folders = [page.parent, gold_dir]
    for folder in folders:
        url = _urls_json(folder).get(page.name)
        if url:
            return url
    for folder in folders:
        for table in TABLE_FILES:
            if (folder / table).is_file():
                url = _table_url(folder / table, page.name)
                if url:
                    return url
    return page.resolve().as_uri()


def load_set(pages_dir: Path, gold_dir: Path) -> list[GoldPage]:
    """Every gold file of `gold_dir` with its page from `pages_dir`, sorted by file name."""
    for what, folder in (("pages", pages_dir), ("gold", gold_dir)):
        if not folder.is_dir():
            raise ConfigError(f"{what} folder '{folder}' does not exist or is not a folder")
    golds = sorted(p for p in gold_dir.glob("*.json") if p.name not in URL_FILES)
    if not golds:
        raise ConfigError(f"gold folder '{gold_dir}' has no *.json gold files")
    out = []
    for gold in golds:
        page = pages_dir / gold.name.removesuffix(".json")
        if not page.is_file():
            raise ConfigError(
                f"gold file '{gold}' labels '{page.name}', not found in '{pages_dir}'"
            )
        out.append(GoldPage(page, gold, page_url(page, gold_dir), read_rows(gold)))
    return out
