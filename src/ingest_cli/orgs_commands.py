"""`ingest orgs ...`: affiliation strings resolved to ROR organisations, and the wiki's people
per organisation."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click

from ingest.settings import get_settings
from ingest_cli.common import _fail_cleanly


@click.group()
def orgs() -> None:
    """Organisations (the Research Organization Registry)."""


@orgs.command("match")
@click.argument("strings", nargs=-1)
@click.option("--json", "as_json", is_flag=True, help="One JSON object per line.")
@_fail_cleanly
def orgs_match(strings: tuple[str, ...], as_json: bool) -> None:
    """Resolve affiliation strings to ROR organisations (no STRING: one per stdin line).

    Prints, in input order, the organisation each names (ROR id, name, country, confidence), or
    no match; --json gives one {"input", "ror", "name", "country", "confidence"} per line, ror
    null when unmatched. The registry and model load once.

    Example: ingest orgs match "Dept. of Computer Science, UCLA, Los Angeles, CA 90095" --json
    """
    from ingest.orgs.model import Resolver

    resolver = Resolver.load(get_settings().ror_dump)
    lines = strings or tuple(line.rstrip("\r\n") for line in sys.stdin)
    for text in lines:
        found = resolver.match(text)
        if as_json:
            click.echo(json.dumps(found.to_json(), ensure_ascii=False))
        elif found.org is None:
            click.echo(f"{text}\t-\tno match ({found.confidence:.2f})")
        else:
            o = found.org
            click.echo(f"{text}\t{o.id}\t{o.name} ({o.country}, {found.confidence:.2f})")


@orgs.command("people")
@click.argument("org", required=False)
@click.option("--json", "as_json", is_flag=True, help="One JSON object per organisation.")
@_fail_cleanly
def orgs_people(org: str | None, as_json: bool) -> None:
    """The wiki's people per organisation, from their profiles' affiliations (current and past).

    ORG is a ROR id (or https://ror.org/ URL) or a name (resolved like `orgs match`); without
    it, every organisation the profiles name, most people first.

    Example: ingest orgs people "University of Oxford"
    """
    from ingest.orgs.people import people_by_org, wanted_org
    from ingest.settings import ensure_profiles

    settings = get_settings()
    listing = people_by_org(ensure_profiles(settings), settings.ror_dump)
    if org:
        key = wanted_org(org, settings.ror_dump)
        listing = [entry for entry in listing if entry.key == key]
        if not listing:
            click.echo(f"nobody in the wiki at {org} ({key})", err=True)
    for entry in listing:
        if as_json:
            click.echo(json.dumps(entry.to_json(), ensure_ascii=False))
            continue
        click.echo(f"{entry.name} ({entry.key}): {len(entry.people)} people in the wiki")
        for person in entry.people:
            click.echo(f"  {person.profile}\t{person.name}\t{person.when}\t{person.printed}")


@orgs.command("train")
@click.option(
    "--data",
    type=click.Path(exists=True, file_okay=False, path_type=Path),
    help="Folder of labelled `affiliation,ror_id` CSVs (default: "
    "../shared/orgs/affiliation-strings/).",
)
@click.option("--no-write", is_flag=True, help="Measure only; leave data/model.json as it is.")
@click.option(
    "--kfold",
    is_flag=True,
    help="Measure only: fit five times, each fifth of the strings held out in turn.",
)
@_fail_cleanly
def orgs_train(data: Path | None, no_write: bool, kfold: bool) -> None:
    """Fit the resolver's model and print its held-out precision and recall (JSON).

    Example: ingest orgs train --no-write
    """
    from ingest.orgs import train
    from ingest.orgs.model import BUNDLED_MODEL

    out = None if no_write or kfold else BUNDLED_MODEL
    report = train.main(data or train.DEFAULT_DATA, out, folds=kfold)
    click.echo(json.dumps(report, indent=1))


@orgs.command("build")
@click.option(
    "--from",
    "source",
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    help="ROR records: the shared jsonl(.gz) or a schema v2 dump (.json, .zip).",
)
@click.option(
    "--out",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Where to write the index (default: the bundled one).",
)
@_fail_cleanly
def orgs_build(source: Path | None, out: Path | None) -> None:
    """Build the compact organisation index from ROR records.

    Example: ingest orgs build --from ../shared/orgs/ror-orgs.jsonl.gz
    """
    from ingest.orgs.build import DEFAULT_SOURCE, build_index, read_records, write_index
    from ingest.orgs.registry import BUNDLED_INDEX

    path = source or DEFAULT_SOURCE
    records = read_records(path)
    write_index(build_index(records, provenance(path)), out or BUNDLED_INDEX)
    click.echo(f"{len(records)} organisations -> {out or BUNDLED_INDEX}")


def provenance(path: Path) -> dict[str, str]:
    from ingest.orgs.build import DEFAULT_SOURCE, SHARED_PROVENANCE

    if path.resolve() == DEFAULT_SOURCE.resolve():
        return dict(SHARED_PROVENANCE)
    return {"file": path.name}
