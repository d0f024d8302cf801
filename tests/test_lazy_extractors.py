"""The extractor modules are imported when first used (`extractors.MODULES`), not with the
package: a nightly of unchanged sources, or of governance pages only, never imports the
announcement reader or pypdf."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import extractors
from extractors.announcements import post as announcement
from extractors.governance import generic as governance
from extractors.governance import pytorch
from extractors.papers import atom, pdf

ROOT = Path(__file__).resolve().parent.parent


def _imported_after(code: str) -> set[str]:
    """The extractor modules a fresh interpreter holds after running `code`."""
    probe = f"import sys\n{code}\nprint(' '.join(sorted(sys.modules)))"
    done = subprocess.run(
        [sys.executable, "-c", probe], cwd=ROOT, capture_output=True, text=True, check=True
    )
    return {name for name in done.stdout.split() if name in extractors.MODULES.values()}


def test_importing_the_package_imports_no_extractor() -> None:
    assert _imported_after("import extractors") == set()


def test_a_named_extractor_imports_only_itself() -> None:
    found = _imported_after("import extractors\nextractors.get('pytorch_governance').VERSION")
    assert found == {"extractors.governance.pytorch"}
    found = _imported_after("import extractors\nextractors.tag(extractors.REGISTRY['arxiv_atom'])")
    assert found == {"extractors.papers.atom"}


def test_the_registry_gives_the_modules_themselves_in_order() -> None:
    assert list(extractors.REGISTRY) == [
        "pytorch_governance",
        "arxiv_atom",
        "arxiv_pdf",
        "announcement",
        "governance",
    ]
    assert extractors.REGISTRY["pytorch_governance"] is pytorch
    assert list(extractors.REGISTRY.values()) == [pytorch, atom, pdf, announcement, governance]
    assert "nope" not in extractors.REGISTRY
    assert extractors.get("governance") is governance


def test_generic_membership_and_the_arxiv_readers() -> None:
    assert list(extractors.GENERIC) == [announcement, governance]
    assert announcement in extractors.GENERIC and governance in extractors.GENERIC
    assert pytorch not in extractors.GENERIC and "governance" not in extractors.GENERIC
    assert extractors.ARXIV_ATOM.NAME == atom.NAME
    assert extractors.ARXIV_ATOM.entries == atom.entries
    assert extractors.ARXIV_PDF.extract_with_metadata == pdf.extract_with_metadata


def test_choose_by_url_gives_the_module() -> None:
    assert extractors.choose("https://arxiv.org/pdf/2103.15348v2") is pdf
    assert extractors.choose("https://example.org/x", None, "announcement") is announcement


def test_the_arxiv_readers_are_the_modules_imported_when_first_asked_for() -> None:
    assert extractors.ARXIV_ATOM is atom and extractors.ARXIV_PDF is pdf
    found = _imported_after("import extractors\nextractors.ARXIV_ATOM.NAME")
    assert found == {"extractors.papers.atom"}
    done = subprocess.run(
        [sys.executable, "-c", "import extractors\nextractors.NOPE"], cwd=ROOT, capture_output=True
    )
    assert done.returncode == 1 and b"has no attribute 'NOPE'" in done.stderr


def test_choosing_by_url_imports_the_extractors_up_to_the_one_that_claims_it() -> None:
    """The PyTorch page is claimed by the first extractor: neither arXiv reader (pypdf, lxml:
    ~0.08 s of CPU, a sixth of `ingest extract`) is imported to be asked."""
    url = "https://docs.pytorch.org/docs/stable/community/persons_of_interest.html"
    found = _imported_after(f"import extractors\nextractors.choose({url!r}).NAME")
    assert found == {"extractors.governance.pytorch"}
    found = _imported_after(
        "import extractors\nextractors.choose('https://arxiv.org/pdf/2103.15348v2')"
    )
    assert found == {
        "extractors.governance.pytorch",
        "extractors.papers.atom",
        "extractors.papers.pdf",
    }
