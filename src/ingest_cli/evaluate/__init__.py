"""The evaluators behind `ingest evaluate`: the arxiv_pdf extractor against gold labels (`arxiv`),
the governance pages (`governance` with its gold rows, people matching and report) and the
announcement posts (`announcements`).
"""
