"""Editor accounts: a password hash and a session epoch each (see ingest.review.web.auth)."""

from __future__ import annotations

import sqlalchemy as sa

from ingest.models import iso_z, utcnow
from ingest.storage.audit import AuditLog
from ingest.storage.database import Database
from ingest.storage.migrations import new_session_epoch
from ingest.storage.rows import EditorRow
from ingest.storage.schema import editors


class Editors:
    """The `editors` table; each account change is audited."""

    def __init__(self, db: Database, audit: AuditLog) -> None:
        self.db = db
        self.audit = audit

    def add(self, name: str, password_hash: str) -> bool:
        """Create an editor account, or set its password hash; True when it is new. Either way
        the account gets a new random session epoch: no session signed in before is honoured."""
        epoch = new_session_epoch()
        with self.db.begin() as conn:
            found = conn.execute(sa.select(editors.c.name).where(editors.c.name == name)).first()
            if found is None:
                conn.execute(
                    editors.insert().values(
                        name=name,
                        password_hash=password_hash,
                        created=iso_z(utcnow()),
                        session_epoch=epoch,
                    )
                )
            else:
                conn.execute(
                    editors.update()
                    .where(editors.c.name == name)
                    .values(password_hash=password_hash, session_epoch=epoch)
                )
            action = "editor_added" if found is None else "editor_password"
            self.audit.append(conn, "ingest", action, editor=name)
        return found is None

    def password_hash(self, name: str) -> str | None:
        return self._column(editors.c.password_hash, name)

    def session_epoch(self, name: str) -> str | None:
        """The account's current session epoch (None: no such account)."""
        return self._column(editors.c.session_epoch, name)

    def _column(self, column: sa.Column[str], name: str) -> str | None:
        with self.db.begin() as conn:
            found = conn.execute(sa.select(column).where(editors.c.name == name)).scalar()
        return None if found is None else str(found)

    def renew_session_epoch(self, name: str) -> str | None:
        """A new session epoch for the account, ending every session signed in before (sign-out);
        returns it, or None when there is no such account."""
        epoch = new_session_epoch()
        with self.db.begin() as conn:
            done = conn.execute(
                editors.update().where(editors.c.name == name).values(session_epoch=epoch)
            ).rowcount
        return epoch if done else None

    def start_visit(self, name: str) -> None:
        """A new session signed in: the queue's "new" is what came after the editor last looked."""
        with self.db.begin() as conn:
            conn.execute(
                editors.update().where(editors.c.name == name).values(seen_before=editors.c.seen_at)
            )

    def seen_before(self, name: str) -> str | None:
        """The boundary of "new since your last visit", without looking (None: everything)."""
        return self._column(editors.c.seen_before, name)

    def seen(self, name: str, now: str | None = None) -> str | None:
        """The editor looks at the queue now; returns the boundary of "new since your last
        visit" (None: never looked before this session, so everything is new)."""
        with self.db.begin() as conn:
            before = conn.execute(
                sa.select(editors.c.seen_before).where(editors.c.name == name)
            ).scalar()
            conn.execute(
                editors.update()
                .where(editors.c.name == name)
                .values(seen_at=now or iso_z(utcnow()))
            )
        return None if before is None else str(before)

    def all(self) -> list[EditorRow]:
        with self.db.begin() as conn:
            rows = conn.execute(
                sa.select(editors.c.name, editors.c.created).order_by(editors.c.name)
            ).mappings()
            return [EditorRow.from_mapping(r) for r in rows]

    def remove(self, name: str) -> bool:
        with self.db.begin() as conn:
            gone = conn.execute(editors.delete().where(editors.c.name == name)).rowcount
            if gone:
                self.audit.append(conn, "ingest", "editor_removed", editor=name)
        return bool(gone)
