"""Governance pages: who holds which role, read from a project's role lists.

    generic    the extractor `governance`: any project's maintainers page, team file, OWNERS,
               CODEOWNERS, MAINTAINERS, council page (routing: `matches`, `lists_people`)
    reader     the generic reader's walk over a document's blocks (sections, groups, statuses)
    blocks     role blocks: a list, a table, a paragraph of names as one role list
    project    the project a page is about (its title, its URL)
    page       a page read by configuration: headings as data (PageConfig, Group)
    pytorch    the extractor `pytorch_governance`: the PyTorch maintainers page as a PageConfig

May import: `ingest`, `extractors.document`, `extractors.people` and its own modules; not the
internals of another extractor package (tests/test_layers.py).
"""
