"""A website's person card in a data file that has no name field (Hugo TOML cards:
`body = '{{< image ... >}}Jane Roe'`, `link = 'https://github.com/jroe'`): its printed text is
the name, its GitHub profile link the login."""

from __future__ import annotations

import re
from typing import Any

from extractors.document.model import github_login
from extractors.people import names as _people

# a profile card's printed text (`body = '{{< image >}}...{{< /image >}}Jane Roe'`, `link = ...`)
CARD_TEXT = ("body", "text", "content", "caption", "label")
MARKUP = re.compile(r"\{\{[<%].*?[>%]\}\}|<[^>]*>", re.DOTALL)
SHORTCODE_BODY = re.compile(r"\{\{[<%]\s*(\w+)\b.*?[>%]\}\}.*?\{\{[<%]\s*/\1\s*[>%]\}\}", re.DOTALL)


def profile_card(fields: dict[str, Any]) -> tuple[str, str] | None:
    """A website card with no name field: a link to a GitHub profile and a text field whose
    words, markup (shortcodes, tags) removed, are one short line: (that text, the login)."""
    logins = [github_login(v) for v in fields.values() if isinstance(v, str) and "github" in v]
    login = next((x for x in logins if x), None)
    if login is None:
        return None
    for key in CARD_TEXT:
        value = fields.get(key)
        if isinstance(value, str):
            text = " ".join(MARKUP.sub(" ", SHORTCODE_BODY.sub(" ", value)).split())
            if text and len(text.split()) <= 6 and not _people.role_of(text):
                return text, login
    return None
