"""The storage code of earlier commits, verbatim, to make databases of their schema in tests
(tests/test_migrations.py): not constructed by hand, made by the code that made them then.

    store_v1.py   git show 5a54b5b:src/ingest/store.py   (schema_version 1, the first store)
    store_v6.py   git show 5bd2b62:src/ingest/store.py   (schema_version 6, the last numbered
                                                          scheme, before ingest.storage)

They import today's ingest.models, ingest.settings and ingest.errors, which still read them.
Excluded from ruff (pyproject.toml): kept byte for byte as they were.
"""
