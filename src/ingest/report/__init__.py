"""Run reports: run (what a run did, as text and JSON), html (one self-contained page from the
Jinja2 templates), notify (the editors' webhook).
"""
