"""`ingest train`: fit the learned parts shipped in the repository (the arxiv_pdf line model)."""

from __future__ import annotations

import json

import click


@click.group()
def train() -> None:
    """Fit the learned parts shipped in the repository.

    Example: ingest train papers
    """


@train.command("papers")
def train_papers() -> None:
    """Fit the arxiv_pdf header line model on every gold PDF (fixtures/arxiv), calibrate its
    confidences on a leave-one-template-family-out cross-validation, and write
    extractors/papers/header_model.json (a few minutes).

    Example: ingest train papers
    """
    from ingest_cli.train.cv import train_papers as fit_papers

    cv = fit_papers()
    click.echo(json.dumps(cv.figures(), indent=2))
