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
untouched field never changes it; an edited one keeps the server's
characters wherever the user left them (`render.text.given_back`): a newline
shown as ⏎ is saved as a newline, not as ⏎.

`SectionedForm` is the same form for the beta APIs' nested bodies: errors
arrive by field path (`lineItems[0].startDate`), sections repeat (line
items), and suggesters, live hints and a preview follow the values. The
tokens, registry, catalogue, users and entitlement forms are all one of
the two.
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from pydantic import ValidationError
from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.geometry import Size
from textual.suggester import Suggester
from textual.widgets import Button, Input, Label, Select, Static, Switch

from flextui.api.errors import ApiError
from flextui.api.validation import errors_by_field
from flextui.render.text import clean, given_back
from flextui.ui.guard import safe
from flextui.ui.keys import FlexModal
from flextui.ui.later import after_refresh
from flextui.ui.widgets.bars import Hint

NAMED = 4
"""Fields named in the summary of a refused submit; the rest are counted."""


_API_NAME = re.compile(r"\b[a-z]+[A-Z][A-Za-z0-9]*\b")
"""An API field's name as messages give it (camelCase: "policyTermDuration"), not an ordinary word."""


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


class FormSwitch(Switch):
    """A form's on/off field on one line, its state in words: `[x] on` / `[ ] off`.

    Textual's `Switch` is a slider three rows high (a border around one); a form's
    row is one line, which left only its top border showing (state unreadable,
    space changing nothing visible). This is the same widget (its `value`, its
    `Switch.Changed`, space and enter toggle, a click toggles) drawn as text,
    so every theme (and NO_COLOR) shows the state, and the value a form
    submits is the one shown.
    """

    DEFAULT_CSS = """
    FormSwitch, FormSwitch:focus, FormSwitch:hover {
        border: none;
        height: 1;
        width: auto;
        padding: 0;
        background: $surface;
        color: $text;
        background-tint: initial;
        &.-on { color: $text-success; text-style: bold; }
        &:ansi { color: ansi_default; &.-on { text-style: bold; } }
        &.-invalid { background-tint: $error 20%; }
        &:hover { background: $block-hover-background; }
        &:focus {
            color: $block-cursor-foreground;
            background: $block-cursor-background;
            text-style: $block-cursor-text-style;
        }
    }
    """

    ON = "[x] on "
    OFF = "[ ] off"

    def __init__(self, value: bool = False, *, id: str | None = None) -> None:
        super().__init__(value, animate=False, id=id)
        self.set_class(bool(value), "-on")

    def watch_value(self, value: bool) -> None:
        self.set_class(value, "-on")  # at once: the slider's position (an animation) no longer sets it
        super().watch_value(value)

    def render(self) -> Text:
        return Text(self.ON if self.value else self.OFF, no_wrap=True)

    def get_content_width(self, container: Size, viewport: Size) -> int:
        return len(self.OFF)


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
    FormScreen #form-error { color: $error; padding: 0 1; width: 100%; }
    FormScreen #form-buttons { height: auto; align-horizontal: right; margin-top: 1; }
    FormScreen #form-buttons Button { margin-left: 2; }
    """
    SHRINKS = "#form-scroll"  # the fields scroll; a long error under them never pushes the buttons off the box

    def __init__(
        self,
        title: str,
        fields: list[FieldSpec],
        build: Callable[[dict[str, Any]], Any],
        send: Callable[[Any], Awaitable[Any]],
        *,
        submit_label: str = "Save",
        server_fields: dict[str, str] | None = None,
        editing: bool = False,
    ) -> None:
        super().__init__()
        self.editing = editing
        """The fields hold what is being changed, not proposals: Tab puts the cursor at a value's end."""
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
        self._proposed: dict[str, Any] = {}
        """Field key → the value `follow` last put there."""
        self._prefilled: dict[str, tuple[str, str]] = {}
        """Field key → (value as shown, value as given) for prefilled values that cleaning changed."""

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Label(Text(clean(self._title)), id="form-title")
            with VerticalScroll(id="form-scroll"):
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
            return FormSwitch(value=bool(spec.value), id=wid)
        given = str(spec.value or "")
        shown = clean(given, limit=None)
        if shown != given:
            self._prefilled[spec.key] = (shown, given)
        # validate_on=[]: the form marks its fields; the Input's own check would clear the mark on leaving it.
        # select_on_focus: only a value the form proposes (a new item's lifetime, today's date) is selected when
        # Tab arrives, so typing replaces it; a value being edited, one typed, or one pointed at as wrong is
        # not (`_changed`, `focus_first_error`): selected whole, the next letter replaced it.
        return Input(
            value=shown,
            placeholder=clean(spec.placeholder),
            password=spec.kind == "password",
            id=wid,
            compact=True,
            validate_on=[],
            select_on_focus=not self.editing,
        )

    def on_mount(self) -> None:
        self._update_visibility()
        first = next((w for w in self.query("Input, Select, Switch") if w.display), None)
        if first is not None:
            first.focus()
        self._as_opened = self.values()
        self._discard_said = False

    def values(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for spec in self.specs:
            widget = self.query_one(f"#field-{spec.key}")
            value = widget.value  # type: ignore[attr-defined]
            kept = self._prefilled.get(spec.key)
            out[spec.key] = given_back(value, kept[1]) if kept is not None else value
        return out

    def _update_visibility(self) -> None:
        values = self.values()
        for spec in self.specs:
            if spec.visible_when is not None:
                self.query_one(f"#row-{spec.key}").display = spec.visible_when(values)

    def _show_errors(self, errors: dict[str, str], general: list[str], *, all_fields: bool) -> None:
        errors, general = self._in_words(errors, general)
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

    def _in_words(self, errors: dict[str, str], general: list[str]) -> tuple[dict[str, str], list[str]]:
        """The messages in the form's words: an API field a message names ("is required with policyTermDuration")
        as the label the form shows for it ("“Rehosts term”"); the user never sees the API's names."""
        labels: dict[str, str] = {}
        for spec in self.specs:
            for name in spec.names:
                last = name.rsplit(".", 1)[-1].split("[", 1)[0]
                if _API_NAME.fullmatch(last):
                    labels.setdefault(last, spec.label)
        if not labels:
            return errors, general

        def worded(message: str) -> str:
            return _API_NAME.sub(lambda m: f"“{labels[m.group()]}”" if m.group() in labels else m.group(), message)

        return {key: worded(message) for key, message in errors.items()}, [worded(message) for message in general]

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
        field = self.query_one(f"#field-{spec.key}")
        if isinstance(field, Input):
            field.select_on_focus = False  # to be fixed, not replaced
        field.focus(scroll_visible=False)
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
            if isinstance(event.control, Input) and event.control.has_focus:
                event.control.select_on_focus = False  # typed: the user's own now
        self._update_visibility()
        self.validate()

    def follow(self, key: str, value: Any) -> None:
        """Propose `value` for a field because of another one (the type of the account an ID names), unless the
        user has changed this field: what they chose is never overwritten. (`touched` cannot tell: the fields'
        first change events, as they mount, mark them all.)"""
        found = self.query(f"#field-{key}")
        if not found:
            return
        widget = found.first()
        proposed = self._proposed.get(key, getattr(self, "_as_opened", {}).get(key))
        if widget.value == proposed and value != proposed:  # type: ignore[attr-defined]
            self._proposed[key] = value
            widget.value = value  # type: ignore[attr-defined]

    @on(Input.Submitted)
    def _submitted(self) -> None:
        self.action_submit()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "form-submit":
            self.action_submit()
        else:
            self.action_cancel()

    def action_cancel(self) -> None:
        """Escape (or Cancel): a form as it was opened closes; one with something typed says so first, and the
        second press discards it (a habitual Escape lost a filled-in form of three line items)."""
        if not self._discard_said and self.values() != getattr(self, "_as_opened", None):
            self._discard_said = True
            self.query_one("#form-error", Label).update("Not sent: Escape again (or Cancel) discards what you typed; ctrl+s sends it")
            return
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
                self.query_one("#form-error", Label).update(Text(clean(f"The server refused it: see the field “{self.field_name(spec)}”")))
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


class FormInvalid(ValueError):
    """Problems found while building a model, by field path (merged with the model's own)."""

    def __init__(self, problems: dict[str, str]) -> None:
        super().__init__("; ".join(f"{k}: {m}" if k else m for k, m in problems.items()))
        self.problems = problems


def validated(model: type[Any], data: dict[str, Any], problems: dict[str, str] | None = None) -> Any:
    """`model.model_validate(data)`, with `problems` (path → message) found earlier reported together."""
    problems = dict(problems or {})
    try:
        result = model.model_validate(data)
    except ValidationError as exc:
        for path, message in errors_by_field(exc).items():
            # An error of the whole record ("give at least one policy") may come only from a field left out
            # for its own problem ("abc" as a count): said with those problems, it would be wrong.
            if path or not problems:
                problems.setdefault(path, message)
        raise FormInvalid(problems) from None
    if problems:
        raise FormInvalid(problems)
    return result


def number(values: dict[str, Any], key: str, path: str, problems: dict[str, str], *, default: int | None = None) -> int | None:
    """A whole number from a text field (blank → default); anything else is a problem at `path`."""
    raw = str(values.get(key, "") or "").strip()
    if not raw:
        return default
    if re.fullmatch(r"[+-]?\d+", raw):
        return int(raw)
    problems.setdefault(path, f"must be a whole number (got {raw!r})")
    return default


def bool_choice(value: str) -> bool | None:
    return {"true": True, "false": False}.get(value)


TRISTATE = [("unchanged", ""), ("yes", "true"), ("no", "false")]


class NameSuggester(Suggester):
    """Completes from a list that may still be loading (no cache: the list grows)."""

    def __init__(self, names: Callable[[], Iterable[str]]) -> None:
        super().__init__(use_cache=False, case_sensitive=False)
        self.names = names

    async def get_suggestion(self, value: str) -> str | None:
        if not value:
            return None
        for name in self.names():
            if name.casefold().startswith(value) and len(name) > len(value):
                return name
        return None


@dataclass
class Section:
    """A repeatable group of fields (a line item): `specs(i)` gives the fields of item i, keyed `{prefix}{i}-{name}`."""

    title: str
    prefix: str
    specs: Callable[[int], list[FieldSpec]]
    count: int = 1
    min_count: int = 1
    max_count: int = 25


def section_key(prefix: str, index: int, name: str) -> str:
    return f"{prefix}{index}-{name}"


class SectionedForm(FormScreen):
    """A FormScreen whose errors come by field path (`lineItems[0].startDate`), with repeatable sections.

    `build(values)` returns the model or raises `FormInvalid`/`ValidationError`
    (paths as `errors_by_field` gives them); each path is shown at the field
    whose `errors` name it (or the nearest enclosing path). Server errors are
    mapped the same way. Optional: suggesters per field, hints that follow
    the values, and a preview (e.g. the defaults the server will apply).
    """

    BINDINGS = [Binding("ctrl+n", "add_section", "Add item", show=False, id="betaform.add")]

    DEFAULT_CSS = """
    SectionedForm > Vertical { width: 96; }
    SectionedForm.-tall VerticalScroll { height: 1fr; max-height: 100%; }
    SectionedForm .form-section { height: 1; margin: 0 0 1 0; }
    SectionedForm .form-section-title { width: 1fr; padding: 0 1; text-style: bold; color: $accent; }
    SectionedForm .form-remove { margin-right: 1; }
    SectionedForm #form-add { margin: 0 1 1 1; }
    SectionedForm #form-preview { padding: 0 1; margin-top: 1; height: auto; color: $text; border-top: solid $primary-darken-2; }
    """

    def __init__(
        self,
        title: str,
        fields: list[FieldSpec],
        build: Callable[[dict[str, Any]], Any],
        send: Callable[[Any], Awaitable[Any]],
        *,
        section: Section | None = None,
        submit_label: str = "Save",
        suggesters: Callable[[FieldSpec], Suggester | None] | None = None,
        hints: Callable[[dict[str, Any]], dict[str, str]] | None = None,
        preview: Callable[[dict[str, Any]], Text | None] | None = None,
        editing: bool = False,
    ) -> None:
        self.head = fields
        self.section = section
        self._user_send = send
        super().__init__(title, self._all_specs(), build, self._send_mapped, submit_label=submit_label, editing=editing)
        self.suggesters = suggesters
        self.hints = hints
        self.preview = preview
        self._base_hints = {spec.key: spec.hint for spec in self.specs}

    # -- layout -----------------------------------------------------------------------------

    def _all_specs(self) -> list[FieldSpec]:
        specs = list(self.head)
        self.section_specs: list[list[FieldSpec]] = []
        if self.section is not None:
            for i in range(self.section.count):
                self.section_specs.append(self.section.specs(i))
                specs.extend(self.section_specs[-1])
        return specs

    def _row(self, spec: FieldSpec) -> ComposeResult:
        with Vertical(classes="form-row", id=f"row-{spec.key}"):
            with Horizontal(classes="form-line"):
                yield Label(spec.label, classes="form-label")
                yield self._widget(spec)
            hint = Hint(safe(spec.hint, lines=False), id=f"hint-{spec.key}")
            hint.display = bool(spec.hint)
            yield hint

    def _widget(self, spec: FieldSpec) -> Any:
        widget = super()._widget(spec)
        if self.suggesters is not None and isinstance(widget, Input):
            suggester = self.suggesters(spec)
            if suggester is not None:
                widget.suggester = suggester
        return widget

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Label(Text(clean(self._title)), id="form-title")
            with VerticalScroll(id="form-scroll"):
                for spec in self.head:
                    yield from self._row(spec)
                if self.section is not None:
                    sec = self.section
                    for i in range(sec.count):
                        with Horizontal(classes="form-section", id=f"section-{i}"):
                            yield Label(Text(f"{sec.title} {i + 1} of {sec.count}"), classes="form-section-title")
                            if sec.count > sec.min_count:
                                yield Button(
                                    f"Remove {sec.title.lower()} {i + 1}", id=f"form-remove-{i}", classes="form-remove", compact=True
                                )
                        for spec in self.section_specs[i]:
                            yield from self._row(spec)
                    if sec.count < sec.max_count:
                        yield Button(f"+ Add {sec.title.lower()} (ctrl+n)", id="form-add", compact=True)
            if self.preview is not None:
                yield Static("", id="form-preview")
            yield Label("", id="form-error")
            with Horizontal(id="form-buttons"):
                yield Button("Cancel", id="form-cancel")
                yield Button(self.submit_label, id="form-submit", variant="primary")

    def on_mount(self) -> None:
        super().on_mount()
        self._refresh_extras(self.values())
        self._fit()

    def on_resize(self) -> None:
        self._fit()

    def _fit(self) -> None:
        """A form taller than the screen scrolls its fields between a fixed title and fixed buttons."""
        rows = sum(3 if spec.hint else 2 for spec in self.specs) + 2 * len(getattr(self, "section_specs", [])) + 12
        if self.preview is not None:
            rows += 6
        self.set_class(rows > self.app.size.height * 0.9, "-tall")

    # -- sections -----------------------------------------------------------------------------

    def _section_values(self) -> list[dict[str, Any]]:
        assert self.section is not None
        values = self.values()
        out = []
        for i in range(self.section.count):
            prefix = section_key(self.section.prefix, i, "")
            out.append({k[len(prefix) :]: x for k, x in values.items() if k.startswith(prefix)})
        return out

    async def _resize(self, items: list[dict[str, Any]], focus_index: int) -> None:
        assert self.section is not None
        values = self.values()
        for spec in self.head:
            spec.value = values[spec.key]
        prefix = self.section.prefix
        old_touched = {k for k in self.touched if not k.startswith(prefix)}
        self.section.count = len(items)
        self.specs = self._all_specs()
        for spec in self.specs:
            if spec.key.startswith(prefix) and "-" in spec.key:
                index_text, _, name = spec.key[len(prefix) :].partition("-")
                index = int(index_text)
                if index < len(items) and name in items[index]:
                    spec.value = items[index][name]
        self.touched = old_touched
        self._base_hints = {spec.key: spec.hint for spec in self.specs}
        self._shown = {}
        await self.recompose()
        self._fit()
        self._update_visibility()
        self.validate()
        target = next((s for s in self.specs if s.key.startswith(section_key(prefix, focus_index, ""))), None)
        if target is not None:
            self.query_one(f"#field-{target.key}").focus()
            self.query_one(f"#section-{focus_index}").scroll_visible(animate=False)

    async def action_add_section(self) -> None:
        if self.section is None or self.section.count >= self.section.max_count:
            return
        items = self._section_values()
        items.append({})
        await self._resize(items, len(items) - 1)

    async def remove_section(self, index: int) -> None:
        if self.section is None or self.section.count <= self.section.min_count:
            return
        items = self._section_values()
        del items[index]
        await self._resize(items, max(0, index - 1))

    async def on_button_pressed(self, event: Button.Pressed) -> None:
        button_id = event.button.id or ""
        if button_id == "form-add":
            event.stop()
            await self.action_add_section()
        elif button_id.startswith("form-remove-"):
            event.stop()
            await self.remove_section(int(button_id.removeprefix("form-remove-")))
        else:
            super().on_button_pressed(event)

    # -- validation ---------------------------------------------------------------------------

    def value_of(self, key: str) -> Any:
        try:
            return self.query_one(f"#field-{key}").value  # type: ignore[attr-defined]
        except Exception:
            return ""

    def key_for(self, path: str, *, visible_only: bool = True) -> str | None:
        """The field key that shows errors at `path` (or at the nearest enclosing path)."""
        names: dict[str, str] = {}
        for spec in self.specs:
            if visible_only and not self._visible(spec):
                continue
            for name in spec.names:
                names.setdefault(name, spec.key)
        current = path
        while current:
            if current in names:
                return names[current]
            if current.endswith("]"):
                current = current[: current.rindex("[")]
            elif "." in current:
                current = current[: current.rindex(".")]
            else:
                break
        return None

    def _show_errors(self, errors: dict[str, str], general: list[str], *, all_fields: bool) -> None:
        """As FormScreen's, but only touching the hints that change (a long form re-validates on every key)."""
        errors, general = self._in_words(errors, general)
        shown: dict[str, tuple[str, bool]] = getattr(self, "_shown", {})
        self.marked = {}
        for spec in self.specs:
            msg = errors.get(spec.key)
            wanted = (msg, True) if msg and (all_fields or spec.key in self.touched) else (spec.hint, False)
            if wanted[1]:
                self.marked[spec.key] = wanted[0]
            if shown.get(spec.key) == wanted:
                continue
            shown[spec.key] = wanted
            hint = self.query_one(f"#hint-{spec.key}", Hint)
            hint.show(wanted[0], error=wanted[1])
            self.query_one(f"#field-{spec.key}").set_class(wanted[1], "-invalid")
            hint.display = bool(wanted[1] or spec.hint)
        self._shown = shown
        self.general = list(general) if all_fields else []
        text = "; ".join(general) if general and all_fields else ""
        self.query_one("#form-error", Label).update(Text(clean(text)) if text else "")

    def _map(self, problems: dict[str, str]) -> tuple[dict[str, str], list[str]]:
        errors: dict[str, str] = {}
        general: list[str] = []
        for path, message in problems.items():
            key = self.key_for(path) if path else None
            if key is None:
                general.append(f"{path}: {message}" if path else message)
            else:
                errors.setdefault(key, message)
        return errors, general

    def _refresh_extras(self, values: dict[str, Any]) -> None:
        if self.hints is not None:
            dynamic = self.hints(values)
            for spec in self.specs:
                spec.hint = dynamic.get(spec.key, self._base_hints.get(spec.key, ""))
        if self.preview is not None:
            try:
                shown = self.preview(values)
            except Exception:  # a preview must never break the form
                shown = None
            self.query_one("#form-preview", Static).update(shown or "")

    def recheck(self) -> None:
        """Validate again (e.g. the catalogue arrived), if the form is still showing."""
        if not self.is_attached or not self.specs or not self.query(f"#field-{self.specs[-1].key}"):
            return
        self._update_visibility()
        self.validate()

    def validate(self, *, all_fields: bool = False) -> Any | None:
        values = self.values()
        self._refresh_extras(values)
        try:
            model = self.build(values)
        except FormInvalid as exc:
            errors, general = self._map(exc.problems)
        except ValidationError as exc:
            errors, general = self._map(errors_by_field(exc))
        except ValueError as exc:
            errors, general = {}, [str(exc)]
        else:
            self._show_errors({}, [], all_fields=all_fields)
            return model
        self._show_errors(errors, general, all_fields=all_fields)
        return None

    def field_name(self, spec: FieldSpec) -> str:
        """A section's field names its item when there are several ("Line item 2: Product")."""
        sec = self.section
        if sec is not None and sec.count > 1 and spec.key.startswith(sec.prefix):
            index, _, _ = spec.key[len(sec.prefix) :].partition("-")
            if index.isdigit():
                return f"{sec.title} {int(index) + 1}: {spec.label}"
        return spec.label

    async def _send_mapped(self, model: Any) -> Any:
        try:
            return await self._user_send(model)
        except ApiError as exc:
            if exc.field:
                if exc.message.startswith(f"{exc.field}: "):  # the field is shown by place: its path need not be repeated
                    exc.message = exc.message[len(exc.field) + 2 :]
                key = self.key_for(exc.field, visible_only=False)
                if key is not None:
                    exc.field = key
                    after_refresh(self, self.focus_first_error)
            raise
