"""`R` on any record: its JSON in the server's field names, with secrets removed, to read, select and copy.

What the server sent is kept as read: the models keep every field they do
not know (`tolerant.Record`, extra fields allowed) and know which ones the
answer carried, so `model_dump(by_alias=True, exclude_unset=True)` gives the
fields of the answer, under the names the server used, and no field the
client only defaulted. A time the server sent as text (the registry's
`Date.toString()`, for one) comes back in ISO 8601, since the client read it
as a time; epoch milliseconds (the tokens') stay the numbers sent. A report row is the server's row as it came. Secret-bearing
fields are removed the way the cache and the request log remove them
(`api.cache.scrub_secrets`): a raw view is for handing over.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel
from textual.screen import Screen

from flextui.api.cache import scrub_secrets
from flextui.render.text import json_dumps
from flextui.ui.widgets.dialogs import ValueScreen


def as_sent(record: Any) -> Any:
    """The record as JSON-ready data: a model's fields as the answer named them, a row as it came; secrets removed."""
    if isinstance(record, BaseModel):
        data: Any = record.model_dump(mode="json", by_alias=True, exclude_unset=True)
    else:
        data = record
    return scrub_secrets(data)


def raw_text(record: Any) -> str:
    return json_dumps(as_sent(record), indent=2, default=str, sort_keys=False)  # unsafe characters as \u escapes: copied whole


def raw_screen(record: Any) -> ValueScreen:
    name = type(record).__name__ if isinstance(record, BaseModel) else "row"
    return ValueScreen(
        f"Raw JSON ({name}, secrets removed)",
        raw_text(record),
        note="As the server named the fields; a time sent as text is shown in ISO 8601. c copies it; select with the mouse to copy a part.",
    )


def show_raw(screen: Screen[Any], record: Any | None) -> None:
    """`R` wherever a record is shown, a list's row or a dialog's own record: its raw JSON over `screen`."""
    if record is None:
        screen.app.notify("No record under the cursor to show as JSON", markup=False)
        return
    screen.app.push_screen(raw_screen(record))


__all__ = ["as_sent", "raw_screen", "raw_text", "show_raw"]
