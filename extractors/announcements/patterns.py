"""Sentence patterns of announcements, as named data: each family is a table of regular
expressions matched against a sentence whose people are placeholders (`_announce_names.mask`).

- maintainer joins, successions, departures and emeritus moves in the "<level> maintainer" form
  (`JOIN_PATTERNS`, `SUCCESSION_PATTERNS`, `LEFT_PATTERNS`, `EMERITUS_PATTERNS`);
- role changes of any body ("joined the PMC", "will be joining the Leadership Council as ...",
  "voted to add A, B and C as core maintainers", "stepping back from his post as Project Lead",
  "will no longer be the representative of ...", "retiring board members A, B and C",
  "please welcome / congratulate A and B") in `ROLE_PATTERNS`, with the role and body captured;
- events (`EVENT_PATTERNS`): speakers, keynotes, program chairs, panelists, participants.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from typing import Generic, TypeVar

from extractors.announcements.names import PERSON_END, PERSON_MARK, QUOTE_END, QUOTE_MARK

T = TypeVar("T")


class OnFirstUse(Generic[T]):
    """A table of compiled patterns, compiled the first time it is iterated (once a process):
    compiling the sentence tables below took most of this module's import, which every command
    pays (`extractors` registers this extractor) although most of them read no announcement.
    The patterns and their order are those of `build`'s tuple."""

    def __init__(self, build: Callable[[], tuple[T, ...]]) -> None:
        self._build = build
        self._table: tuple[T, ...] | None = None

    def __iter__(self) -> Iterator[T]:
        if self._table is None:
            self._table = self._build()  # (two threads at once: compiled twice, the same)
        return iter(self._table)


def compiled(*patterns: str) -> OnFirstUse[re.Pattern[str]]:
    """The patterns compiled on first use, in their order."""
    return OnFirstUse(lambda: tuple(re.compile(p) for p in patterns))


# --- masked-sentence pattern fragments -------------------------------------------------------
PERSON = rf"{PERSON_MARK}\d+{PERSON_END}"
PEOPLE = rf"(?P<people>{PERSON}(?:(?:\s*,\s*(?:and\s+)?|\s+and\s+|\s*&\s*){PERSON})*)"
OLD = rf"(?P<old>{PERSON})"
NEW = rf"(?P<new>{PERSON})"
QUOTE = rf"(?P<quote>{QUOTE_MARK}\d+{QUOTE_END})"
ARTICLE = r"(?:(?:a|an|the|our|one\s+of\s+(?:the|our))\s+)?(?:(?:new|newest|next)\s+)?"
LEVEL = r"(?P<level>(?i:lead\s+core|lead|core|module(?:[- ]level)?|library(?:[- ]level)?))"
ROLE = rf"(?:(?:\w+\s+)?){LEVEL}\s+(?i:maintainers?)\b"
SCOPE = r"(?:\s+(?:of|for)\s+(?P<scope>[A-Za-z_][\w./+-]*[\w/+]))?"
LEVELS = {"lead core": "lead", "lead": "lead", "core": "core", "module": "module",
          "module-level": "module", "module level": "module", "library": "library",
          "library-level": "library", "library level": "library"}  # fmt: skip
DECIDED = r"(?:(?:has\s+|have\s+)?(?:decided|chosen|chose|wants|intends)\s+to\s+)?"
# Where a sentence prints the project of a maintainer role: the name before the level and role
# words ("PyTorch core maintainers", "an ExecuTorch maintainer"), after them ("core maintainer of
# PyTorch"), or as the place ("in the PyTorch project", "... in PyTorch." ending the sentence, "In
# PyTorch" opening it). A name is a capitalised word (inner capitals and dots allowed) that is
# not itself a level or role word, nor a month ("in April").
_NAME = r"(?!(?i:lead|core|module|library|maintainers?|the|a|an|our|new|former)\b)[A-Z][\w.-]*\w"
_MONTH = (
    r"(?i:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|"
    r"sept?(?:ember)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\b"
)
PROJECT_NAMED = re.compile(
    rf"(?P<before>{_NAME})\s+(?:(?i:lead|core|module|library)(?:[- ]level)?\s+)*"
    rf"(?i:maintainers?)\b"
    rf"|(?i:maintainers?)\s+(?:of|for)\s+(?:the\s+)?(?P<after>{_NAME})(?:\s+project)?\b"
    rf"|\b(?i:in)\s+(?:the\s+)?(?!{_MONTH})(?P<project>{_NAME})\s+project\b"
    rf"|\b(?i:in)\s+(?!{_MONTH})(?P<end>{_NAME})[.!?;,]?$"
    rf"|^(?i:in)\s+(?!{_MONTH})(?P<start>{_NAME})\b"
)

JOIN_PATTERNS = compiled(
    rf"{PEOPLE}\s+(?:is|are)\s+now\s+{ARTICLE}{ROLE}{SCOPE}",
    rf"{PEOPLE}\s+(?:has|have)\s+(?:officially\s+)?(?:joined|become)\s+"
    rf"{ARTICLE}{ROLE}{SCOPE}",
    rf"{PEOPLE}\s+(?:joins|join|joined|becomes|became)\s+{ARTICLE}{ROLE}{SCOPE}",
    rf"(?i:welcom(?:e|es|ed|ing))\s+{PEOPLE}\s+(?:as|to)\s+{ARTICLE}{ROLE}{SCOPE}",
    rf"(?i:welcom(?:e|es|ed|ing))\s+{ARTICLE}{ROLE}\s*,?\s+{PEOPLE}",
    rf"{PEOPLE}\s+(?:was|were|has\s+been|have\s+been|is\s+being|are\s+being)\s+"
    rf"(?:promoted|elected|appointed|named|added|confirmed)\s+(?:as\s+|to\s+(?:the\s+)?)?"
    rf"{ARTICLE}{ROLE}{SCOPE}",
    rf"{ROLE}\s+(?:have\s+|has\s+)?(?:accepted|approved|confirmed)\s+(?:the\s+)?"
    rf"(?:nominations?|promotions?)\s+of\s+{PEOPLE}",
)
SUCCESSION_PATTERNS = compiled(
    rf"{ROLE}\s+role\s+(?:(?:passes|passed|will\s+pass|is\s+passing|moves|moved|"
    rf"transitions|transitioned)\s+)?from\s+{OLD}\s+to\s+{NEW}",
    rf"{NEW}\s+(?:succeeds|succeeded|will\s+succeed|is\s+succeeding|replaces|replaced|"
    rf"will\s+replace)\s+{OLD}\s+as\s+{ARTICLE}{ROLE}",
    rf"{NEW}\s+(?:takes|took|will\s+take|is\s+taking)\s+over\s+from\s+{OLD}\s+as\s+"
    rf"{ARTICLE}{ROLE}",
    rf"{OLD}\s+(?:hands|handed|will\s+hand|is\s+handing)\s+(?:over\s+)?(?:the\s+)?{ROLE}\s+"
    rf"role\s+(?:over\s+)?to\s+{NEW}",
)
LEFT_PATTERNS = compiled(
    rf"{PEOPLE}\s+{DECIDED}(?:is\s+|are\s+|has\s+|have\s+|will\s+be\s+|will\s+)?"
    rf"(?:stepping|stepped|steps|step)\s+(?:down|back)\s+(?:as|from)\s+"
    rf"(?:(?:his|her|their)\s+"
    rf"role\s+as\s+)?{ARTICLE}{ROLE}{SCOPE}",
)
EMERITUS_PATTERNS = compiled(
    rf"{PEOPLE}[^.]{{0,160}}?\b(?:is|are|will\s+be)\s+"
    rf"(?:moving|transitioning|going)\s+to\s+"
    rf"(?:an?\s+)?(?i:emeritus)",
    rf"{PEOPLE}\s+(?:is\s+|are\s+|has\s+|have\s+|will\s+)?(?:moving|moved|moves|move|"
    rf"transitioning|transitioned|transitions|going)\s+to\s+(?:an?\s+)?(?i:emeritus)",
    rf"{PEOPLE}\s+(?:is|are|has\s+become|have\s+become|becomes|become)\s+(?:an?\s+)?"
    rf"(?i:emeritus)",
)
EVENT_PATTERNS: OnFirstUse[tuple[str, re.Pattern[str]]] = OnFirstUse(
    lambda: tuple(
        (predicate, re.compile(p))
        for predicate, p in (
            (
                "speaker",
                rf"{PEOPLE}\s+(?:will|is\s+going\s+to|is\s+set\s+to|are\s+set\s+to)\s+"
                rf"(?:present|speak|deliver|teach|demo|give\s+(?:a|the)\s+(?:talk|keynote))",
            ),
            ("speaker", rf"{PEOPLE}\s+(?:is|are)\s+(?:speaking|presenting|delivering)"),
            ("speaker", rf"(?i:featuring|features|featured)\s+{PEOPLE}"),
            (
                "speaker",
                rf"(?i:speakers?|presenters?)\s*(?::|(?:include|includes|included|are|"
                rf"were|is|was)\s+)?\s*{PEOPLE}",
            ),
            ("speaker", rf"(?:presented|delivered|given)\s+by\s+{PEOPLE}"),
            (
                "program_chair",
                rf"(?i:program(?:me)?\s+(?:co-)?chairs?)\b(?:[^.{PERSON_MARK}]{{0,80}}?)"
                rf"(?::|\b(?:include|includes|included|including|are|were|is|was))"
                rf"\s+{PEOPLE}",
            ),
            (
                "program_chair",
                rf"{PEOPLE}\s+(?:served|serve|serves|will\s+serve|is\s+serving|"
                rf"are\s+serving|is|are|was|were)\s+(?:as\s+)?{ARTICLE}"
                rf"(?:\w+\s+)?(?i:program(?:me)?\s+(?:co-)?chairs?)",
            ),
            (
                "panelist",
                rf"(?i:panel(?:ists?)?)\s*(?::|\b(?:include|includes|included|including|"
                rf"featuring|with)\s+)\s*{PEOPLE}",
            ),
            (
                "panelist",
                rf"(?i:join)\s+{PEOPLE}\s+(?:for|in|at)\s+{ARTICLE}(?:live\s+)?"
                rf"(?i:Q&A|panel|AMA|fireside)",
            ),
            (
                "panelist",
                rf"{PEOPLE}\s+(?:will\s+)?(?:join|joins|joined)\s+{ARTICLE}(?:live\s+)?"
                rf"(?:Q&A\s+)?(?i:panel)",
            ),
            (
                "participant",
                rf"{QUOTE}\s+(?i:session)\b[^.]{{0,120}}?\b(?:including|includes|"
                rf"include|with|featuring|featured|were)\s+{PEOPLE}",
            ),
            (
                "participant",
                rf"{PEOPLE}\s+(?:took|take|takes|will\s+take)\s+part\s+in\s+{ARTICLE}"
                rf"{QUOTE}\s+(?i:session)",
            ),
        )
    )
)
TITLED_PREDICATES = frozenset({"speaker", "panelist"})  # a quoted text is the talk's title
SESSION_PREDICATES = frozenset({"participant"})  # a quoted text is the session's name

# --- event names ----------------------------------------------------------------------------
EVENT_RUN = re.compile(r"[A-Z0-9][\w'’&+.-]*(?: [A-Z0-9][\w'’&+.-]*)*")
EVENT_WORDS = frozenset({"conference", "summit", "workshop", "symposium", "meetup", "hackathon",
                         "forum", "expo", "congress", "gtc", "con", "devday", "q&a", "ama",
                         "webinar"})  # fmt: skip
EVENT_LEADING = frozenset({"the", "at", "in", "on", "for", "join", "meet", "during", "from",
                           "this", "our", "welcome", "attend", "of", "and"})  # fmt: skip
YEAR = re.compile(r"(?:19|20)\d\d")
MONTHS = frozenset(
    {"jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "sept", "oct", "nov", "dec",
     "january", "february", "march", "april", "june", "july", "august", "september", "october",
     "november", "december"}
)  # fmt: skip

# --- role changes of any body ----------------------------------------------------------------
# a role as printed: "core maintainers", "the PMC", "the Leadership Council", "the Moderation Team
# representative", "Node.js Project Lead", "committers", "its community manager"
ROLE_WORDS = (
    r"(?i:maintainers?|committers?|collaborators?|members?|leads?|co-leads?|leaders?|"
    r"chair(?:man|woman|person)?s?|co-chairs?|president|vice[- ]chair(?:man|person)?|secretary|"
    r"treasurer|directors?|representatives?|reviewers?|owners?|managers?|PMC|TSC|council|"
    r"committee|board|team|core\s+developers?|steering\s+council|officers?)"
)
BODY = r"(?:[A-Z][\w.&'’-]*\s+){0,5}"  # capitalised words before the role word
ROLE_PHRASE = (
    rf"(?P<role>(?:(?:the|a|an|our|its|their|his|her)\s+)?(?:new(?:ly\s+elected)?\s+)?"
    rf"(?:[\w.&'’-]+\s+){{0,5}}?{ROLE_WORDS}(?:\s+{ROLE_WORDS})?\b(?:\s+(?:of|for|on|in)\s+"
    rf"(?:the\s+)?"
    rf"(?:[A-Z][\w.&'’-]*\s*){{1,5}})?)"
)
# the rest of a sentence saying a tenure is over: "... these last years", "over the past two years"
TENURE = r"[^.]*\b(?:these|the)\s+(?:last|past)\s+(?:few\s+|\w+\s+)?years\b"
# the people a sentence names from here on, whatever stands between them ("A a lead at X, B an
# engineer at Y, and C founder of Z")
PEOPLE_ON = rf"(?P<people>{PERSON}[^.;:]*)"
APPOSITIVE = r"(?:\s*,[^,.;:]{1,80},)?"  # "Ann Lee, a committer since 2019, joined ..."
JOIN_VERB = (
    r"(?:(?:has|have)\s+(?:officially\s+)?(?:joined|become)|(?:will\s+be|is|are)\s+joining|"
    r"joined|joins|join|became|becomes|(?:will|to)\s+(?:join|become))"
)
ROLE_PATTERNS: OnFirstUse[tuple[str, re.Pattern[str]]] = OnFirstUse(
    lambda: tuple(
        (status, re.compile(p))
        for status, p in (
            ("current", rf"{PEOPLE}{APPOSITIVE}\s+{JOIN_VERB}\s+as\s+{ROLE_PHRASE}"),
            ("current", rf"{PEOPLE}\s+(?:is|are)\s+now\s+(?:an?\s+)?{ROLE_PHRASE}"),
            (
                "current",
                rf"{PEOPLE}(?:\s+(?:from|of|at)\s+[A-Z][\w.&-]*)?\s+(?:is|are|will\s+be)\s+"
                rf"(?:our|the)\s+(?:new|newest)\s+{ROLE_PHRASE}",
            ),
            ("current", rf"{PEOPLE}{APPOSITIVE}\s+{JOIN_VERB}\s+{ROLE_PHRASE}"),
            (
                "current",
                rf"{PEOPLE}\s*(?:,[^,.]{{1,80}},)?\s*[,—–]?\s+(?:who\s+)?(?:(?:was|were|has\s+been|have\s+been|is|"
                rf"are|will\s+be)\s+)"
                rf"(?:now\s+)?(?:re[-–]?elected|elected|appointed|named|selected|promoted|added|"
                rf"confirmed|chosen|approved|voted\s+in)(?:\s+and\s+will\s+(?:continue\s+to\s+)?serve)?"
                rf"\s+(?:as\s+|to\s+|on\s+)?(?:the\s+[\w-]+\s+seat\s+(?:on|of)\s+)?{ROLE_PHRASE}",
            ),
            (
                "current",
                rf"(?i:voted\s+to\s+(?:add|appoint|elect))\s+{PEOPLE}\s+(?:as|to)\s+{ROLE_PHRASE}",
            ),
            (
                "current",
                rf"(?i:welcom(?:e|es|ed|ing))\s+{PEOPLE}\s*(?:,[^,.]{{1,80}},)?\s*(?:as|to)\s+"
                rf"{ROLE_PHRASE}",
            ),
            (
                "current",
                rf"(?i:thank|thanks)\b(?!{TENURE}).{{0,160}}?{PEOPLE}\s+for\s+(?:his|her|their)\s+work\s+"
                rf"as\s+{ROLE_PHRASE}",
            ),
            (  # "thanks to A for his work as Chair of the Committee these last years": farewell
                "emeritus",
                rf"(?i:thank|thanks)\b(?={TENURE}).{{0,160}}?{PEOPLE}\s+for\s+(?:his|her|their)\s+work\s+"
                rf"as\s+{ROLE_PHRASE}",
            ),
            (
                "current",
                rf"{PEOPLE}\s*,?\s+(?:are|is|were|will\s+be)\s+(?:happy|honou?red|excited|proud|"
                rf"pleased|delighted)\s+to\s+(?:be\s+involved|serve|join)\s+as\s+{ROLE_PHRASE}",
            ),
            ("current", rf"(?i:hired|appointed|named)\s+{PEOPLE}\s+as\s+{ROLE_PHRASE}"),
            (  # an appointment verb, the people, then their new role as an apposition or "as":
                # "has chosen A as their new representative", "selected A, its new chair"
                "current",
                rf"(?i:chosen|chose|selected)\s+{PEOPLE}\s*(?:,|as)\s+"
                rf"(?=(?:the|our|its|their)\s+new\s|[A-Z]){ROLE_PHRASE}",  # or a titled role
            ),
            (
                "emeritus",
                rf"{PEOPLE}{APPOSITIVE}\s+(?:is\s+|are\s+|has\s+|have\s+|will\s+be\s+|will\s+)?"
                rf"(?:stepping|"
                rf"stepped|steps|step)\s+(?:down|back|away)\s+(?:as|from)\s+(?:(?:his|her|their)\s+"
                rf"(?:role|post|position)\s+as\s+)?{ROLE_PHRASE}",
            ),
            ("emeritus", rf"{PEOPLE}\s+will\s+no\s+longer\s+be\s+{ROLE_PHRASE}"),
            (  # "A will continue in the role of Release Officer", "B continues as treasurer"
                "current",
                rf"{PEOPLE}\s+(?:will\s+)?(?:continue|continues)\s+(?:in\s+(?:the|his|her|their)\s+"
                rf"(?:role|position)\s+(?:of|as)|as)\s+{ROLE_PHRASE}",
            ),
            (  # "we have elected two new members to the X Committee (TSC), A and B, leads at ..."
                "current",
                rf"(?i:re-?elected|elected|appointed|added|welcomed)\s+(?:[\w-]+\s+){{0,2}}?"
                rf"(?i:new|existing)\s+(?i:members?)\s+(?:to|of|on)\s+{ROLE_PHRASE}"
                rf"(?:\s*\([^)]{{1,12}}\))?\s*,\s*{PEOPLE_ON}",
            ),
            (  # "we also re-elected three existing members, A a lead at X, B ..., and C ..."
                "current",
                rf"(?i:re-?elected|elected)\s+(?:[\w-]+\s+){{0,2}}?(?i:new|existing)\s+"
                rf"(?P<role>(?i:members?))\s*,\s*{PEOPLE_ON}",
            ),
            (  # "Joining the TSC this year is A"
                "current",
                rf"(?i:joining)\s+{ROLE_PHRASE}(?:\s+(?:this|next)\s+(?:year|term))?\s+(?:is|are|"
                rf"will\s+be)\s+{PEOPLE}",
            ),
            (  # "We are thrilled to announce a new co-maintainer of GraphQL.js: A"
                "current",
                rf"(?i:announce|welcome|introduce)\s+(?:a|an|our)\s+new\s+(?:co-)?{ROLE_PHRASE}\s*:\s*"
                rf"{PEOPLE}",
            ),
            (  # "A and B, who served on the board from 2016 to 2018, did not run for re-election"
                "emeritus",
                rf"{PEOPLE}\s*,\s*who\s+(?:had\s+|has\s+|have\s+)?served\s+(?:on|as|in)\s+"
                rf"{ROLE_PHRASE}[^,.;]{{0,60}},\s*(?:did\s+not|didn't|chose\s+not\s+to|"
                rf"decided\s+not\s+to)\s+(?:run|stand|seek)\s+(?:again|(?:for\s+)?re[-–]?election)",
            ),
            (
                "emeritus",
                rf"{PEOPLE}\s+(?:is\s+|are\s+|has\s+|have\s+|will\s+be\s+|will\s+)?(?:retiring|"
                rf"retired|retire|resigning|resigned|resigns)\s+(?:from|as)\s+{ROLE_PHRASE}",
            ),
            (
                "current",
                rf"(?i:\bnew(?:ly\s+elected)?|\bincoming|\belected)\s+"
                rf"(?P<role>(?:[\w.&'’-]+\s+){{0,5}}?"
                rf"{ROLE_WORDS}(?:\s+(?:of|for|on)\s+(?:the\s+)?"
                rf"(?:[A-Z][\w.&'’-]*\s*){{1,5}})?)\s*"
                rf"(?::|\b(?:are|is|will\s+be|include|includes)\b:?)\s*{PEOPLE}",
            ),
            (
                "emeritus",
                rf"(?i:thank|thanks)\s+{PEOPLE}\s+for\s+(?:his|her|their)\s+(?:\d+|two|three|four|"
                rf"five|many|several)\s+(?:terms?|years?)\s+(?:on|as|in)\s+{ROLE_PHRASE}",
            ),
            ("emeritus", rf"(?i:retiring|outgoing|departing|emeritus)\s+{ROLE_PHRASE}\s+{PEOPLE}"),
        )
    )
)
# a sentence that is about an election or an addition without the role in it ("Please
# congratulate A, B and C, who will be joining ...", "join us in congratulating A and B", "A and
# B will serve a two-year term"); the role comes from the title
CONGRATULATE = re.compile(
    rf"(?i:congratulat(?:e|ing)|please\s+welcome|join\s+(?:me|us)\s+in\s+welcoming)\s+{PEOPLE}"
)
JOINED_BY = re.compile(rf"(?i:will\s+be\s+joined\s+by|joined\s+by)\s+.{{0,80}}?{PEOPLE}")
# "A, B and C will serve a two-year term": the elected of an election post
SERVE_TERM = re.compile(
    rf"{PEOPLE}\s+(?:will\s+)?(?:serve|serves)\s+(?:an?\s+|their\s+)?(?:\w+[- ]years?\s+)terms?\b"
)
# "A, who chose not to seek re-election this year": leaves the title's body
NOT_RUNNING = re.compile(
    rf"{PEOPLE}\s*,?\s+(?:who\s+)?(?:has\s+|have\s+)?(?:did\s+not|didn't|chose\s+not\s+to|"
    rf"decided\s+not\s+to|opted\s+not\s+to)\s+(?:run|stand|seek)\s+(?:again|(?:for\s+)?re[-–]?election)"
)
TITLE_ROLE_PATTERNS = (("current", CONGRATULATE), ("current", JOINED_BY), ("current", SERVE_TERM),
                       ("emeritus", NOT_RUNNING))  # the role is the title's body  # fmt: skip
FIRST_PERSON_LEFT = re.compile(
    r"\bI\b[^.]{0,80}?\b(?:step(?:ping)?|stepped)\s+(?:down|back)\s+(?:as|from)\s+"
    r"(?:(?:my|the)\s+(?:role|position|seat)\s+(?:as|of)\s+)?"
    r"(?P<role>(?:the\s+)?(?:[\w-]+\s+){0,3}?(?:lead|leader|chair|maintainer|member|manager|"
    r"committer|reviewer|director|treasurer|secretary|president|owner|representative)\b"
    r"(?:\s+of\s+(?:the\s+)?[\w\s]{0,30}?)?)(?=\W)"
)
PRESENTED = re.compile(
    rf"{PEOPLE}\s+(?:presented|delivered|gave)\s+(?:the\s+|a\s+)?(?P<talk>[^.]{{0,80}})"
)
CHAIR_DASH = re.compile(rf"(?i:chair)\s*[-–—:]\s*{PEOPLE}")
# what a role's words say of its level and predicate
LEAD_WORDS = re.compile(
    r"\b(?:lead|leads|co-lead|leader|chair|chairs|chairman|chairwoman|chairperson|co-chair|"
    r"president|executive\s+director|head)\b",
    re.I,
)
VICE = re.compile(r"\bvice[- ]", re.I)
CORE_WORD = re.compile(r"\bcore\b", re.I)
COMPANY_ROLE = re.compile(  # a job: "joining BuildBuddy's engineering team" is employment
    r"\b(?:community\s+manager|engineer|employee|hired|staff|(?:engineering|sales|marketing|"
    r"support|operations|solutions|customer\s+success)\s+team)\b",
    re.I,
)
# "<Name>, who joined the Rust Foundation last year", "Ahsen Khaliq who joined our company"
WHO_JOINED = re.compile(
    rf"{PEOPLE}\s*,?\s+who\s+(?:has\s+)?joined\s+(?P<org>our\s+company|the\s+(?:[A-Z][\w.&-]*\s*)"
    rf"{{1,4}}|(?:[A-Z][\w.&-]*\s*){{1,4}})"
)
# "I recruited my housemates A, B and C to release ... of Gradio in 2019", "hired A as ..."
RECRUITED = re.compile(
    rf"(?i:recruited|hired)\s+(?:(?:my|our|the)\s+)?(?:[\w-]+\s+){{0,3}}?{PEOPLE}"
    rf"(?:[^.]{{0,80}}?\b(?:at|of|to\s+join)\s+(?P<org>[A-Z][\w.&-]*(?:\s+[A-Z][\w.&-]*){{0,3}}))?"
)
# people joining or leaving an organisation (no role word: a company, a foundation's staff)
ORG = r"(?P<org>[A-Z][\w.&-]*(?:\s+[A-Z][\w.&-]*){0,3})"
JOINED_ORG = re.compile(
    rf"{PEOPLE}\s+(?:has\s+|have\s+)?(?:joined|joins|is\s+joining|will\s+join|to\s+join)\s+"
    rf"(?:the\s+)?{ORG}(?:\s+as\s+(?:an?\s+|its\s+|our\s+)?(?P<job>[^.,;]{{2,60}}))?"
)
LEFT_ORG = re.compile(
    rf"{PEOPLE}\s+(?:is\s+|are\s+|has\s+|have\s+|will\s+be\s+)?(?:leaving|left|departing|"
    rf"departed)\s+(?:the\s+)?{ORG}"
)
LEFT_TO_JOIN = re.compile(
    rf"{PEOPLE}\s+(?:is\s+|are\s+|has\s+|have\s+)?(?:leaving|left|departing)\s+[^.]{{1,60}}?\s+"
    rf"to\s+join\s+(?:the\s+)?{ORG}"
)
# "<New> replaces <Old> as chair of ...": the new holder gains the role, the old one leaves it
SUCCESSION = re.compile(
    rf"{NEW}\s+(?:replaces|replaced|will\s+replace|succeeds|succeeded|will\s+succeed|"
    rf"(?:takes|took|will\s+take|is\s+taking)\s+over\s+from)\s+{OLD}\s+as\s+{ROLE_PHRASE}"
)
