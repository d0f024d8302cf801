"""The pipeline after the fetch: what to check, and each source stored, extracted, diffed and
queued.

registry (what a run checks), batches (the nightly's units of work), process (one source end to
end), settled (an unchanged source's fast path), feeds (entries become sources), arxiv_stage
(papers), outcome (what a run did with one source). The extractors are passed in
(ingest.extraction.ExtractorSet): ingest never imports them.
"""
