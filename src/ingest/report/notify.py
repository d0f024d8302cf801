"""Tell the editors when a run queued new changes: one Slack-compatible webhook POST.

    message(report_json) -> str                          the text posted (pure)
    notify_run(client, settings, report_json) -> dict | None
        None: no INGEST_NOTIFY_URL, or nothing new queued (nothing is sent).
        Otherwise {"sent": bool, "message": str, "error": str | None} for the report.

A failed notification never fails the run: refused addresses, connection errors and non-2xx
answers come back as a record with `sent: False`. The webhook URL is checked like a fetch
(`ingest.fetch.addresses.check_url`: http/https only, no private, loopback or metadata address
unless INGEST_ALLOW_PRIVATE) and redirects are not followed. Webhook URLs usually carry a secret
token, so messages name only the scheme and host.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from ingest.errors import IngestError
from ingest.fetch.addresses import check_url
from ingest.report.run import flagged_in
from ingest.settings import Settings

if TYPE_CHECKING:  # imported when a notification is sent (a run that sends none: 0.1 s saved)
    import httpx


def new_flags(report: dict[str, Any]) -> tuple[dict[str, int], int]:
    """The flags first queued by the run (by kind, and how many), and how many of its flags
    were pending from before; a report without the split counts every flag as new."""
    if "new" in report:
        new = report["new"]
        return dict(new.get("flags", {})), int(report.get("still_pending", {}).get("facts", 0))
    flags = dict(report.get("flags", {}))
    return flags, 0


def message(report: dict[str, Any]) -> str:
    """One line for a chat channel, with Slack's three special characters escaped: the flags
    new tonight (first queued by this run) apart from those still pending from before."""
    counts = report.get("counts", {})
    flags, pending = new_flags(report)
    new = sum(flags.values())
    kinds = ", ".join(f"{flags[k]} {k}" for k in ("added", "changed", "removed") if flags.get(k))
    text = (
        f"ingest {report.get('kind', '')} run {report.get('run_id', '')}: "
        f"{new} new flag{'s' if new != 1 else ''} tonight ({kinds}), {pending} still pending "
        f"review. Sources: {counts.get('fetched', 0)} fetched, "
        f"{counts.get('unchanged', 0)} unchanged, {counts.get('failed', 0)} failed."
    )
    if report.get("report_file"):
        text += f" Report: {report['report_file']}"
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def _where(url: str) -> str:
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.hostname or '?'}"


def notify_run(
    client: httpx.Client, settings: Settings, report: dict[str, Any]
) -> dict[str, Any] | None:
    """POST {"text": message(report)} to INGEST_NOTIFY_URL if the run queued new flags (a run
    that found only what was pending already sends nothing)."""
    url = settings.notify_url
    if not url or not flagged_in(report) or not sum(new_flags(report)[0].values()):
        return None
    import httpx

    where = _where(url)
    try:
        check_url(url, settings=settings)
        response = client.post(url, json={"text": message(report)}, timeout=settings.notify_timeout)
    except IngestError as exc:
        reason = getattr(exc, "reason", None) or type(exc).__name__
        return _failed(where, f"refused: {reason}")
    except httpx.HTTPError as exc:
        return _failed(where, f"{type(exc).__name__}: {exc}".replace(url, where))
    if not response.is_success:
        return _failed(where, f"HTTP {response.status_code}")
    return {"sent": True, "message": f"sent to {where}", "error": None}


def _failed(where: str, error: str) -> dict[str, Any]:
    return {"sent": False, "message": f"could not notify {where}: {error}", "error": error}
