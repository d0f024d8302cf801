"""Patterns and text tests of the author block reader: markers, names, institutions, notes.

Named data first (marker characters, separators, particles, the notes that are not
affiliations), then the pure text helpers built on it: `clean` and `fix_accents` (TeX spacing
accents, ligatures), `is_name_like`, `is_institution`, `is_prose`, `organisation_of`,
`marker_keys`. Used by `extractors.papers.author_block` and `extractors.papers.footnotes`.
"""

from __future__ import annotations

import re
import unicodedata

from extractors.papers.words import INSTITUTION_WORDS, words_of
from ingest.names import fold

# Characters used as affiliation / footnote markers.
SYMBOL_MARKERS = "*∗†‡§¶‖⋄◇□■♠♣♦♥♭♮♯#⊥⊤⋆★☆✝✉⊗⊕"
GREEK_MARKERS = "αβγδεζηθικλμνξοπρστυφχψω"
MARKER_CHARS = SYMBOL_MARKERS + GREEK_MARKERS
# Pieces of a superscript run that are marker keys: numbers, single letters, symbols.
MARKER_KEY_RE = re.compile(r"\d+|[^\W\d_]|[^\w\s,;.()\[\]]")
# An inline (full-size) symbol marker inside text ("#1515" is a number, not a marker).
# "+" and "$" only where a marker stands: after a name ("Schapire+,") or before an affiliation
# ("+Dept. of ..."), never inside a word ("KB+Text", "C++").
INLINE_MARKER_RE = re.compile(
    f"#(?!\\d)|[{re.escape(MARKER_CHARS.replace('#', ''))}]|"
    r"(?<=[^\W\d_])[+$](?=[\s,;*∗†‡]|$)|(?:(?<=^)|(?<=\s))[+$](?=[A-Z])"
)
# A number glued to the capital that starts an affiliation ("1MoE Key Lab"), at the start of a
# cell or after a comma: an unraised numeric marker.
GLUED_NUMBER_RE = re.compile(r"(?:(?<=^)|(?<=[,;]\s)|(?<=[,;]))(\d{1,2})(?=[A-Z][a-z])")
NAME_SEPARATOR_RE = re.compile(r"\s*(?:,|;|\band\b|&|[·•]|\s{3,})\s*")
# A name's number printed before an affiliation with a space ("1 Laboratoire ..., 2 Synchrotron"),
# at the start of a cell or after a comma: a marker only when a name carries that number.
SPACED_NUMBER_RE = re.compile(r"(?:(?<=^)|(?<=[,;]\s)|(?<=[,;]))(\d{1,2})\s+(?=[A-Z][a-z])")
# Society grades printed after names: ", Student Member, IEEE", ", Fellow, IEEE".
GRADE_RE = re.compile(
    r",?\s*\b(?:Student\s+|Senior\s+|Life\s+)?(?:Member|Fellow)\s*,\s*(?:IEEE|ACM)\b|"
    r",?\s*\b(?:Student\s+|Senior\s+|Life\s+)?(?:Member|Fellow)\s*,?\s*$"
)
LONE_SOCIETY_RE = re.compile(r"\s*,?\s*(?:IEEE|ACM)\s*,?\s*")
# Numeric markers printed at full size right after a name: "Ödeen1*", "Håstad2,3 and", "Last135"
NAME_NUMBER_RE = re.compile(r"(?<=[^\W\d_])(\d{1,3}(?:\s?,\s?\d{1,3})*)(?=[\s,;·•*†‡§&]|$)")

NAME_PARTICLES = {
    "van", "von", "der", "den", "de", "del", "della", "di", "da", "dos", "das", "du", "la", "le",
    "bin", "ibn", "al", "el", "ten", "ter", "y", "zu", "af", "st.", "las", "los", "do", "degli",
    "dello", "op", "vom",
}  # fmt: skip
# Systems whose campus follows after a comma: "University of California, Berkeley".
MULTI_CAMPUS = (
    "university of california", "university of illinois", "university of massachusetts",
    "university of texas", "university of wisconsin", "university of colorado",
    "university of maryland", "university of north carolina", "university of missouri",
)  # fmt: skip
# Countries an address ends with (folded): after one, an institution line starts a new address.
COUNTRIES = frozenset({
    "usa", "united states", "uk", "united kingdom", "canada", "brazil", "austria", "germany",
    "france", "italy", "spain", "portugal", "switzerland", "netherlands", "the netherlands",
    "belgium", "denmark", "sweden", "norway", "finland", "ireland", "poland", "czech republic",
    "greece", "israel", "turkey", "russia", "china", "japan", "korea", "south korea", "singapore",
    "india", "australia", "new zealand", "south africa", "mexico", "chile", "argentina",
    "colombia", "hong kong", "taiwan", "iran", "egypt", "hungary", "romania", "luxembourg",
    "estonia", "qatar", "united arab emirates", "saudi arabia", "pakistan", "vietnam", "thailand",
    "malaysia", "indonesia",
})  # fmt: skip
# Academic degrees and post-nominals printed after names in medical and other journals, as
# spelled (case matters: "MA" is a degree, "Ma" a surname).
DEGREES = frozenset({
    "MD", "PhD", "Ph.D", "M.D", "MPH", "MSc", "MS", "MA", "BA", "BSc", "BS", "MBA", "DPhil",
    "MBBS", "MBChB", "FRCP", "FRCPC", "FRCS", "FACP", "FACS", "RN", "NP", "PharmD", "DrPH",
    "DSc", "DMSc", "MFPH", "FFPH", "MPP", "JD", "LLM", "MEng", "BEng", "MRes", "DDS", "DMD",
    "DO", "ScD", "EdD", "MSN", "BSN", "MRCP", "MRCPCH", "DVM", "MMed", "MPharm", "PsyD",
    "OD", "DNB",
})  # fmt: skip
URL_RE = re.compile(r"https?://|www\.", re.I)
# Words that never occur in a person's name (folded); they stop a text from being a name.
NOT_NAME_WORDS = set(INSTITUTION_WORDS) | {
    "abstract", "introduction", "keywords", "email", "e-mail", "corresponding", "author",
    "authors", "contribution", "equal", "of", "for", "the", "and", "in", "on", "at", "with",
    "by", "to", "usa", "china", "germany", "france", "uk", "canada", "japan", "india",
    "preprint", "proceedings", "conference", "workshop", "arxiv", "submitted", "draft",
    "dated", "received", "accepted", "published", "journal", "vol", "volume", "track",
    "paper", "work", "done", "during", "internship", "project", "lead", "contact",
}  # fmt: skip
# Footnote and note lines inside author blocks that are not affiliations.
IGNORE_RE = re.compile(
    r"equal(ly)? contribut|contributed equally|corresponding author|work (was )?done|"
    r"these authors|joint first|project lead|^\(?dated\b|^\(?received\b|^preprint\b|"
    r"^\*?\s*(email|e-mail|contact)\b|^code\b|^project page|^homepage|^under review|"
    r"^accepted\b|^published\b|^copyright|^proceedings\b|work performed|performed while|"
    r"done while|while (at|visiting)|internship|^editors?:|^orientador|^co-orientador|"
    r"^(advisor|supervisor)s?\b|\binterns? at\b|supported by|funded by|^\(?©|"
    r"(?-i:^[a-z0-9.-]+\.(com|org|net|edu|gov|io|ai)(\.[a-z]{2})?$)|"
    # a date alone on its line: "March 3, 2024", "3 March 2024", "2024-03-03"
    r"^(?:\d{1,2}\s+)?(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?\s+"
    r"(?:\d{1,2},?\s+)?\d{4}$|^\d{4}-\d{2}-\d{2}$",
    re.I,
)
# Spacing accents that some TeX fonts draw before the letter ("Teˇsanovi´c" -> "Tešanović").
SPACING_ACCENTS = {
    "\u00b4": "\u0301", "`": "\u0300", "\u02c6": "\u0302", "\u02dc": "\u0303",
    "\u00a8": "\u0308", "\u02c7": "\u030c", "\u02d8": "\u0306", "\u02d9": "\u0307",
    "\u00b8": "\u0327", "\u02da": "\u030a", "\u02dd": "\u030b", "\u00af": "\u0304",
    "\u02db": "\u0328",
}  # fmt: skip
LIGATURES = str.maketrans(
    {"ﬀ": "ff", "ﬁ": "fi", "ﬂ": "fl", "ﬃ": "ffi", "ﬄ": "ffl", "ﬅ": "ft", "ﬆ": "st"}
)
# An accent drawn after its letter and followed by a space (some publishers' fonts):
# a vowel, its accent, a space, then a consonant (or the end): the accent is the vowel's.
_TRAILING_ACCENT_RE = re.compile(
    f"([AEIOUYaeiouy])([{''.join(SPACING_ACCENTS)}])(\\s+|$)(?=([^\\W\\daeiouyAEIOUY_])|$)"
)
_ACCENT_RE = re.compile(f"([{''.join(SPACING_ACCENTS)}])\\s?([A-Za-zıȷ])")
_JUNK_RE = re.compile(r"[()\[\]\x00-\x1f\ufffd✉]+")
CONNECTOR_END_RE = re.compile(r"\b(and|of|for|the|&|in|at|de|du|des|der|di|la|le)$", re.I)


def fix_accents(text: str) -> str:
    """Merge TeX's spacing accents into the letter they belong to, then NFC."""

    def merge(m: re.Match[str]) -> str:
        letter = {"ı": "i", "ȷ": "j"}.get(m.group(2), m.group(2))
        return letter + SPACING_ACCENTS[m.group(1)]

    def after(m: re.Match[str]) -> str:  # "Universite´ Paris", "He´ le` ne": on the letter before
        joined = m.group(1) + SPACING_ACCENTS[m.group(2)]
        return joined if (m.group(4) or "").islower() else joined + m.group(3)

    text = _TRAILING_ACCENT_RE.sub(after, text.translate(LIGATURES))
    return unicodedata.normalize("NFC", _ACCENT_RE.sub(merge, text))


def clean(text: str) -> str:
    text = fix_accents(_JUNK_RE.sub(" ", text))
    return re.sub(r"\s+", " ", text).strip(" ,;:")


def institution_score(text: str) -> int:
    return sum(INSTITUTION_WORDS.get(w, 0) for w in words_of(text))


def _strongest(text: str) -> int:
    return max((INSTITUTION_WORDS.get(w, 0) for w in words_of(text)), default=0)


def is_institution(text: str) -> bool:
    return institution_score(text) >= 2


def is_name_like(text: str) -> bool:
    """Capitalised words (initials and particles allowed), no institution words, no digits."""
    text = text.strip()
    if not text or len(text) > 48 or any(ch.isdigit() for ch in text) or "@" in text:
        return False
    parts = text.replace("\u00a0", " ").split()
    if not 2 <= len(parts) <= 6:
        return False
    capitalised = 0
    for part in parts:
        bare = part.strip(".,'’-")
        if not bare:
            return False
        if part.lower() in NAME_PARTICLES:
            continue
        if fold(part) in NOT_NAME_WORDS:
            return False
        if not (bare[0].isupper() or bare[0].isdigit()):
            return False
        if not all(ch.isalpha() or ch in ".-'’" for ch in part):
            return False
        capitalised += 1
    return capitalised >= 2 or (capitalised >= 1 and len(parts) >= 2)


def is_prose(text: str) -> bool:
    words = text.split()
    if len(words) < 8 or "@" in text:
        return False
    lower = sum(1 for w in words if w[:1].islower())
    return lower / len(words) >= 0.6


def organisation_of(text: str) -> str:
    """The most institution-like comma part of an affiliation ("Duke University")."""
    parts = [p.strip() for p in text.split(",") if p.strip()]
    if not parts:
        return text
    best = max(range(len(parts)), key=lambda i: (_strongest(parts[i]), -i))
    org = parts[best]
    if (
        fold(org) in MULTI_CAMPUS
        and best + 1 < len(parts)
        and len(parts[best + 1].split()) <= 2
        and institution_score(parts[best + 1]) == 0
    ):
        org = f"{org}, {parts[best + 1]}"
    return org


# What an affiliation's text carries after the affiliation: "..., USA e-mail: a@b.edu; c@b.edu",
# "Athena Research Center prokopis@ilsp.gr"
# One address or "{a,b}@host" list: a local part takes its whole run (nothing after it can be
# part of one), and the first one starts where a run starts: tried from inside a long run, each
# start scanned the rest of it (quadratic on a hostile line); a later one may follow the host.
_ADDRESS_GAP = r"\s*[,;]?\s*\{?"
_ADDRESS = r"[\w.+-]++(?:\s*,\s*[\w.+-]++)*+\}?\s?@\s?[\w-]+(?:\.[\w-]+)+"
CONTACT_TAIL_WINDOW = 1000
_CONTACT_TAIL_RE = re.compile(
    r"(?:\s*[,;.]?\s*\b(?:e-?mail|email)s?\b\s*:?[^@]*@.*"
    rf"|{_ADDRESS_GAP}(?<![\w.+-]){_ADDRESS}(?:{_ADDRESS_GAP}{_ADDRESS})*)\s*$",
    re.I,
)
_STATE_ZIP_RE = re.compile(
    r"\b([A-Z]{2})(\d{5}(?:-\d{4})?)\b"
)  # "CA94720": a US state glued to its ZIP


_CAMEL_RE = re.compile(r"(?<=[a-z])(?=[A-Z])")  # "MountainView": a space lost between words
_GLUED_WORD_RE = re.compile(r"^([A-Z][a-z]{2,})(of|and|for|the)$")  # "Departmentof"
GLUED_MIN_CHARS = 20  # an affiliation this long ...
GLUED_SPACE_SHARE = 0.05  # ... with fewer spaces than this share of its characters ...
GLUED_MIN_JOINS = 2  # ... and as many lower-to-capital joins is printed without its spaces


def _unglued(text: str) -> str:
    """An affiliation printed without spaces (JAMA: "DepartmentofComputerScience,University
    ofTexas,Austin") with them put back: between a lower-case letter and a capital, after a
    comma, and before a glued "of"/"and"/"for"/"the" that follows an institution word;
    other texts as they are."""
    joins = len(_CAMEL_RE.findall(text))
    if len(text) < GLUED_MIN_CHARS or joins < GLUED_MIN_JOINS:
        return text
    if text.count(" ") >= GLUED_SPACE_SHARE * len(text):
        return text
    words = re.sub(r",(?=\S)", ", ", _CAMEL_RE.sub(" ", text)).split(" ")
    out = []
    for word in words:
        m = _GLUED_WORD_RE.match(word)
        if m and fold(m.group(1)) in INSTITUTION_WORDS:
            word = f"{m.group(1)} {m.group(2)}"
        out.append(word)
    return " ".join(out)


def _without_contact_tail(text: str) -> str:
    """The text without its contact tail, looked for in its last CONTACT_TAIL_WINDOW characters:
    tried from each address of a long list that leads to no host, the pattern scans the rest of
    the list each time (quadratic); no real tail is that long."""
    if "@" not in text:
        return text
    head, tail = text[:-CONTACT_TAIL_WINDOW], text[-CONTACT_TAIL_WINDOW:]
    return head + _CONTACT_TAIL_RE.sub("", tail)


def tidy_affiliation(text: str) -> str:
    """An affiliation without the e-mail addresses printed after it, a US state code set apart
    from its ZIP code ("Berkeley, CA94720" -> "Berkeley, CA 94720"), and its spaces back when
    it was printed without them; the text itself when nothing would remain."""
    cut = _without_contact_tail(text).strip(" ,;")
    return _STATE_ZIP_RE.sub(r"\1 \2", _unglued(cut or text))


def without_degrees(text: str) -> str:
    """A name without the degrees printed after it ("Jane Doe MD PhD" -> "Jane Doe"); a text of
    degrees only -> ""."""
    words = text.split()
    while words and words[-1].strip(",.") in DEGREES:
        words.pop()
    return " ".join(words)


def marker_keys(text: str) -> list[str]:
    return MARKER_KEY_RE.findall(text)
