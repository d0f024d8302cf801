"""Which links of a paragraph a piece of its text names: `label in text` for every link at once.

A prose sentence ("The council consists of A, B and C.") is cut into parts, and each part gets
the paragraph's links whose text it contains. Asked link by link, that costs the parts times the
links: a paragraph of 30,000 linked names took minutes. `Labels` answers the same question with
one pass over the part (Aho-Corasick over the link texts), for paragraphs with more than
`SCAN_MAX_LINKS` links; fewer are checked one by one, as before.
"""

from __future__ import annotations

from collections import deque

Links = tuple[tuple[str, str], ...]

SCAN_MAX_LINKS = 16  # up to this many links, `label in text` one by one is cheaper


class Labels:
    """The links of one paragraph, asked which of them a text names (`within`)."""

    def __init__(self, links: Links) -> None:
        self.links = links
        self._built = False
        self.goto: list[dict[str, int]] = [{}]  # the trie of link texts: state -> char -> state
        self.fail: list[int] = [0]
        self.label: list[str | None] = [None]  # the link text ending at a state
        self.next_label: list[int] = [0]  # the nearest state on the fail chain with a label
        self.where: dict[str, list[int]] = {}  # link text -> its places in `links`

    def within(self, text: str) -> Links:
        """The links whose text (non-empty) is part of `text`, in the paragraph's order: the same
        as `tuple(link for link in links if link[0] and link[0] in text)`."""
        if len(self.links) <= SCAN_MAX_LINKS:
            return tuple((label, target) for label, target in self.links if label and label in text)
        if not self._built:
            self._build()
        found: set[str] = set()
        state = 0
        for char in text:
            while state and char not in self.goto[state]:
                state = self.fail[state]
            state = self.goto[state].get(char, 0)
            hit = state if self.label[state] is not None else self.next_label[state]
            while hit:
                label = self.label[hit]
                if label is None or label in found:
                    break  # (found before: so were the shorter ones on its chain)
                found.add(label)
                hit = self.next_label[hit]
        places = sorted(i for label in found for i in self.where[label])
        return tuple(self.links[i] for i in places)

    def _build(self) -> None:
        for place, (label, _target) in enumerate(self.links):
            if not label:
                continue
            self.where.setdefault(label, []).append(place)
            state = 0
            for char in label:
                step = self.goto[state].get(char)
                if step is None:
                    step = len(self.goto)
                    self.goto.append({})
                    self.fail.append(0)
                    self.label.append(None)
                    self.next_label.append(0)
                    self.goto[state][char] = step
                state = step
            self.label[state] = label
        queue = deque(self.goto[0].values())  # the root's children fail to the root
        while queue:
            state = queue.popleft()
            for char, child in self.goto[state].items():
                queue.append(child)
                back = self.fail[state]
                while back and char not in self.goto[back]:
                    back = self.fail[back]
                target = self.goto[back].get(char, 0)
                self.fail[child] = target if target != child else 0
                fail = self.fail[child]
                self.next_label[child] = (
                    fail if self.label[fail] is not None else self.next_label[fail]
                )
        self._built = True
