"""Profile files and the references they cite.

io (read and write `<id>.json` atomically), references (kept fresh, flagged when gone), locks
(one lock for everything that rewrites profile files).
"""
