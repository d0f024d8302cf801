"""The review page under hostile input: huge numbers, NUL characters, ids that cannot exist,
overlong strings, in every route's path, query and form. Each gets 400, 404 or 422, never a 500,
on SQLite and on PostgreSQL (whose text cannot hold a NUL), and changes nothing."""

from __future__ import annotations

from collections.abc import Iterator
from urllib.parse import quote

import pytest
from fastapi.testclient import TestClient

from ingest.review.web.app import create_app
from ingest.review.web.params import MAX_PAGE
from ingest.review.web.passwords import add_editor
from ingest.settings import Settings
from ingest.storage import QueueFilter, Store

from .test_review import CORE, lead_page, run_page
from .web_helpers import PASSWORD, csrf_of, login, route_paths

pytestmark = pytest.mark.postgres  # also on PostgreSQL: see tests/conftest.py

HUGE = "9" * 20  # past any 64-bit integer
HOSTILE = ["a\x00b", HUGE, "-" + HUGE, "x" * 5000, "../.hidden\ufffd\u202e<script>", ""]
QUERY = ("page", "status", "person", "source", "kind", "download", "next")
FORM = ("action", "note", "ids", "current", "status", "person", "source", "kind", "name", "next")


@pytest.fixture
def hostile_store(store: Store, workspace: Settings) -> Store:
    run_page(store, workspace, lead_page(("Alban Desmaison", "albanD"), CORE))
    add_editor(store, "ann", PASSWORD)
    return store


@pytest.fixture
def ann(hostile_store: Store, workspace: Settings) -> Iterator[TestClient]:
    app = create_app(workspace, hostile_store)
    with TestClient(app, base_url="http://127.0.0.1", raise_server_exceptions=False) as client:
        assert login(client, "ann").status_code == 303
        yield client


def statuses(store: Store) -> dict[str, str]:
    rows = store.queue_rows(QueueFilter(status=None), limit=1000)
    return {r["id"]: r["status"] for r in rows}


# (URL, the answer it must get): 422 for a page out of bounds, 400 for a NUL, 404 for an id
# that cannot exist
BAD_URLS = [
    (f"/audit?page={HUGE}", 422),
    (f"/audit?page=-{HUGE}", 422),
    ("/audit?page=0", 422),
    (f"/audit?page={MAX_PAGE + 1}", 422),
    (f"/?page={HUGE}", 422),
    ("/?page=1e3", 422),
    ("/profiles/abc%00def", 400),
    ("/profiles/.hidden", 404),
    ("/profiles/a%20b", 404),
    ("/profiles/a%5Cb", 404),
    ("/profiles/" + "a" * 201, 404),
    ("/profiles/" + "\u00e9" * 200, 404),  # a valid id, but too long a file name
    ("/profiles/no-such-person", 404),
    ("/changes/a%00b", 400),
    ("/changes/" + "a" * 65, 404),
    ("/changes/a-b", 404),
    ("/changes/a%00b/snapshot", 400),
    ("/changes/" + "f" * 64 + "/snapshot", 404),
    ("/changes/a%00b/evidence.png", 400),
    ("/changes/" + "f" * 64 + "/evidence.png", 404),
    ("/?person=a%00b", 400),
    ("/?source=%00", 400),
    ("/?kind=%00&status=%00", 400),
    ("/login?next=%00", 400),
]


def test_hostile_urls_get_a_client_error(ann: TestClient) -> None:
    got = [(path, ann.get(path).status_code) for path, _ in BAD_URLS]
    assert got == BAD_URLS


def test_past_the_last_page_shows_the_last_page(ann: TestClient) -> None:
    audit = ann.get(f"/audit?page={MAX_PAGE}")
    assert audit.status_code == 200 and "Nothing yet." not in audit.text
    queue = ann.get(f"/?page={MAX_PAGE}")
    assert queue.status_code == 200 and 'name="ids"' in queue.text


def test_every_get_route_survives_hostile_values(ann: TestClient, hostile_store: Store) -> None:
    cid = next(iter(statuses(hostile_store)))
    gets = sorted(route_paths("GET"))
    assert gets == [
        "/",
        "/audit",
        "/changes/{change_id}",
        "/changes/{change_id}/evidence.png",
        "/changes/{change_id}/snapshot",
        "/healthz",
        "/login",
        "/profiles/{profile_id}",
    ], "a new route: add its parameters to QUERY or the path cases here"
    for template in gets:
        for value in HOSTILE:
            paths = [
                template.replace("{change_id}", cid).replace("{profile_id}", "soumith-chintala")
            ]
            if "{" in template and value:
                part = quote(value, safe="")
                paths.append(template.replace("{change_id}", part).replace("{profile_id}", part))
            for path in paths:
                for name in QUERY:
                    answer = ann.get(path, params={name: value})
                    assert answer.status_code < 500, (path, name, value)


def test_every_post_route_survives_hostile_values(ann: TestClient, hostile_store: Store) -> None:
    before = statuses(hostile_store)
    cid = next(iter(before))
    posts = sorted(route_paths("POST"))
    assert posts == ["/bulk", "/changes/{change_id}/decide", "/login", "/logout", "/undo"]
    token = csrf_of(ann.get("/").text)
    for template in posts:
        if template == "/logout":
            continue  # would end the session: checked below
        for value in HOSTILE:
            if value == "" or value == HUGE:
                continue  # a real action or id: not hostile for a POST
            for name in FORM:
                data = {"csrf_token": token, "action": "skip", name: value}
                answer = ann.post(template.replace("{change_id}", cid), data=data)
                assert answer.status_code < 500, (template, name, value)
                if "\x00" in value:
                    assert answer.status_code == 400, (template, name)
    assert statuses(hostile_store) == before  # no hostile value decided anything
    logout = ann.post("/logout", data={"csrf_token": token, "note": "a\x00b"})
    assert logout.status_code == 400
    assert ann.get("/", follow_redirects=False).status_code == 200  # still signed in


def test_bulk_skips_values_that_are_not_change_ids(ann: TestClient, hostile_store: Store) -> None:
    cid = next(iter(statuses(hostile_store)))
    token = csrf_of(ann.get("/").text)
    answer = ann.post(
        "/bulk",
        data={"csrf_token": token, "ids": [cid, "not-an-id", "x" * 500], "confirmed": "1"},
    )
    assert answer.status_code == 200 and "Accepted 1 change" in answer.text
    assert "not a change id" in answer.text
    assert hostile_store.get_change(cid)["status"] == "accepted"
