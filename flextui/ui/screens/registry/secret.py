"""The user's registry secret with its event status: masked until revealed, fetched only on demand, never cached or logged, forgotten when the screen is left."""

from __future__ import annotations

from typing import Any, ClassVar

from pydantic import BaseModel, field_validator, model_validator
from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.widgets import Input, Label, Static

from flextui.api.errors import ApiError, NotFound
from flextui.api.registry import (
    EventStatus,
    secret_problems,
)
from flextui.render.text import clean
from flextui.ui.appref import flex_app
from flextui.ui.keyhint import bound_key, hint
from flextui.ui.screens.base import AreaScreen
from flextui.ui.screens.registry.common import MASK, RegistryMixin, problem_note
from flextui.ui.widgets.dialogs import ConfirmScreen, ValueScreen
from flextui.ui.widgets.forms import FieldSpec, FormScreen

SECRET_HIDE_AFTER_S = 60.0


class SecretChoice(BaseModel):
    """A new registry secret as typed (empty: the registry makes a random one); checked like the registry does."""

    secret: str = ""
    repeat: str = ""

    @field_validator("secret")
    @classmethod
    def _strong(cls, value: str) -> str:
        if value:
            problems = secret_problems(value)
            if problems:
                raise ValueError("needs " + "; ".join(problems))
        return value

    @model_validator(mode="after")
    def _same(self) -> SecretChoice:
        if self.secret and self.repeat != self.secret:
            raise ValueError("repeat: does not match the new secret")
        return self


EVENT_MEANING = {
    EventStatus.PROCESSED.value: ("✓", "success", "the user's registry access is set up: they can log in and pull"),
    EventStatus.IN_PROGRESS.value: ("⟳", "warning", "the registry is still setting the user up: try again in a few minutes"),
    EventStatus.CANCELLED.value: (
        "✗",
        "error",
        "setting the user up was cancelled: they cannot pull; check their permissions or entitlements",
    ),
}


class SecretScreen(RegistryMixin, AreaScreen):
    """Your registry secret (masked until revealed, forgotten on leaving), reset, and event status lookup."""

    KIND = "secret"
    ACTION_CAPABILITY: ClassVar[dict[str, str]] = {"reset": "reset"}

    BINDINGS = [
        Binding("v", "toggle_reveal", "Reveal/hide", id="secret.reveal"),
        Binding("c", "copy_secret", "Copy", id="secret.copy"),
        Binding("r", "reset", "Reset…", id="secret.reset"),
        Binding("u", "event_focus", "User's event…", id="secret.event"),
    ]

    DEFAULT_CSS = """
    SecretScreen #secret-panel { height: auto; border: round $primary; padding: 0 1; margin: 1 1 0 1; }
    SecretScreen VerticalScroll { scrollbar-gutter: auto; }
    SecretScreen #secret-who { color: $text-muted; }
    SecretScreen #secret-value { text-style: bold; height: 1; margin: 1 0; }
    SecretScreen #secret-value.-revealed { color: $warning; }
    SecretScreen #secret-help { color: $text-muted; height: auto; }
    SecretScreen #event-panel { height: auto; border: round $secondary; padding: 0 1; margin: 1 1 0 1; }
    SecretScreen #event-bar { height: 1; margin: 1 0 0 0; }
    SecretScreen #event-bar Label { padding: 0 1 0 0; color: $text-muted; }
    SecretScreen #event-bar Input { width: 1fr; }
    SecretScreen #event-result { height: auto; width: 1fr; margin: 1 0 0 0; }
    SecretScreen #event-result.-success { color: $success; }
    SecretScreen #event-result.-warning { color: $warning; }
    SecretScreen #event-result.-error { color: $error; }
    SecretScreen #event-help { color: $text-muted; height: auto; }
    """

    def __init__(self) -> None:
        super().__init__()
        self._secret: str | None = None
        self.revealed = False
        self._hide_timer: Any = None

    @property
    def shows_secret(self) -> bool:
        """Whether the secret is on screen (revealed): the app takes no screenshot then."""
        return self.revealed and self._secret is not None

    def compose_body(self) -> ComposeResult:
        with VerticalScroll(classes="reg-body"):
            with Vertical(id="secret-panel"):
                yield Label("", id="secret-who")
                yield Label(MASK, id="secret-value")
                yield Static("", id="secret-help")
            with Vertical(id="event-panel"):
                yield Label(Text("Event status", style="bold"))
                with Horizontal(id="event-bar"):
                    yield Label("User")
                    yield Input(value=self.ctx.user or "", placeholder="user e-mail (entity type USER)", id="q-event", compact=True)
                yield Static("", id="event-result")
                yield Static(
                    Text(
                        "Whether the registry has processed a user: Processed, In-Progress or Cancelled. "
                        "Enter asks the registry (never cached)."
                    ),
                    id="event-help",
                )
        yield problem_note()

    def on_mount(self) -> None:
        if not self.ready():
            return
        user = self.registry.username
        self.query_one("#secret-who", Label).update(Text(clean(f"Registry secret of {user} · tenant {self.registry.tenant_id}")))
        self._render_secret()
        self.query_one("#event-result", Static).display = False

    def _render_secret(self) -> None:
        value = self.query_one("#secret-value", Label)
        if self.revealed and self._secret is not None:
            value.update(Text(clean(self._secret)))
        else:
            value.update(Text(MASK + "  (hidden)"))
        value.set_class(self.revealed, "-revealed")
        if self.revealed:
            hide = bound_key(self, "secret.reveal")
            help_text = (
                f"Shown until you {f'press {hide}, ' if hide else ''}leave this screen, or {int(SECRET_HIDE_AFTER_S)} s pass. "
                "Use it as the password of `docker login` / `helm registry login` with your user name."
            )
        else:
            keys = hint(  # the keys offered here, as bound: not reset on a read-only profile
                (bound_key(self, "secret.reveal"), "reveal"),
                (bound_key(self, "secret.copy"), "copy"),
                (bound_key(self, "secret.reset"), "reset (to a value you choose, or a random one)"),
            )
            help_text = (
                f"{keys} · The secret is your registry password for docker and helm; it is fetched only when asked and never stored."
            )
        if self.ctx.read_only:
            help_text += " This profile is read-only: resetting is disabled."
        self.query_one("#secret-help", Static).update(Text(help_text))

    # -- hide on leave -------------------------------------------------------------------------------

    def on_screen_suspend(self) -> None:
        self.forget_secret()

    def on_unmount(self) -> None:
        self._secret = None

    def forget_secret(self) -> None:
        """Hide the secret and drop it from memory (leaving the screen, timer, reset)."""
        self._secret = None
        self.revealed = False
        if self._hide_timer is not None:
            self._hide_timer.stop()
            self._hide_timer = None
        try:
            self._render_secret()
        except Exception:  # not mounted any more
            pass

    # -- actions ---------------------------------------------------------------------------------------

    def action_toggle_reveal(self) -> None:
        if self.registry_problem():
            return
        if self.revealed:
            self.forget_secret()
            return

        async def job() -> None:
            secret = await self.registry.get_secret()
            self._secret = secret
            self.revealed = True
            self._render_secret()
            self._hide_timer = self.set_timer(SECRET_HIDE_AFTER_S, self.forget_secret)
            self.status.error = ""

        self.run_api(job, group="secret", doing="fetching your registry secret")

    def action_copy_secret(self) -> None:
        if self.registry_problem():
            return

        async def job() -> None:
            secret = self._secret if self._secret is not None else await self.registry.get_secret()
            flex_app(self).copy_text(secret, "your registry secret", sensitive=True)

        self.run_api(job, group="secret", doing="copying your registry secret")

    def action_reset(self) -> None:
        if self.registry_problem():
            return
        if self.ctx.read_only:
            self.report_error(ApiError("this profile is read-only: the registry secret cannot be reset"), doing="resetting the secret")
            return
        fields = [
            FieldSpec(
                "secret",
                "New secret (empty: random)",
                kind="password",
                hint="at least 8 characters with an uppercase letter, a lowercase letter and a digit; leave empty for a random one",
            ),
            FieldSpec("repeat", "Repeat it", kind="password", visible_when=lambda v: bool(v.get("secret"))),
        ]

        def build(values: dict[str, Any]) -> SecretChoice:
            return SecretChoice.model_validate(values)

        async def send(choice: SecretChoice) -> SecretChoice:
            return choice  # confirmed first, then sent

        def done(choice: SecretChoice | None) -> None:
            if choice is not None:
                self._confirm_reset(choice.secret)

        self.app.push_screen(FormScreen("Reset your registry secret", fields, build, send, submit_label="Next"), done)

    @work(group="secret-reset")
    async def _confirm_reset(self, new_secret: str) -> None:
        user = self.registry.username
        what = f"the secret you typed ({len(new_secret)} characters)" if new_secret else "a random secret made by the registry"
        ok = await self.app.push_screen_wait(
            ConfirmScreen(
                f"Reset the registry secret of {user}?",
                f"The current secret stops working at once: docker and helm logins, CI jobs and pull secrets that use it "
                f"fail until they are given the new one.\nThe new secret will be {what}; it is shown once.",
                "Reset",
            )
        )
        if not ok:
            self.say("The registry secret was not changed")
            return
        try:
            fresh = await self.registry.reset_secret(new_secret or None)
        except (ApiError, ValueError) as exc:
            self.report_error(exc if isinstance(exc, ApiError) else ApiError(str(exc)), doing="resetting the registry secret")
            return
        self.forget_secret()
        self.app.push_screen(
            ValueScreen(
                f"New registry secret of {user}",
                fresh,
                once=True,
                note="Use it as the password for docker login / helm registry login. flextui does not keep it.",
            )
        )
        self.say("Registry secret reset")

    def action_event_focus(self) -> None:
        self.query_one("#q-event", Input).focus()

    @on(Input.Submitted, "#q-event")
    def _event_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.lookup_event(event.value.strip())

    def lookup_event(self, user: str) -> None:
        result = self.query_one("#event-result", Static)
        if not user:
            self._event_result("give a user's e-mail", "error")
            return
        if self.registry_problem():
            return
        result.display = True
        result.update(Text(f"⟳ asking about {clean(user)}…"))

        async def job() -> None:
            try:
                status = await self.registry.event_status(user)
            except NotFound as exc:
                self._event_result(
                    f"? {user}: not found ({exc.message}) — the registry has no record of this user; "
                    "check the spelling, or whether they were ever given access",
                    "warning",
                )
                return
            except ApiError as exc:
                self._event_result(f"✗ {user}: could not ask ({exc})", "error")
                raise
            mark, tone, meaning = EVENT_MEANING.get(status, ("?", "warning", "a status flextui does not know"))
            self._event_result(f"{mark} {user}: {status} — {meaning}", tone)

        self.run_api(job, group="event", doing=f"asking the event status of {user}")

    def _event_result(self, text: str, tone: str) -> None:
        result = self.query_one("#event-result", Static)
        result.display = True
        result.update(Text(clean(text)))
        for name in ("success", "warning", "error"):
            result.set_class(name == tone, f"-{name}")
