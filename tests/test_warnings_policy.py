"""pytest's filterwarnings (pyproject.toml): a DeprecationWarning raised from our code fails the
test; one a third-party library raises inside itself is ignored."""

from __future__ import annotations

import pytest

DEPRECATED = compile(
    "import warnings\nwarnings.warn('old API', DeprecationWarning, stacklevel=1)", "<code>", "exec"
)


@pytest.mark.parametrize(
    "module", ["ingest.fetch.client", "extractors.governance.generic", "flows.nightly"]
)
def test_a_deprecation_from_our_code_is_an_error(module: str) -> None:
    with pytest.raises(DeprecationWarning, match="old API"):
        exec(DEPRECATED, {"__name__": module})


def test_a_third_party_deprecation_is_ignored() -> None:
    namespace = {"__name__": "somelibrary.internals"}
    exec(DEPRECATED, namespace)  # no error
    assert "warnings" in namespace  # the code ran to the end
