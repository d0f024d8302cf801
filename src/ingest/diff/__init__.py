"""Compare with the profiles: resolve a claim's subject to a profile, then diff (pure).

resolve (subject to profile id), changes (profile facts vs claims -> Change), moves (renamed
headings, moves between lists).
"""
