"""Dates of announcements: the date a sentence prints, a post's own date, and their precision.

A sentence's date beats the post's: a full date ("on March 16, 2026", "2026-03-16", "April 7-8,
2026": the first day), a month ("in April 2021"), a year ("in 2019"), or words relative to the
post ("this year", "last year", "as of today"). Less precise dates are padded to the first day
and carry their precision ("month", "year") and the words printed. Always ISO YYYY-MM-DD.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date, datetime
from typing import Any

from dateutil import parser as dateparser

MONTH_RE = (
    r"(?:Jan(?:uary)?|Feb(?:ruary)?|Mar(?:ch)?|Apr(?:il)?|May|June?|July?|Aug(?:ust)?|"
    r"Sep(?:t(?:ember)?)?|Oct(?:ober)?|Nov(?:ember)?|Dec(?:ember)?)\.?"
)
WEEKDAY_PAREN = r"(?:\s*\([A-Z][a-z]+\))?"
FULL_DATES = (
    re.compile(r"\b((?:19|20)\d\d)-(\d\d)-(\d\d)\b"),
    re.compile(
        rf"\b(?P<month>{MONTH_RE})\s+(?P<day>\d{{1,2}})(?:st|nd|rd|th)?{WEEKDAY_PAREN}"
        rf"(?:\s*[-–—]\s*\d{{1,2}}(?:st|nd|rd|th)?|\s+to\s+\d{{1,2}})?,?{WEEKDAY_PAREN}\s+"
        rf"(?P<year>(?:19|20)\d\d)\b"
    ),
    re.compile(
        rf"\b(?P<day>\d{{1,2}})(?:\s*[-–—]\s*\d{{1,2}})?\s+(?P<month>{MONTH_RE})\s+"
        rf"(?P<year>(?:19|20)\d\d)\b"
    ),
)
US_DATE = re.compile(r"\b(\d{1,2})/(\d{1,2})/((?:19|20)\d\d)\b")
# a month or a year printed as when something happened ("in April 2021", "in 2019")
MONTH_YEAR = re.compile(rf"\b(?:in|as\s+of|on)\s+(?P<month>{MONTH_RE})\s+"
                        rf"(?P<year>(?:19|20)\d\d)\b")  # fmt: skip
# "as of March 1", "effective April 15th": a day of the post's year
MONTH_DAY = re.compile(rf"\b(?:as\s+of|effective|starting|from|on)\s+(?P<month>{MONTH_RE})\s+"
                       rf"(?P<day>\d{{1,2}})(?:st|nd|rd|th)?\b(?!,?\s*\d)")  # fmt: skip
YEAR_ONLY = re.compile(r"\bin\s+(?P<year>(?:19|20)\d\d)\b(?![-/]\d)")  # not "since 2019"
# "last year" is a year; "over the last year", "in the past year" a span of time ending now
RELATIVE_YEAR = re.compile(
    r"(?<!\bthe\s)\b(?P<words>this year|last year|next year)\b", re.IGNORECASE
)
DATE_LINE = re.compile(r"^[\W\d]*(?:[A-Za-z-]+\s+){0,2}?(?:on\s+)?" + MONTH_RE, re.IGNORECASE)
ISO_PREFIX = re.compile(r"((?:19|20)\d\d)-(\d{1,2})-(\d{1,2})")
JULIA_DATE = re.compile(r"Date\(\s*((?:19|20)\d\d)\s*,\s*(\d{1,2})\s*,\s*(\d{1,2})\s*\)")
URL_DATE = re.compile(r"/(?:_posts/)?((?:19|20)\d\d)[-/](\d{1,2})[-/](\d{1,2})(?:[-/]|$)")
URL_STAMP = re.compile(r"[#/_-]((?:19|20)\d\d)(0[1-9]|1[0-2])(0[1-9]|[12]\d|3[01])(?:$|[#._/-])")
URL_MONTH_DAY = re.compile(
    r"/((?:19|20)\d\d)[-/](0[1-9]|1[0-2])/(?:[a-z]{3,9}[-_])?(0?[1-9]|[12]\d|3[01])\.[a-z]+$", re.I
)
DEFAULT_DAY = datetime(2000, 1, 1)  # dateutil's fill-in for missing fields; never the clock


@dataclass(frozen=True)
class When:
    """A date as the claim carries it: ISO, its precision, the words printed when not a day."""

    iso: str
    precision: str = "day"
    printed: str | None = None

    def qualifiers(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        if self.precision != "day":
            out["date_precision"] = self.precision
            out["date_printed"] = self.printed
        return out


def full_date(text: str) -> str | None:
    """The first full date a text prints, ISO."""
    for pattern in FULL_DATES:
        match = pattern.search(text)
        if match is None:
            continue
        if "month" not in pattern.groupindex:
            return safe_date(*(int(part) for part in match.groups()))
        parsed = _month_day_year(match.group("month"), match.group("day"), match.group("year"))
        if parsed:
            return parsed
    return None


def sentence_date(text: str, post: str | None) -> When | None:
    """The date a sentence prints for what it states (full, month, year or relative)."""
    full = full_date(text)
    if full:
        return When(full)
    match = MONTH_DAY.search(text)
    if match and post:
        day = _month_day_year(match.group("month"), match.group("day"), post[:4])
        if day:
            return When(day)
    match = MONTH_YEAR.search(text)
    if match:
        day = _month_day_year(match.group("month"), "1", match.group("year"))
        if day:
            return When(day, "month", f"{match.group('month')} {match.group('year')}")
    match = YEAR_ONLY.search(text)
    if match:
        return When(f"{match.group('year')}-01-01", "year", match.group("year"))
    match = RELATIVE_YEAR.search(text)
    if match and post:
        shift = {"this": 0, "last": -1, "next": 1}[match.group("words").split()[0].lower()]
        return When(f"{int(post[:4]) + shift:04d}-01-01", "year", match.group("words"))
    return None


def standalone_date(piece: str) -> str | None:
    """The date of a short line that is only a date ("April 27th, 2024 (Saturday)")."""
    if len(piece) > 60 or "\n" in piece.strip() or not DATE_LINE.match(piece):
        return None
    return full_date(piece)


def iso_date(value: Any) -> str | None:
    """A header value as an ISO date ("2024-07-24", "2015-09-04T21:00:00.000Z", "10 August
    2022", "Date(2022, 08, 10)")."""
    if hasattr(value, "isoformat"):
        return str(value.isoformat())[:10]
    if not isinstance(value, str) or not value.strip():
        return None
    text = value.strip().strip("'\"")
    for pattern in (ISO_PREFIX, JULIA_DATE):
        match = pattern.search(text)
        if match:
            return safe_date(*(int(part) for part in match.groups()))
    return full_date(text)


def url_date(url: str) -> str | None:
    """A full date in a post URL (`/2024/07/24/`, `/_posts/2022-9-12-`), else a date stamp
    that names the post's anchor or file (`#en_news_20171107`, `/news-20200318.html`), else a
    dated folder and the day the file name ends on (`/2017-02/feb-22.md`)."""
    match = URL_DATE.search(url) or URL_STAMP.search(url) or URL_MONTH_DAY.search(url)
    return safe_date(*(int(part) for part in match.groups())) if match else None


def latest_date(texts: list[str]) -> str | None:
    """The latest full date a document prints (an undated results page is written after it)."""
    found: list[str] = []
    for text in texts:
        for pattern in FULL_DATES:
            for match in pattern.finditer(text):
                if "month" not in pattern.groupindex:
                    day = safe_date(*(int(part) for part in match.groups()))
                else:
                    day = _month_day_year(
                        match.group("month"), match.group("day"), match.group("year")
                    )
                if day:
                    found.append(day)
        for match in US_DATE.finditer(text):
            day = safe_date(int(match.group(3)), int(match.group(1)), int(match.group(2)))
            if day:
                found.append(day)
    return max(found) if found else None


def safe_date(year: int, month: int, day: int) -> str | None:
    try:
        return date(year, month, day).isoformat()
    except ValueError:
        return None


def _month_day_year(month: str, day: str, year: str) -> str | None:
    try:
        parsed = dateparser.parse(f"{month.rstrip('.')} {day} {year}", default=DEFAULT_DAY)
    except (ValueError, OverflowError):
        return None
    return parsed.date().isoformat()
