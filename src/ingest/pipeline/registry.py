"""What the nightly refresh checks: the source registry plus every reference a profile cites."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

from pydantic import ValidationError

from ingest.errors import ConfigError, NoExtractorError
from ingest.extraction import ExtractorSet
from ingest.models import Profile, Source
from ingest.pipeline.arxiv_stage import is_arxiv_url


@dataclass
class Plan:
    sources: list[Source] = field(default_factory=list)
    # cited URLs no extractor reads: fetched only to see that they still answer, with why
    reachability: list[tuple[str, str]] = field(default_factory=list)


def load_registry(path: Path) -> list[Source]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise ConfigError(f"source registry '{path}' cannot be read: {exc.strerror}") from exc
    except json.JSONDecodeError as exc:
        raise ConfigError(f"source registry '{path}' is not JSON: {exc}") from exc
    if not isinstance(data, list):
        raise ConfigError(f"source registry '{path}' must be a JSON list of sources")
    try:
        return [Source.model_validate(item) for item in data]
    except ValidationError as exc:
        raise ConfigError(f"source registry '{path}': {exc.errors()[0]['msg']}") from exc


def source_for(
    url: str, registry: list[Source], extractor: str | None = None, *, extractors: ExtractorSet
) -> Source:
    """The registered source for a URL, or a new one described by the extractor (of
    `extractors`) that takes it."""
    for source in registry:
        if source.url == url:
            if extractor:
                return source.model_copy(update={"extractor": extractor})
            return source
    source = Source(url=url, extractor=extractor)
    try:
        module = extractors.choose(url, None, extractor)
    except NoExtractorError:
        return source
    if module in extractors.GENERIC and not extractor:
        return source  # a governance page or a post: its content decides, when it is read
    source.extractor = module.NAME
    source.authoritative = list(getattr(module, "AUTHORITATIVE", []))
    return source


def plan(registry: list[Source], profiles: dict[str, Profile], *, extractors: ExtractorSet) -> Plan:
    """Registered sources first, then each distinct reference URL: read by its extractor (of
    `extractors`), or (when none reads it) only checked for an answer. arXiv papers are the
    arXiv stage's."""
    out = Plan()
    seen: set[str] = set()
    for source in registry:
        if source.url not in seen:
            seen.add(source.url)
            out.sources.append(source)
    for pid in sorted(profiles):
        for ref in profiles[pid].references:
            if not ref.url or ref.url in seen:
                continue
            seen.add(ref.url)
            if is_arxiv_url(ref.url):
                continue  # checked by the arXiv stage: metadata in batches, PDFs per version
            try:
                module = extractors.choose(ref.url)
            except NoExtractorError:
                out.reachability.append((ref.url, f"cited by {pid}; no extractor reads it"))
                continue
            out.sources.append(
                Source(
                    url=ref.url,
                    extractor=module.NAME,
                    title=ref.title,
                    publisher=ref.publisher,
                    kind=ref.kind,
                    authoritative=list(getattr(module, "AUTHORITATIVE", [])),
                )
            )
    return out
