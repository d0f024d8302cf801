"""Login throttling and password rules against outsiders (issue 29): five wrong passwords from
anyone used to lock an editor out for five minutes; ten zero-width spaces passed as a password."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from ingest.errors import ConfigError
from ingest.review.web.app import create_app
from ingest.review.web.passwords import add_editor, check_password
from ingest.review.web.throttle import ACCOUNT_CAP_S, ACCOUNT_FREE, LoginThrottle
from ingest.settings import Settings
from ingest.storage import Store

from .web_helpers import PASSWORD, login

BASE = "http://127.0.0.1"


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_an_outsider_cannot_lock_an_editor_out(store: Store, workspace: Settings) -> None:
    add_editor(store, "ann", PASSWORD)
    app = create_app(workspace, store)
    outsider = TestClient(app, base_url=BASE, client=("203.0.113.9", 4000))
    editor = TestClient(app, base_url=BASE, client=("198.51.100.7", 4000))
    answers = [login(outsider, "ann", "wrong password!").status_code for _ in range(20)]
    assert answers[:5] == [401] * 5 and set(answers[5:]) == {429}  # the guesser is slowed
    assert login(outsider, "ann", PASSWORD).status_code == 429  # even with the right one
    assert login(editor, "ann").status_code == 303  # the editor, elsewhere, signs in at once


def test_a_spread_guess_slows_the_account_with_a_bounded_backoff() -> None:
    clock = Clock()
    throttle = LoginThrottle(clock=clock)
    for i in range(ACCOUNT_FREE + 8):
        throttle.failed(f"10.0.0.{i}", "ann")
        clock.now += 0.1
    wait = throttle.wait("192.0.2.1", "ann")  # a client that never failed
    assert 0 < wait <= ACCOUNT_CAP_S
    assert throttle.wait("192.0.2.1", "bob") == 0  # other accounts are untouched
    clock.now += ACCOUNT_CAP_S
    assert throttle.wait("192.0.2.1", "ann") == 0  # a delay, never a lock


def test_one_client_counts_once_for_the_account() -> None:
    clock = Clock()
    throttle = LoginThrottle(clock=clock)
    for _ in range(100):
        throttle.failed("203.0.113.9", "ann")
    assert throttle.wait("198.51.100.7", "ann") == 0
    assert throttle.wait("203.0.113.9", "ann") > 60


@pytest.mark.parametrize(
    "password",
    [
        "\u200b" * 10,  # zero-width spaces (Cf)
        "\u00a0" * 12,  # no-break spaces (Zs)
        "\u2028\u2029\u3000\ufeff\u2060\u180e\u200c\u200d\u202f\u205f\u00ad",
        "abc\u200b\u200b\u200b\u200b\u200b\u200b\u200b\u200b\u200b\u200bdef",
    ],
)
def test_invisible_characters_do_not_count_towards_a_password(password: str) -> None:
    with pytest.raises(ConfigError, match="too short"):
        check_password("ann", password)


def test_a_real_password_with_inner_spaces_is_fine() -> None:
    check_password("ann", "correct horse")
