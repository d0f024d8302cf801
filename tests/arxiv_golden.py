"""Golden files of the arxiv_atom extractor: which recorded response, under which URL.

Regenerate after an intended change of extraction (and commit the result with that change):

    .venv/bin/python -m tests.arxiv_golden

The tests compare against the committed `fixtures/arxiv/atom/<file>.claims.jsonl`; they never
regenerate them.
"""

from __future__ import annotations

from pathlib import Path

from extractors.papers import atom as arxiv_atom
from tests.goldens import GoldenSet

FIXTURE_DIR = Path(__file__).resolve().parent.parent / "fixtures" / "arxiv" / "atom"

_API = "https://export.arxiv.org/api/query?"
_ID_QUERY = "search_query=&id_list={}&sortBy=relevance&sortOrder=descending&start=0&max_results=100"

# fixture file -> the recorded request URL (fixtures/arxiv/atom/PROVENANCE.md, column 4)
GOLDEN_URLS: dict[str, str] = {
    "atom-response.id_astro-ph_0601001_s0_m100_3150dca9dc76.xml": _API
    + _ID_QUERY.format("astro-ph%2F0601001"),
    "atom-response.id_1707.08567_s0_m100_6a1afebfc6a3.xml": _API + _ID_QUERY.format("1707.08567"),
    "atom-response.id_0808.05394_1707.08567_s0_m100_42e5aa0ec3af.xml": _API
    + _ID_QUERY.format("0808.05394%2C1707.08567"),
    "atom-response.id_0000.0000_s0_m100_8b51d9633a68.xml": _API + _ID_QUERY.format("0000.0000"),
    "atom-response.id_abc_s0_m100_b79c8dcf6bc3.xml": _API + _ID_QUERY.format("abc"),
    "atom-response.id_2104.12255v1_s0_m100_6ae69987ffe1.xml": _API
    + _ID_QUERY.format("2104.12255v1"),
    "atom-response.id_1605.08386_s0_m100_199195aa31ad.xml": _API + _ID_QUERY.format("1605.08386"),
    "atom-response.q_testing_s0_m10_bc5a6c384fe9.xml": _API
    + "search_query=testing&id_list=&sortBy=relevance&sortOrder=descending&start=0&max_results=10",
    "atom-response.id_quant-ph_0201082v1_s0_m100_86989fe779ef.xml": _API
    + _ID_QUERY.format("quant-ph%2F0201082v1"),
    "atom-response-2016.id_list_1111.2011v2.xml": "http://export.arxiv.org/api/query?"
    "search_query=&id_list=1111.2011v2&start=0&max_results=10",
    "atom-response-2016.search_au_del_maestro_AND_ti_checkerboard.xml": "http://export.arxiv.org/"
    "api/query?search_query=au:del_maestro+AND+ti:checkerboard",
}


GOLDEN = GoldenSet(FIXTURE_DIR, GOLDEN_URLS, arxiv_atom.extract)
snapshot, golden_path, render, regenerate = (
    GOLDEN.snapshot,
    GOLDEN.path,
    GOLDEN.render,
    GOLDEN.regenerate,
)

if __name__ == "__main__":
    GOLDEN.main()
