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


# the store is beneath the stages that use it (issue 23): it imports the core modules only
STORAGE = SRC / "storage"
STAGES = ("ingest.review", "ingest.pipeline", "ingest.diff", "ingest.report", "ingest.runner",
          "ingest.fetch", "ingest.profiles", "ingest_cli")  # fmt: skip


def stages_imported(source: str) -> list[str]:
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names = [node.module]
        else:
            continue
        found += [n for n in names if any(n == s or n.startswith(s + ".") for s in STAGES)]
    return found


def test_storage_imports_no_stage_above_it() -> None:
    offenders = {
        str(path.relative_to(SRC)): above
        for path in sorted(STORAGE.rglob("*.py"))
        if (above := stages_imported(path.read_text(encoding="utf-8")))
    }
    assert offenders == {}


def test_the_storage_check_sees_an_import_inside_a_function() -> None:
    source = "def f():\n    from ingest.review.grouping import fact_key\n"
    assert stages_imported(source) == ["ingest.review.grouping"]
    assert stages_imported("from ingest.fact_identity import fact_key") == []


# the Store facade is the one way in (issue 23): nothing outside ingest.storage reaches its parts
PARTS = {"_sources", "_snapshots", "_claims", "_changes", "_queue", "_decisions", "_audit_log",
         "_editors", "_runs", "_db"}  # fmt: skip


def parts_reached(source: str) -> list[str]:
    return [
        node.attr
        for node in ast.walk(ast.parse(source))
        if isinstance(node, ast.Attribute) and node.attr in PARTS
    ]


def test_nothing_outside_storage_reaches_the_stores_parts() -> None:
    root = SRC.parent.parent
    offenders = {}
    for folder in (SRC, SRC.parent / "ingest_cli", root / "flows", root / "bench"):
        for path in sorted(folder.rglob("*.py")):
            if STORAGE in path.parents:
                continue
            if found := parts_reached(path.read_text(encoding="utf-8")):
                offenders[str(path.relative_to(root))] = found
    assert offenders == {}
    assert parts_reached("store._changes.move(conn, 'x', 'pending', 'accepted', now)") == [
        "_changes"
    ]
