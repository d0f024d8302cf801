"""extractors/ in layers (issue 23): each package imports only what lies beneath it.

    document        the model and one reader per format: nothing of extractors above it
    people          who an entry names: document, and itself; never an extractor
    governance      document, people, itself
    announcements   document, people, itself
    papers          itself only
    extractors      (the package's __init__) registers the five extractors: any package

An extractor package never reaches into another's modules. There is no import cycle inside
extractors/ (every import counted, those inside functions too), and no module is over 400 lines.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent / "extractors"
MAY_IMPORT: dict[str, set[str]] = {
    "document": {"document"},
    "people": {"document", "people"},
    "governance": {"document", "people", "governance"},
    "announcements": {"document", "people", "announcements"},
    "papers": {"papers"},
}
MAX_LINES = 400


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports_of(path: Path) -> set[str]:
    """The extractors modules a module imports, anywhere in it: `from package import module`
    counts the module (a package's own __init__ runs first for any import of its modules, so
    it is no edge of its own)."""
    modules = {module_name(p) for p in ROOT.rglob("*.py")}
    me = module_name(path)
    package = me if path.name == "__init__.py" else me.rsplit(".", 1)[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            named = {f"{target}.{a.name}" for a in node.names}
            found |= named
            if not named <= modules:  # names from the module itself, not its submodules
                found.add(target)
    return {m for m in found if m in modules and m != me}


def graph() -> dict[str, set[str]]:
    return {module_name(p): imports_of(p) for p in sorted(ROOT.rglob("*.py"))}


def layer(module: str) -> str | None:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else None


def test_every_package_imports_only_the_layers_beneath_it() -> None:
    offenders = {}
    for module, deps in graph().items():
        own = layer(module)
        if own is None:  # extractors/__init__: the registry
            continue
        allowed = MAY_IMPORT[own]
        bad = sorted(d for d in deps if layer(d) not in allowed)
        if bad:
            offenders[module] = bad
    assert offenders == {}


def test_every_module_is_in_a_package_with_its_rules() -> None:
    assert {layer(m) for m in graph()} - {None} == set(MAY_IMPORT)
    for package in MAY_IMPORT:
        doc = ast.get_docstring(ast.parse((ROOT / package / "__init__.py").read_text()))
        assert doc and "May import" in doc, package


def test_no_import_cycle_inside_extractors() -> None:
    edges = graph()
    # the package __init__ of a module is imported with it; an __init__ that imports its own
    # modules (the registry, document's dispatch) is not a cycle unless one of them imports it
    state: dict[str, int] = {}
    cycle: list[str] = []

    def visit(node: str, path: list[str]) -> None:
        state[node] = 1
        for dep in sorted(edges.get(node, ())):
            if state.get(dep) == 1:
                cycle.extend([*path, node, dep])
                return
            if dep not in state:
                visit(dep, [*path, node])
            if cycle:
                return
        state[node] = 2

    for node in sorted(edges):
        if node not in state:
            visit(node, [])
        assert not cycle, " -> ".join(cycle)


def test_no_module_is_over_400_lines() -> None:
    long = {
        str(p.relative_to(ROOT)): n
        for p in ROOT.rglob("*.py")
        if (n := len(p.read_text(encoding="utf-8").splitlines())) > MAX_LINES
    }
    assert long == {}


def test_no_file_name_carries_its_grouping_as_a_prefix() -> None:
    assert [p.name for p in ROOT.rglob("_*.py") if p.name != "__init__.py"] == []


@pytest.mark.parametrize(
    ("source", "package", "expected"),
    [
        ("from extractors.people import names\n", "document", {"extractors.people.names"}),
        (
            "def f():\n    from extractors.document import html\n",
            "papers",
            {"extractors.document.html"},
        ),
        (
            "from extractors.governance.reader import Reader\n",
            "announcements",
            {"extractors.governance.reader"},
        ),
    ],
)
def test_the_check_sees_an_import(
    tmp_path: Path, source: str, package: str, expected: set[str]
) -> None:
    """The checks can fail: a module of `package` with this source imports `expected`, and
    at least one of them is outside what `package` may import."""
    path = ROOT / package / "probe_layer_check.py"
    path.write_text(source, encoding="utf-8")
    try:
        deps = imports_of(path)
        assert expected <= deps | {"extractors.document"}
        assert any(layer(d) not in MAY_IMPORT[package] for d in expected)
    finally:
        path.unlink()
