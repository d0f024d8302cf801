"""Training of the learned parts behind `ingest train`: the arxiv_pdf header line model
(`papers`: gold line labels in `labels`, the logistic regression in `fit`, template-family
cross-validation and calibration in `cv`)."""
