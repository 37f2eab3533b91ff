"""SQLite page cache: answers at once with what was seen before, and how old it is.

Over a slow jump-host link the user should see the last known page
immediately and the fresh one when it arrives (stale-while-revalidate). Keys
are profile + operation + parameters; values are the raw JSON pages with
every secret-bearing field removed (`scrub_secrets`: a field whose name
`secret_names.is_secret_name` takes for a secret's), so token values,
registry secrets, passwords and JWTs never reach the disk.

The file is private (0600) and uses WAL with a busy timeout so two instances
can share it. Only a damaged file is rebuilt: a full disk, a read-only or
immutable file keeps what it holds, is still read, and stops being written,
which is said once (`on_problem`); a locked file is skipped for the moment.
The app never fails because of its cache. Keys name an identity (instance +
user, `Session.identity`; and the digest of an access token the profile was
given, for the services asked with it: `Session.identity_for`), never a
profile name.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import sqlite3
import threading
import time
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any, NamedTuple

from flextui.api import cache_limit
from flextui.api.wire import Wire, flat_rows_without_secrets, may_hold_secrets
from flextui.files import private_dirs
from flextui.secret_names import is_secret_name

log = logging.getLogger("flextui.cache")

SCHEMA = """
CREATE TABLE IF NOT EXISTS pages (
    key TEXT PRIMARY KEY,
    profile TEXT NOT NULL,
    op TEXT NOT NULL,
    stored_at REAL NOT NULL,
    body TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS pages_profile ON pages(profile);
DROP TABLE IF EXISTS derived;
CREATE TABLE IF NOT EXISTS derived_sets (
    key TEXT PRIMARY KEY,
    profile TEXT NOT NULL,
    stored_at REAL NOT NULL,
    sources TEXT NOT NULL,
    parts INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS derived_parts (
    key TEXT NOT NULL,
    n INTEGER NOT NULL,
    body BLOB NOT NULL,
    PRIMARY KEY (key, n)
);
"""
# `derived_sets`: what a caller made of several stored pages (a report's grid columns), in `parts` rows of
# `derived_parts`, valid while each of its `sources` (page key -> stored_at) is still the page stored; see
# `PageCache.put_derived`. (`derived`, one body a row, lived for an afternoon before parts.)

MAX_DERIVED = 1024 * 1024 * 1024
"""Bytes above which a derived value is not kept (the pages still are)."""


WAL_BYTES = 16 * 1024 * 1024
"""The write-ahead log's bound: SQLite folds it into the file every this many bytes (its default, 1,000 pages,
is 64 MB at our page size, on top of the size limit) and cuts the log back to this size after."""

_KEYS_A_QUERY = 500  # page keys asked for in one statement (SQLite allows 32,766 variables since 3.32, 999 before)

# Columns added later (table, column, statement), each added to a file that lacks it:
# `meta`: a page stored as the bytes received (`wire.Wire`) keeps its header facts here, its bytes in `body`;
# `used_at`: when a page or kept set was last read, for the size limit (`cache_limit.py`).
MIGRATIONS = (
    ("pages", "meta", "ALTER TABLE pages ADD COLUMN meta TEXT"),
    ("pages", "used_at", "ALTER TABLE pages ADD COLUMN used_at REAL"),
    ("derived_sets", "used_at", "ALTER TABLE derived_sets ADD COLUMN used_at REAL"),
)


def scrub_secrets(value: Any, mark: str | None = None) -> Any:
    """`value` without any field whose name carries a secret (a new object only where one was removed); with
    `mark`, such a field stays with `mark` for its value (the request log: what was sent, less the secret).

    A `Wire` is passed through: `PageCache.put` decides whether its bytes need scrubbing.

    Report pages hold thousands of rows with the same keys, so the key test is
    cached and rows without secret keys are returned as they are.
    """
    if isinstance(value, Wire):
        return value
    if isinstance(value, dict):
        if not any(is_secret_name(str(k)) for k in value) and not any(isinstance(v, (dict, list)) for v in value.values()):
            return value
        if mark is None:
            return {k: scrub_secrets(v) for k, v in value.items() if not is_secret_name(str(k))}
        return {k: mark if is_secret_name(str(k)) else scrub_secrets(v, mark) for k, v in value.items()}
    if isinstance(value, list):
        return [scrub_secrets(v, mark) if isinstance(v, (dict, list)) else v for v in value]
    return value


def _lenient_text(raw: bytes) -> str:
    """A TEXT value as read from the file: a damaged file's bytes that are not UTF-8 become U+FFFD.

    sqlite3 decodes TEXT strictly, and a UnicodeDecodeError is not an `sqlite3.Error`: one damaged byte in the
    schema's text escaped the rebuild at opening and ended the app (a random-damage test found it, 1 run in many).
    Damaged text is then only wrong, which a damaged file is anyway: a key that no longer matches, a page that
    does not decode (a miss)."""
    return raw.decode("utf-8", "replace")


def cache_key(profile: str, op: str, params: dict[str, Any]) -> str:
    """A stable key for a profile, an operation and its parameters."""
    canonical = json.dumps(params, sort_keys=True, default=str, separators=(",", ":"))
    digest = hashlib.sha256(canonical.encode()).hexdigest()[:32]
    return f"{profile}\x1f{op}\x1f{digest}"


def _is_locked(exc: BaseException) -> bool:
    """A lock held by another connection (try later), as opposed to a broken file."""
    text = str(exc).lower()
    return isinstance(exc, sqlite3.OperationalError) and ("locked" in text or "busy" in text)


def _is_corrupt(exc: BaseException) -> bool:
    """Only a damaged file is rebuilt: a full disk, a read-only or immutable file keep what they hold."""
    name = getattr(exc, "sqlite_errorname", "") or ""
    if name:
        return name.startswith(("SQLITE_CORRUPT", "SQLITE_NOTADB"))
    text = str(exc).lower()
    return "malformed" in text or "not a database" in text


def _cannot_write(exc: BaseException) -> str | None:
    """Why writing failed when the file itself is sound (full disk, read-only, I/O), else None."""
    name = getattr(exc, "sqlite_errorname", "") or ""
    text = str(exc).lower()
    if name.startswith("SQLITE_FULL") or "full" in text:
        return "the disk is full"
    if name.startswith(("SQLITE_READONLY", "SQLITE_PERM", "SQLITE_AUTH")) or "readonly" in text or "read-only" in text:
        return "the cache file is read-only"
    if name.startswith(("SQLITE_IOERR", "SQLITE_CANTOPEN")) or "i/o" in text:
        return f"the cache file cannot be written ({exc})"
    return None


class Packed(NamedTuple):
    """A value as the pages table keeps it: its body (bytes received, or JSON text) and, for bytes, their header facts."""

    body: bytes | str
    meta: str | None


class PageCache:
    """The page cache at `path` (":memory:" for a throwaway one)."""

    # While another process holds the file locked, opening is tried again after this many seconds.
    reopen_seconds = 30.0

    def __init__(self, path: str | os.PathLike[str], *, busy_timeout_ms: int = 1000, max_bytes: int | None = None) -> None:
        self.path = str(path)
        self.busy_timeout_ms = busy_timeout_ms
        self.max_bytes = max_bytes
        """The size limit (`cache_limit.py`); None: none."""
        self._lock = threading.Lock()
        self._read_pages: dict[str, float] = {}  # key -> when read, written with the next store
        self._read_sets: dict[str, float] = {}
        self._written = max_bytes or 0  # bytes stored since the size was last checked (the first store checks it)
        self._db: sqlite3.Connection | None = None
        self.disabled_reason: str | None = None
        self.write_problem: str | None = None  # set when pages can be read but no longer written (said once)
        self.on_problem: Callable[[str], None] | None = None
        self._reopen_at: float | None = None  # set while the file was locked at opening
        self._open()

    # -- opening ----------------------------------------------------------------

    def _open(self) -> None:
        self._reopen_at = None
        try:
            self._db = self._connect()
        except sqlite3.DatabaseError as exc:
            if self.path == ":memory:":
                raise
            if _is_locked(exc):  # another instance holds it: not corrupt, so keep its file
                log.info("cache file %s is locked (%s); running without a cache for now", self.path, exc)
                self._disable(f"cache busy: {exc}")
                self._reopen_at = time.monotonic() + self.reopen_seconds
                return
            log.warning("cache file %s is unreadable (%s); rebuilding it", self.path, exc)
            self._discard_file()
            try:
                self._db = self._connect()
            except (sqlite3.Error, OSError) as exc2:  # still broken: run without a cache
                self._disable(f"cache unavailable: {exc2}")
        except OSError as exc:  # the directory or file cannot be created or opened for writing
            if os.path.exists(self.path) and self._open_read_only():
                self._stop_writing(f"the cache file is read-only ({exc.strerror or exc})")
                return
            log.warning("cache file %s cannot be opened (%s); running without a cache", self.path, exc)
            self._disable(f"cache unavailable: {exc}")

    def _open_read_only(self) -> bool:
        """Open a file that cannot be written (read-only, immutable) for reading what it holds."""
        for query in ("mode=ro", "immutable=1"):
            try:
                db = sqlite3.connect(
                    f"file:{self.path}?{query}",
                    uri=True,
                    timeout=self.busy_timeout_ms / 1000,
                    isolation_level=None,
                    check_same_thread=False,
                )
                db.text_factory = _lenient_text
                db.execute("SELECT count(*) FROM pages").fetchone()
            except sqlite3.Error:
                continue
            self._db = db
            return True
        return False

    def _stop_writing(self, reason: str) -> None:
        """Keep reading what is there, stop writing, and say so once."""
        if self.write_problem is None:
            self.write_problem = reason
            log.warning("cache: %s; showing what it holds, storing nothing more", reason)
            if self.on_problem is not None:
                self.on_problem(f"Cache: {reason}; cached pages are still shown, new ones are not stored")

    def _ready(self) -> bool:
        """Whether a connection is open, trying again once a lock seen at opening may be gone."""
        if self._db is None and self._reopen_at is not None and time.monotonic() >= self._reopen_at:
            self._open()
            if self._db is not None:
                self.disabled_reason = None
        return self._db is not None

    def _connect(self) -> sqlite3.Connection:
        if self.path != ":memory:":
            private_dirs(Path(self.path).parent)  # each missing folder 0700 (mkdir's parents=True leaves parents to the umask)
            fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o600)
            os.close(fd)
            os.chmod(self.path, 0o600)
        db = sqlite3.connect(self.path, timeout=self.busy_timeout_ms / 1000, isolation_level=None, check_same_thread=False)
        db.text_factory = _lenient_text
        try:
            db.execute(f"PRAGMA busy_timeout = {int(self.busy_timeout_ms)}")
            # Large pages: a 1.5 MB report page is written in a third of the CPU of 4 KB pages (a new file only).
            db.execute("PRAGMA page_size = 65536")
            if self.path != ":memory:":
                db.execute("PRAGMA journal_mode = WAL")
                db.execute("PRAGMA synchronous = NORMAL")
                page_size = db.execute("PRAGMA page_size").fetchone()[0]  # (a file made before keeps its own)
                db.execute(f"PRAGMA wal_autocheckpoint = {max(1, WAL_BYTES // page_size)}")
                db.execute(f"PRAGMA journal_size_limit = {WAL_BYTES}")
            db.executescript(SCHEMA)
            columns = {
                table: {row[1] for row in db.execute(f"PRAGMA table_info({table})")} for table in {table for table, _, _ in MIGRATIONS}
            }
            for table, column, statement in MIGRATIONS:
                if column not in columns[table]:
                    db.execute(statement)
            db.execute("SELECT count(*) FROM pages").fetchone()
        except sqlite3.Error:
            db.close()
            raise
        except UnicodeDecodeError as exc:  # sqlite's message quoted damaged schema text, which Python could not decode
            db.close()
            raise sqlite3.DatabaseError(f"database disk image is malformed ({exc.reason} in its text)") from None
        for suffix in ("-wal", "-shm"):
            side = self.path + suffix
            if os.path.exists(side):
                os.chmod(side, 0o600)
        return db

    def _discard_file(self) -> None:
        for suffix in ("", "-wal", "-shm"):
            try:
                os.unlink(self.path + suffix)
            except FileNotFoundError:
                pass
            except OSError as exc:
                log.warning("cannot remove %s: %s", self.path + suffix, exc)

    def _disable(self, reason: str) -> None:
        self.disabled_reason = reason
        if self._db is not None:
            try:
                self._db.close()
            except sqlite3.Error:
                pass
        self._db = None

    def _recover(self, exc: sqlite3.Error) -> None:
        """A failure while in use: locked means skip this time; cannot write means stop writing; corrupt means rebuild."""
        if _is_locked(exc):
            log.info("cache busy: %s", exc)
            return
        problem = _cannot_write(exc)
        if problem is not None or not _is_corrupt(exc):
            self._stop_writing(problem or f"the cache file cannot be written ({exc})")
            return
        log.warning("cache error (%s); rebuilding %s", exc, self.path)
        self._disable(str(exc))
        if self.path != ":memory:":
            self._discard_file()
            try:
                self._db = self._connect()
                self.disabled_reason = None
            except (sqlite3.Error, OSError) as exc2:
                self._disable(f"cache unavailable: {exc2}")

    # -- use ----------------------------------------------------------------------

    @property
    def available(self) -> bool:
        return self._db is not None

    def _connection(self) -> sqlite3.Connection:
        """The open database (callers have checked `_ready()`)."""
        assert self._db is not None
        return self._db

    def get(self, key: str) -> tuple[Any, float] | None:
        """The stored value and when it was stored (epoch seconds), or None."""
        if not self._ready():
            return None
        try:
            row = self._connection().execute("SELECT body, stored_at, meta FROM pages WHERE key = ?", (key,)).fetchone()
        except sqlite3.Error as exc:
            self._recover(exc)
            return None
        if row is None:
            return None
        self._read_pages[key] = time.time()
        body, stored_at, meta = row
        try:
            if meta is not None:  # stored as received: decoded when shown
                data = body if isinstance(body, bytes) else str(body).encode()
                return Wire(data, json.loads(meta)), float(stored_at)
            return json.loads(body), float(stored_at)
        except (ValueError, TypeError):
            return None

    def put(self, key: str, profile: str, op: str, value: Any, *, stored_at: float | None = None) -> None:
        """Store a value (callers pass it through `scrub_secrets` first); nothing once writing has failed."""
        packed = self.pack(op, value)
        if packed is not None:
            self.put_packed(key, profile, op, packed, stored_at=stored_at)

    def pack(self, op: str, value: Any) -> Packed | None:
        """What `put` writes for `value`, or None when nothing is (not JSON, or writing has failed): the
        interpreter's share of a store, in the lane of page work; `put_packed` is SQLite's, which gives the lock up.

        A `Wire` whose bytes cannot hold a secret is stored as received (no
        decoding, no encoding); any other value as its JSON.
        """
        if not self._ready() or self.write_problem is not None:
            return None
        meta = None
        if isinstance(value, Wire):
            try:
                if flat_rows_without_secrets(value) or not may_hold_secrets(value.body):
                    meta = json.dumps(value.meta, separators=(",", ":"), default=str)
                else:
                    value = scrub_secrets(value.value)
            except (ValueError, RecursionError):  # not JSON: nothing worth keeping (the reader says why)
                return None
        try:
            body: Any = value.body if isinstance(value, Wire) else json.dumps(value, separators=(",", ":"), default=str)
        except (TypeError, ValueError, RecursionError):
            log.info("cache: a value that cannot be stored as JSON was skipped (%s)", op)
            return None
        return Packed(body, meta)

    def put_packed(self, key: str, profile: str, op: str, packed: Packed, *, stored_at: float | None = None) -> None:
        """Write what `pack` made (in the cache's writer thread: a 1.5 MB page is ≈ 7 ms of SQLite's time)."""
        if not self._ready() or self.write_problem is not None:
            return
        try:
            self._connection().execute(
                "INSERT OR REPLACE INTO pages(key, profile, op, stored_at, body, meta, used_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
                (key, profile, op, stored_at if stored_at is not None else time.time(), packed.body, packed.meta, time.time()),
            )
        except sqlite3.Error as exc:
            self._recover(exc)
            return
        self._stored(len(packed.body))

    def _stored(self, size: int) -> None:
        """After a store: the reads noted since are written, and every twentieth of the limit the size is checked."""
        if self.max_bytes is None:
            return
        with self._lock:
            self._written += size
            if self._written < max(self.max_bytes // 20, 1 << 20):
                return
            self._written = 0
            pages, self._read_pages = self._read_pages, {}
            sets, self._read_sets = self._read_sets, {}
            try:
                db = self._connection()
                cache_limit.note_uses(db, pages, sets)
                dropped = cache_limit.trim(db, self.max_bytes)
            except sqlite3.Error as exc:
                self._recover(exc)
                return
            if dropped:
                log.info(
                    "cache: over its limit of %d MB; %d least recently used pages and kept sets dropped", self.max_bytes >> 20, dropped
                )

    def stamps(self, keys: list[str]) -> dict[str, float]:
        """When each of the stored pages `keys` was stored (missing ones left out; nothing when the cache is unusable)."""
        if not self._ready():
            return {}
        try:
            return self._stamps(self._connection(), keys)
        except sqlite3.Error as exc:
            self._recover(exc)
            return {}

    def put_derived(self, key: str, profile: str, sources: dict[str, float], parts: Iterable[bytes]) -> bool:
        """Keep `parts` (made as they are written: a generator's work runs here), what the caller made of the
        stored pages `sources` (key -> stored_at, from `stamps` when it took their rows); False (nothing kept)
        when one of them has been stored again or dropped since, the parts pass MAX_DERIVED, or nothing can be
        written.

        Callers make the parts from the pages' own (scrubbed) values and pass no secret in them. Each part is
        its own statement (a million-row grid is never one value in memory); the set is written last, so a set
        whose parts were cut short by a crash is never read, and its parts are replaced by the next put.
        """
        if not self._ready() or self.write_problem is not None:
            return False
        if not sources:
            return False
        try:
            db = self._connection()
            self._drop_derived(db, key)
            size = count = 0
            try:
                for count, part in enumerate(parts, 1):
                    size += len(part)
                    if size > MAX_DERIVED:
                        self._drop_derived(db, key)
                        return False
                    db.execute("INSERT INTO derived_parts(key, n, body) VALUES (?, ?, ?)", (key, count - 1, part))
            except Exception:  # the maker failed: no parts left behind
                self._drop_derived(db, key)
                raise
            if self._stamps(db, list(sources)) != sources:  # a page stored again while the parts were made
                self._drop_derived(db, key)
                return False
            db.execute(
                "INSERT INTO derived_sets(key, profile, stored_at, sources, parts) VALUES (?, ?, ?, ?, ?)",
                (key, profile, time.time(), json.dumps(sources, separators=(",", ":")), count),
            )
        except sqlite3.Error as exc:
            self._recover(exc)
            return False
        self._stored(size)
        return True

    def get_derived(self, key: str) -> tuple[list[bytes], float] | None:
        """The parts `put_derived` kept under `key` and when the oldest of its pages was stored, while every one
        of them is still the page stored (a page stored again since, or gone, makes it a miss)."""
        if not self._ready():
            return None
        try:
            db = self._connection()
            row = db.execute("SELECT sources, parts FROM derived_sets WHERE key = ?", (key,)).fetchone()
            if row is None:
                return None
            sources, count = json.loads(row[0]), row[1]
            if not isinstance(sources, dict) or not sources or self._stamps(db, list(sources)) != sources:
                self._drop_derived(db, key)  # it can never be valid again
                return None
            parts = db.execute("SELECT n, body FROM derived_parts WHERE key = ? ORDER BY n", (key,)).fetchall()
        except sqlite3.OperationalError as exc:
            if "no such table" in str(exc):  # a file opened read-only that was written before derived values
                return None
            self._recover(exc)
            return None
        except sqlite3.Error as exc:
            self._recover(exc)
            return None
        except ValueError:
            return None
        if [n for n, _ in parts] != list(range(count)):
            return None
        self._read_sets[key] = time.time()
        bodies = [body if isinstance(body, bytes) else str(body).encode() for _, body in parts]
        return bodies, min(map(float, sources.values()))

    def _drop_derived(self, db: sqlite3.Connection, key: str) -> None:
        """The set and parts kept under `key`, gone (quietly: a stale set is only space)."""
        if self.write_problem is not None:
            return
        try:
            cache_limit.drop_set(db, key)
        except sqlite3.Error as exc:
            log.info("cache: a stale derived value stays (%s)", exc)

    @staticmethod
    def _stamps(db: sqlite3.Connection, keys: list[str]) -> dict[str, float]:
        """When each of the stored pages `keys` was stored (missing ones left out)."""
        stamps: dict[str, float] = {}
        for at in range(0, len(keys), _KEYS_A_QUERY):
            part = keys[at : at + _KEYS_A_QUERY]
            marks = ",".join("?" * len(part))
            stamps.update(db.execute(f"SELECT key, stored_at FROM pages WHERE key IN ({marks})", part).fetchall())
        return stamps

    def clear(self, profile: str | None = None) -> int:
        """Remove the cached pages of one identity (or all); return how many. A file that cannot be written says so.

        An identity's pages include those asked with an access token it was given (`Session.identity_for`:
        stored as `identity|token:…`)."""
        if not self._ready():
            return 0
        if self.write_problem is not None:
            self.disabled_reason = self.write_problem
            return 0
        try:
            db = self._connection()
            if profile is None:
                cur = db.execute("DELETE FROM pages")
                db.execute("DELETE FROM derived_sets")
                db.execute("DELETE FROM derived_parts")
            else:
                # the identity, and `identity|token:…` (";" follows ":": the range holds exactly that prefix)
                whose = "profile = ? OR (profile >= ? AND profile < ?)"
                args = (profile, f"{profile}|token:", f"{profile}|token;")
                cur = db.execute(f"DELETE FROM pages WHERE {whose}", args)
                db.execute(f"DELETE FROM derived_parts WHERE key IN (SELECT key FROM derived_sets WHERE {whose})", args)
                db.execute(f"DELETE FROM derived_sets WHERE {whose}", args)
            removed = cur.rowcount
        except sqlite3.Error as exc:
            self._recover(exc)
            if self.write_problem is not None:
                self.disabled_reason = self.write_problem
            return 0
        try:
            self._connection().execute("VACUUM")  # giving the space back may fail on a full disk; the pages are gone either way
        except sqlite3.Error as exc:
            log.info("cache: VACUUM after clearing failed (%s)", exc)
        return removed

    def stats(self) -> dict[str, int]:
        """Number of pages per profile."""
        if not self._ready():
            return {}
        try:
            rows = self._connection().execute("SELECT profile, count(*) FROM pages GROUP BY profile").fetchall()
        except sqlite3.Error as exc:
            self._recover(exc)
            return {}
        return {profile: count for profile, count in rows}

    def close(self) -> None:
        self._reopen_at = None
        if self._db is not None:
            try:
                if self.write_problem is None and (self._read_pages or self._read_sets):
                    cache_limit.note_uses(self._db, self._read_pages, self._read_sets)
                self._db.close()
            except sqlite3.Error:
                pass
            self._db = None
