"""`ingest review ...`: the editors' review queue on the command line (list, show, accept,
reject, undo) and the review page's server."""

from __future__ import annotations

import getpass
import json
import sys
from typing import Any

import click

from ingest.errors import IngestError
from ingest.review.confidence import low_confidence
from ingest.settings import get_settings
from ingest_cli.common import (
    _echo_json,
    _fail_cleanly,
    _safe,
    _store,
    error,
    invocation,
)


@click.group()
def review() -> None:
    """The editors' review queue."""


@review.command("list")
@click.option(
    "--status",
    default="pending",
    show_default=True,
    type=click.Choice(["pending", "accepted", "rejected", "superseded", "all"]),
)
@click.option("--profile", help="Only changes to this profile.")
@click.option("--source", "source_url", help="Only changes from this source URL.")
@click.option("--kind", type=click.Choice(["added", "changed", "removed"]))
@click.option("--json", "as_json", is_flag=True, help="One JSON object per line.")
@_fail_cleanly
def review_list(
    status: str, profile: str | None, source_url: str | None, kind: str | None, as_json: bool
) -> None:
    """List flagged changes: one line per fact, its sources below it (one decision each).

    With --json, one Change object per line, with `group` (the fact's id: changes sharing it
    are decided together).

    Example: ingest review list --json
    """
    from ingest.fact_identity import fact_key
    from ingest.profiles.io import profile_names
    from ingest.report.run import group_facts
    from ingest.review.grouping import source_label, source_titles
    from ingest.statements import change_sentence, person

    settings, store = _store()
    found = store.list_changes(
        status=None if status == "all" else status,
        profile=profile,
        source_url=source_url,
        kind=kind,
    )
    if as_json:
        for change in found:
            data = change.to_json()
            _echo_json(data | {"group": fact_key(data)})
        return
    # one line per fact (and status: with --status all, a decided fact is not a pending one)
    facts = [
        group
        for status_value in dict.fromkeys(c.status for c in found)
        for group in group_facts([c.to_json() for c in found if c.status == status_value])
    ]
    titles = source_titles(store.source_states(sorted({c.source_url for c in found})))
    names = profile_names(settings.profiles_dir)
    for group in facts:
        lead = group[0]
        more = f"  [{len(group)} sources]" if len(group) > 1 else ""
        unsure = low_confidence(lead.get("claim"))
        if unsure is not None:
            more += f"  [low confidence {unsure:.2f}]"
        click.echo(
            _safe(
                f"{lead['id']}  {lead['status']:<9} {person(lead['profile'], names):<22} "
                f"{lead['kind']:<8} {change_sentence(lead)}{more}"
            )
        )
        for change in group:
            label = source_label(change, titles.get(change["source_url"]))
            click.echo(_safe(f"    {change['id']}  {label}"))
    click.echo(f"{len(facts)} fact(s), {len(found)} change(s)", err=True)


@review.command("show")
@click.argument("change_id")
@click.option("--json", "as_json", is_flag=True, help="The change as one JSON object.")
@_fail_cleanly
def review_show(change_id: str, as_json: bool) -> None:
    """Show one change in full: the statement, the profile's, the evidence, the other sources
    of the same fact and the decisions.

    Example: ingest review show 3f2a9c1d0b7e4a55
    """
    from ingest.profiles.io import profile_names
    from ingest.review.context import profile_now
    from ingest.review.decisions import history, resolve_id
    from ingest.review.snapshots import snapshot_time, snapshot_words
    from ingest.statements import person
    from ingest.storage import QueueFilter, row_to_change

    settings, store = _store()
    full = resolve_id(store, change_id)
    row = store.get_change(full)
    data = row_to_change(row).to_json()
    data["decisions"] = [entry.to_dict() for entry in history(store, full)]
    siblings = [r for r in store.fact_members(row, QueueFilter(status=None)) if r["id"] != full]
    evidence = (row.claim or {}).get("evidence") or {}
    when = snapshot_time(store, row.get("snapshot_sha256") or evidence.get("sha256"))
    nearest = profile_now(settings.profiles_dir, data)
    if as_json:
        data["profile_now"] = nearest
        data["group"] = row.get("fact") or full
        data["same_fact"] = [r["id"] for r in siblings]
        if when is not None:
            data["snapshot_date"] = when.day
            data["historical"] = when.historical
            data["origin"] = when.origin  # network, replay or file (read from a local file)
        click.echo(json.dumps(data, ensure_ascii=False, indent=2))
        return
    if when is not None:
        data["snapshot_words"] = snapshot_words(when)
    data["profile_name"] = person(data["profile"], profile_names(settings.profiles_dir))
    data["profile_now"] = nearest
    for line in show_lines(data, siblings):
        click.echo(_safe(line))


def show_lines(data: dict[str, Any], siblings: list[dict[str, Any]]) -> list[str]:
    """`review show` for a person: labelled lines, qualifiers with human names."""
    from ingest.fact_identity import label, show_value
    from ingest.review.grouping import source_label
    from ingest.statements import change_sentence, notation, sentence

    def statement(claim: dict[str, Any]) -> list[str]:
        out = [f"  {sentence(claim)}"]
        for key, value in (claim.get("qualifiers") or {}).items():
            out.append(f"    {label(key)}: {show_value(value)}")
        return out

    label_of_source = source_label(data)
    source = data["source_url"]
    lines = [
        f"{data['id']}  {data['kind']}  {data['status']}",
        f"profile:   {data.get('profile_name') or data['profile']} ({data['profile']})",
        f"statement: {change_sentence(data)}",
        f"raw:       {notation(data)}",
        f"source:    {label_of_source}"
        + (f" ({source})" if source and label_of_source != source else ""),
    ]
    if data.get("snapshot_words"):
        lines.append(f"snapshot:  {data['snapshot_words']}")
    lines.append(f"queued:    {data['created']}")
    if data.get("previous"):
        lines += ["profile now:"] + statement(data["previous"])
    elif data.get("profile_now"):  # an addition: the nearest facts the profile already states
        lines.append("profile now (the nearest it states; other works):")
        lines += [f"  {sentence(c)}" for c in data["profile_now"]]
    elif data["kind"] == "added":
        lines.append("profile now: nothing about this")
    if data.get("claim"):
        lines += ["removed by the source:" if data["kind"] == "removed" else "candidate:"]
        lines += statement(data["claim"])
        evidence = data["claim"].get("evidence") or {}
        subject = data["claim"].get("subject") or {}
        if subject.get("name"):
            lines.append(f"printed as: {subject['name']}")
        if evidence.get("quote"):
            lines.append(
                f"evidence:  \u201c{evidence['quote']}\u201d ({evidence.get('locator', '')})"
            )
    if siblings:
        lines.append(f"same fact, {len(siblings)} more source(s), decided together:")
        lines += [f"  {r['id']}  {r['status']:<9} {source_label(r)}" for r in siblings]
    if data["decisions"]:
        lines.append("decisions:")
        for d in data["decisions"]:
            note = f": {d['note']}" if d.get("note") else ""
            lines.append(f"  {d['decided_at']}  {d['status']:<9} by {d['editor']}{note}")
    return lines


def _editor(editor: str | None) -> str:
    if editor:
        return editor
    return get_settings().editor or getpass.getuser()


def _decide(ids: tuple[str, ...], status: str, note: str | None, editor: str | None) -> None:
    """Decide every id given as ONE action: the decisions share a bulk id, the audit log has
    one entry for them all (`bulk_accepted`, ...), and `review undo` takes them back whole."""
    import uuid

    from ingest.profiles.io import profile_names
    from ingest.review.decisions import Decided, decide, record_bulk, resolve_id
    from ingest.statements import change_sentence, person

    settings, store = _store()
    who = _editor(editor)
    names = profile_names(settings.profiles_dir)
    several = len(dict.fromkeys(ids)) > 1
    bulk = uuid.uuid4().hex if several else None
    failed = 0
    done_all: list[Decided] = []
    decided: set[str] = set()  # decided by this command, with an earlier id's fact
    for change_id in ids:
        try:
            if resolve_id(store, change_id) in decided:
                continue  # already said: "<id> accepted (same fact)"
            done = decide(
                store, settings.profiles_dir, change_id, status, who, note,
                bulk=bulk, audit=not several,
            )  # fmt: skip
        except IngestError as exc:
            error(str(exc))
            failed += 1
            continue
        done_all.append(done)
        decided.update(c.id for c in done.group)
        where = f" -> {done.profile_file}" if done.profile_file else ""
        what = change_sentence(done.change.to_json())
        said = _safe(f"{person(done.change.profile, names)}: {what}")
        click.echo(f"{done.change.id} {status}{where}  ({said})")
        for other in done.group[1:]:
            click.echo(f"{other.id} {status} (same fact)")
    if bulk and done_all:
        record_bulk(store, who, status, bulk, done_all, note)
        count = sum(len(d.group) for d in done_all)
        click.echo(f"{count} change(s), one decision: review undo takes it back whole")
    if failed:
        sys.exit(1)


_note = click.option("--note", help="Why: kept with the decision in the audit log.")
_editor_opt = click.option("--editor", help="Who decides (default: $INGEST_EDITOR or the user).")


@review.command("accept")
@click.argument("ids", nargs=-1, required=True)
@_note
@_editor_opt
@_fail_cleanly
def review_accept(ids: tuple[str, ...], note: str | None, editor: str | None) -> None:
    """Accept changes: write them into the profiles, with their references.

    Example: ingest review accept 3f2a9c1d0b7e4a55 --note "checked on the page"
    """
    _decide(ids, "accepted", note, editor)


@review.command("reject")
@click.argument("ids", nargs=-1, required=True)
@_note
@_editor_opt
@_fail_cleanly
def review_reject(ids: tuple[str, ...], note: str | None, editor: str | None) -> None:
    """Reject changes: they are not proposed again unless their evidence changes.

    Example: ingest review reject 3f2a9c1d0b7e4a55 --note "old page"
    """
    _decide(ids, "rejected", note, editor)


@review.command("undo")
@_note
@_editor_opt
@_fail_cleanly
def review_undo(note: str | None, editor: str | None) -> None:
    """Undo your last decision that still stands (a bulk or a fact's decision whole): the
    changes are pending again and the profile file is restored as it was before.

    Example: ingest review undo --note "accepted the wrong one"
    """
    from ingest.review.decisions import undo_last

    settings, store = _store()
    done = undo_last(store, settings.profiles_dir, _editor(editor), note)
    where = (
        f" -> {done.profile_file} restored"
        if done.profile_file and done.undid == "accepted"
        else ""
    )
    for change in done.group or [done.change]:
        click.echo(f"{change.id} pending again (the {done.undid[:-2]} is undone){where}")


@review.command("serve")
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to listen on.")
@click.option(
    "--port",
    default=8765,
    show_default=True,
    type=click.IntRange(1, 65535),
    help="Port to listen on.",
)
@_fail_cleanly
def review_serve(host: str, port: int) -> None:
    """Serve the editors' review page (login with an account from `ingest editor add`).

    Example: ingest review serve --port 8765
    """
    import uvicorn

    from ingest.review.web.app import create_app

    settings, store = _store()
    if host not in ("0.0.0.0", "::") and host not in settings.review_allowed_hosts:
        settings = settings.model_copy(  # a copy: the settings as read stay as they were
            update={"review_allowed_hosts": [*settings.review_allowed_hosts, host]}
        )
    if not store.list_editors():
        click.echo(
            f"note: no editor accounts yet; add one with `{invocation()} editor add NAME`",
            err=True,
        )
    listener = _listen(host, port)  # a busy port: one error line, before any URL is printed
    shown = f"[{host}]" if ":" in host else host
    click.echo(f"review page on http://{shown}:{port}/", err=True)
    config = uvicorn.Config(create_app(settings, store), log_level="warning")
    uvicorn.Server(config).run(sockets=[listener])


def _listen(host: str, port: int) -> Any:
    """A listening socket on host:port, or an IngestError naming them and the cause."""
    import errno
    import socket

    where = f"[{host}]:{port}" if ":" in host else f"{host}:{port}"
    try:
        family, kind, proto, _name, address = socket.getaddrinfo(
            host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE
        )[0]
        listener = socket.socket(family, kind, proto)
    except (OSError, UnicodeError) as exc:
        raise IngestError(f"cannot listen on {where}: {exc}") from exc
    try:
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listener.bind(address)
        listener.listen(2048)
    except OSError as exc:
        listener.close()
        cause = (
            "the address is already in use (another server on that port? try --port)"
            if exc.errno == errno.EADDRINUSE
            else (exc.strerror or str(exc))
        )
        raise IngestError(f"cannot listen on {where}: {cause}") from exc
    return listener
