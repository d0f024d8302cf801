"""Fetch: one URL at a time, safely and politely, archived as WARC or served from a replay.

client (fetch one URL, the httpx client), polite (robots.txt, pacing, the only retries),
deadlines, decoding, warc (the archive), replay and replay_requests (recorded responses for httpx
and for requests), arxiv_client (arXiv's API through the arxiv package).
"""
