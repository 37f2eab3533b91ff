"""The request log: every HTTP exchange of this session, what the selected one sent and got back, and "copy as curl".

What a support engineer attaches to an escalation: time, method, path,
status, duration, bytes and the retry or cache decision of each exchange
(`api/trace.py` keeps the last 500, secrets removed), with the selected
one's headers and bodies. `c` copies the selected request as a curl command
whose credential comes from an environment variable (`$FNO_TOKEN`,
`$FNO_USER:$FNO_PASSWORD`, a registry JWT fetched first): never the secret
itself. New exchanges join the list while it is open (a listener on the
session's trace, removed when it closes); the cursor stays where the user put
it unless it was on the newest line.

Path is the column that tells the exchanges apart, so it takes the width the
others leave. Below 100 columns Bytes gives way to it and Decision says its
word short ("probe", "cached"), below 90 When does too (the selected one's
time and size stay in its detail); a path still too long keeps its end, the
resource asked for (`…/v1/token/search`), and its query both ends.
"""

from __future__ import annotations

import json
import re
from typing import Any

from rich.cells import cell_len
from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.coordinate import Coordinate
from textual.widgets import DataTable, Label, Static

from flextui.api.curl import curl_for, environment_note
from flextui.api.http import CANCELLED, PROBE
from flextui.api.trace import Exchange
from flextui.render.text import clean, clean_lines
from flextui.render.words import plural
from flextui.ui.appref import flex_app
from flextui.ui.keys import FlexModal
from flextui.ui.widgets.bars import fit
from flextui.ui.widgets.row_table import RowTable

COLUMNS = ("When", "Method", "Status", "Time", "Bytes", "Decision", "Path")

NARROW_WIDTHS = {"Bytes": 100, "When": 90}
"""Below this many columns of terminal, the column gives its width to Path (`columns_for`)."""

SHORT_DECISION = 9
"""The most a decision takes below 100 columns ("retry 2/3", "cancelled")."""


def columns_for(width: int) -> tuple[str, ...]:
    """The columns shown in a terminal `width` columns wide: all at 100 and more, fewer below (module docstring)."""
    return tuple(name for name in COLUMNS if width >= NARROW_WIDTHS.get(name, 0))


def short_decision(decision: str) -> str:
    """A decision in at most `SHORT_DECISION` cells: "page-base probe" is "probe", "cached (shown first)" is "cached";
    a probe's retry says the retry."""
    if decision == PROBE:
        return "probe"
    decision = decision.removeprefix(PROBE + ", ")
    decision = re.sub(r"\s*\(.*\)$", "", decision)
    return decision if len(decision) <= SHORT_DECISION else decision.split(" ", 1)[0][:SHORT_DECISION]


QUERY_ROOM = 10
"""The cells a cut path keeps for its query at least (when it has one) before its start is cut too."""


def fit_path(path: str, room: int) -> str:
    """`path` in `room` cells: whole when it fits, else its end kept (`…/v1/token/search`: what was asked for, where the
    start is the service's prefix shared by every line) and its query cut in the middle (which parameters, and the
    page asked)."""
    if cell_len(path) <= room or room < 8:
        return fit(path, room, "…")
    head, mark, query = path.partition("?")
    query = mark + query
    query_room = room - len(head)  # the resource whole, the query what it leaves (at least a few cells of it)
    if query_room < min(len(query), QUERY_ROOM):
        query_room = min(len(query), max(QUERY_ROOM, room // 3))
    head_room = room - query_room
    if len(head) > head_room:
        tail = head[len(head) - (head_room - 1) :] if head_room > 1 else ""
        cut = tail.find("/")
        if 0 < cut <= len(tail) // 3:  # start at a whole segment when that costs little
            tail = tail[cut:]
        head = "…" + tail
    if len(query) > query_room:
        if query_room <= 2:
            query = query[: query_room - 1] + "…" if query_room else ""
        else:
            keep = query_room - 1
            query = query[: (keep + 1) // 2] + "…" + query[len(query) - keep // 2 :]
    return fit(head + query, room, "…")


def row_of(exchange: Exchange, path_room: int = 60, *, narrow: bool = False) -> tuple[Text, ...]:
    """One exchange as table cells (server text cleaned, never markup), every column's (`COLUMNS`); the path is
    cut with "…" to `path_room` (`fit_path`), and `narrow` says the decision short."""
    status = "—" if exchange.status is None else str(exchange.status)
    style = "bold red" if failed(exchange) else ""
    path = exchange.url.split("://", 1)[-1]
    path = path[path.find("/") :] if "/" in path else path
    decision = clean(exchange.decision)
    return (
        Text(exchange.at[11:19]),
        Text(exchange.method),
        Text(status, style=style),
        Text("" if exchange.ms is None else f"{exchange.ms:,.0f} ms", justify="right"),
        Text(f"{exchange.received_bytes:,}", justify="right"),
        Text(short_decision(decision) if narrow else decision),
        Text(fit_path(clean(path), path_room), no_wrap=True),
    )


def is_cached(exchange: Exchange) -> bool:
    return exchange.decision.startswith("cached")


def failed(exchange: Exchange) -> bool:
    """Not answered, or refused; a page-base probe's 400 or 404 is its answer (pages count from 1), and a request the
    user stopped (escape) was not refused by anyone."""
    if exchange.decision == PROBE and exchange.status in (400, 404) or exchange.decision == CANCELLED:
        return False
    return not is_cached(exchange) and (exchange.status is None or exchange.status >= 400)


def detail_of(exchange: Exchange) -> Text:
    """The selected exchange in full: request and answer headers and bodies (secrets were removed when logged)."""
    text = Text()

    def section(title: str) -> None:
        text.append(f"\n{title}\n", style="bold underline")

    def headers(values: dict[str, str]) -> None:
        for name, value in values.items():
            text.append(f"{clean(name)}: ", style="bold")
            text.append(clean(value) + "\n")

    def body(value: Any) -> None:
        if value in (None, ""):
            text.append("(none)\n", style="dim")
            return
        shown = value if isinstance(value, str) else json.dumps(value, indent=2, ensure_ascii=False, default=str)
        text.append(clean_lines(shown) + "\n")

    text.append(f"{exchange.method} {clean(exchange.url)}\n", style="bold")
    if is_cached(exchange):
        text.append(f"answered from the page cache ({clean(exchange.decision)}) at {exchange.at[11:19]}: no request was sent\n")
        return text
    outcome = f"{exchange.status}" if exchange.status is not None else "no answer"
    text.append(
        f"{outcome} · at {exchange.at[11:19]} · {exchange.ms or 0:,.0f} ms · sent {exchange.sent_bytes:,} B · got {exchange.received_bytes:,} B"
        f" · {clean(exchange.decision)}\n"
    )
    if exchange.error:
        text.append(clean(exchange.error) + "\n", style="red")
    section("Request headers")
    headers(exchange.request_headers)
    section("Request body")
    body(exchange.request_body)
    section("Answer headers")
    headers(exchange.response_headers)
    section("Answer body")
    body(exchange.response_body)
    return text


class RequestLogScreen(FlexModal[None]):
    """Every exchange of the session, newest last; enter or the cursor shows one in full; c copies it as curl."""

    HELP_NAME = "Request log"

    BINDINGS = [
        Binding("escape", "dismiss(None)", "Close", id="requestlog.close"),
        Binding("c", "copy_curl", "Copy as curl", id="requestlog.curl"),
    ]

    DEFAULT_CSS = """
    RequestLogScreen { align: center middle; }
    RequestLogScreen > Vertical { width: 100%; height: 100%; border: thick $primary; background: $surface; }
    RequestLogScreen #rl-title { text-style: bold; padding: 0 1; width: 100%; }
    RequestLogScreen DataTable { height: 45%; }
    RequestLogScreen #rl-detail-box { height: 1fr; border-top: solid $primary; padding: 0 1; }
    RequestLogScreen #rl-hint { color: $text-muted; padding: 0 1; width: 100%; }
    """

    def __init__(self) -> None:
        super().__init__()
        self._shown: list[Exchange] = []
        self._columns: tuple[str, ...] = COLUMNS
        self._widths = [len(title) for title in COLUMNS[:-1]]
        self._room = 0

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Label("", id="rl-title")
            table = RowTable(cursor_type="row", zebra_stripes=True, id="rl-table")
            self._columns = columns_for(self.app.size.width)
            self._widths = [len(title) for title in self._columns[:-1]]
            table.add_columns(*self._columns)
            yield table
            with VerticalScroll(id="rl-detail-box"):
                yield Static("", id="rl-detail")
            yield Label("c copy the selected request as curl (the credential from an environment variable) · escape close", id="rl-hint")

    def on_mount(self) -> None:
        trace = flex_app(self).ctx.session.trace
        for exchange in trace.exchanges:
            self._add(exchange)
        trace.listeners.append(self._arrived)
        table = self.query_one(DataTable)
        if self._shown:
            table.move_cursor(row=len(self._shown) - 1)
        self._title()
        table.focus()

    def on_unmount(self) -> None:
        listeners = flex_app(self).ctx.session.trace.listeners
        if self._arrived in listeners:
            listeners.remove(self._arrived)

    def _arrived(self, exchange: Exchange) -> None:
        """A new exchange (called from the request's task, on the app's loop): added, followed if the cursor was on the last."""
        table = self.query_one(DataTable)
        following = table.cursor_row >= len(self._shown) - 1
        self._add(exchange)
        if following:
            table.move_cursor(row=len(self._shown) - 1)
        self._title()

    def _cells(self, exchange: Exchange, room: int) -> list[Text]:
        """The cells of the columns shown."""
        cells = row_of(exchange, room, narrow=len(self._columns) < len(COLUMNS))
        return [cells[COLUMNS.index(name)] for name in self._columns]

    def _add(self, exchange: Exchange) -> None:
        """A row; the path takes the width the other columns leave, cut with "…" (all paths again when that width changes)."""
        self._shown.append(exchange)
        cells = self._cells(exchange, 10_000)
        self._widths = [max(width, cell.cell_len) for width, cell in zip(self._widths, cells[:-1], strict=True)]
        table = self.query_one(DataTable)
        room = self._path_room()
        table.add_row(*cells[:-1], self._cells(exchange, room)[-1])
        if room != self._room:
            self._room = room
            for row, shown in enumerate(self._shown[:-1]):
                table.update_cell_at(Coordinate(row, len(self._columns) - 1), self._cells(shown, room)[-1])

    def _path_room(self) -> int:
        # each column is padded by a cell each side; the frame and the scrollbar take 4 more
        used = sum(width + 2 for width in self._widths) + 2 + 4
        return max(12, self.app.size.width - used)

    def _title(self) -> None:
        errors = sum(1 for e in self._shown if failed(e))
        cached = sum(1 for e in self._shown if is_cached(e))
        parts = [f"Request log · {plural(len(self._shown), 'exchange')}"]
        if errors:
            parts.append(plural(errors, "failure"))
        if cached:
            parts.append(f"{cached:,} from the cache")
        self.query_one("#rl-title", Label).update(Text(" · ".join(parts)))

    def selected(self) -> Exchange | None:
        row = self.query_one(DataTable).cursor_row
        return self._shown[row] if 0 <= row < len(self._shown) else None

    @on(DataTable.RowHighlighted, "#rl-table")
    def _highlighted(self, event: DataTable.RowHighlighted) -> None:
        exchange = self.selected()
        self.query_one("#rl-detail", Static).update(detail_of(exchange) if exchange is not None else Text(""))

    def action_copy_curl(self) -> None:
        exchange = self.selected()
        if exchange is None:
            self.app.notify("No request to copy yet", markup=False)
            return
        if is_cached(exchange):
            self.app.notify("This one was answered from the cache: no request was sent (pick a line with a status)", markup=False)
            return
        command = curl_for(exchange)
        flex_app(self).copy_text(command, f"the request as curl ({environment_note(command)})", lines=True)


__all__ = ["RequestLogScreen", "columns_for", "detail_of", "failed", "fit_path", "is_cached", "row_of", "short_decision"]
