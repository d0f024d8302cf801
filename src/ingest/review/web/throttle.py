"""Login throttling an outsider cannot turn into a lockout: backoff per client and per account.

    throttle.wait(client, account) -> float    seconds before this client may try this account
    throttle.failed(client, account)           a wrong name or password
    throttle.succeeded(client, account)        a login: that client's slate is clean again

Per client (its address): CLIENT_FREE failures within WINDOW_S, then each attempt waits
2, 4, 8 ... seconds after the client's last failure, up to CLIENT_CAP_S: a guesser is slowed to
a crawl, and only the guesser. Per account: failures count once per client, so one outsider,
however many passwords it tries, never slows the editor down; ACCOUNT_FREE clients failing on
one account (a spread guess) make every attempt at it wait, doubling up to ACCOUNT_CAP_S: a
delay, never a hard lock. Attempts made while waiting are refused without counting (nothing is
checked). The clock is injected (tests).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field

WINDOW_S = 900.0  # failures older than this are forgotten
CLIENT_FREE, CLIENT_CAP_S = 5, 300.0
ACCOUNT_FREE, ACCOUNT_CAP_S = 10, 30.0


def _backoff(count: int, free: int, cap: float) -> float:
    return 0.0 if count < free else min(cap, 2.0 ** (count - free + 1))


@dataclass
class LoginThrottle:
    clock: Callable[[], float] = time.monotonic
    clients: dict[str, list[float]] = field(default_factory=dict)  # failure times per client
    accounts: dict[str, dict[str, float]] = field(default_factory=dict)  # client -> last failure

    def _prune(self, now: float) -> None:
        horizon = now - WINDOW_S
        for key in [k for k, times in self.clients.items() if times[-1] < horizon]:
            del self.clients[key]
        for name in list(self.accounts):
            by_client = {c: t for c, t in self.accounts[name].items() if t >= horizon}
            if by_client:
                self.accounts[name] = by_client
            else:
                del self.accounts[name]

    def wait(self, client: str, account: str) -> float:
        """Seconds before `client` may try to sign in as `account` (0: now)."""
        now = self.clock()
        self._prune(now)
        waits = [0.0]
        times = self.clients.get(client)
        if times:
            waits.append(times[-1] + _backoff(len(times), CLIENT_FREE, CLIENT_CAP_S) - now)
        by_client = self.accounts.get(account.lower())
        if by_client:
            delay = _backoff(len(by_client), ACCOUNT_FREE, ACCOUNT_CAP_S)
            waits.append(max(by_client.values()) + delay - now)
        return max(waits)

    def failed(self, client: str, account: str) -> None:
        now = self.clock()
        self.clients.setdefault(client, []).append(now)
        self.accounts.setdefault(account.lower(), {})[client] = now

    def succeeded(self, client: str, account: str) -> None:
        self.clients.pop(client, None)
        self.accounts.get(account.lower(), {}).pop(client, None)
