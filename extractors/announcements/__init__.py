"""Announcements: role and event news in blog posts, feeds' entries and mailing-list messages.

    post       the extractor `announcement` (routing: `matches`, `titled_as_news`)
    source     a post's parts: title, date, author, sections, from any format
    events     a sentence's role changes and events ("X joins the TSC", "keynote by Y")
    bodies     which body a role belongs to (the post's project, "the Steering Council")
    lists      lists of people after a lead-in ("welcome the following new members:")
    names      people named in a sentence, masked for the patterns
    patterns   the role and event phrases         dates     when a sentence says it happened
    prose      role changes in prose shapes the tables miss (handed over, taking over from)

May import: `ingest`, `extractors.document`, `extractors.people` and its own modules; not the
internals of another extractor package (tests/test_layers.py).
"""
