"""Forms that validate inline with the data layer's own models, before any request.

A form is a list of `FieldSpec`s and a `build` function that turns the
current values into a pydantic model (e.g. `TokenCreate`). Every change
rebuilds the model; its errors are shown under the fields they name (only
once a field has been touched, so an empty form is not a wall of red). On
submit, `send` runs in a worker: a server error that names a field is shown
next to that field, any other error above the buttons, and the form stays
open with everything typed still there: bad input loses nothing.

A submit the form refuses is never silent: it scrolls to and focuses the
first field marked wrong (a long form scrolls it out of view) and says above
the buttons how many fields need fixing, and which. The form alone marks its
fields (`-invalid`): their own validation is off, so leaving a field never
clears a mark the form set.

A field filled from the server (an edit form's current name) shows its value
cleaned, like everything else on screen; as long as the user leaves it as
shown, `values()` gives back the server's value exactly, so saving an
untouched field never changes it.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from pydantic import ValidationError
from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.widgets import Button, Input, Label, Select, Switch

from flextui.api.errors import ApiError
from flextui.render.text import clean
from flextui.ui.guard import safe
from flextui.ui.keys import FlexModal
from flextui.ui.widgets.bars import Hint


NAMED = 4
"""Fields named in the summary of a refused submit; the rest are counted."""


@dataclass
class FieldSpec:
    """One form field: `key` is what `build` receives; `errors` are model names that map to it."""

    key: str
    label: str
    kind: str = "text"  # text | password | select | switch
    value: Any = ""
    options: list[tuple[str, str]] = field(default_factory=list)
    placeholder: str = ""
    hint: str = ""
    errors: tuple[str, ...] = ()
    visible_when: Callable[[dict[str, Any]], bool] | None = None

    @property
    def names(self) -> set[str]:
        return {self.key, *self.errors}


def error_map(exc: ValidationError, specs: list[FieldSpec]) -> tuple[dict[str, str], list[str]]:
    """Field key → first message, and messages that name no field."""
    by_name = {name: spec.key for spec in specs for name in spec.names}
    found: dict[str, str] = {}
    general: list[str] = []
    for err in exc.errors():
        msg = str(err.get("msg", "")).removeprefix("Value error, ")
        loc = [str(part) for part in err.get("loc", ())]
        target = next((by_name[part] for part in loc if part in by_name), None)
        if target is None and ":" in msg:
            head, _, rest = msg.partition(":")
            if head.strip() in by_name:
                target, msg = by_name[head.strip()], rest.strip()
        if target is None:
            general.append(msg)
        else:
            found.setdefault(target, msg)
    return found, general


class FormScreen(FlexModal[Any]):
    """A modal form that validates as you type and submits through the data layer."""

    BINDINGS = [
        Binding("escape", "cancel", "Cancel", id="form.cancel"),
        Binding("ctrl+s", "submit", "Submit", id="form.submit"),
    ]

    DEFAULT_CSS = """
    FormScreen { align: center middle; }
    FormScreen > Vertical { width: 84; max-width: 98%; height: auto; max-height: 100%; border: thick $primary; background: $surface; padding: 0 1; }
    FormScreen #form-title { text-style: bold; padding: 0 1; margin-bottom: 1; }
    FormScreen VerticalScroll { height: auto; max-height: 62vh; }
    FormScreen .form-row { height: auto; margin-bottom: 1; }
    FormScreen .form-line { height: 1; }
    FormScreen .form-label { width: 30; padding: 0 1; color: $text-muted; }
    FormScreen .form-line Input, FormScreen .form-line Select { width: 1fr; }
    FormScreen Hint { padding: 0 1 0 31; }
    FormScreen Input.-invalid { color: $error; }
    FormScreen #form-error { color: $error; padding: 0 1; }
    FormScreen #form-buttons { height: auto; align-horizontal: right; margin-top: 1; }
    FormScreen #form-buttons Button { margin-left: 2; }
    """

    def __init__(
        self,
        title: str,
        fields: list[FieldSpec],
        build: Callable[[dict[str, Any]], Any],
        send: Callable[[Any], Awaitable[Any]],
        *,
        submit_label: str = "Save",
        server_fields: dict[str, str] | None = None,
    ) -> None:
        super().__init__()
        self._title = title
        self.specs = fields
        self.build = build
        self.send = send
        self.submit_label = submit_label
        self.server_fields = server_fields or {}
        self.touched: set[str] = set()
        self.marked: dict[str, str] = {}
        """Field key → the error shown at it now."""
        self.general: list[str] = []
        """Errors that name no field, shown above the buttons."""
        self.busy = False
        self._prefilled: dict[str, tuple[str, str]] = {}
        """Field key → (value as shown, value as given) for prefilled values that cleaning changed."""

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Label(Text(clean(self._title)), id="form-title")
            with VerticalScroll():
                for spec in self.specs:
                    with Vertical(classes="form-row", id=f"row-{spec.key}"):
                        with Horizontal(classes="form-line"):
                            yield Label(spec.label, classes="form-label")
                            yield self._widget(spec)
                        hint = Hint(safe(spec.hint, lines=False), id=f"hint-{spec.key}")
                        hint.display = bool(spec.hint)
                        yield hint
            yield Label("", id="form-error")
            with Horizontal(id="form-buttons"):
                yield Button("Cancel", id="form-cancel")
                yield Button(self.submit_label, id="form-submit", variant="primary")

    def _widget(self, spec: FieldSpec) -> Any:
        wid = f"field-{spec.key}"
        if spec.kind == "select":
            options = [(safe(label, lines=False), value) for label, value in spec.options]
            return Select(options, value=spec.value if spec.value else spec.options[0][1], allow_blank=False, id=wid, compact=True)
        if spec.kind == "switch":
            return Switch(value=bool(spec.value), id=wid)
        given = str(spec.value or "")
        shown = clean(given, limit=None)
        if shown != given:
            self._prefilled[spec.key] = (shown, given)
        # validate_on=[]: the form marks its fields; the Input's own check would clear the mark on leaving it.
        return Input(value=shown, placeholder=clean(spec.placeholder), password=spec.kind == "password", id=wid, compact=True,
                     validate_on=[])

    def on_mount(self) -> None:
        self._update_visibility()
        first = next((w for w in self.query("Input, Select, Switch") if w.display), None)
        if first is not None:
            first.focus()

    def values(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for spec in self.specs:
            widget = self.query_one(f"#field-{spec.key}")
            value = widget.value  # type: ignore[attr-defined]
            kept = self._prefilled.get(spec.key)
            out[spec.key] = kept[1] if kept is not None and value == kept[0] else value
        return out

    def _update_visibility(self) -> None:
        values = self.values()
        for spec in self.specs:
            if spec.visible_when is not None:
                self.query_one(f"#row-{spec.key}").display = spec.visible_when(values)

    def _show_errors(self, errors: dict[str, str], general: list[str], *, all_fields: bool) -> None:
        self.marked = {}
        for spec in self.specs:
            hint = self.query_one(f"#hint-{spec.key}", Hint)
            widget = self.query_one(f"#field-{spec.key}")
            msg = errors.get(spec.key)
            if msg and (all_fields or spec.key in self.touched):
                hint.show(msg, error=True)
                widget.set_class(True, "-invalid")
                self.marked[spec.key] = msg
            else:
                hint.show(spec.hint)
                widget.set_class(False, "-invalid")
            hint.display = bool(hint.has_class("-error") or spec.hint)
        self.general = list(general) if all_fields else []
        self.query_one("#form-error", Label).update(Text(clean("; ".join(general))) if general and all_fields else "")

    # -- pointing at what is wrong --------------------------------------------------------------

    def field_name(self, spec: FieldSpec) -> str:
        """How the summary names a field (its label)."""
        return spec.label

    def wrong_fields(self) -> list[FieldSpec]:
        """The fields marked wrong now, in the order shown."""
        return [spec for spec in self.specs if spec.key in self.marked and self._visible(spec)]

    def focus_first_error(self) -> FieldSpec | None:
        """Scroll to and focus the first field marked wrong (a long form hides most of them); that field, if any."""
        wrong = self.wrong_fields()
        if not wrong:
            return None
        spec = wrong[0]
        self.query_one(f"#row-{spec.key}").scroll_visible(animate=False)
        self.query_one(f"#field-{spec.key}").focus(scroll_visible=False)
        return spec

    def point_at_errors(self) -> None:
        """After a refused submit: the first wrong field in view with the focus, and above the buttons how many
        fields need fixing and which ("3 fields need fixing: Entitlement ID, …"), then any error that names none."""
        wrong = self.wrong_fields()
        self.focus_first_error()
        parts = []
        if wrong:
            names = [self.field_name(spec) for spec in wrong]
            listed = ", ".join(names[:NAMED]) + (f" and {len(names) - NAMED} more" if len(names) > NAMED else "")
            parts.append(f"{len(names)} field{'s need' if len(names) != 1 else ' needs'} fixing: {listed}")
        parts += self.general
        if not parts:
            parts.append("Not sent: the form could not be checked")
        self.query_one("#form-error", Label).update(Text(clean("; ".join(parts))))

    def validate(self, *, all_fields: bool = False) -> Any | None:
        """The built model, or None with the errors shown."""
        try:
            model = self.build(self.values())
        except ValidationError as exc:
            errors, general = error_map(exc, [s for s in self.specs if self._visible(s)])
            self._show_errors(errors, general, all_fields=all_fields)
            return None
        except ValueError as exc:
            self._show_errors({}, [str(exc)], all_fields=all_fields)
            return None
        self._show_errors({}, [], all_fields=all_fields)
        return model

    def _visible(self, spec: FieldSpec) -> bool:
        return spec.visible_when is None or spec.visible_when(self.values())

    @on(Input.Changed)
    @on(Select.Changed)
    @on(Switch.Changed)
    def _changed(self, event: Any) -> None:
        widget_id = event.control.id or ""
        if widget_id.startswith("field-"):
            self.touched.add(widget_id.removeprefix("field-"))
        self._update_visibility()
        self.validate()

    @on(Input.Submitted)
    def _submitted(self) -> None:
        self.action_submit()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "form-submit":
            self.action_submit()
        else:
            self.action_cancel()

    def action_cancel(self) -> None:
        self.dismiss(None)

    def action_submit(self) -> None:
        if self.busy:
            return
        model = self.validate(all_fields=True)
        if model is None:
            self.point_at_errors()
            return
        self._send(model)

    @work(exclusive=True, group="form-send")
    async def _send(self, model: Any) -> None:
        self.busy = True
        button = self.query_one("#form-submit", Button)
        button.disabled = True
        self.query_one("#form-error", Label).update("Sending…")
        try:
            result = await self.send(model)
        except ApiError as exc:
            target = self.server_fields.get(exc.field or "", exc.field)
            spec = next((s for s in self.specs if target in s.names), None)
            if spec is not None:
                self.touched.add(spec.key)
                self._show_errors({spec.key: exc.message}, [], all_fields=True)
                self.focus_first_error()
                self.query_one("#form-error", Label).update(Text(clean(f"The server refused it: see {self.field_name(spec)}")))
            else:
                self.query_one("#form-error", Label).update(Text(clean(str(exc))))
            return
        except Exception as exc:  # never lose the form to an unexpected failure
            self.query_one("#form-error", Label).update(Text(clean(f"Unexpected error: {type(exc).__name__}: {exc}")))
            return
        finally:
            self.busy = False
            button.disabled = False
        self.dismiss(result)
