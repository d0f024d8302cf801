"""The `ingest` command line and the evaluators: the one place that uses both the core library
(`ingest`) and the layers above it (`extractors`, `flows`); `ingest` imports neither (issue 16).
"""
