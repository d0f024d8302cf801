"""Kept for the modules this phase of issue 16 does not touch (ingest.pipeline, flows/): the
storage lives in ingest.storage."""

from ingest.storage import QueueFilter, Store, database_url, row_to_change

__all__ = ["QueueFilter", "Store", "database_url", "row_to_change"]
