"""Every third-party module the code imports is declared in pyproject.toml, and the reverse.

    uv run python scripts/check_deps.py        exit 1 naming what is imported but not declared
                                               (and declared but never imported, as a note)

Reads the imports of src/ingest, src/ingest_cli, extractors and flows (runtime dependencies) with
`ast`, maps each top-level module to the distribution that installs it (importlib.metadata), and
compares with `[project] dependencies`. Standard-library modules and our own packages are left out.
"""

from __future__ import annotations

import ast
import re
import sys
import tomllib
from importlib.metadata import packages_distributions
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CODE = [ROOT / "src" / "ingest", ROOT / "src" / "ingest_cli", ROOT / "extractors", ROOT / "flows"]
OWN = {"ingest", "ingest_cli", "extractors", "flows"}
# declared for what they bring without being imported by name (a driver, a plugin, a parser
# another package loads): not reported as unused
INDIRECT = {
    "psycopg": "SQLAlchemy's PostgreSQL driver, named in database URLs",
    "python-multipart": "FastAPI's form parsing",
    "prefect-dask": "imported lazily by flows when INGEST_DASK_ADDRESS is set",
    "pillow": "pypdfium2's image rendering",
    "itsdangerous": "Starlette's session middleware",
    "uvicorn": "the review page's server, imported lazily",
}


def normalise(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def imported_modules() -> dict[str, set[str]]:
    """Top-level module -> the files that import it."""
    found: dict[str, set[str]] = {}
    for folder in CODE:
        for path in sorted(folder.rglob("*.py")):
            tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
            for node in ast.walk(tree):
                names: list[str] = []
                if isinstance(node, ast.Import):
                    names = [alias.name for alias in node.names]
                elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                    names = [node.module]
                for name in names:
                    top = name.split(".")[0]
                    found.setdefault(top, set()).add(str(path.relative_to(ROOT)))
    return found


def declared() -> set[str]:
    data = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    requirements = data["project"]["dependencies"]
    return {normalise(re.split(r"[\s<>=!~;\[]", req, maxsplit=1)[0]) for req in requirements}


def main() -> int:
    distributions = packages_distributions()
    wanted = declared()
    missing: list[str] = []
    used: set[str] = set()
    for module, files in sorted(imported_modules().items()):
        if module in OWN or module in sys.stdlib_module_names or module == "__future__":
            continue
        dists = {normalise(d) for d in distributions.get(module, [])}
        if not dists:
            missing.append(f"{module}: not installed (imported by {', '.join(sorted(files))})")
        elif not dists & wanted:
            where = ", ".join(sorted(files)[:3])
            missing.append(f"{module} (from {', '.join(sorted(dists))}): imported by {where}")
        used |= dists
    for line in missing:
        print(f"not declared in pyproject.toml: {line}", file=sys.stderr)
    unused = sorted(wanted - used - set(INDIRECT))
    if unused:
        print(f"note: declared but not imported by name: {', '.join(unused)}", file=sys.stderr)
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main())
