"""The review page through FastAPI's TestClient: logins, CSRF, escaping, decisions, undo, speed."""

from __future__ import annotations

import html as html_text
import json
from collections.abc import Iterator

import pytest
import sqlalchemy
from fastapi.testclient import TestClient

from ingest.review.web.app import create_app
from ingest.review.web.auth import COOKIE
from ingest.review.web.passwords import add_editor, hash_password, verify_password
from ingest.settings import Settings
from ingest.statements import change_sentence
from ingest.storage import QueueFilter, Store

from .test_review import CORE, lead_page, run_page
from .web_helpers import (
    HOSTILE_NAME,
    NAMES,
    PASSWORD,
    csrf_of,
    hostile_change,
    login,
    many_pending,
)

BASE = "http://127.0.0.1"


@pytest.fixture
def app_store(store: Store, workspace: Settings) -> Store:
    run_page(store, workspace, lead_page(("Alban Desmaison", "albanD"), CORE))
    add_editor(store, "ann", PASSWORD)
    add_editor(store, "bob", PASSWORD)
    return store


def client_for(store: Store, settings: Settings) -> TestClient:
    return TestClient(create_app(settings, store), base_url=BASE)


@pytest.fixture
def ann(app_store: Store, workspace: Settings) -> Iterator[TestClient]:
    with client_for(app_store, workspace) as client:
        assert login(client, "ann").status_code == 303
        yield client


def pending_ids(store: Store, **filters: str) -> list[str]:
    return [r["id"] for r in store.queue_rows(QueueFilter(**filters), limit=1000)]


def decide(client: TestClient, change_id: str, action: str, note: str = "") -> object:
    page = client.get(f"/changes/{change_id}")
    return client.post(
        f"/changes/{change_id}/decide",
        data={"action": action, "note": note, "csrf_token": csrf_of(page.text)},
        headers={"X-Fragment": "1"},
    )


# -- passwords and logins ------------------------------------------------------------------


def test_passwords_are_salted_scrypt_hashes() -> None:
    one, two = hash_password("s3cret-enough"), hash_password("s3cret-enough")
    assert one != two and one.startswith("scrypt$16384$8$1$")
    assert verify_password("s3cret-enough", one) and not verify_password("s3cret-enougH", one)
    assert not verify_password("x", "garbage")


def test_login_is_required_everywhere_but_healthz(app_store: Store, workspace: Settings) -> None:
    cid = pending_ids(app_store)[0]
    client = client_for(app_store, workspace)
    assert client.get("/healthz").json() == {"status": "ok"}
    for path in (
        "/",
        f"/changes/{cid}",
        f"/changes/{cid}/snapshot",
        "/profiles/soumith-chintala",
        "/audit",
        "/?status=all&page=2",
    ):
        answer = client.get(path, follow_redirects=False)
        assert answer.status_code == 303 and answer.headers["location"].startswith("/login"), path
    fragment = client.get(f"/changes/{cid}", headers={"X-Fragment": "1"})
    assert fragment.status_code == 401
    # a POST with a valid CSRF token but no login does nothing
    token = csrf_of(client.get("/login").text)
    for path in (f"/changes/{cid}/decide", "/undo", "/bulk"):
        answer = client.post(path, data={"csrf_token": token, "action": "accept", "ids": cid})
        assert answer.status_code == 401, path
    assert app_store.get_change(cid)["status"] == "pending"


def test_wrong_password_and_unknown_name_are_refused_then_throttled(
    app_store: Store, workspace: Settings
) -> None:
    client = client_for(app_store, workspace)
    answer = login(client, "ann", "wrong password!")
    assert answer.status_code == 401 and "Wrong name or password" in answer.text
    assert login(client, "nobody", PASSWORD).status_code == 401
    assert client.get("/", follow_redirects=False).status_code == 303
    for _ in range(4):
        login(client, "ann", "wrong password!")
    assert login(client, "ann", PASSWORD).status_code == 429  # even the right one, for a while


def test_session_cookie_is_signed_httponly_strict(app_store: Store, workspace: Settings) -> None:
    client = client_for(app_store, workspace)
    answer = login(client, "ann")
    cookie = answer.headers["set-cookie"].lower()
    assert "httponly" in cookie and "samesite=strict" in cookie and "secure" not in cookie
    forged = client.cookies[COOKIE][:-3] + "abc"
    client.cookies.set(COOKIE, forged)
    assert client.get("/", follow_redirects=False).status_code == 303
    with TestClient(create_app(workspace, app_store), base_url="https://127.0.0.1") as tls:
        assert "secure" in login(tls, "ann").headers["set-cookie"].lower()


def test_removed_editor_is_logged_out(ann: TestClient, app_store: Store) -> None:
    assert ann.get("/").status_code == 200
    app_store.remove_editor("ann")
    assert ann.get("/", follow_redirects=False).status_code == 303


def signed_in(client: TestClient, cookie: str) -> bool:
    """Whether the page honours this session cookie (sent alone, from a fresh cookie jar)."""
    client.cookies.clear()
    client.cookies.set(COOKIE, cookie)
    return client.get("/", follow_redirects=False).status_code == 200


def test_a_cookie_copied_before_sign_out_is_refused_after(
    ann: TestClient, app_store: Store, workspace: Settings
) -> None:
    copied = ann.cookies[COOKIE]
    with client_for(app_store, workspace) as other_browser:
        login(other_browser, "ann")
        elsewhere = other_browser.cookies[COOKIE]
        with client_for(app_store, workspace) as bob:
            login(bob, "bob")
            token = csrf_of(ann.get("/").text)
            answer = ann.post("/logout", data={"csrf_token": token}, follow_redirects=False)
            assert answer.status_code == 303 and answer.headers["location"] == "/login"
            assert not signed_in(ann, copied)  # the stolen copy is dead on the server too
            assert not signed_in(other_browser, elsewhere)  # sign-out ends all of ann's sessions
            assert bob.get("/", follow_redirects=False).status_code == 200  # not bob's
    with client_for(app_store, workspace) as again:
        assert login(again, "ann").status_code == 303 and again.get("/").status_code == 200


def test_a_removed_and_recreated_account_does_not_revive_old_sessions(
    ann: TestClient, app_store: Store
) -> None:
    copied = ann.cookies[COOKIE]
    app_store.remove_editor("ann")
    add_editor(app_store, "ann", "a brand new passphrase")
    assert not signed_in(ann, copied)
    assert login(ann, "ann", PASSWORD).status_code == 401
    assert login(ann, "ann", "a brand new passphrase").status_code == 303
    assert ann.get("/", follow_redirects=False).status_code == 200


def test_a_password_change_ends_earlier_sessions(
    ann: TestClient, app_store: Store, workspace: Settings
) -> None:
    copied = ann.cookies[COOKIE]
    with client_for(app_store, workspace) as bob:
        login(bob, "bob")
        add_editor(app_store, "ann", "another good passphrase")  # `ingest editor add ann` again
        assert not signed_in(ann, copied)
        assert bob.get("/", follow_redirects=False).status_code == 200


def test_a_revoked_session_is_nobody_even_on_the_login_page(
    ann: TestClient, app_store: Store
) -> None:
    assert "Signed in as" in ann.get("/").text
    app_store.renew_session_epoch("ann")
    page = ann.get("/login")
    assert page.status_code == 200 and "Signed in as" not in page.text
    assert ann.get("/", follow_redirects=False).status_code == 303


def test_a_signed_cookie_without_the_account_epoch_is_refused(ann: TestClient) -> None:
    """Cookies signed before session epochs existed (or with a made-up one) sign nobody in."""
    signer = ann.app.state.auth.signer  # type: ignore[attr-defined]
    for payload in ({"c": "t", "e": "ann"}, {"c": "t", "e": "ann", "v": "guess"}):
        assert not signed_in(ann, signer.dumps(payload))


def test_a_password_of_spaces_is_refused(app_store: Store) -> None:
    from ingest.errors import ConfigError
    from ingest.review.web.passwords import authenticate

    for weak in (" " * 10, " " * 30, "\t" * 12, "  nine char  ", "\n123456789\n"):
        with pytest.raises(ConfigError, match="too short: at least 10 characters"):
            add_editor(app_store, "carl", weak)
    assert app_store.editor_hash("carl") is None
    # whitespace anywhere is not counted (issue 29), but the password is kept as typed
    assert add_editor(app_store, "carl", "  ten-chars!  ") is True
    assert authenticate(app_store, "carl", "  ten-chars!  ")
    assert not authenticate(app_store, "carl", "ten-chars!")


def test_login_next_is_never_another_site(app_store: Store, workspace: Settings) -> None:
    client = client_for(app_store, workspace)
    page = client.get("/login?next=//evil.example/")
    answer = client.post(
        "/login",
        data={
            "name": "ann",
            "password": PASSWORD,
            "csrf_token": csrf_of(page.text),
            "next": "//evil.example/",
        },
        follow_redirects=False,
    )
    assert answer.headers["location"] == "/"


# -- CSRF and headers ----------------------------------------------------------------------


def test_every_post_needs_the_csrf_token(ann: TestClient, app_store: Store) -> None:
    from .web_helpers import route_paths

    posts = set(route_paths("POST"))
    assert posts == {"/login", "/logout", "/bulk", "/undo", "/changes/{change_id}/decide"}
    cid = pending_ids(app_store)[0]
    for path in posts:
        url = path.replace("{change_id}", cid)
        assert ann.post(url, data={"action": "accept", "ids": cid}).status_code == 403, path
        wrong = {"action": "accept", "ids": cid, "csrf_token": "forged"}
        assert ann.post(url, data=wrong).status_code == 403, path
    assert app_store.get_change(cid)["status"] == "pending"
    assert ann.get("/").status_code == 200  # still logged in: logout needed the token too


def test_security_headers_on_every_answer(ann: TestClient) -> None:
    for path in ("/", "/audit", "/healthz", "/static/review.js", "/nope"):
        headers = ann.get(path).headers
        csp = headers["content-security-policy"]
        assert "script-src 'self'" in csp and "unsafe-inline" not in csp, path
        assert "frame-ancestors 'none'" in csp
        assert (
            headers["x-frame-options"] == "DENY" and headers["x-content-type-options"] == "nosniff"
        )


def test_unknown_host_is_refused(app_store: Store, workspace: Settings) -> None:
    client = TestClient(create_app(workspace, app_store), base_url="http://rebind.example")
    assert client.get("/healthz").status_code == 400


# -- escaping ------------------------------------------------------------------------------


def test_hostile_source_strings_come_out_escaped(ann: TestClient, app_store: Store) -> None:
    cid = hostile_change(app_store)
    pages = [
        ann.get("/").text,
        ann.get(f"/changes/{cid}").text,
        ann.get(f"/changes/{cid}", headers={"X-Fragment": "1"}).text,
    ]
    for html in pages:
        assert HOSTILE_NAME not in html and "<svg" not in html and "<script>alert" not in html
    change = pages[1]
    assert "&lt;img src=x onerror=alert(1)&gt;" in change
    # the quote is found in the page text and marked, its markup escaped inside the <mark>
    assert "<mark>Mallory &lt;script&gt;alert(&#39;quote&#39;)&lt;/script&gt; (mallory)</mark>" in (
        change
    )
    assert "&lt;b&gt;Core&lt;/b&gt;" in change and "&lt;i&gt;li&lt;/i&gt;" in change
    # the page's own scripts never reach the context shown
    assert "alert(&#39;page&#39;)" not in change
    snapshot = ann.get(f"/changes/{cid}/snapshot")
    assert snapshot.headers["content-type"].startswith("text/plain")
    assert "sandbox" in snapshot.headers["content-security-policy"]
    download = ann.get(f"/changes/{cid}/snapshot?download=1")
    assert download.headers["content-disposition"].startswith("attachment")


def test_javascript_urls_are_never_links(ann: TestClient, app_store: Store) -> None:
    from .web_helpers import insert_change

    claim = {
        "subject": {"name": "X"},
        "predicate": "maintainer",
        "object": "PyTorch",
        "qualifiers": {},
        "evidence": {"url": "javascript:alert(1)", "sha256": "", "locator": "", "quote": "X"},
        "extractor": "t/1",
    }
    cid = insert_change(
        app_store, "jsurl00000000001", "soumith-chintala", claim, "javascript:alert(1)"
    )
    for html in (ann.get("/").text, ann.get(f"/changes/{cid}").text):
        assert 'href="javascript:' not in html


# -- decisions through the app -------------------------------------------------------------


def test_accept_reject_and_undo_change_the_profile_and_the_audit_log(
    ann: TestClient, app_store: Store, workspace: Settings
) -> None:
    target = next(
        r for r in app_store.queue_rows(QueueFilter(), 100) if r["profile"] == "soumith-chintala"
    )
    path = workspace.profiles_dir / "soumith-chintala.json"
    original = path.read_bytes()
    answer = decide(ann, target["id"], "accept", note="seen <b>on</b> the page")
    # the flash says it in words: the profile's name, the statement as a sentence (issue 28)
    assert answer.status_code == 200 and "Accepted: Soumith Chintala: " in answer.text
    assert "soumith-chintala:" not in answer.text
    assert 'data-id="' in answer.text and f'data-id="{target["id"]}"' not in answer.text
    after = json.loads(path.read_text())
    section = target["claim"]["qualifiers"]["section"]
    assert any(c["qualifiers"].get("section") == section for c in after["claims"])
    other = pending_ids(app_store)[0]
    assert decide(ann, other, "reject").status_code == 200
    audit = ann.get("/audit").text
    assert "seen &lt;b&gt;on&lt;/b&gt; the page" in audit and "rejected" in audit
    token = csrf_of(ann.get("/").text)
    undo = ann.post("/undo", data={"csrf_token": token}, headers={"X-Fragment": "1"})
    assert undo.status_code == 200 and f'data-id="{other}"' in undo.text
    undo = ann.post("/undo", data={"csrf_token": token}, headers={"X-Fragment": "1"})
    assert f'data-id="{target["id"]}"' in undo.text and "pending again" in undo.text
    assert path.read_bytes() == original  # byte for byte
    assert app_store.get_change(target["id"])["status"] == "pending"
    actions = [e["action"] for e in app_store.audit_entries()[:4]]
    assert actions == ["undone", "undone", "rejected", "accepted"]
    nothing = ann.post(
        "/undo", data={"csrf_token": token, "current": target["id"]}, headers={"X-Fragment": "1"}
    )
    assert nothing.status_code == 409 and "no decision to undo" in nothing.text


def test_undo_refused_when_the_profile_changed(
    ann: TestClient, app_store: Store, workspace: Settings
) -> None:
    cid = pending_ids(app_store, profile="soumith-chintala")[0]
    decide(ann, cid, "accept")
    path = workspace.profiles_dir / "soumith-chintala.json"
    path.write_text(path.read_text().replace('"Soumith', '"SOUMITH'))
    token = csrf_of(ann.get("/").text)
    answer = ann.post(
        "/undo", data={"csrf_token": token, "current": cid}, headers={"X-Fragment": "1"}
    )
    assert answer.status_code == 409 and "changed since" in answer.text
    assert app_store.get_change(cid)["status"] == "accepted"


def test_skip_keeps_the_change_pending_and_moves_on(ann: TestClient, app_store: Store) -> None:
    first, second = pending_ids(app_store)[:2]
    answer = decide(ann, first, "skip", note="unsure")
    assert f'data-id="{second}"' in answer.text
    assert app_store.get_change(first)["status"] == "pending"
    assert app_store.audit_entries()[0]["action"] == "skipped"


def test_a_change_decided_by_someone_else_shows_who(
    ann: TestClient, app_store: Store, workspace: Settings
) -> None:
    cid = pending_ids(app_store)[0]
    with client_for(app_store, workspace) as bob:
        login(bob, "bob")
        page = ann.get(f"/changes/{cid}")  # ann opens it ...
        assert decide(bob, cid, "accept").status_code == 200  # ... bob decides first
        answer = ann.post(
            f"/changes/{cid}/decide",
            data={"action": "reject", "csrf_token": csrf_of(page.text)},
            headers={"X-Fragment": "1"},
        )
    assert answer.status_code == 409
    assert "already accepted by bob" in answer.text
    assert "Already accepted by <strong>bob</strong>" in ann.get(f"/changes/{cid}").text
    assert app_store.get_change(cid)["status"] == "accepted"


def test_bulk_accept_with_one_item_left_out(
    ann: TestClient, app_store: Store, workspace: Settings
) -> None:
    ids = pending_ids(app_store, kind="removed")
    assert len(ids) >= 3
    kept = ids[1]
    token = csrf_of(ann.get("/").text)
    chosen = [i for i in ids if i != kept]
    answer = ann.post("/bulk", data={"csrf_token": token, "ids": chosen, "confirmed": "1"})
    assert answer.status_code == 200
    assert f"Accepted {len(ids) - 1} changes (removals)" in answer.text
    assert pending_ids(app_store, kind="removed") == [kept]


def test_queue_preselects_nothing_and_bulk_refuses_mixed_kinds(
    ann: TestClient, app_store: Store
) -> None:
    page = ann.get("/").text
    assert 'name="ids"' in page and " checked" not in page
    kinds = {r["kind"]: r["id"] for r in app_store.queue_rows(QueueFilter(), limit=100)}
    assert {"added", "removed"} <= set(kinds)
    token = csrf_of(page)
    answer = ann.post("/bulk", data={"csrf_token": token, "ids": list(kinds.values())})
    assert answer.status_code == 400 and "one kind" in answer.text
    assert sorted(pending_ids(app_store)) == sorted(pending_ids(app_store))
    assert all(app_store.get_change(i)["status"] == "pending" for i in kinds.values())


def test_bulk_removal_needs_a_confirmation_naming_each_statement_and_undoes_whole(
    ann: TestClient, app_store: Store, workspace: Settings
) -> None:
    removed = pending_ids(app_store, kind="removed")
    assert removed
    before = {p.name: p.read_bytes() for p in workspace.profiles_dir.glob("*.json")}
    token = csrf_of(ann.get("/").text)
    ask = ann.post("/bulk", data={"csrf_token": token, "ids": removed})
    assert ask.status_code == 200 and "data-confirm-bulk" in ask.text
    for cid in removed:
        row = app_store.get_change(cid)
        assert row["status"] == "pending"
        # every statement in words, with the profile's name (issue 28), never the slug alone
        assert html_text.escape(change_sentence(row), quote=False) in ask.text
        assert NAMES[row["profile"]] in ask.text
    done = ann.post(
        "/bulk", data={"csrf_token": csrf_of(ask.text), "ids": removed, "confirmed": "1"}
    )
    assert f"Accepted {len(removed)} change" in done.text and "(removals)" in done.text
    assert all(app_store.get_change(i)["status"] == "accepted" for i in removed)
    entries = app_store.audit_entries()
    assert entries[0]["action"] == "bulk_accepted"
    assert sorted(entries[0]["detail"]["changes"]) == sorted(removed)
    assert not any(e["action"] == "accepted" for e in entries[1:3])
    ann.post("/undo", data={"csrf_token": csrf_of(done.text)})
    assert all(app_store.get_change(i)["status"] == "pending" for i in removed)
    after = {p.name: p.read_bytes() for p in workspace.profiles_dir.glob("*.json")}
    assert after == before


def test_a_removal_from_a_replayed_snapshot_is_historical_and_says_accept_removal(
    ann: TestClient, app_store: Store, workspace: Settings
) -> None:
    snap = lead_page(("Alban Desmaison", "albanD"), CORE[:2])  # Edward Yang no longer listed
    snap.headers.update(
        {
            "x-ingest-replay": "hit",
            "x-ingest-replay-date": "2024-05-30",
            "x-ingest-replay-as-of": "2024-06-01",
        }
    )
    run_page(app_store, workspace, snap)
    row = next(
        r
        for r in app_store.queue_rows(QueueFilter(kind="removed"), limit=100)
        if r["snapshot_sha256"] == snap.sha256
    )
    page = ann.get(f"/changes/{row['id']}").text
    assert 'class="change kind-removed"' in page
    assert "Accept removal" in page and "Remove:" in page
    assert 'data-snapshot-date="2024-05-30"' in page
    assert "<strong>historical</strong>" in page and "as of 2024-06-01" in page
    assert " of " in page and "data-position" in page
    answer = decide(ann, row["id"], "accept")
    assert "Accepted removal: Alban Desmaison: " in answer.text
    assert row["previous"]["object"] in answer.text  # the flash names the statement


def test_a_live_snapshot_shows_its_date_and_is_not_historical(
    ann: TestClient, app_store: Store
) -> None:
    row = app_store.queue_rows(QueueFilter(kind="added"), limit=1)[0]
    page = ann.get(f"/changes/{row['id']}").text
    assert "data-snapshot-date=" in page and "<strong>historical</strong>" not in page
    assert "Accept removal" not in page
    assert "1 of " in page or " of " in page


# -- the queue -----------------------------------------------------------------------------


@pytest.mark.postgres
def test_queue_filters_and_groups_by_source(ann: TestClient, app_store: Store) -> None:
    hostile_change(app_store, profile="alban-desmaison")
    page = ann.get("/").text
    assert page.count('class="group"') == 2
    only = ann.get("/?person=alban-desmaison&kind=added").text
    assert "hostile0000000001" in only and "soumith-chintala</a></td>" not in only
    decided = ann.get("/?status=accepted").text
    assert "Nothing to review here" in decided


@pytest.mark.postgres
def test_queue_with_ten_thousand_pending_changes_is_paged_in_the_database(
    ann: TestClient, app_store: Store
) -> None:
    """A page of the queue costs a few queries that fetch one page of rows, whatever the
    queue holds (the time it takes is measured by bench/review_page.py, not asserted here)."""
    many_pending(app_store, 10_000)
    ann.get("/")  # warm
    queries: list[str] = []
    sqlalchemy.event.listen(
        app_store.engine, "before_cursor_execute", lambda *a: queries.append(str(a[2]))
    )
    first = ann.get("/")
    last = ann.get("/?page=201")
    middle = ann.get("/?page=100&source=https://example.org/source-07")
    assert "Page 1 of 201" in first.text and "Page 201 of 201" in last.text
    assert first.text.count('name="ids"') == 50
    assert "Page 10 of 10" in middle.text  # 500 from that source: clamped to its last page
    assert len(queries) <= 3 * 25, len(queries)  # a bounded number of queries a page
    assert any("LIMIT" in q.upper() for q in queries)  # rows are paged by the database
    cid = pending_ids(app_store)[5000 % 100]
    before = len(queries)
    decide(ann, cid, "reject")
    assert len(queries) - before <= 60, len(queries) - before  # its page and the decision
