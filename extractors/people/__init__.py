"""People: who a list item, a table row or a sentence names, read from the document model.

    entries    one person per list item / record: name, handle, organisation, area (Entry)
    names      is this text a person's name (Person, wordset, name-likeness)
    orgs       which part of an entry is an organisation
    tables     a table's columns: which holds the name, the handle, the organisation, the area
    prose      people named in a sentence ("Ann Aho (Acme) and Bo Berg")
    labels     the word lists the readers share (role words, status words, group titles)

Shared by the governance and announcement extractors. May import: `ingest`,
`extractors.document` and its own modules; never an extractor (tests/test_layers.py).
"""
