"""The editors' review page: server-rendered FastAPI + Jinja2, a little hand-written JS.

`create_app(settings)` in app.py builds the application; `ingest review serve` runs it with uvicorn.
"""
