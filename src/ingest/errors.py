"""One error tree for ingest. Every message says what went wrong and where.

    IngestError
    ├── ConfigError                 a setting or file the tool needs is unusable
    ├── FetchError                  a URL could not be fetched            (url, reason)
    │   ├── HTTPStatusError         the server answered with an error     (+ status)
    │   ├── RefusedURLError         the URL is not allowed (scheme, private address)
    │   │   └── RobotsDisallowedError  robots.txt forbids it   (+ robots_url, rule, user_agent)
    │   ├── ResponseTooLargeError   the body grew past INGEST_MAX_BYTES   (+ limit)
    │   └── ReplayMissError         no recorded response for the URL      (+ as_of)
    ├── ExtractionError             a document could not be turned into claims (url, reason)
    │   ├── UnsupportedFormatError  the bytes are not a format we read
    │   ├── NoExtractorError        no extractor claims the URL or content
    │   ├── DocumentTooLargeError   the document is over a parse limit    (+ size, limit)
    │   ├── DocumentTooNestedError  it nests deeper than a parser may go  (+ depth, limit)
    │   └── RedirectStubError       the document is only a redirect stub  (+ target)
    ├── ProfileError                a profile file is missing or malformed (path, reason)
    ├── StoreError                  the database or snapshot store failed
    ├── ServerError                 the workspace's local runner could not start or answer
    │   └── RunFailedError          a run failed inside the runner        (unexpected)
    ├── RunCancelled                the command that started a run is gone: the run stops
    ├── SourcesFailedError          a nightly's failed sources reached --fail-on (result)
    ├── PdfEvidenceError            a stored PDF cannot be shown as evidence (reason)
    │   └── NotPdfError             the stored snapshot is not a PDF
    └── ReviewError                 an editor's decision cannot be applied
        ├── ChangeNotFoundError     no change with that id                (change_id)
        └── AlreadyDecidedError     someone decided it first              (change_id, status)

All errors keep their fields through pickling (Prefect moves them between processes).
"""

from __future__ import annotations

from typing import Any


class IngestError(Exception):
    """Base class of every error ingest raises on purpose."""

    def __init__(self, message: str, **fields: Any) -> None:
        super().__init__(message)
        self.message = message
        self.fields = fields
        for key, value in fields.items():
            setattr(self, key, value)

    def __reduce__(self) -> tuple[Any, ...]:
        return (_rebuild, (type(self), self.message, self.fields))

    def __str__(self) -> str:
        return self.message


def _rebuild(cls: type[IngestError], message: str, fields: dict[str, Any]) -> IngestError:
    err = Exception.__new__(cls)
    IngestError.__init__(err, message, **fields)
    return err


class ConfigError(IngestError):
    pass


class FetchError(IngestError):
    def __init__(self, url: str, reason: str, **fields: Any) -> None:
        super().__init__(f"could not fetch url '{url}': {reason}", url=url, reason=reason, **fields)


class HTTPStatusError(FetchError):
    def __init__(self, url: str, status: int, reason: str = "") -> None:
        why = f"server answered HTTP {status}" + (f" ({reason})" if reason else "")
        FetchError.__init__(self, url, why, status=status)


class RefusedURLError(FetchError):
    pass


class RobotsDisallowedError(RefusedURLError):
    def __init__(self, url: str, robots_url: str, rule: str, user_agent: str) -> None:
        FetchError.__init__(
            self,
            url,
            f"robots.txt at '{robots_url}' disallows it for user agent '{user_agent}' "
            f"(rule '{rule}'); it was not requested",
            robots_url=robots_url,
            rule=rule,
            user_agent=user_agent,
        )


class ResponseTooLargeError(FetchError):
    def __init__(self, url: str, limit: int) -> None:
        FetchError.__init__(self, url, f"body larger than the limit of {limit} bytes", limit=limit)


class ReplayMissError(FetchError):
    def __init__(self, url: str, as_of: str | None = None) -> None:
        when = f" in force on {as_of}" if as_of else ""
        FetchError.__init__(
            self, url, f"no recorded response{when} in the replay archive", as_of=as_of
        )


class ExtractionError(IngestError):
    def __init__(self, url: str, reason: str, **fields: Any) -> None:
        super().__init__(
            f"could not extract claims from '{url}': {reason}", url=url, reason=reason, **fields
        )


class UnsupportedFormatError(ExtractionError):
    pass


class NoExtractorError(ExtractionError):
    pass


class DocumentTooLargeError(ExtractionError):
    def __init__(
        self,
        url: str,
        size: int,
        limit: int,
        what: str = "document",
        setting: str = "INGEST_MAX_PARSE_BYTES",
    ) -> None:
        ExtractionError.__init__(
            self,
            url,
            f"the {what} is {size} bytes, over the parse limit of {limit} ({setting})",
            size=size,
            limit=limit,
            setting=setting,
        )


class DocumentTooNestedError(ExtractionError):
    def __init__(self, url: str, what: str, depth: int, limit: int) -> None:
        ExtractionError.__init__(
            self,
            url,
            f"refused before parsing: {what} {depth} deep, more than {limit}",
            depth=depth,
            limit=limit,
        )


class RedirectStubError(ExtractionError):
    def __init__(self, url: str, target: str) -> None:
        ExtractionError.__init__(
            self, url, f"the document is a redirect stub to '{target}'", target=target
        )


class OlderFileError(IngestError):
    """`ingest run URL --file FILE`: the file is evidence for an earlier day than the newest
    snapshot of URL already stored (see ingest.pipeline.local_file)."""

    def __init__(self, file: str, url: str, day: str, basis: str, stored_day: str) -> None:
        how = {"given": "given with --as-of", "stated": "the date it states"}.get(basis, "today")
        super().__init__(
            f"refused: file '{file}' is evidence for {day} ({how}), older than the snapshot of "
            f"'{url}' stored for {stored_day}; nothing was stored (an older file would queue "
            "removals of what the newer snapshot shows). To see the page as it was, use "
            "`ingest nightly --replay DIR --as-of DATE`; if the file is in fact newer, give its "
            "day with --as-of",
            file=file,
            url=url,
            day=day,
            stored_day=stored_day,
        )


class ProfileError(IngestError):
    def __init__(self, path: str, reason: str) -> None:
        super().__init__(f"profile '{path}': {reason}", path=path, reason=reason)


class StoreError(IngestError):
    pass


class ServerError(IngestError):
    pass


class RunFailedError(ServerError):
    """The run failed inside the local runner: `unexpected` when it was not an IngestError there
    (its traceback is in the runner's log)."""

    def __init__(self, message: str, unexpected: bool = False) -> None:
        IngestError.__init__(self, message, unexpected=unexpected)


class RunCancelled(IngestError):
    """The command that started the run was stopped (killed, Ctrl-C): the run ends at its next
    step, recorded as cancelled (ingest.runner.progress.check)."""


class SourcesFailedError(IngestError):
    """A nightly run whose share of failed sources reached its `fail_on` threshold: raised
    after its report and queue were written (so the Prefect flow run is Failed and the command
    exits 1); `result` is what the run returns otherwise (counts, flags, report file)."""

    result: dict[str, Any]

    def __init__(self, message: str, result: dict[str, Any]) -> None:
        IngestError.__init__(self, message, result=result)


class PdfEvidenceError(IngestError):
    """A stored PDF could not be shown: corrupt, encrypted, empty or too heavy to render."""

    def __init__(self, reason: str) -> None:
        super().__init__(f"cannot show the stored PDF: {reason}", reason=reason)


class NotPdfError(PdfEvidenceError):
    def __init__(self) -> None:
        PdfEvidenceError.__init__(self, "the snapshot is not a PDF")


class ReviewError(IngestError):
    pass


class ChangeNotFoundError(ReviewError):
    def __init__(self, change_id: str) -> None:
        super().__init__(f"no change with id '{change_id}'", change_id=change_id)


class AlreadyDecidedError(ReviewError):
    def __init__(self, change_id: str, status: str, by: str | None = None) -> None:
        who = f" by {by}" if by else ""
        super().__init__(
            f"change '{change_id}' was already {status}{who}",
            change_id=change_id,
            status=status,
            by=by,
        )
