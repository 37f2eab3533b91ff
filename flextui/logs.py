"""The log file: bounded in size, private, and every record cleaned by the one sanitiser.

Why: the TUI logs to a file (its stderr is the screen), and that file used
to grow without bound and echo server strings raw, so `tail flextui.log` on a
jump host could replay a hostile name's escape sequences, and a name holding
a newline could forge log lines. Here the file rotates at `MAX_BYTES` with
`BACKUPS` old files, every file (rotated ones too) is created 0600, and
`CleanFormatter` passes each record through `render.text`: the message line
stays one line (a newline in data shows as ⏎), tracebacks keep their line
breaks, and no control or bidi character reaches the file.
"""

from __future__ import annotations

import logging
import os
from logging.handlers import RotatingFileHandler
from pathlib import Path
from typing import Any

from flextui.files import open_private, private_dirs
from flextui.render.text import clean, clean_lines

MAX_BYTES = 1_000_000
BACKUPS = 3
RECORD_LIMIT = 20_000
"""The longest record written whole (a traceback can be long; a 100 KB server string is cut)."""
FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"


class CleanFormatter(logging.Formatter):
    """A Formatter whose output holds no control or bidi character: one line per message, tracebacks kept readable."""

    def format(self, record: logging.LogRecord) -> str:
        # logging.Formatter.format, with each part cleaned; a traceback cached on the
        # record by another handler is cleaned here too.
        record.message = record.getMessage()
        if self.usesTime():
            record.asctime = self.formatTime(record, self.datefmt)
        text = clean(self.formatMessage(record), limit=RECORD_LIMIT)
        if record.exc_info and not record.exc_text:
            record.exc_text = self.formatException(record.exc_info)
        if record.exc_text:
            text += "\n" + clean_lines(record.exc_text, limit=RECORD_LIMIT, total=RECORD_LIMIT)
        if record.stack_info:
            text += "\n" + clean_lines(self.formatStack(record.stack_info), limit=RECORD_LIMIT, total=RECORD_LIMIT)
        return text


class PrivateRotatingFileHandler(RotatingFileHandler):
    """A RotatingFileHandler whose files are created 0600 (in a folder created 0700)."""

    def __init__(self, path: str | os.PathLike[str], *, max_bytes: int = MAX_BYTES, backups: int = BACKUPS) -> None:
        private_dirs(Path(path).parent)
        super().__init__(path, maxBytes=max_bytes, backupCount=backups, encoding="utf-8")

    def _open(self) -> Any:
        return os.fdopen(open_private(self.baseFilename, append=True), "a", encoding=self.encoding, errors=self.errors)


def file_handler(path: str | os.PathLike[str], *, max_bytes: int = MAX_BYTES, backups: int = BACKUPS) -> logging.Handler:
    """The log file's handler: rotating, private, cleaned."""
    handler = PrivateRotatingFileHandler(path, max_bytes=max_bytes, backups=backups)
    handler.setFormatter(CleanFormatter(FORMAT))
    return handler


def stream_handler(stream: Any) -> logging.Handler:
    """A handler for a terminal stream (the headless commands' stderr), cleaned like the file."""
    handler = logging.StreamHandler(stream)
    handler.setFormatter(CleanFormatter(FORMAT))
    return handler


__all__ = ["BACKUPS", "MAX_BYTES", "CleanFormatter", "PrivateRotatingFileHandler", "file_handler", "stream_handler"]
