"""One direction: extractors/ and flows/ use ingest; ingest never imports them.

The command line and the evaluators, which need both, live in src/ingest_cli (issue 16); no module
of src/ingest may import the layers above.
"""

from __future__ import annotations

import ast
from pathlib import Path

SRC = Path(__file__).resolve().parent.parent / "src" / "ingest"
ABOVE = ("extractors", "flows")
ALLOWED: set[str] = set()


def layers_above(source: str) -> list[str]:
    """The modules of extractors/ or flows/ a module's source imports (anywhere in it)."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names = [node.module]
        else:
            continue
        found += [name for name in names if name.split(".")[0] in ABOVE]
    return found


def test_ingest_imports_neither_extractors_nor_flows() -> None:
    offenders = {}
    for path in sorted(SRC.rglob("*.py")):
        name = str(path.relative_to(SRC))
        above = layers_above(path.read_text(encoding="utf-8"))
        if above and name not in ALLOWED:
            offenders[name] = above
    assert offenders == {}


def test_the_check_sees_an_import_of_a_layer_above() -> None:
    assert layers_above("def f():\n    import extractors\n") == ["extractors"]
    assert layers_above("from flows.nightly import nightly_refresh") == ["flows.nightly"]
    assert layers_above("from extractors import arxiv_pdf") == ["extractors"]
    assert layers_above("from ingest.extraction import ExtractorSet\nimport flowsheet") == []
