"""The entitlement tree: account → entitlement → line items → product and license model.

Scale first: at large scale there are ~3,000 accounts and 5,000
entitlements, so nothing is loaded before it is looked at. The top level is
one page of accounts (from the users service); an account's entitlements
and an entitlement's line items are loaded when the node is expanded, with a
visible "loading…" child and exactly one request (none when the cache is
fresh; the cached answer first, then the fresh one, when it is older).
Product and license model nodes come with the line item: no request.

Filters on the entitlements themselves (product, status, creation dates)
switch the top level to the accounts of the matching entitlements, read
page by page from the entitlement list (so an expansion there needs no
request at all). Creation dates are not an API filter: they are applied to
the rows of each page, and the pager says how many were hidden.

The forms (new entitlement with any number of line items, more line items,
policies, additional properties, maintenance items) validate every rule
inline with the data layer's own models before anything is sent, and a
server error that names a field (`lineItems[1].startDate`) is shown next
to that field. The form and detail helpers at the top of this module
(`BetaForm`, `RecordScreen`, `Body`) are shared by the catalogue and the
users screens.
"""

from __future__ import annotations

import re
import time
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass
from datetime import date, datetime, timedelta, timezone
from typing import Any, ClassVar

from pydantic import ValidationError
from rich.style import Style
from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.suggester import Suggester
from textual.widgets import Button, Input, Label, Select, Static, Tree
from textual.widgets.tree import TreeNode, UnknownNodeID

from flextui import kinds
from flextui.api import validation as v
from flextui.api.entitlements import (
    AdditionalProperties,
    Entitlement,
    EntitlementAccount,
    EntitlementCreate,
    EntitlementFilter,
    EntitlementsService,
    LineItem,
    LineItemPolicies,
    LineItemProduct,
    LineItemsCreate,
    MaintenanceLineItemsCreate,
    MutationResult,
)
from flextui.api.errors import ApiError, Invalid, ReadOnly
from flextui.api.products import MaintenanceProduct, Product, ProductsService
from flextui.api.users import Account, AccountFilter, UsersService
from flextui.api.validation import MAX_LIMIT, errors_by_field
from flextui.headless.entitlements import policies_text
from flextui.render.text import absolute, clean, relative
from flextui.ui.guard import safe
from flextui.ui.keys import FlexModal
from flextui.ui.safety import SafeDispatch
from flextui.ui.screens.base import AreaScreen
from flextui.ui.widgets.bars import Hint
from flextui.ui.widgets.forms import FieldSpec, FormScreen
from flextui.render.words import plural

# =====================================================================================================
# Shared helpers: detail bodies, record modal, model-validated forms (also used by catalog.py, users.py)
# =====================================================================================================


def theme_color(app: Any, name: str) -> str:
    return getattr(app.current_theme, name, None) or ""


def state_style(app: Any, state: str | None) -> str:
    """A colour for a lifecycle state: deployed/active good, draft pending, obsolete/inactive muted."""
    s = (state or "").upper()
    if s in ("DEPLOYED", "ACTIVE"):
        return theme_color(app, "success")
    if s == "DRAFT":
        return theme_color(app, "warning")
    if s in ("OBSOLETE", "OBSOLETED", "INACTIVE"):
        return "dim"
    return ""


def to_ms(moment: datetime | None) -> int | None:
    return int(moment.timestamp() * 1000) if moment is not None else None


def when(moment: datetime | None, now_ms: int) -> str:
    """`2026-04-08 06:24 (7mo ago)`."""
    ms = to_ms(moment)
    return f"{absolute(ms)} ({relative(ms, now_ms)})" if ms is not None else ""


def toolbar(widgets: list[Any]) -> Horizontal:
    """A filter toolbar directly under a tab strip (no top margin: the strip already separates it)."""
    bar = Horizontal(*widgets, classes="toolbar")
    bar.styles.margin = (0, 0, 0, 0)
    return bar


def yes_no(value: bool | None) -> str:
    return "" if value is None else ("yes" if value else "no")


class Body:
    """A detail body built as `Text` (server strings cleaned, never markup): title, label/value lines, sections."""

    def __init__(self, width: int = 15, *, show_title: bool = True) -> None:
        self.text = Text()
        self.width = width
        self.show_title = show_title  # off in a RecordScreen, whose own title says it

    def title(self, text: str, style: str = "bold") -> Body:
        if self.show_title:
            self.text.append(clean(text) + "\n", style=style)
        return self

    def line(self, label: str, value: Any, style: str = "") -> Body:
        if value is None or value == "" or value == []:
            return self
        shown = ", ".join(clean(x) for x in value) if isinstance(value, (list, tuple)) else clean(value)
        self.text.append(self._label(label, self.width), style="bold")
        self.text.append(shown + "\n", style=style)
        return self

    @staticmethod
    def _label(label: str, width: int) -> str:
        """The label padded to the value column; one longer than the column still ends in two spaces (never "ANALYZER_EXPORT1.0")."""
        return f"{label:<{width}}" if len(label) < width else label + "  "

    def section(self, text: str) -> Body:
        self.text.append("\n" + text + "\n", style="bold underline")
        return self

    def note(self, text: str, style: str = "italic dim") -> Body:
        lead = len(text) - len(text.lstrip("\n"))
        self.text.append("\n" * lead + clean(text.lstrip("\n")) + "\n", style=style)
        return self

    def pairs(self, items: Iterable[tuple[str, Any]], indent: int = 2) -> Body:
        for name, value in items:
            self.text.append(" " * indent + self._label(clean(name), self.width - indent), style="bold")
            self.text.append(clean("" if value is None else value) + "\n")
        return self


class RecordScreen(FlexModal[str | None]):
    """Every field of one record, and the actions that apply to it (each a key; the result is the action name)."""

    BINDINGS = [Binding("escape,q", "dismiss(None)", "Close", id="record.close")]

    DEFAULT_CSS = """
    RecordScreen { align: center middle; }
    RecordScreen > Vertical { width: 96; max-width: 98%; height: auto; max-height: 94%; border: thick $primary; background: $surface; padding: 0 1; }
    RecordScreen #record-title { text-style: bold; padding: 0 1; margin-bottom: 1; }
    RecordScreen VerticalScroll { height: auto; max-height: 100%; padding: 0 1; }
    RecordScreen #record-hint { color: $text-muted; padding: 0 1; margin-top: 1; }
    """

    def __init__(self, title: str, body: Text, actions: Iterable[tuple[str, str, str]] = ()) -> None:
        super().__init__()
        self._title = title
        self._body = body
        self.actions = list(actions)  # (key, action name, label)
        for key, action, label in self.actions:  # each with an id, like every key (remappable in [keys])
            self._bindings._add_binding(Binding(key, f"choose('{action}')", label.capitalize(), id=f"record.{action}"))

    def compose(self) -> ComposeResult:
        hint = " · ".join(f"{key} {label}" for key, _, label in self.actions)
        with Vertical():
            yield Label(Text(clean(self._title)), id="record-title")
            with VerticalScroll(id="record-scroll"):
                yield Static(safe(self._body), id="record-body")  # the detail kit of every area: cleaned here once
            yield Label(Text((hint + " · " if hint else "") + "escape close"), id="record-hint")

    def on_mount(self) -> None:
        self.query_one("#record-scroll").focus()

    def action_choose(self, action: str) -> None:
        self.dismiss(action)


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


def attribute_list(text: str, path: str, problems: dict[str, str]) -> list[dict[str, str]]:
    """`Name=value; Other=value` → [{name, value}]; a pair without `=` is a problem at `path`."""
    out = []
    for part in (text or "").split(";"):
        part = part.strip()
        if not part:
            continue
        name, sep, value = part.partition("=")
        if not sep or not name.strip():
            problems.setdefault(path, f"write Name=value pairs separated by ; (got {part!r})")
            continue
        out.append({"name": name.strip(), "value": value.strip()})
    return out


def term_problems(body: dict[str, Any], path: str, problems: dict[str, str]) -> None:
    """A line item's date rules (permanent vs expiry, expiry not before start), checked even when other fields are bad."""
    try:
        v.check_term(body.get("startDate") or None, body.get("expiryDate") or None, bool(body.get("isPermanent")))
    except v.FieldProblem as exc:
        problems.setdefault(f"{path}.{exc.field}", exc.message)
    except ValueError:
        pass  # a date that does not parse: the model names it


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


class BetaForm(FormScreen):
    """A FormScreen whose errors come by field path (`lineItems[0].startDate`), with repeatable sections.

    `build(values)` returns the model or raises `FormInvalid`/`ValidationError`
    (paths as `errors_by_field` gives them); each path is shown at the field
    whose `errors` name it (or the nearest enclosing path). Server errors are
    mapped the same way. Optional: suggesters per field, hints that follow
    the values, and a preview (e.g. the defaults the server will apply).
    """

    BINDINGS = [Binding("ctrl+n", "add_section", "Add item", show=False, id="betaform.add")]

    DEFAULT_CSS = """
    BetaForm > Vertical { width: 96; }
    BetaForm.-tall VerticalScroll { height: 1fr; max-height: 100%; }
    BetaForm .form-section { height: 1; margin: 0 0 1 0; }
    BetaForm .form-section-title { width: 1fr; padding: 0 1; text-style: bold; color: $accent; }
    BetaForm .form-remove { margin-right: 1; }
    BetaForm #form-add { margin: 0 1 1 1; }
    BetaForm #form-preview { padding: 0 1; margin-top: 1; height: auto; color: $text; border-top: solid $primary-darken-2; }
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
    ) -> None:
        self.head = fields
        self.section = section
        self._user_send = send
        super().__init__(title, self._all_specs(), build, self._send_mapped, submit_label=submit_label)
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
                                yield Button(f"Remove {sec.title.lower()} {i + 1}", id=f"form-remove-{i}", classes="form-remove", compact=True)
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
            out.append({k[len(prefix):]: x for k, x in values.items() if k.startswith(prefix)})
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
                index_text, _, name = spec.key[len(prefix):].partition("-")
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
            index, _, _ = spec.key[len(sec.prefix):].partition("-")
            if index.isdigit():
                return f"{sec.title} {int(index) + 1}: {spec.label}"
        return spec.label

    async def _send_mapped(self, model: Any) -> Any:
        try:
            return await self._user_send(model)
        except ApiError as exc:
            if exc.field:
                if exc.message.startswith(f"{exc.field}: "):  # the field is shown by place: its path need not be repeated
                    exc.message = exc.message[len(exc.field) + 2:]
                key = self.key_for(exc.field, visible_only=False)
                if key is not None:
                    exc.field = key
                    self.call_after_refresh(self.focus_first_error)
            raise


# =====================================================================================================
# The catalogue as the forms need it (names and versions to suggest and check)
# =====================================================================================================


class CatalogueIndex:
    """Products and maintenance products by name and version, loaded once per screen (cached pages)."""

    def __init__(self) -> None:
        self.products: dict[str, dict[str, Product]] = {}
        self.maintenance: dict[str, dict[str, MaintenanceProduct]] = {}
        self.complete = False
        self.loaded = False
        self.failed = ""  # why it could not be loaded (then no suggestions, and no "loading…")

    @property
    def waiting_note(self) -> str:
        """What a hint says while the catalogue is not there: loading, or why it never will be."""
        return "no suggestions: the catalogue could not be loaded" if self.failed else "loading the catalogue for suggestions…"

    async def load(self, service: ProductsService, max_pages: int = 10) -> None:
        """Read both lists page by page (cached pages first); `complete` says whether every page was read."""
        if self.loaded:
            return
        complete = True
        for target, pager in ((self.products, service.products_page), (self.maintenance, service.maintenance_page)):
            for page_no in range(1, max_pages + 1):
                got = None
                async for got in pager(None, page_no, MAX_LIMIT):
                    pass  # the freshest answer
                assert got is not None
                for item in got.items:
                    target.setdefault(item.product_name, {})[item.version or ""] = item  # type: ignore[index]
                if len(got.items) < MAX_LIMIT:
                    break
            else:
                complete = False
        self.complete = complete
        self.loaded = True

    def names(self) -> list[str]:
        return sorted(self.products)

    def versions(self, name: str) -> list[str]:
        return sorted(self.products.get(name.strip(), {}), reverse=True)

    def find(self, name: str, version: str) -> Product | None:
        return self.products.get(name.strip(), {}).get(version.strip())

    def license_models(self, name: str, version: str) -> list[str]:
        product = self.find(name, version)
        if product is not None:
            return product.license_models
        found: list[str] = []
        for p in self.products.get(name.strip(), {}).values():
            found += [m for m in p.license_models if m not in found]
        return found

    def maintenance_names(self) -> list[str]:
        return sorted(self.maintenance)

    def maintenance_versions(self, name: str) -> list[str]:
        return sorted(self.maintenance.get(name.strip(), {}), reverse=True)


def product_hint(catalogue: CatalogueIndex, name: str, version: str) -> tuple[str, str]:
    """Hints for the product and version fields of a line item."""
    name, version = name.strip(), version.strip()
    if not catalogue.loaded:
        return catalogue.waiting_note, ""
    if not name:
        return f"{len(catalogue.products)} products in the catalogue: type to complete (→ accepts)", ""
    versions = catalogue.versions(name)
    if not versions:
        close = [n for n in catalogue.names() if name.lower() in n.lower()][:4]
        return ("⚠ not in the catalogue" + (f"; did you mean {', '.join(close)}?" if close else "")), ""
    product = catalogue.find(name, version)
    if version and product is None:
        return f"versions: {', '.join(versions)}", f"⚠ {name} has no version {version}: {', '.join(versions)}"
    if product is not None:
        models = ", ".join(product.license_models) or "none"
        return f"versions: {', '.join(versions)}", f"{product.state or ''} · license models: {models}".strip(" ·")
    return f"versions: {', '.join(versions)}", ""


# =====================================================================================================
# The tree
# =====================================================================================================

ENT_PAGE = 200  # entitlements per page when the top level comes from the entitlement list
STATUS_OPTIONS = [("any status", ""), ("draft", "DRAFT"), ("deployed", "DEPLOYED"), ("obsolete", "OBSOLETE"), ("active", "ACTIVE"), ("inactive", "INACTIVE")]
ARG_KEYS = ("account", "product", "status", "from", "to")
_ARG_RE = re.compile(r"(?:^|\s)(" + "|".join(ARG_KEYS) + r")=", re.IGNORECASE)


def parse_argument(argument: str | None) -> dict[str, str]:
    """`:ent ACCOUNT` or `:ent product=Flex Canvas status=deployed` → filter values."""
    text = (argument or "").strip()
    if not text:
        return {}
    matches = list(_ARG_RE.finditer(text))
    if not matches or text[: matches[0].start()].strip():
        return {"account": text}
    out: dict[str, str] = {}
    for index, match in enumerate(matches):
        end = matches[index + 1].start() if index + 1 < len(matches) else len(text)
        out[match.group(1).lower()] = text[match.end() : end].strip()
    return out


@dataclass
class TreeFilters:
    account: str = ""
    product: str = ""
    status: str = ""
    created_from: str = ""
    created_to: str = ""

    @property
    def on_entitlements(self) -> bool:
        """Whether a filter concerns entitlements (then the top level comes from the entitlement list)."""
        return bool(self.product or self.status or self.created_from or self.created_to)

    def describe(self) -> str:
        parts = [f"{k}={x}" for k, x in (("account", self.account), ("product", self.product), ("status", self.status),
                                          ("created ≥", self.created_from), ("created ≤", self.created_to)) if x]
        return ", ".join(parts)

    def in_dates(self, ent: Entitlement) -> bool:
        if not (self.created_from or self.created_to):
            return True
        created = ent.created
        if created is None:
            return False
        day = created.astimezone(timezone.utc).date().isoformat()
        return (not self.created_from or day >= self.created_from) and (not self.created_to or day <= self.created_to)


def account_lookup(value: str) -> list[tuple[str, str]]:
    """Which query parameter to try first for "account name or ID" (the other one if nothing matches)."""
    value = value.strip()
    if not value:
        return []
    if re.fullmatch(r"[\w\-.]+", value) and any(ch.isdigit() for ch in value):
        return [("accountId", value), ("accountName", value)]
    return [("accountName", value), ("accountId", value)]


@dataclass
class Root:
    """A top-level account: from the users service, or from the accounts of listed entitlements."""

    account_id: str
    name: str | None = None
    account_type: str | None = None
    account: Account | None = None
    ref: EntitlementAccount | None = None


@dataclass
class Item:
    """What a tree node stands for."""

    kind: str  # account | entitlement | line_item | product | license_model | loading | message
    key: str = ""
    account_id: str | None = None
    root: Root | None = None
    entitlement: Entitlement | None = None
    line_item: LineItem | None = None
    product: LineItemProduct | None = None


@dataclass
class Expansion:
    """One lazy load, for the status line, tests and the benchmark."""

    key: str
    started: float
    shown: float | None = None
    finished: float | None = None
    requests_before: int = 0
    requests: int = 0
    from_cache: bool = False

    @property
    def seconds(self) -> float | None:
        return None if self.shown is None else self.shown - self.started


class EntitlementTree(SafeDispatch, Tree[Item]):
    """The tree with → / ← to expand and collapse (or move to the parent)."""

    BINDINGS = [
        Binding("right", "expand_node", "Expand", show=False, id="enttree.expand"),
        Binding("left", "collapse_node", "Collapse", show=False, id="enttree.collapse"),
    ]

    def render_label(self, node: TreeNode[Item], base_style: Style, style: Style) -> Text:
        """A label as wide as the tree allows, ending "…" when it is longer (never cut silently at the edge)."""
        text = super().render_label(node, base_style, style)
        depth = 0
        parent = node.parent
        while parent is not None and not parent.is_root:
            depth += 1
            parent = parent.parent
        if self.show_root:
            depth += 1
        room = self.scrollable_content_region.width - depth * self.guide_depth
        if room > 1 and text.cell_len > room:
            text.truncate(room, overflow="ellipsis")
        return text

    def move_to(self, node: TreeNode[Item]) -> None:
        """Move the cursor to a node just added (its line is known once the lines are rebuilt)."""
        self._tree_lines  # noqa: B018 - rebuilds the line list now
        self.move_cursor(node)

    def action_expand_node(self) -> None:
        node = self.cursor_node
        if node is None:
            return
        if node.allow_expand and not node.is_expanded:
            node.expand()
        elif node.children:
            self.cursor_line += 1

    def action_collapse_node(self) -> None:
        node = self.cursor_node
        if node is None:
            return
        if node.is_expanded:
            node.collapse()
        elif node.parent is not None and not node.parent.is_root:
            self.move_cursor(node.parent)


class EntitlementsScreen(AreaScreen):
    """Accounts, their entitlements, line items and products, loaded as they are expanded."""

    KIND = "entitlements"
    ACTION_CAPABILITY: ClassVar[dict[str, str]] = {
        "create": "create", "add_items": "add", "policies": "policies", "properties": "properties", "maintenance": "maintenance",
    }
    HORIZONTAL_BREAKPOINTS = [(0, "-narrow"), (110, "-wide")]

    BINDINGS = [
        # The footer shows the first ones that fit (keys.KeyFooter); `?` lists them all.
        Binding("n", "create", "New", id="entitlements.create"),
        Binding("a", "add_items", "Add items", id="entitlements.add"),
        Binding("e", "properties", "Edit", id="entitlements.properties"),
        Binding("p", "policies", "Policies", id="entitlements.policies"),
        Binding("m", "maintenance", "Maint.", id="entitlements.maintenance"),
        Binding("u", "users", "Users", id="entitlements.users"),
        Binding("P,shift+p", "catalogue", "Product", id="entitlements.catalogue"),
        Binding("i", "details", "Details", id="entitlements.details"),
        Binding("c", "copy_id", "Copy ID", show=False, id="entitlements.copy"),
        Binding("f", "focus_filters", "Filters", show=False, id="entitlements.filters"),
        Binding("x", "clear_filters", "Clear filters", show=False, id="entitlements.clear"),
        Binding("right_square_bracket", "page(1)", "Next page", show=False, id="entitlements.next_page"),
        Binding("left_square_bracket", "page(-1)", "Previous page", show=False, id="entitlements.prev_page"),
        Binding("ctrl+r", "reload", "Refresh from the server", show=False, id="entitlements.reload"),
    ]

    DEFAULT_CSS = """
    EntitlementsScreen #ent-main { height: 1fr; }
    EntitlementsScreen #ent-tree { width: 1fr; height: 1fr; scrollbar-size-horizontal: 0; }
    EntitlementsScreen #ent-detail { width: 40%; height: 1fr; border-left: solid $primary-darken-2; padding: 0 1; }
    EntitlementsScreen.-narrow #ent-main { layout: vertical; }
    EntitlementsScreen.-narrow #ent-detail { width: 1fr; height: 8; border-left: none; border-top: solid $primary-darken-2; }
    EntitlementsScreen.-narrow .toolbar Label { display: none; }
    EntitlementsScreen .toolbar Input.-bad-filter { color: $error; text-style: bold; }
    """

    def __init__(self, initial: dict[str, str] | None = None) -> None:
        super().__init__()
        initial = initial or {}
        self.initial = initial
        self.filters = TreeFilters(initial.get("account", ""), initial.get("product", ""), (initial.get("status", "") or "").upper(),
                                   initial.get("from", ""), initial.get("to", ""))
        self.page = 1
        self.total: int | None = None
        self.roots: list[Root] = []
        self.ent_children: dict[str, list[Entitlement]] = {}
        self.ent_total: dict[str, int | None] = {}
        self.li_children: dict[str, list[LineItem]] = {}
        self.expanded: set[str] = set()
        self.expanding: set[str] = set()  # keys of nodes whose children are on their way (not `loading`: Textual's overlay)
        self.generation = 0
        self.force_generation: int | None = None  # a ctrl+r reload: expansions in it skip the cache too
        self.client_filter = ""
        self.expansions: list[Expansion] = []
        self.catalogue = CatalogueIndex()
        self.node_index: dict[str, TreeNode[Item]] = {}
        self._select_after: str | None = None
        self._auto_expand: str | None = initial.get("account") or None
        self._detail_key: str | None = None
        self.hidden_by_date = 0
        self._opened = -1  # the load generation whose few accounts were opened

    @classmethod
    def for_kind(cls, kind: kinds.Kind | None, argument: str | None) -> EntitlementsScreen:
        return cls(parse_argument(argument))

    @property
    def area_title(self) -> str:
        described = self.filters.describe() if self.initial else ""
        return f"{self.kind.title} · {described}" if described else self.kind.title

    # -- services -------------------------------------------------------------------------------

    @property
    def service(self) -> EntitlementsService:
        return EntitlementsService(self.ctx.session)

    @property
    def users(self) -> UsersService:
        return UsersService(self.ctx.session)

    @property
    def page_size(self) -> int:
        return min(self.ctx.settings.page_size, MAX_LIMIT)

    @property
    def tree(self) -> EntitlementTree:
        return self.query_one(EntitlementTree)

    # -- layout -------------------------------------------------------------------------------

    def compose_body(self) -> ComposeResult:
        f = self.filters
        with Horizontal(classes="toolbar"):
            yield Label("Account")
            yield Input(value=f.account, placeholder="account name/ID", id="f-account", compact=True)
            yield Label("Product")
            yield Input(value=f.product, placeholder="product name", id="f-product", compact=True)
            yield Label("Status")
            yield Select(STATUS_OPTIONS, value=f.status, allow_blank=False, id="f-status", compact=True)
            yield Label("Created")
            yield Input(value=f.created_from, placeholder="from YYYY-MM-DD", id="f-from", compact=True)
            yield Input(value=f.created_to, placeholder="to YYYY-MM-DD", id="f-to", compact=True)
        yield Label("", id="pager", classes="pager")
        with Horizontal(id="ent-main"):
            tree = EntitlementTree(Text("accounts"), id="ent-tree")
            tree.show_root = False
            tree.guide_depth = 3
            yield tree
            with VerticalScroll(id="ent-detail"):
                yield Static(Text("Move the cursor onto a node to see its details.", style="dim"), id="ent-detail-body")

    def on_mount(self) -> None:
        self.tree.focus()
        self.action_load()

    # -- loading the top level ----------------------------------------------------------------------

    def action_load(self, force: bool = False) -> None:
        """(Re)load the top level for the current filters and page."""
        self.generation += 1
        self.force_generation = self.generation if force else None
        self.expanding.clear()
        self.ent_children.clear()
        self.ent_total.clear()
        self.li_children.clear()
        self.query_one("#pager", Label).update(Text("loading…", style="dim"))
        self.run_api(lambda: self._load_roots(force), group="ent-roots", doing="loading entitlements" if self.filters.on_entitlements else "loading accounts")

    def action_reload(self) -> None:
        """Fresh from the server (ctrl+r): the top level and whatever is expanded."""
        self.action_load(force=True)

    async def _load_roots(self, force: bool) -> None:
        gen = self.generation
        if self.filters.on_entitlements:
            await self._entitlement_roots(gen, force)
        else:
            await self._account_roots(gen, force)

    async def _account_roots(self, gen: int, force: bool) -> None:
        order = account_lookup(self.filters.account) or [("", "")]
        for index, (key, value) in enumerate(order):
            last = index == len(order) - 1
            query: dict[str, Any] = {"accountType": list(v.LISTED_ACCOUNT_TYPES), "sort_by": "accountName"}
            if key:
                query[key] = value
            shown = False
            async for page in self.users.accounts_page(AccountFilter.model_validate(query), self.page, self.page_size, force=force):
                if gen != self.generation:
                    return
                if not page.items and not last:
                    continue
                self.total = page.total
                self.roots = [Root(a.account_id, a.account_name, a.account_type, account=a) for a in page.items]
                self.hidden_by_date = 0
                if len(self.roots) == 1:
                    self._auto_expand = self.roots[0].account_id  # one account: show what it holds at once
                self._render_tree()
                self.show_age(page.age)
                shown = bool(page.items)
            if shown:
                return

    async def _entitlement_roots(self, gen: int, force: bool) -> None:
        f = self.filters
        base: dict[str, Any] = {"product": f.product or None, "status": f.status or None, "sort_by": "entitlement_id"}
        order = account_lookup(f.account) or [("", "")]
        for index, (key, value) in enumerate(order):
            last = index == len(order) - 1
            query = dict(base)
            if key:
                query[key] = value
            shown = False
            async for page in self.service.list_page(EntitlementFilter.model_validate(query), self.page, ENT_PAGE, force=force):
                if gen != self.generation:
                    return
                if not page.items and not last:
                    continue
                self.total = page.total
                self._group(page.items)
                if len(self.roots) <= 3 and self._opened != gen:  # a few accounts: open them once (their entitlements are here)
                    self._opened = gen
                    self.expanded.update(f"A:{r.account_id}" for r in self.roots)
                self._render_tree()
                self.show_age(page.age)
                shown = bool(page.items)
            if shown:
                return

    def _group(self, entitlements: list[Entitlement]) -> None:
        roots: dict[str, Root] = {}
        children: dict[str, list[Entitlement]] = {}
        hidden = 0
        for ent in entitlements:
            if not self.filters.in_dates(ent):
                hidden += 1
                continue
            owner = ent.owner
            account_id = owner.account_id if owner and owner.account_id else v.DEFAULT_ACCOUNT
            if account_id not in roots:
                roots[account_id] = Root(account_id, owner.account_name if owner else None, owner.account_type if owner else None, ref=owner)
            children.setdefault(account_id, []).append(ent)
        self.roots = sorted(roots.values(), key=lambda r: ((r.name or r.account_id).lower(), r.account_id))
        self.ent_children = children
        self.ent_total = {k: len(x) for k, x in children.items()}
        self.hidden_by_date = hidden

    # -- rendering ------------------------------------------------------------------------------------

    def _matches(self, *texts: Any) -> bool:
        needle = self.client_filter
        inverse = needle.startswith("!")
        needle = (needle[1:] if inverse else needle).strip().lower()
        if not needle:
            return True
        found = any(needle in clean(t).lower() for t in texts if t)
        return found != inverse

    def _root_matches(self, root: Root) -> bool:
        if self._matches(root.account_id, root.name, root.account_type):
            return True
        return any(self._ent_matches(e) for e in self.ent_children.get(root.account_id, []))

    def _ent_matches(self, ent: Entitlement) -> bool:
        texts: list[Any] = [ent.entitlement_id, ent.description, ent.status]
        for li in self.li_children.get(ent.entitlement_id, []):
            texts += [li.activation_id] + [p.product_name for p in li.products]
        return self._matches(*texts)

    def visible_roots(self) -> list[Root]:
        return [r for r in self.roots if self._root_matches(r)]

    def _render_tree(self) -> None:
        tree = self.tree
        cursor = tree.cursor_node.data.key if tree.cursor_node is not None and tree.cursor_node.data else None
        tree.root.remove_children()  # not tree.clear(): it restarts node IDs, and stale nodes would then alias new ones
        self.node_index = {}
        for root in self.visible_roots():
            key = f"A:{root.account_id}"
            node = tree.root.add(self._account_label(root), Item("account", key, root.account_id, root=root), allow_expand=True)
            self.node_index[key] = node
            if key in self.expanded or (self._auto_expand and self._auto_expand in (root.account_id, root.name)):
                self._fill(node)
                node.expand()
        self._auto_expand = None
        self._restore_cursor(self._select_after or cursor)
        self._update_pager()

    def _restore_cursor(self, key: str | None) -> None:
        tree = self.tree
        node = self.node_index.get(key) if key else None
        if node is not None and self._attached(node):
            tree.move_to(node)
            if key == self._select_after:
                self._select_after = None
        elif tree.cursor_line < 0 and tree.root.children:
            tree.cursor_line = 0
        self.call_after_refresh(self._show_detail)

    def _attached(self, node: TreeNode[Item]) -> bool:
        try:
            return self.tree.get_node_by_id(node.id) is node
        except UnknownNodeID:
            return False

    def _fill(self, node: TreeNode[Item]) -> None:
        """Add a node's children from what is loaded (a "loading…" marker when it is on its way)."""
        item = node.data
        assert item is not None
        node.remove_children()
        if item.kind == "account":
            assert item.account_id is not None
            ents = self.ent_children.get(item.account_id)
            if ents is None:
                self._marker(node, "loading…" if item.key in self.expanding else "not loaded: collapse and expand to load")
                return
            root_matches = item.root is not None and self._matches(item.account_id, item.root.name)
            shown = [e for e in ents if self.filters.in_dates(e) and (root_matches or self._ent_matches(e))]
            for ent in shown:
                key = f"E:{ent.entitlement_id}"
                child = node.add(self._entitlement_label(ent), Item("entitlement", key, item.account_id, entitlement=ent), allow_expand=True)
                self.node_index[key] = child
                if key in self.expanded:
                    self._fill(child)
                    child.expand()
            hidden = len(ents) - len(shown)
            total = self.ent_total.get(item.account_id)
            if not ents:
                self._marker(node, "no entitlements" + (" matching the filters" if self.filters.product or self.filters.status else ""))
            elif hidden:
                self._marker(node, f"{hidden} more hidden by the filters")
            if total is not None and total > len(ents):
                self._marker(node, f"… {total - len(ents)} more: narrow with the filters, or `flextui get entitlements {item.account_id}`")
        elif item.kind == "entitlement":
            assert item.entitlement is not None
            ent_id = item.entitlement.entitlement_id
            items = self.li_children.get(ent_id)
            if items is None:
                self._marker(node, "loading…" if item.key in self.expanding else "not loaded: collapse and expand to load")
                return
            for li in items:
                key = f"L:{li.activation_id}"
                child = node.add(self._line_item_label(li), Item("line_item", key, item.account_id, entitlement=item.entitlement, line_item=li), allow_expand=True)
                self.node_index[key] = child
                if key in self.expanded:
                    self._fill(child)
                    child.expand()
            if not items:
                self._marker(node, "no line items")
            total = item.entitlement.line_item_count
            if total is not None and total > len(items):
                self._marker(node, f"… {total - len(items)} more: `flextui get line-items {ent_id}`")
        elif item.kind == "line_item":
            li = item.line_item
            assert li is not None
            for index, product in enumerate(li.products):
                pkey = f"P:{li.activation_id}:{index}"
                label = Text.assemble(("product ", "dim"), (clean(product.product_name or "?"), "bold"), " ", clean(product.product_version or ""))
                if product.part_number:
                    label.append(f" · {clean(product.part_number)}", style="dim")
                leaf = node.add_leaf(label, Item("product", pkey, item.account_id, entitlement=item.entitlement, line_item=li, product=product))
                self.node_index[pkey] = leaf
                model = product.license_model
                if model is not None and model.license_model_name:
                    mkey = f"M:{li.activation_id}:{index}"
                    mlabel = Text.assemble(("license model ", "dim"), clean(model.license_model_name))
                    if model.issuer:
                        mlabel.append(f" · {clean(model.issuer)}", style="dim")
                    leaf2 = node.add_leaf(mlabel, Item("license_model", mkey, item.account_id, entitlement=item.entitlement, line_item=li, product=product))
                    self.node_index[mkey] = leaf2
            if not li.products:
                self._marker(node, "no product")

    def _marker(self, node: TreeNode[Item], text: str) -> None:
        node.add_leaf(Text(text, style="dim italic"), Item("loading" if text == "loading…" else "message"))

    # labels

    def _account_label(self, root: Root) -> Text:
        label = Text.assemble((clean(root.name or root.account_id), "bold"))
        count = self.ent_total.get(root.account_id)
        if count is not None and root.account_id in self.ent_children:  # before the ID: a narrow tree cuts the end ("…")
            label.append(f" · {plural(count, 'entitlement')}", style="dim")
        if root.name:
            label.append(f"  {clean(root.account_id)}", style="dim")
        if root.account_type and root.account_type != "CUSTOMER":
            label.append(f"  {clean(root.account_type).lower()}", style="italic dim")
        return label

    def _entitlement_label(self, ent: Entitlement) -> Text:
        label = Text.assemble((clean(ent.entitlement_id), "bold"), "  ")
        label.append(clean((ent.status or "?").lower()), style=state_style(self.app, ent.status))
        if ent.line_item_count is not None:
            label.append(f" · {plural(ent.line_item_count, 'item')}", style="dim")
        if ent.description:
            label.append(" · " + clean(ent.description))
        return label

    def _line_item_label(self, li: LineItem) -> Text:
        label = Text.assemble((clean(li.activation_id), "bold"), "  ")
        label.append(clean((li.state or "?").lower()), style=state_style(self.app, li.state))
        label.append(" · ")
        product = li.product
        if li.maintenance:
            label.append("maint. ", style="italic")
        if product is not None:
            label.append(clean(f"{product.product_name or '?'} {product.product_version or ''}".strip()))
        if li.quantity is not None:
            label.append(f" ×{li.quantity}")
        label.append_text(self._term(li))
        return label

    def _term(self, li: LineItem) -> Text:
        if li.permanent:
            return Text(" · permanent", style="dim")
        if not li.expiry_date:
            return Text("")
        try:
            expiry = date.fromisoformat(li.expiry_date)
        except ValueError:
            return Text(f" · until {clean(li.expiry_date)}")
        today = datetime.fromtimestamp(self.ctx.now_ms() / 1000, tz=timezone.utc).date()
        days = (expiry - today).days
        if days < 0:
            return Text(f" · expired {li.expiry_date}", style=theme_color(self.app, "error"))
        if days <= self.ctx.settings.expiring_days * 4:
            return Text(f" · ⚠ expires in {days}d ({li.expiry_date})", style=f"bold {theme_color(self.app, 'warning')}")
        return Text(f" · until {li.expiry_date}", style="dim")

    def _update_pager(self) -> None:
        f = self.filters
        total = self.total or 0
        if f.on_entitlements:
            pages = max(1, -(-total // ENT_PAGE))
            first = (self.page - 1) * ENT_PAGE + 1 if total else 0
            last = min(self.page * ENT_PAGE, total)
            parts = [f"entitlements {first}–{last} of {total:,} matching {f.describe()}", plural(len(self.roots), 'account')]
            if self.hidden_by_date:
                parts.append(f"{self.hidden_by_date} of this page created outside the dates")
        else:
            pages = max(1, -(-total // self.page_size))
            first = (self.page - 1) * self.page_size + 1 if total else 0
            last = min(self.page * self.page_size, total)
            parts = [f"accounts {first}–{last} of {total:,}" + (f" matching {f.account!r}" if f.account else "")]
        parts.append(f"page {self.page} of {pages}")
        if pages > 1:
            parts.append("] next · [ prev")
        if self.client_filter:
            parts.append(f"/{self.client_filter}: {len(self.visible_roots())} shown")
            if pages > 1:
                parts.append("on this page · enter asks the server for every page by account")
        if not total:
            parts = ["nothing matches " + (f.describe() or "") + (" · x clears the filters" if f.describe() else "")]
        self.query_one("#pager", Label).update(Text(clean(" · ".join(parts))))

    # -- lazy loading on expansion ----------------------------------------------------------------------

    @on(Tree.NodeExpanded, "#ent-tree")
    def _expanded(self, event: Tree.NodeExpanded[Item]) -> None:
        node = event.node
        item = node.data
        if item is None or item.kind not in ("account", "entitlement", "line_item") or not self._attached(node):
            return
        self.expanded.add(item.key)
        if item.kind == "account":
            assert item.account_id is not None
            if item.account_id in self.ent_children or item.key in self.expanding:
                if not node.children:
                    self._fill(node)
                return
            self._start_load(node, item)
        elif item.kind == "entitlement":
            assert item.entitlement is not None
            if item.entitlement.entitlement_id in self.li_children or item.key in self.expanding:
                if not node.children:
                    self._fill(node)
                return
            self._start_load(node, item)
        elif not node.children:
            self._fill(node)

    @on(Tree.NodeCollapsed, "#ent-tree")
    def _collapsed(self, event: Tree.NodeCollapsed[Item]) -> None:
        item = event.node.data
        if item is not None and self._attached(event.node):
            self.expanded.discard(item.key)
            if item.kind in ("account", "entitlement") and item.key not in self.expanding:
                loaded = self.ent_children if item.kind == "account" else self.li_children
                ident = item.account_id if item.kind == "account" else (item.entitlement.entitlement_id if item.entitlement else "")
                if ident not in loaded:
                    event.node.remove_children()  # a failed load: expanding again retries

    def _start_load(self, node: TreeNode[Item], item: Item, *, force: bool = False) -> None:
        gen = self.generation
        force = force or self.force_generation == gen
        self.expanding.add(item.key)
        record = Expansion(item.key, time.perf_counter(), requests_before=self.ctx.session.requests_sent)
        self.expansions.append(record)
        node.remove_children()
        self._marker(node, "loading…")

        async def job() -> None:
            try:
                if item.kind == "account":
                    assert item.account_id is not None
                    query = EntitlementFilter(accountId=item.account_id)
                    async for page in self.service.list_page(query, 1, MAX_LIMIT, force=force):
                        if gen != self.generation:
                            return
                        self.ent_children[item.account_id] = page.items
                        self.ent_total[item.account_id] = page.total
                        self._loaded(item.key, record, page.age)
                else:
                    assert item.entitlement is not None
                    ent_id = item.entitlement.entitlement_id
                    async for page in self.service.line_items_page(ent_id, None, 1, MAX_LIMIT, force=force):
                        if gen != self.generation:
                            return
                        self.li_children[ent_id] = page.items
                        self._loaded(item.key, record, page.age)
            except Exception:
                if gen == self.generation:
                    self.expanding.discard(item.key)
                    target = self.node_index.get(item.key)
                    if target is not None and self._attached(target):
                        target.remove_children()
                        self._marker(target, "✗ failed to load: collapse and expand to retry (error below)")
                raise
            finally:
                record.finished = time.perf_counter()
                record.requests = self.ctx.session.requests_sent - record.requests_before
                if gen == self.generation:
                    self.expanding.discard(item.key)

        what = f"entitlements of {item.account_id}" if item.kind == "account" else f"line items of {item.entitlement.entitlement_id if item.entitlement else '?'}"
        self.run_api(job, group=f"expand-{item.key}", doing=f"loading {what}")

    def _loaded(self, key: str, record: Expansion, age: float | None) -> None:
        if record.shown is None:
            record.shown = time.perf_counter()
            record.from_cache = age is not None
        node = self.node_index.get(key)
        if node is None or not self._attached(node):
            return
        item = node.data
        assert item is not None
        self.expanding.discard(key)
        if item.kind == "account" and item.root is not None:
            node.set_label(self._account_label(item.root))
        cursor = self.tree.cursor_node
        cursor_key = cursor.data.key if cursor is not None and cursor.data is not None else None
        self._fill(node)
        if cursor_key and cursor_key in self.node_index and cursor_key != key:
            target = self.node_index[cursor_key]
            if self._attached(target):
                self.tree.move_to(target)
        if self._select_after and self._select_after in self.node_index:
            self.tree.move_to(self.node_index[self._select_after])
            self._select_after = None
        self._show_detail()

    def forget_children(self) -> None:
        """Drop what expansions loaded (the session cache keeps it) and collapse everything."""
        self.generation += 1
        self.ent_children.clear()
        self.ent_total.clear()
        self.li_children.clear()
        self.expanding.clear()
        self.expanded.clear()
        if self.filters.on_entitlements:
            self.action_load()
        else:
            self._render_tree()

    # -- detail ------------------------------------------------------------------------------------

    @on(Tree.NodeHighlighted, "#ent-tree")
    def _highlighted(self, event: Tree.NodeHighlighted[Item]) -> None:
        self._show_detail()

    def current(self) -> Item | None:
        node = self.tree.cursor_node
        return node.data if node is not None else None

    def _show_detail(self) -> None:
        try:
            body = self.query_one("#ent-detail-body", Static)
        except Exception:
            return
        item = self.current()
        text = self.detail_text(item) if item is not None else None
        body.update(text or Text("Move the cursor onto a node to see its details.", style="dim"))

    def detail_text(self, item: Item, *, show_title: bool = True) -> Text | None:
        now = self.ctx.now_ms()
        if item.kind == "account" and item.root is not None:
            return self._account_detail(item.root, show_title=show_title)
        if item.kind == "entitlement" and item.entitlement is not None:
            return entitlement_detail(item.entitlement, now, self.li_children.get(item.entitlement.entitlement_id), show_title=show_title).text
        if item.kind == "line_item" and item.line_item is not None:
            return line_item_detail(item.line_item, item.entitlement, now, show_title=show_title).text
        if item.kind in ("product", "license_model") and item.product is not None:
            return product_detail(item.product, item.line_item, show_title=show_title).text
        return None

    def _account_detail(self, root: Root, *, show_title: bool = True) -> Text:
        b = Body(show_title=show_title)
        b.title(f"Account {root.name or root.account_id}")
        b.line("Account ID", root.account_id).line("Type", root.account_type)
        a = root.account
        if a is not None:
            address = ", ".join(x for x in (a.address1, a.address2, a.city, a.state, a.zipcode, a.country) if x)
            b.line("Description", a.description).line("Address", address).line("Region", a.region)
            b.line("Parent", a.parent_account_id).line("Visible", yes_no(a.visible)).line("Created", when(a.created, self.ctx.now_ms()))
            if a.attributes:
                b.section("Attributes").pairs((x.name, x.value) for x in a.attributes)
        elif root.ref is not None:
            b.line("Partner tier", root.ref.partner_tier_name).line("Contact", root.ref.contact_email)
        ents = self.ent_children.get(root.account_id)
        if ents is not None:
            states: dict[str, int] = {}
            for e in ents:
                states[(e.status or "?").lower()] = states.get((e.status or "?").lower(), 0) + 1
            b.line("Entitlements", f"{len(ents)}" + (f" ({', '.join(f'{n} {s}' for s, n in sorted(states.items()))})" if states else ""))
        b.note("\nu users of this account · n new entitlement for it · c copy the ID")
        return b.text

    # -- client filter -----------------------------------------------------------------------------------

    def apply_filter(self, text: str) -> None:
        self.client_filter = text
        self._render_tree()

    def search_all(self, text: str) -> None:
        """Enter in the filter bar when the roots span several pages: the server filters every page by account."""
        text = text.strip()
        per_page = ENT_PAGE if self.filters.on_entitlements else self.page_size
        if not text or text.startswith("!") or (self.total or 0) <= per_page:
            return
        self.query_one("#f-account", Input).value = text
        self._apply_query()

    # -- query bar ------------------------------------------------------------------------------------------

    def _read_filters(self) -> TreeFilters | None:
        values = TreeFilters(
            self.query_one("#f-account", Input).value.strip(),
            self.query_one("#f-product", Input).value.strip(),
            str(self.query_one("#f-status", Select).value or ""),
            self.query_one("#f-from", Input).value.strip(),
            self.query_one("#f-to", Input).value.strip(),
        )
        bad = []
        for wid, value in (("#f-from", values.created_from), ("#f-to", values.created_to)):
            widget = self.query_one(wid, Input)
            ok = True
            if value:
                try:
                    v.parse_ymd(value)
                except ValueError as exc:
                    ok = False
                    bad.append(f"created {'from' if wid == '#f-from' else 'to'}: {exc}")
            widget.set_class(not ok, "-bad-filter")
        if not bad and values.created_from and values.created_to and values.created_to < values.created_from:
            bad.append("created to: must not be before created from")
        if bad:
            self.report_error(Invalid("; ".join(bad)), doing="filters")
            return None
        return values

    def _apply_query(self) -> None:
        values = self._read_filters()
        if values is None:
            return
        if values == self.filters and self._has_data:
            self.tree.focus()
            return
        self.filters = values
        self.page = 1
        self.expanded.clear()
        self.status.error = ""
        self.action_load()
        self.tree.focus()

    @on(Input.Submitted, "#f-account, #f-product, #f-from, #f-to")
    def _query_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self._apply_query()

    @on(Select.Changed, "#f-status")
    def _status_changed(self, event: Select.Changed) -> None:
        event.stop()
        if str(event.value or "") != self.filters.status:
            self._apply_query()

    def action_focus_filters(self) -> None:
        self.query_one("#f-account", Input).focus()

    def action_clear_filters(self) -> None:
        for wid in ("#f-account", "#f-product", "#f-from", "#f-to"):
            self.query_one(wid, Input).value = ""
        self.query_one("#f-status", Select).value = ""
        self._apply_query()

    def action_page(self, delta: int) -> None:
        size = ENT_PAGE if self.filters.on_entitlements else self.page_size
        target = self.page + delta
        if target < 1 or (self.total is not None and (target - 1) * size >= max(self.total, 1)):
            return
        self.page = target
        self.action_load()

    # -- jumps and copying ---------------------------------------------------------------------------------

    def _account_of(self, item: Item | None) -> Root | None:
        if item is None or item.account_id is None:
            return None
        return next((r for r in self.roots if r.account_id == item.account_id), Root(item.account_id))

    def action_users(self) -> None:
        root = self._account_of(self.current())
        if root is None:
            self.say("Put the cursor on an account (or anything in it) to list its users")
            return
        self.app.open_kind(kinds.get("users"), root.account_id)  # type: ignore[attr-defined]

    def action_catalogue(self) -> None:
        item = self.current()
        product = item.product if item is not None else None
        if product is None and item is not None and item.line_item is not None:
            product = item.line_item.product
        if product is None or not product.product_name:
            self.say("Put the cursor on a line item or its product to open it in the catalogue")
            return
        argument = product.product_name + (f"@{product.product_version}" if product.product_version else "")
        self.app.open_kind(kinds.get("products"), argument)  # type: ignore[attr-defined]

    def action_copy_id(self) -> None:
        item = self.current()
        if item is None:
            return
        if item.kind == "account" and item.account_id:
            value, what = item.account_id, "account ID"
        elif item.kind == "entitlement" and item.entitlement is not None:
            value, what = item.entitlement.entitlement_id, "entitlement ID"
        elif item.line_item is not None:
            value, what = item.line_item.activation_id, "activation ID"
        else:
            return
        self.app.copy_text(value, f"{what} {value}")  # type: ignore[attr-defined]

    def action_details(self) -> None:
        item = self.current()
        if item is None:
            return
        text = self.detail_text(item, show_title=False)
        if text is None:
            return
        ro = self.ctx.read_only
        actions: list[tuple[str, str, str]] = []
        if item.kind == "account":
            title = f"Account {item.account_id}"
            actions = [("u", "users", "users"), ("c", "copy_id", "copy ID")] + ([] if ro else [("n", "create", "new entitlement")])
        elif item.kind == "entitlement":
            title = f"Entitlement {item.entitlement.entitlement_id if item.entitlement else ''}"
            actions = [("c", "copy_id", "copy ID")] + ([] if ro else [("a", "add_items", "add line items"), ("m", "maintenance", "maintenance item")])
        elif item.kind in ("product", "license_model") and item.product is not None:
            title = f"Product {item.product.product_name or ''} {item.product.product_version or ''}".strip()
            actions = [("P", "catalogue", "catalogue"), ("c", "copy_id", "copy activation ID")]
        else:
            li = item.line_item
            title = f"Line item {li.activation_id if li else ''}"
            actions = [("P", "catalogue", "catalogue"), ("c", "copy_id", "copy ID")]
            if not ro:
                actions += [("p", "policies", "policies"), ("e", "properties", "edit"), ("m", "maintenance", "maintenance item")]

        def chosen(action: str | None) -> None:
            if action:
                self.call_later(self.run_action, action)

        self.app.push_screen(RecordScreen(title, text, actions), chosen)

    # -- mutations ----------------------------------------------------------------------------------------------

    def _refuse(self, what: str) -> bool:
        """True (and a message) on a read-only profile: the action is hidden there, and refused if reached anyway."""
        if self.ctx.read_only:
            self.report_error(ReadOnly(f"profile {self.ctx.profile_name!r} is read-only: {what} is not allowed"), doing=what)
            return True
        return False

    def _today(self) -> date:
        return datetime.fromtimestamp(self.ctx.now_ms() / 1000, tz=timezone.utc).date()

    def _load_catalogue(self) -> None:
        if self.catalogue.loaded:
            return

        async def job() -> None:
            self.catalogue.failed = ""
            await self.catalogue.load(ProductsService(self.ctx.session))
            recheck()

        def recheck() -> None:
            form = self.app.screen
            if isinstance(form, BetaForm):
                form.call_after_refresh(form.recheck)

        def failed(exc: BaseException) -> None:
            self.catalogue.failed = str(exc) or type(exc).__name__
            recheck()

        self.run_api(job, group="ent-catalogue", doing="loading the catalogue for suggestions", failed=failed)

    def _line_item_specs(self, path: str) -> Callable[[int], list[FieldSpec]]:
        today = self._today()

        def specs(i: int) -> list[FieldSpec]:
            k = lambda name: section_key("li", i, name)  # noqa: E731
            p = f"{path}[{i}]"
            return [
                FieldSpec(k("productName"), "Product", errors=(f"{p}.product[0].productName", f"{p}.product", f"{p}.product[0]"), placeholder="name from the catalogue"),
                FieldSpec(k("productVersion"), "Version", errors=(f"{p}.product[0].productVersion",)),
                FieldSpec(k("licenseModel"), "License model", errors=(f"{p}.product[0].licenseModel",), placeholder="optional"),
                FieldSpec(k("quantity"), "Quantity (copies)", value="1", errors=(f"{p}.quantity",)),
                FieldSpec(k("startDate"), "Start date", value=today.isoformat(), errors=(f"{p}.startDate",), placeholder="YYYY-MM-DD"),
                FieldSpec(k("isPermanent"), "Permanent (no expiry)", kind="switch", value=False, errors=(f"{p}.isPermanent",)),
                FieldSpec(k("expiryDate"), "Expiry date", value=(today + timedelta(days=365)).isoformat(), errors=(f"{p}.expiryDate",),
                          placeholder="YYYY-MM-DD", visible_when=lambda values, i=i: not values.get(section_key("li", i, "isPermanent"))),
                FieldSpec(k("activationId"), "Activation ID", placeholder="empty: generated", errors=(f"{p}.activationId", f"{p}.autoGenerate")),
                FieldSpec(k("orderType"), "Order type", kind="select", options=[(o.lower(), o) for o in v.ORDER_TYPES], value=v.DEFAULT_ORDER_TYPE,
                          errors=(f"{p}.orderType",)),
                FieldSpec(k("attributes"), "Attributes", placeholder="Name=value; Name=value", errors=(f"{p}.attributes",)),
            ]

        return specs

    def _line_item_body(self, values: dict[str, Any], i: int, path: str, problems: dict[str, str]) -> dict[str, Any]:
        k = lambda name: values.get(section_key("li", i, name))  # noqa: E731
        p = f"{path}[{i}]"
        product: dict[str, Any] = {"productName": (k("productName") or "").strip(), "productVersion": (k("productVersion") or "").strip()}
        if (k("licenseModel") or "").strip():
            product["licenseModel"] = {"licenseModelName": k("licenseModel").strip()}
        if self.catalogue.loaded and self.catalogue.complete and product["productName"] and product["productVersion"]:
            if self.catalogue.find(product["productName"], product["productVersion"]) is None:
                versions = self.catalogue.versions(product["productName"])
                if versions:
                    problems.setdefault(f"{p}.product[0].productVersion", f"{product['productName']} has no version {product['productVersion']} (versions: {', '.join(versions)})")
                else:
                    problems.setdefault(f"{p}.product[0].productName", f"no product {product['productName']} in the catalogue")
        body: dict[str, Any] = {
            "product": [product],
            "quantity": number(values, section_key("li", i, "quantity"), f"{p}.quantity", problems, default=1),
            "startDate": (k("startDate") or "").strip(),
            "isPermanent": bool(k("isPermanent")),
            "orderType": k("orderType") or v.DEFAULT_ORDER_TYPE,
            "attributes": attribute_list(k("attributes") or "", f"{p}.attributes", problems),
        }
        if not body["isPermanent"]:
            body["expiryDate"] = (k("expiryDate") or "").strip()
        if (k("activationId") or "").strip():
            body["activationId"] = k("activationId").strip()
        term_problems(body, p, problems)
        return body

    def _line_item_hints(self, values: dict[str, Any], count: int) -> dict[str, str]:
        out: dict[str, str] = {}
        for i in range(count):
            name = values.get(section_key("li", i, "productName"), "")
            version = values.get(section_key("li", i, "productVersion"), "")
            first, second = product_hint(self.catalogue, name, version)
            out[section_key("li", i, "productName")] = first
            if second:
                out[section_key("li", i, "productVersion")] = second
            models = self.catalogue.license_models(name, version) if name else []
            if models:
                out[section_key("li", i, "licenseModel")] = "license models: " + ", ".join(models)
        return out

    def _line_item_suggester(self, form_ref: list[BetaForm]) -> Callable[[FieldSpec], Suggester | None]:
        def choose(spec: FieldSpec) -> Suggester | None:
            if not spec.key.startswith("li") or "-" not in spec.key:
                return None
            index, _, name = spec.key[2:].partition("-")
            if name == "productName":
                return NameSuggester(self.catalogue.names)
            if name == "productVersion":
                return NameSuggester(lambda: self.catalogue.versions(form_ref[0].value_of(section_key("li", int(index), "productName")) if form_ref else ""))
            if name == "licenseModel":
                return NameSuggester(lambda: self.catalogue.license_models(
                    form_ref[0].value_of(section_key("li", int(index), "productName")) if form_ref else "",
                    form_ref[0].value_of(section_key("li", int(index), "productVersion")) if form_ref else ""))
            return None

        return choose

    def action_create(self) -> None:
        if self._refuse("creating an entitlement"):
            return
        self._load_catalogue()
        root = self._account_of(self.current())
        account_types = [(t.lower().replace("_", " "), t) for t in v.ACCOUNT_TYPES]
        head = [
            FieldSpec("entitlementId", "Entitlement ID", placeholder="empty: generated", errors=("entitlementId", "autoGenerate")),
            FieldSpec("accountId", "Account ID", value=root.account_id if root and root.account_id != v.DEFAULT_ACCOUNT else "",
                      hint=f"{root.name}" if root and root.name else "empty: the default account UNKNOWN_ORG_UNIT",
                      errors=("accounts[0].accountId", "accounts[0]", "accounts")),
            FieldSpec("accountType", "Account type", kind="select", options=account_types,
                      value=(root.account_type if root and root.account_type in v.ACCOUNT_TYPES else "CUSTOMER"), errors=("accounts[0].accountType",),
                      visible_when=lambda values: bool(values.get("accountId", "").strip())),
            FieldSpec("partnerTier", "Partner tier", kind="select", options=[(t.lower().replace("_", " "), t) for t in v.PARTNER_TIERS],
                      value="END_CUSTOMER", errors=("accounts[0].partnerTierName",), visible_when=lambda values: bool(values.get("accountId", "").strip())),
            FieldSpec("description", "Description", errors=("description",)),
            FieldSpec("attributes", "Custom attributes", placeholder="Name=value; Name=value",
                      errors=("attributes", *(f"attributes[{n}]" for n in range(40))),
                      hint=self._attributes_hint()),
            FieldSpec("shipToEmail", "Ship-to e-mail", errors=("shipToEmail",)),
            FieldSpec("shipToAddress", "Ship-to address", errors=("shipToAddress",), hint="letters, digits, spaces, _ and - only"),
            FieldSpec("status", "Status", kind="select", options=[("draft (default)", ""), ("deployed", "DEPLOYED"), ("obsolete", "OBSOLETE")], errors=("status",)),
            FieldSpec("autoDeploy", "Deploy now (autoDeploy)", kind="switch", value=False, errors=("autoDeploy",)),
            FieldSpec("allowPortalLogin", "Portal login with the ID", kind="switch", value=False, errors=("allowPortalLogin",)),
            FieldSpec("emailTemplateVariation", "E-mail template", placeholder="optional", errors=("emailTemplateVariation",)),
        ]
        section = Section("Line item", "li", self._line_item_specs("lineItems"))
        form_ref: list[BetaForm] = []

        def build(values: dict[str, Any]) -> EntitlementCreate:
            problems: dict[str, str] = {}
            attributes = attribute_list(values["attributes"], "attributes", problems)
            data: dict[str, Any] = {
                "description": values["description"],
                "shipToEmail": values["shipToEmail"].strip(),
                "shipToAddress": values["shipToAddress"],
                "autoDeploy": bool(values["autoDeploy"]),
                "allowPortalLogin": bool(values["allowPortalLogin"]),
                "attributes": attributes,
                "lineItems": [self._line_item_body(values, i, "lineItems", problems) for i in range(section.count)],
            }
            for key in ("entitlementId", "emailTemplateVariation", "status"):
                if str(values[key]).strip():
                    data[key] = str(values[key]).strip()
            if values["accountId"].strip():
                data["accounts"] = [{"accountId": values["accountId"].strip(), "accountType": values["accountType"],
                                     "partnerTierName": values["partnerTier"], "isCurrentOwner": True}]
            # Rules across fields run in the model only once every field is valid: check them here too, so all show at once.
            try:
                v.check_auto_deploy_status(data["autoDeploy"], data.get("status"))
            except v.FieldProblem as exc:
                problems.setdefault(exc.field, exc.message)
            seen: dict[str, str] = {}
            for index, item in enumerate(data["lineItems"]):
                given = item.get("activationId")
                if given and given in seen:
                    problems.setdefault(f"lineItems[{index}].activationId", f"{given!r} is already used by {seen[given]}")
                elif given:
                    seen[given] = f"line item {index + 1}"
            return validated(EntitlementCreate, data, problems)

        sent_items = [0]

        async def send(model: EntitlementCreate) -> MutationResult:
            result = await self.service.create(model)
            # The documented answer is only {status}: what was sent names the entitlement then.
            result.entitlement_id = result.entitlement_id or model.entitlement_id
            result.activation_ids = result.activation_ids or [li.activation_id for li in model.line_items if li.activation_id]
            sent_items[0] = len(model.line_items)
            return result

        def done(result: MutationResult | None) -> None:
            if result is None:
                return
            count = len(result.activation_ids) or sent_items[0]
            name = result.entitlement_id or "(its ID generated by the server)"
            self.say(f"Entitlement {name} created with {plural(count, 'line item')}")
            account = result.entitlement.owner.account_id if result.entitlement and result.entitlement.owner else None
            self._after_change(account, None, select=f"E:{result.entitlement_id}" if result.entitlement_id else None)

        form = BetaForm("New entitlement", head, build, send, section=section, submit_label="Create",
                        suggesters=self._line_item_suggester(form_ref),
                        hints=lambda values: self._line_item_hints(values, section.count))
        form_ref.append(form)
        self.app.push_screen(form, done)

    def _entitlement_of(self, item: Item | None) -> Entitlement | None:
        return item.entitlement if item is not None else None

    def _attributes_hint(self) -> str:
        """The tenant decides its custom attributes (and which are mandatory): name the ones in use here."""
        names = sorted({a.name for node in self.node_index.values()
                        if isinstance(node.data, Item) and (ent := self._entitlement_of(node.data)) is not None for a in ent.attributes})
        seen = ("in use here: " + ", ".join(names[:8]) + ("…" if len(names) > 8 else "")) if names else "the tenant decides which are mandatory"
        return f"{seen}; a missing mandatory one is named by the server"

    def action_add_items(self) -> None:
        if self._refuse("adding line items"):
            return
        ent = self._entitlement_of(self.current())
        if ent is None:
            self.say("Put the cursor on an entitlement (or one of its line items) to add line items to it")
            return
        self._load_catalogue()
        section = Section("Line item", "li", self._line_item_specs("lineItems"))
        form_ref: list[BetaForm] = []

        def build(values: dict[str, Any]) -> LineItemsCreate:
            problems: dict[str, str] = {}
            items = [self._line_item_body(values, i, "lineItems", problems) for i in range(section.count)]
            return validated(LineItemsCreate, {"lineItems": items}, problems)

        async def send(model: LineItemsCreate) -> MutationResult:
            return await self.service.add_line_items(ent.entitlement_id, model.line_items)

        def done(result: MutationResult | None) -> None:
            if result is None:
                return
            ids = result.activation_ids
            self.say(f"{plural(len(ids), 'line item')} added to {ent.entitlement_id}: {', '.join(ids)}")
            self._after_change(None, ent.entitlement_id, select=f"L:{ids[0]}" if ids else None)

        form = BetaForm(f"Add line items to {ent.entitlement_id}", [], build, send, section=section, submit_label="Add",
                        suggesters=self._line_item_suggester(form_ref), hints=lambda values: self._line_item_hints(values, section.count))
        form_ref.append(form)
        self.app.push_screen(form, done)

    def _line_item_or_say(self, what: str) -> tuple[Entitlement, LineItem] | None:
        item = self.current()
        if item is None or item.line_item is None or item.entitlement is None:
            self.say(f"Put the cursor on a line item to {what}")
            return None
        return item.entitlement, item.line_item

    def action_policies(self) -> None:
        if self._refuse("changing line item policies"):
            return
        found = self._line_item_or_say("change its policies")
        if found is None:
            return
        ent, li = found
        current = li.policies or {}
        units = [("—", "")] + [(u.lower(), u) for u in v.POLICY_TERM_UNITS]
        fields: list[FieldSpec] = []
        for kind in v.POLICY_KINDS:
            now = current.get(kind) if isinstance(current.get(kind), dict) else {}
            title = kind.capitalize()
            fields += [
                FieldSpec(f"{kind}-count", f"{title} allowed", value=str(now.get("allowedCount", "") if now.get("allowedCount") is not None else ""),
                          errors=(f"{kind}.allowedCount", kind), placeholder="count"),
                FieldSpec(f"{kind}-duration", f"{title} per", value=str(now.get("policyTermDuration", "") if now.get("policyTermDuration") is not None else ""),
                          errors=(f"{kind}.policyTermDuration",), placeholder="term length"),
                FieldSpec(f"{kind}-unit", f"{title} term unit", kind="select", options=units,
                          value=str(now.get("policyTermUnit") or "").upper() if str(now.get("policyTermUnit") or "").upper() in v.POLICY_TERM_UNITS else "",
                          errors=(f"{kind}.policyTermUnit",)),
            ]
        extra_now = current.get("extraActivations")
        fields.append(FieldSpec("extraActivations", "Extra activations", value="" if extra_now is None else str(extra_now), errors=("extraActivations",)))
        for flag, label in (("cancelLicense", "Cancel license"), ("virtualLicense", "Virtual license"), ("acpiGenerationIdLicense", "ACPI generation ID")):
            now_flag = current.get(flag)
            fields.append(FieldSpec(flag, label, kind="select", options=TRISTATE,
                                    value="" if now_flag is None else ("true" if now_flag else "false"), errors=(flag,)))

        def build(values: dict[str, Any]) -> LineItemPolicies:
            problems: dict[str, str] = {}
            data: dict[str, Any] = {}
            for kind in v.POLICY_KINDS:
                entry: dict[str, Any] = {}
                count = number(values, f"{kind}-count", f"{kind}.allowedCount", problems)
                duration = number(values, f"{kind}-duration", f"{kind}.policyTermDuration", problems)
                if count is not None:
                    entry["allowedCount"] = count
                if duration is not None:
                    entry["policyTermDuration"] = duration
                if values[f"{kind}-unit"]:
                    entry["policyTermUnit"] = values[f"{kind}-unit"]
                if entry:
                    data[kind] = entry
            extra = number(values, "extraActivations", "extraActivations", problems)
            if extra is not None:
                data["extraActivations"] = extra
            for flag in ("cancelLicense", "virtualLicense", "acpiGenerationIdLicense"):
                chosen = bool_choice(values[flag])
                if chosen is not None:
                    data[flag] = chosen
            return validated(LineItemPolicies, data, problems)

        async def send(model: LineItemPolicies) -> MutationResult:
            return await self.service.set_policies(ent.entitlement_id, li.activation_id, model)

        def done(result: MutationResult | None) -> None:
            if result is None:
                return
            self.say(f"Policies of {li.activation_id} saved: {policies_text(result.policies or {}) or 'none'}")
            self._after_change(None, ent.entitlement_id, select=f"L:{li.activation_id}")

        self.app.push_screen(BetaForm(f"Policies of line item {li.activation_id}", fields, build, send, submit_label="Save"), done)

    def action_properties(self) -> None:
        if self._refuse("updating line item properties"):
            return
        found = self._line_item_or_say("update its properties")
        if found is None:
            return
        ent, li = found
        self._load_catalogue()
        product = li.product
        model = product.license_model if product else None
        p = "lineItems[0]"
        pp = f"{p}.product"
        lm = f"{pp}.licenseModel"
        fields = [
            FieldSpec("orderType", "Order type", kind="select", options=[(f"unchanged ({(li.order_type or '').lower()})", "")] + [(o.lower(), o) for o in v.ORDER_TYPES],
                      errors=(f"{p}.orderType",)),
            FieldSpec("parentActivationId", "Parent activation ID", placeholder=li.parent_activation_id or "none", errors=(f"{p}.parentActivationId",)),
            FieldSpec("deploy", "Deploy it now", kind="switch", value=False, errors=(f"{p}.deploy",), hint=f"now {(li.state or '?').lower()}"),
            FieldSpec("productName", "New product", placeholder=(product.product_name or "") if product else "", errors=(f"{pp}.productName", pp)),
            FieldSpec("productVersion", "New version", placeholder=(product.product_version or "") if product else "", errors=(f"{pp}.productVersion",)),
            FieldSpec("partNumber", "or part number", placeholder=(product.part_number or "") if product else "", errors=(f"{pp}.partNumber",)),
            FieldSpec("lmName", "License model", placeholder=(model.license_model_name or "") if model else "", errors=(f"{lm}.name", lm)),
            FieldSpec("issuer", "Issuer", placeholder=(model.issuer or "") if model else "", errors=(f"{lm}.issuer",)),
            FieldSpec("serialNumber", "Serial number", errors=(f"{lm}.serialNumber",)),
            FieldSpec("vendorString", "Vendor string", errors=(f"{lm}.vendorString",)),
            FieldSpec("notice", "Notice", errors=(f"{lm}.notice",)),
            FieldSpec("overdraft", "Overdraft", errors=(f"{lm}.overdraft",)),
            FieldSpec("maxBorrowInterval", "Max borrow interval", errors=(f"{lm}.maxBorrowInterval",)),
            FieldSpec("autoProvision", "Auto provision", kind="select", options=TRISTATE, errors=(f"{lm}.autoProvision",)),
            FieldSpec("gracePeriodDays", "Grace period (days)", errors=(f"{lm}.gracePeriodDays",)),
            FieldSpec("attributes", "Attributes", placeholder="Name=value; Name=value", errors=(f"{p}.attributes",),
                      hint=("now " + "; ".join(f"{a.name}={a.value}" for a in li.attributes)) if li.attributes else "set or add line item attributes"),
        ]

        def build(values: dict[str, Any]) -> AdditionalProperties:
            problems: dict[str, str] = {}
            entry: dict[str, Any] = {"activationId": li.activation_id}
            if values["orderType"]:
                entry["orderType"] = values["orderType"]
            if values["parentActivationId"].strip():
                entry["parentActivationId"] = values["parentActivationId"].strip()
            if values["deploy"]:
                entry["deploy"] = True
            prod: dict[str, Any] = {}
            for key in ("productName", "productVersion", "partNumber"):
                if values[key].strip():
                    prod[key] = values[key].strip()
            model_body: dict[str, Any] = {}
            for key, name in (("lmName", "name"), ("issuer", "issuer"), ("serialNumber", "serialNumber"), ("vendorString", "vendorString"),
                              ("notice", "notice"), ("maxBorrowInterval", "maxBorrowInterval")):
                if values[key].strip():
                    model_body[name] = values[key].strip()
            for key in ("overdraft", "gracePeriodDays"):
                got = number(values, key, f"{lm}.{key}", problems)
                if got is not None:
                    model_body[key] = got
            if bool_choice(values["autoProvision"]) is not None:
                model_body["autoProvision"] = bool_choice(values["autoProvision"])
            if model_body:
                prod["licenseModel"] = model_body
            if prod:
                entry["product"] = prod
            attrs = attribute_list(values["attributes"], f"{p}.attributes", problems)
            if attrs:
                entry["attributes"] = [{**a, "type": "line_item"} for a in attrs]
            if len(entry) == 1 and not problems:
                raise ValueError("change at least one property")
            return validated(AdditionalProperties, {"lineItems": [entry]}, problems)

        async def send(model: AdditionalProperties) -> MutationResult:
            return await self.service.update_properties(ent.entitlement_id, model)

        def done(result: MutationResult | None) -> None:
            if result is None:
                return
            changed = (result.response or {}).get(li.activation_id, {})
            updated = changed.get("updated") if isinstance(changed, dict) else None
            self.say(f"{li.activation_id} updated" + (f": {', '.join(updated)}" if updated else ""))
            self._after_change(None, ent.entitlement_id, select=f"L:{li.activation_id}")

        self.app.push_screen(BetaForm(f"Properties of line item {li.activation_id}", fields, build, send, submit_label="Update",
                                      suggesters=lambda spec: NameSuggester(self.catalogue.names) if spec.key == "productName" else None), done)

    def action_maintenance(self) -> None:
        if self._refuse("adding maintenance line items"):
            return
        item = self.current()
        ent = self._entitlement_of(item)
        if ent is None:
            self.say("Put the cursor on an entitlement or a line item to add maintenance to it")
            return
        self._load_catalogue()
        parent = item.line_item.activation_id if item is not None and item.line_item is not None and not item.line_item.maintenance else ""
        today = self._today()
        path = "maintenanceLineItems"

        def specs(i: int) -> list[FieldSpec]:
            k = lambda name: section_key("mi", i, name)  # noqa: E731
            p = f"{path}[{i}]"
            mp = f"{p}.maintenanceProduct"
            return [
                FieldSpec(k("name"), "Maintenance product", errors=(f"{mp}.maintenanceProductName", mp), placeholder="name from the catalogue"),
                FieldSpec(k("version"), "Version", errors=(f"{mp}.maintenanceProductVersion",)),
                FieldSpec(k("partNumber"), "or part number", errors=(f"{mp}.partNumber",), placeholder="instead of name and version"),
                FieldSpec(k("parent"), "Parent activation ID", value=parent if i == 0 else "", errors=(f"{p}.parentActivationId",),
                          hint="the line item it maintains (optional)"),
                FieldSpec(k("quantity"), "Quantity", value="1", errors=(f"{p}.quantity",)),
                FieldSpec(k("startDate"), "Start date", value=today.isoformat(), errors=(f"{p}.startDate",)),
                FieldSpec(k("isPermanent"), "Permanent (no expiry)", kind="switch", value=False, errors=(f"{p}.isPermanent",)),
                FieldSpec(k("expiryDate"), "Expiry date", value=(today + timedelta(days=365)).isoformat(), errors=(f"{p}.expiryDate",),
                          visible_when=lambda values, i=i: not values.get(section_key("mi", i, "isPermanent"))),
                FieldSpec(k("activationId"), "Activation ID", placeholder="empty: generated", errors=(f"{p}.activationId", f"{p}.autoGenerate")),
            ]

        section = Section("Maintenance item", "mi", specs)
        form_ref: list[BetaForm] = []

        def build(values: dict[str, Any]) -> MaintenanceLineItemsCreate:
            problems: dict[str, str] = {}
            items = []
            for i in range(section.count):
                k = lambda name, i=i: values.get(section_key("mi", i, name))  # noqa: E731
                p = f"{path}[{i}]"
                product = {"maintenanceProductName": (k("name") or "").strip(), "maintenanceProductVersion": (k("version") or "").strip(),
                           "partNumber": (k("partNumber") or "").strip()}
                body: dict[str, Any] = {
                    "maintenanceProduct": {x: y for x, y in product.items() if y},
                    "quantity": number(values, section_key("mi", i, "quantity"), f"{p}.quantity", problems, default=1),
                    "startDate": (k("startDate") or "").strip(),
                    "isPermanent": bool(k("isPermanent")),
                }
                if not body["isPermanent"]:
                    body["expiryDate"] = (k("expiryDate") or "").strip()
                for key, name in (("parent", "parentActivationId"), ("activationId", "activationId")):
                    if (k(key) or "").strip():
                        body[name] = k(key).strip()
                term_problems(body, p, problems)
                items.append(body)
            return validated(MaintenanceLineItemsCreate, {"maintenanceLineItems": items}, problems)

        async def send(model: MaintenanceLineItemsCreate) -> MutationResult:
            return await self.service.add_maintenance_line_items(ent.entitlement_id, model.line_items)

        def done(result: MutationResult | None) -> None:
            if result is None:
                return
            ids = result.activation_ids
            self.say(f"{plural(len(ids), 'maintenance line item')} added to {ent.entitlement_id}: {', '.join(ids)}")
            self._after_change(None, ent.entitlement_id, select=f"L:{ids[0]}" if ids else None)

        def hints(values: dict[str, Any]) -> dict[str, str]:
            out = {}
            for i in range(section.count):
                name = values.get(section_key("mi", i, "name"), "").strip()
                if not self.catalogue.loaded:
                    out[section_key("mi", i, "name")] = self.catalogue.waiting_note
                elif name and name in self.catalogue.maintenance:
                    out[section_key("mi", i, "name")] = "versions: " + ", ".join(self.catalogue.maintenance_versions(name))
                elif name:
                    out[section_key("mi", i, "name")] = "⚠ no such maintenance product; known: " + ", ".join(self.catalogue.maintenance_names()[:6])
                else:
                    out[section_key("mi", i, "name")] = "known: " + ", ".join(self.catalogue.maintenance_names()[:6])
            return out

        def suggest(spec: FieldSpec) -> Suggester | None:
            index, _, name = spec.key[2:].partition("-")
            if name == "name":
                return NameSuggester(self.catalogue.maintenance_names)
            if name == "version":
                return NameSuggester(lambda: self.catalogue.maintenance_versions(form_ref[0].value_of(section_key("mi", int(index), "name")) if form_ref else ""))
            return None

        form = BetaForm(f"Maintenance line items for {ent.entitlement_id}", [], build, send, section=section, submit_label="Add",
                        suggesters=suggest, hints=hints)
        form_ref.append(form)
        self.app.push_screen(form, done)

    def _after_change(self, account_id: str | None, entitlement_id: str | None, *, select: str | None = None) -> None:
        """Reload, fresh, what a change touched: an entitlement's line items and its account's entitlements (counts changed)."""
        self._select_after = select
        if entitlement_id is not None:
            node = self.node_index.get(f"E:{entitlement_id}")
            if node is not None and node.data is not None:
                account_id = account_id or node.data.account_id
            self._reload_node(f"E:{entitlement_id}")
        if account_id is None:
            return
        if self.filters.on_entitlements:
            gen = self.generation
            self.run_api(lambda: self._entitlement_roots(gen, True), group="ent-roots", doing="refreshing entitlements")
        elif not self._reload_node(f"A:{account_id}"):
            self.expanded.add(f"A:{account_id}")
            self._auto_expand = account_id
            self.action_load(force=True)

    def _reload_node(self, key: str) -> bool:
        """Load a node's children again, fresh, and show them (expanding it); False when the node is not in the tree."""
        node = self.node_index.get(key)
        if node is None or node.data is None or not self._attached(node):
            return False
        item = node.data
        if item.kind == "account" and item.account_id is not None:
            self.ent_children.pop(item.account_id, None)
        elif item.kind == "entitlement" and item.entitlement is not None:
            self.li_children.pop(item.entitlement.entitlement_id, None)
        else:
            return False
        self.expanded.add(key)
        self._start_load(node, item, force=True)
        if not node.is_expanded:
            node.expand()  # the handler sees the load under way: no second request
        return True


def entitlement_detail(ent: Entitlement, now_ms: int, items: list[LineItem] | None = None, *, show_title: bool = True) -> Body:
    b = Body(show_title=show_title)
    b.title(f"Entitlement {ent.entitlement_id}")
    b.line("Status", ent.status).line("Description", ent.description)
    for account in ent.accounts:
        tags = [x for x in (account.account_type, account.partner_tier_name, "owner" if account.is_current_owner else None) if x]
        b.line("Account", f"{account.account_name or ''} ({account.account_id})".strip() + (f" · {' · '.join(tags)}" if tags else ""))
        if account.contact_email:
            b.line("  contact", account.contact_email)
    b.line("Ship to", " · ".join(x for x in (ent.ship_to_email, ent.ship_to_address) if x))
    b.line("Portal login", yes_no(ent.allow_portal_login)).line("E-mail template", ent.email_template_variation)
    b.line("Created", when(ent.created, now_ms)).line("Updated", when(ent.updated, now_ms))
    count = ent.line_item_count if ent.line_item_count is not None else (len(items) if items is not None else None)
    b.line("Line items", "" if count is None else str(count))
    if items:
        states: dict[str, int] = {}
        for li in items:
            states[(li.state or "?").lower()] = states.get((li.state or "?").lower(), 0) + 1
        b.line("  by state", ", ".join(f"{n} {s}" for s, n in sorted(states.items())))
    if ent.attributes:
        b.section("Attributes").pairs((a.name, a.value) for a in ent.attributes)
    return b


def line_item_detail(li: LineItem, ent: Entitlement | None, now_ms: int, *, show_title: bool = True) -> Body:
    b = Body(show_title=show_title)
    b.title(f"Line item {li.activation_id}" + (" (maintenance)" if li.maintenance else ""))
    b.line("Entitlement", li.entitlement_id or (ent.entitlement_id if ent else None))
    b.line("State", li.state).line("Order type", li.order_type)
    for product in li.products:
        b.line("Product", f"{product.product_name or '?'} {product.product_version or ''}".strip() + (f" · part {product.part_number}" if product.part_number else ""))
        model = product.license_model
        if model is not None and model.license_model_name:
            extra = [x for x in (model.issuer and f"issuer {model.issuer}", model.serial_number and f"serial {model.serial_number}",
                                 model.vendor_string and f"vendor {model.vendor_string}") if x]
            b.line("License model", model.license_model_name + (f" · {' · '.join(extra)}" if extra else ""))
            b.line("  notice", model.notice)
    copies = "" if li.quantity is None else str(li.quantity)
    if li.quantity_per_copy and li.quantity_per_copy != 1:
        copies += f" × {li.quantity_per_copy} per copy"
    b.line("Quantity", copies)
    term = f"{li.start_date or '?'} → " + ("permanent" if li.permanent else (li.expiry_date or "?"))
    if li.duration:
        term += f" ({li.duration} days)"
    b.line("Term", term)
    b.line("Parent", li.parent_activation_id)
    b.line("Created", when(li_created(li), now_ms))
    b.section("Policies")
    if li.policies:
        for key, value in li.policies.items():
            if isinstance(value, dict):
                count = value.get("allowedCount")
                text = "—" if count is None else f"{count} allowed"
                if value.get("policyTermDuration") is not None:
                    text += f" per {value.get('policyTermDuration')} {str(value.get('policyTermUnit') or '').lower()}"
                b.pairs([(key, text)])
            else:
                b.pairs([(key, yes_no(value) if isinstance(value, bool) else value)])
    else:
        b.note("  none set (p sets them)")
    if li.attributes:
        b.section("Attributes").pairs((a.name, a.value) for a in li.attributes)
    return b


def li_created(li: LineItem) -> datetime | None:
    from flextui.api.timestamps import lenient_timestamp

    return lenient_timestamp(li.created_on)


def product_detail(product: LineItemProduct, li: LineItem | None, *, show_title: bool = True) -> Body:
    b = Body(show_title=show_title)
    b.title(f"Product {product.product_name or '?'} {product.product_version or ''}".strip())
    b.line("Name", product.product_name).line("Version", product.product_version).line("Part number", product.part_number)
    b.line("Quantity", "" if product.quantity is None else str(product.quantity))
    model = product.license_model
    if model is not None:
        b.section("License model")
        b.line("Name", model.license_model_name).line("Issuer", model.issuer).line("Serial number", model.serial_number)
        b.line("Vendor string", model.vendor_string).line("Notice", model.notice)
    if li is not None:
        b.line("Line item", li.activation_id)
    b.note("\ng opens it in the catalogue")
    return b


__all__ = [
    "BetaForm", "Body", "CatalogueIndex", "EntitlementsScreen", "FormInvalid", "NameSuggester", "RecordScreen", "Section",
    "attribute_list", "number", "parse_argument", "state_style", "validated", "when", "yes_no",
]
