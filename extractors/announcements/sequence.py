"""People presented one paragraph each after a sentence that announces them.

"I'm thrilled to announce three new awesome members to the Rails Core team ..." then "First up
is [Ryuta Kamizono](...)", "Next we have [Jean Boussier](...)", "Finally, we have [John
Hawthorn](...)": the announcing sentence names the role and no one; each following sentence that
opens with an enumeration word and a person names one of them. The role holds until another
announcing sentence names another ("we're also adding two new members to our Rails Committers
team"). A sentence the other readers already read (a pattern gave it a claim) is left to them.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from extractors.announcements import events, names
from extractors.announcements import patterns as pat
from extractors.announcements.bodies import clean_role
from ingest.models import Claim

# "announce three new awesome members to the Rails Core team", "adding two new members to our
# Rails Committers team", "welcome two new members to the TSC"
ANNOUNCED = re.compile(
    rf"(?i:announc\w*|welcom\w*|add|adding|added|introduc\w*)\s+(?:[\w-]+\s+){{0,3}}?"
    rf"(?i:new)\s+(?:[\w-]+\s+){{0,2}}?(?i:members?)\s+(?:to|of|on|in)\s+{pat.ROLE_PHRASE}"
)
# "First up is A", "Next we have A", "Finally, we have A", "Then we have A", "Last but not least, A"
ENUMERATED = re.compile(
    rf"^\W*(?i:first(?:\s+up)?|next(?:\s+up)?|then|finally|lastly|last\s+but\s+not\s+least)"
    rf"\s*,?\s+(?:(?i:is|we\s+have|we've\s+got|comes|there\s+is)\s+)?{pat.PERSON}"
)


def sentence_claims(sentence: events.Sentence, context: events.Context) -> Iterator[Claim]:
    """The sentence's claims as `events.sentence_claims` reads them, else, after a sentence
    announcing new members of a body, the one person an enumerated sentence presents."""
    claims = list(events.sentence_claims(sentence, context))
    known = {k: v for k, v in context.known.items() if v.name}
    masked, people, _quotes = names.mask(sentence.display, sentence.links, known)
    announced = ANNOUNCED.search(sentence.display)  # unmasked: "our Rails Committers team"
    if announced:
        context.enumerated = clean_role(announced.group("role")) or None
    yield from claims
    if claims or not people or context.enumerated is None:
        return
    opened = ENUMERATED.match(masked)
    if opened:
        index = names.indexes(opened.group(0))[0]
        yield events._role_claim(context, people[index], context.enumerated, "current",
                                 sentence.date, {}, sentence)  # fmt: skip
        names.remember(context.known, [people[index]])
