"""Papers: authors and their printed affiliations, from arXiv's API and from a paper's PDF.

    atom          the extractor `arxiv_atom`: arXiv API (Atom) answers
    pdf           the extractor `arxiv_pdf`: page 1's author block, notes of later pages
    author_block  the author block read line by line (names, markers, affiliations, e-mails)
    text, fonts   pypdf's text runs as lines and cells, font sizes and weights
    layout, pages where page 1's author block is; two-column and line-numbered pages
    cells, names  name fragments and rows of names       values   Author, Affiliation, Piece
    footnotes, notes, later   affiliations in footnotes, "now at" notes, later pages
    patterns, words, emails   the printed forms: markers, institution words, e-mail lists

May import: `ingest` and its own modules; not `extractors.document`'s readers, nor another
extractor package (tests/test_layers.py).
"""
