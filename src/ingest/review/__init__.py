"""The review queue and the editors' decisions.

queue (each change queued once, rejections remembered), decisions (accept, reject, undo),
grouping (one decision per fact), web (the editors' page).
"""
