"""Mail as a document kind (extractors/document/mail.py) and as announcements: `.eml` messages
and mbox archives read with the standard library `email` package, headers decoded, the full
names of the From / To / Cc headers resolving the first names of the body, the sender the author
of a first-person message. Every message here is CONSTRUCTED (made-up people and lists)."""

from __future__ import annotations

from extractors import choose
from extractors import document as _document
from extractors.announcements import post as announcement
from extractors.announcements import source
from extractors.document import mail
from ingest.models import Snapshot

URL = "https://lists.example.org/archives/dev/2025-March/000123.eml"

# CONSTRUCTED: an encoded sender, the new committers named in full only in To / Cc, a quoted
# reply line naming someone else
WELCOME = b"""Return-Path: <dev-return@example.org>
From: =?utf-8?q?Jos=C3=A9_Garc=C3=ADa?= <jose@example.org>
To: Ann Lee <ann@example.org>, dev@example.org
Cc: "Carla Diaz" <carla@example.org>
Subject: =?utf-8?q?=5BANNOUNCE=5D_New_committers?=
Date: Tue, 04 Mar 2025 10:00:00 +0000
Message-ID: <1@example.org>
Content-Type: text/plain; charset=utf-8
Content-Transfer-Encoding: quoted-printable

Hi all,

Please welcome Ann and Carla as committers of the Example Project.

> Earlier: Dan Evans has joined the Example PMC.

Thanks, Jos=C3=A9
"""

# CONSTRUCTED: a first-person step-down; the author only in the From header
STEP_DOWN = b"""From: Robert Chen <robert@example.org>
To: dev@example.org
Subject: Stepping down
Date: Wed, 09 Apr 2025 10:00:00 +0000
Message-ID: <2@example.org>

Hi all,

After five years I am stepping down as lead of the Example infrastructure team.

Robert
"""


def snap(body: bytes, url: str = URL) -> Snapshot:
    return Snapshot(url=url, body=body)


def test_a_message_is_known_by_its_header_block() -> None:
    assert mail.is_message(WELCOME) and mail.is_message(STEP_DOWN)
    assert _document.format_of(snap(WELCOME)) == "mail"
    pep = b"PEP: 9999\nTitle: Example election\nAuthor: Ann Lee\nCreated: 01-Jan-2030\n\nText\n"
    front = b"---\ntitle: News\ndate: 2025-03-04\n---\n\nFrom: Ann Lee\n"
    no_date = b"From: Ann Lee <ann@example.org>\nSubject: hello\n\nHi\n"
    assert not any(mail.is_message(b) for b in (pep, front, no_date))
    assert _document.format_of(snap(pep, "https://peps.example.org/pep-9999/")) != "mail"


def test_headers_are_decoded_and_their_people_kept() -> None:
    [message] = mail.messages(WELCOME)
    assert message.title == "[ANNOUNCE] New committers"
    assert message.date == "2025-03-04"
    assert message.author == mail.Person("José García", "jose@example.org")
    assert [p.name for p in message.people] == ["José García", "Ann Lee", "", "Carla Diaz"]
    texts = " ".join(getattr(b, "text", "") for b in message.blocks)
    assert "Please welcome Ann and Carla" in texts and "Thanks, José" in texts
    assert "Dan Evans" not in texts  # a quoted reply line is another message's words


def test_the_document_layer_reads_a_message() -> None:
    doc = _document.parse(snap(WELCOME))
    assert doc.format == "mail" and doc.title == "[ANNOUNCE] New committers"
    assert doc.meta["from"] == "José García" and doc.meta["date"] == "2025-03-04"


def test_first_names_in_the_body_are_the_full_names_of_the_headers() -> None:
    post = source.read(snap(WELCOME))
    assert post.authors == ["José García"] and "Ann Lee" in post.people
    assert choose(URL, snap(WELCOME)) is announcement
    claims = announcement.extract(snap(WELCOME))
    got = {
        (c.subject.name, c.predicate, c.qualifiers["status"], c.qualifiers["date"]) for c in claims
    }
    assert got == {
        ("Ann Lee", "maintainer", "current", "2025-03-04"),
        ("Carla Diaz", "maintainer", "current", "2025-03-04"),
    }
    assert all(0 < c.qualifiers["confidence"] < 1 for c in claims)


def test_a_first_person_message_is_its_senders() -> None:
    [claim] = announcement.extract(snap(STEP_DOWN))
    assert claim.subject.name == "Robert Chen"
    assert claim.qualifiers["status"] == "emeritus" and claim.qualifiers["date"] == "2025-04-09"


def test_an_mbox_archive_is_a_section_per_message_with_the_senders_names() -> None:
    archive = (
        b"From jose@example.org Tue Mar  4 10:00:00 2025\n"
        + WELCOME
        + (b"\nFrom robert@example.org Wed Apr  9 10:00:00 2025\n" + STEP_DOWN)
    )
    found = mail.messages(archive)
    assert [m.label for m in found] == ["message 1", "message 2"]
    post = source.read(snap(archive))
    assert [s.date for s in post.sections] == ["2025-03-04", "2025-04-09"]
    assert {"Ann Lee", "Carla Diaz", "Robert Chen"} <= set(post.people)


def test_a_malformed_or_empty_message_gives_nothing() -> None:
    empty = b"From: Ann Lee <ann@example.org>\nSubject: x\nDate: nonsense\n\n   \n"
    assert mail.messages(empty) == []
    assert _document.parse(snap(empty)).blocks == []
    assert announcement.extract(snap(empty)) == []
