"""arXiv identifiers: new style (YYMM.NNNNN) and old style (archive/YYMMNNN), with or without a
version, bare, "arXiv:"-prefixed or as an arxiv.org /abs/ or /pdf/ URL. Pure: no arxiv package
(importing it costs a command 0.35 s), so the stages that only read ids do not load it."""

from __future__ import annotations

import re

# new style since 2007: YYMM.NNNN (to 2014) or YYMM.NNNNN, optional version
NEW_STYLE_ID = re.compile(r"^(?P<base>\d{4}\.\d{4,5})(?P<version>v\d+)?$")
# old style: archive(.SUBJECT-CLASS)/YYMMNNN, optional version: quant-ph/0201082v1, math.AG/0601001
OLD_STYLE_ID = re.compile(r"^(?P<base>[a-z][a-z-]*(?:\.[A-Z]{2})?/\d{7})(?P<version>v\d+)?$")
ARXIV_PREFIX = re.compile(r"^arxiv:\s*", re.IGNORECASE)
ARXIV_URL = re.compile(
    r"^https?://(?:export\.|www\.)?arxiv\.org/(?:abs|pdf)/(?P<id>[^?#]+?)(?:\.pdf)?/?(?:[?#].*)?$",
    re.IGNORECASE,
)


def normalize_id(raw: str) -> str:
    """The bare arXiv id, version kept: "arXiv:1912.01703" / ".../abs/1912.01703v1" -> id.

    Accepts bare ids (new and old style, with or without version), an "arXiv:" prefix and
    arxiv.org /abs/ or /pdf/ URLs. Text that is not an arXiv id is returned stripped, as is:
    arXiv answers it with HTTP 400 and says why ("incorrect id format for abc").
    """
    text = raw.strip()
    match = ARXIV_URL.match(text)
    if match:
        text = match.group("id")
    text = ARXIV_PREFIX.sub("", text).strip()
    return text


def split_version(arxiv_id: str) -> tuple[str, str | None]:
    """("1707.08567", "v2") for "1707.08567v2"; (id, None) without a version or for non-ids."""
    for pattern in (NEW_STYLE_ID, OLD_STYLE_ID):
        match = pattern.match(arxiv_id)
        if match:
            return match.group("base"), match.group("version")
    return arxiv_id, None
