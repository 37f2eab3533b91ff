"""Command line: the TUI, the demo, the simulator, and headless commands over the same data layer.

Everything that can fail before the TUI starts (config errors, secret
prompts, a missing terminal) fails here, on the plain terminal, with a
message that says how to fix it. Exit codes: 0 success; 1 other API error;
2 bad usage, config or input (the user's own); 3 authentication/permission;
4 not found; 5 server error or rate limit; 6 unreachable/offline; 7 read-only
profile; 8 a listing cut short (what could be read is printed, stderr says why);
128 + the signal when ended by one (130 ctrl+c, 129 SIGHUP, 143 SIGTERM: a
minted token is deleted on the way out). A server that refuses a request (400,
409) or sends an unreadable answer is 1.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import math
import os
import signal
import sys
import threading
from collections.abc import AsyncIterator, Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

from flextui import __version__
from flextui.render.words import plural

if TYPE_CHECKING:
    from flextui.headless.common import Tally

EXIT_USAGE = 2

NO_TTY_MESSAGE = (
    "flextui needs an interactive terminal, and this one has none (standard input or error is not a TTY).\n"
    "  Over SSH, ask for one:   ssh -t HOST flextui\n"
    "  In scripts, use the headless commands:   flextui get tokens --username U --format csv\n"
)


def _terminal_problem() -> str | None:
    """Why the TUI cannot run here (no terminal, output redirected, a terminal that cannot draw), else None.

    Textual draws on standard error, so `flextui 2>file` would draw into the
    file: that is refused too, and said where the user can see it.
    """
    if not sys.stdin.isatty() or not (sys.stderr.isatty() or sys.stdout.isatty()):
        return NO_TTY_MESSAGE
    if not sys.stderr.isatty():
        return (
            "flextui draws the TUI on standard error, and it is redirected (e.g. `2>file`): nothing would be seen.\n"
            "  Run it without redirecting standard error, or use the headless commands: flextui get tokens --username U\n"
        )
    term = os.environ.get("TERM", "")
    if term in ("dumb", "unknown") or term.startswith("emacs"):
        return (
            f"flextui needs a terminal that can draw a full screen, and TERM={term!r} cannot.\n"
            "  Set TERM=xterm-256color (or your terminal's name), or use the headless commands: flextui get tokens --username U\n"
        )
    return None


def _say_problem(text: str) -> None:
    """Tell the user where they can see it: standard error, or standard output when standard error is redirected."""
    sys.stderr.write(text)
    if not sys.stderr.isatty() and sys.stdout.isatty():
        sys.stdout.write(text)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="flextui",
        description="A terminal explorer for the FlexNet Operations REST APIs. Try it without an account: flextui demo",
        epilog="Exit codes: 0 ok, 1 the server refused or answered unreadably, 2 your own usage/config/input, 3 auth, 4 not found, "
        "5 server error or rate limit, 6 unreachable/offline, 7 read-only, 8 listing cut short (stderr says why); "
        "129/130/143 ended by SIGHUP/ctrl+c/SIGTERM.",
    )
    parser.add_argument("--version", action="version", version=f"flextui {__version__}")
    _global_options(parser, defaults=True)
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    tui = sub.add_parser(
        "tui", parents=_shared("tui"), help="open the TUI (the default), optionally at an area: flextui tui charts PROJECT"
    )
    tui.add_argument("area", nargs="*", help="area and argument, as after ':' in the app")

    demo = sub.add_parser("demo", parents=_shared("demo"), help="open the TUI on the embedded simulator (no account needed)")
    _sim_options(demo)
    demo.add_argument("--as", dest="as_user", choices=["admin", "producer", "customer"], default="admin", help="who to sign in as")
    demo.add_argument("--demo-read-only", dest="demo_read_only", action="store_true", help=argparse.SUPPRESS)
    demo.add_argument("area", nargs="*", help="area to open first, e.g. projects, reports, entitlements")

    sim = sub.add_parser("sim", parents=_shared("sim"), help="serve the simulator over HTTP (for tests, curl, or a profile)")
    sim.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1: this machine only)")
    sim.add_argument("--port", type=_port, default=8765, help="port to listen on, 1–65535 (default 8765)")
    sim.add_argument("--list-dialects", action="store_true", help="name every dialect the simulator can speak, and exit")
    _sim_options(sim)

    sub.add_parser("info", parents=_shared("info"), help="where config, cache and log files live; versions; profiles")

    cache = sub.add_parser("cache", parents=_shared("cache"), help="manage the local page cache")
    cache_sub = cache.add_subparsers(dest="cache_command", metavar="ACTION", required=True)
    clear = cache_sub.add_parser(
        "clear",
        parents=_shared("cache"),
        help="delete cached pages: of --profile (default: the default profile), of --url with --user, or --all",
        description="Delete cached pages: those of --profile (without it: the default profile), of an instance and user "
        "(--url U --user X), or every profile's (--all).",
    )
    clear.add_argument("--all", action="store_true", help="every profile's pages")

    get = sub.add_parser("get", parents=_shared("get"), help="print resources headless: flextui get tokens --username U --format csv")
    get.add_argument("kind", help=", ".join(listable_kinds()))
    get.add_argument(
        "target",
        nargs="?",
        help="project, PROJECT/REPOSITORY, entitlement id, or a token's name (that one token), where the kind takes one",
    )
    get.add_argument("--format", "-o", choices=["table", "json", "jsonl", "csv"], default="table")
    get.add_argument("--username", help="tokens: the user the tokens are for")
    get.add_argument("--creator", help="tokens: the creator")
    get.add_argument(
        "--search",
        help="tokens: criteria KEY=VALUE,… with the keys name, type, user, creator, expiresBefore, expiresAfter, issuedBefore "
        "(or the API's tokenName, tokenType, username, tokenCreator, expiresLaterThan), e.g. 'name=ci-*,type=NORMAL,expiresBefore=30d'",
    )
    get.add_argument("--filter", action="append", default=[], help="KEY=VALUE filters for the kind (repeatable)")
    get.add_argument("--page-size", type=_positive, default=200, help="items per request (default 200; capped at what the service allows)")
    get.add_argument("--limit", type=_positive, help="stop after this many rows")
    get.add_argument("--demo", action="store_true", help="ask the embedded simulator instead of a profile")
    _sim_options(get, prefix=True)

    report = sub.add_parser(
        "report",
        parents=_shared("report"),
        help="data reports headless: list, types GROUP, run GROUP",
        description="Data reports (the Data Access API) without the TUI: `list` the report groups, `types GROUP` its fields and "
        "filters, `run GROUP` its records. Without --past-days or --date-from, run asks for the past 1 day "
        "(the service's own default) and says so.",
    )
    report.add_argument(
        "action", choices=["list", "types", "run"], help="list: the groups; types: a group's fields and filters; run: its records"
    )
    report.add_argument("group", nargs="?", help="the report group, e.g. fulfillment, usage, entitlement (see `report list`)")
    report.add_argument(
        "--filter",
        action="append",
        default=[],
        help="condition FIELD OPERATOR VALUE, e.g. 'accountID $sw 1012', 'accountID $nin A1,A2', 'lastUpdated $btw FROM,TO' "
        "(operators $eq $ne $sw $ew $con $in $nin $gt $gte $lt $lte $btw; repeatable; see `report types GROUP`)",
    )
    report.add_argument("--past-days", type=_positive, help="the past N days, 1–30 (the service's default: 1)")
    report.add_argument("--date-from", metavar="YYYY-MM-DD", help="first day (with --date-to: at most 30 days)")
    report.add_argument(
        "--date-to",
        metavar="YYYY-MM-DD",
        help="the day after the last (the newer docs exclude dateTo; the older include it, so --date-to equal to --date-from is "
        "that one day there and nothing on the newer)",
    )
    report.add_argument("--limit-records", type=_positive, default=2500, help="records per request, 1–2500 (default 2500)")
    report.add_argument("--max-records", type=_positive, help="stop after this many records")
    report.add_argument("--format", "-o", choices=["table", "json", "jsonl", "csv"], default="table", help="output format (default table)")
    report.add_argument(
        "--cache-pages",
        action="store_true",
        help="also store the records' pages in the page cache, for --offline or the TUI later (off: 100k records add ≈ 60 MB and ≈ 20 %% to the run)",
    )
    report.add_argument("--demo", action="store_true", help="ask the embedded simulator instead of a profile")
    _sim_options(report, prefix=True)
    return parser


def _within(parse: Callable[[str], Any], kind: str, low: float, high: float = math.inf) -> Callable[[str], Any]:
    """An argparse type: `parse(text)` between `low` and `high` (NaN and infinity never), else the user's own bad
    usage, exit 2 (a port out of range said "cannot listen", exit 6)."""

    def check(text: str) -> Any:
        try:
            value = parse(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"must be {kind}, not {text!r}") from None
        if not low <= value < math.inf:
            raise argparse.ArgumentTypeError(f"must be at least {low:g} (got {text})")
        if value > high:
            raise argparse.ArgumentTypeError(f"must be at most {high:g} (got {text})")
        return value

    return check


_positive = _within(int, "a whole number", 1)
"""Sizes and limits."""
_port = _within(int, "a whole number", 1, 65535)
"""A TCP port."""
_non_negative = _within(float, "a number", 0)
"""A latency in ms."""


GLOBAL_OPTIONS: dict[str, tuple[tuple[str, ...], dict[str, Any]]] = {
    "profile": (("--profile", "-p"), {"help": "profile name from the config file"}),
    "url": (("--url",), {"help": "ad hoc instance URL (with --user; password from FLEXTUI_PASSWORD or a prompt, or FLEXTUI_TOKEN)"}),
    "user": (("--user",), {"help": "ad hoc user name (e-mail)"}),
    "token_env": (
        ("--token-env",),
        {
            "metavar": "VAR",
            "help": "ad hoc: the environment variable holding an rna_… access token (default FLEXTUI_TOKEN; the beta APIs need one)",
        },
    ),
    "registry_tenant": (
        ("--registry-tenant",),
        {"metavar": "ID", "help": "the registry's tenant id (x-publisherid), for --url or over the profile's"},
    ),
    "read_only": (("--read-only",), {"action": "store_true", "help": "refuse every change, whatever the profile says"}),
    "offline": (("--offline",), {"action": "store_true", "help": "read only from the local cache; send nothing"}),
    "theme": (("--theme",), {"help": "theme name (e.g. ansi-dark, flextui-dusk, nord)"}),
    "config": (("--config",), {"help": "config file (default: see `flextui info`)"}),
    "debug": (("--debug",), {"action": "store_true", "help": "log debug detail to the log file"}),
    "trace": (
        ("--trace",),
        {"metavar": "FILE", "help": "append every HTTP exchange (secrets removed) to FILE as JSON lines: what to attach to an escalation"},
    ),
}
"""The options that work before or after the command (`flextui --theme nord demo` = `flextui demo --theme nord`)."""

EVERY_OPTION = frozenset(GLOBAL_OPTIONS)
IDENTITY_OPTIONS = ("profile", "url", "user", "token_env", "registry_tenant")
"""The options that say which instance to ask and as whom: `--demo` (get, report) asks the simulator, and refuses them."""
USES: dict[str, frozenset[str]] = {
    "tui": EVERY_OPTION,
    "demo": frozenset({"read_only", "theme", "config", "debug", "trace"}),  # how to show it: no instance, profile or credentials
    "get": EVERY_OPTION - {"theme"},  # nothing is drawn
    "report": EVERY_OPTION - {"theme"},
    "info": frozenset({"config"}),
    "cache": frozenset({"profile", "url", "user", "config"}),
    "sim": frozenset(),  # a server has nothing to show (--theme), no client to restrict (--read-only), no config, log or trace
}
"""Which of GLOBAL_OPTIONS each command uses: it offers those, and refuses the others given before it (`flextui --theme nord sim`)."""


def _global_options(parser: argparse.ArgumentParser, *, defaults: bool, only: frozenset[str] = EVERY_OPTION) -> None:
    """GLOBAL_OPTIONS (`only` those) on `parser`.

    On the subcommands they default to SUPPRESS, so a value given before the
    command is not overwritten by the subcommand's default.
    """
    for dest, (flags, options) in GLOBAL_OPTIONS.items():
        if dest in only:
            default = (False if options.get("action") == "store_true" else None) if defaults else argparse.SUPPRESS
            parser.add_argument(*flags, dest=dest, default=default, **options)


def _shared(command: str) -> list[argparse.ArgumentParser]:
    """The parents a subcommand's parser takes: the global options it uses."""
    options = argparse.ArgumentParser(add_help=False)
    _global_options(options, defaults=False, only=USES[command])
    return [options]


def _refuse_unused(parser: argparse.ArgumentParser, args: argparse.Namespace, command: str) -> None:
    """A global option given before a command that does not use it is refused (exit 2), as after it, not ignored."""
    for dest, (flags, _) in GLOBAL_OPTIONS.items():
        if dest not in USES[command] and getattr(args, dest, None) not in (None, False):
            parser.error(f"{flags[0]} does not apply to `flextui {command}`")


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    """The command line read and checked: a bad one exits 2 (argparse's usage error), saying what is wrong."""
    parser = build_parser()
    args, extra = parser.parse_known_args(argv)
    # `flextui get members --demo PROJECT`: a target after the options is still the target.
    if extra and getattr(args, "command", None) == "get" and args.target is None and not extra[0].startswith("-"):
        args.target, extra = extra[0], extra[1:]
    if extra:
        parser.error(f"unrecognized arguments: {' '.join(extra)}")
    _refuse_unused(parser, args, args.command or "tui")
    _refuse_sim_without_demo(parser, args)
    return args


def _scale(text: str) -> float:
    """--scale: a number or a preset name, checked as the arguments are read (before anything else is said)."""
    from flextui.sim.world import parse_scale

    try:
        return parse_scale(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def _dialects(text: str) -> frozenset[str]:
    """--dialect NAMES: the dialects the simulator speaks, checked as the arguments are read."""
    from flextui.sim.dialects import speaking

    try:
        return speaking(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


class _SimOption(argparse.Action):
    """Stores an option's value, and notes that it was given (`sim_given`): a `--sim-…` option of `get` or `report`
    without `--demo` is refused (`_refuse_sim_without_demo`), not ignored."""

    def __call__(
        self, parser: argparse.ArgumentParser, namespace: argparse.Namespace, values: Any, option_string: str | None = None
    ) -> None:
        setattr(namespace, self.dest, values)
        given = getattr(namespace, "sim_given", None) or []
        if self.option_strings[0] not in given:
            namespace.sim_given = [*given, self.option_strings[0]]


def _sim_options(parser: argparse.ArgumentParser, *, prefix: bool = False) -> None:
    """The simulator's world and manner, each checked as the arguments are read (`demo --dialect bogus`: exit 2 at once).

    `prefix`: as `--sim-…` options of `get` and `report`, which only `--demo` uses (refused without it)."""
    p, when = ("--sim-", "with --demo: ") if prefix else ("--", "")
    kept: dict[str, Any] = {"action": _SimOption} if prefix else {}
    parser.add_argument(f"{p}seed", dest="seed", type=int, default=7, help=f"{when}simulator world seed", **kept)
    parser.add_argument(
        f"{p}scale", dest="scale", type=_scale, default=1.0, help=f"{when}world size: a number, or small/default/large (100)", **kept
    )
    parser.add_argument(
        f"{p}latency", dest="latency", type=_non_negative, default=0.0, help=f"{when}simulated latency per request, ms (0 or more)", **kept
    )
    parser.add_argument(
        f"{p}dialect",
        dest="dialect",
        type=_dialects,
        default=None,
        metavar="NAMES",
        help=f"{when}real-service variants to speak besides the strictest reading of the docs, comma separated "
        "(`lenient` drops the strict defaults); `flextui sim --list-dialects` names them",
        **kept,
    )


def _refuse_sim_without_demo(parser: argparse.ArgumentParser, args: argparse.Namespace) -> None:
    """`get`/`report --sim-dialect …` without `--demo` is refused (exit 2): it would be ignored, the profile asked as if
    the simulator had been set up as told."""
    given = getattr(args, "sim_given", None)
    if given and not getattr(args, "demo", False):
        one = len(given) == 1
        parser.error(
            f"{' and '.join(given)} {'needs' if one else 'need'} --demo: {'it sets' if one else 'they set'} up the embedded "
            f"simulator, which only --demo asks (add --demo, or leave {'it' if one else 'them'} out)"
        )


def _setup_logging(debug: bool, *, to_file: bool) -> None:
    """The TUI logs to a rotating private file, the headless commands to stderr; both cleaned (flextui.logs)."""
    from flextui.config import log_path
    from flextui.logs import file_handler, stream_handler

    level = logging.DEBUG if debug else logging.INFO
    if to_file:
        try:
            handler = file_handler(log_path())
        except OSError:
            handler = logging.NullHandler()
    else:
        handler = stream_handler(sys.stderr)
        level = logging.DEBUG if debug else logging.WARNING
    root = logging.getLogger("flextui")
    root.handlers[:] = [handler]
    root.setLevel(level)
    logging.getLogger("httpx").setLevel(logging.WARNING)


def print_error(message: object, stream: Any = None) -> None:
    """The one place the command line prints an error: `flextui: …`, cleaned (server text may be in it)."""
    from flextui.render.text import clean_lines

    (stream or sys.stderr).write(f"flextui: {clean_lines(str(message))}\n")


def main(argv: Sequence[str] | None = None) -> int:
    """Run one command line; its exit code. A reader that has gone (`flextui info | head -1`) ends it quietly, exit 0."""
    try:
        try:
            return _main(argv)
        finally:
            sys.stdout.flush()  # what is still buffered meets a closed pipe here, not in the interpreter's exit
    except BrokenPipeError:
        return _reader_gone()


def _reader_gone() -> int:
    """Standard output's reader has had enough (`| head`): that is fine; the rest of the output goes nowhere, quietly."""
    try:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):  # (a stream without a descriptor: nothing is flushed to it at exit)
        pass
    return 0


def _main(argv: Sequence[str] | None) -> int:
    args = parse_args(argv)
    if args.config:
        os.environ["FLEXTUI_CONFIG"] = args.config
    command = args.command or "tui"
    starts_app = command in ("tui", "demo")
    if starts_app:  # the collector off while start-up makes what lives for the session (ui/gcpause.py)
        from flextui.ui.gcpause import hold_for_start

        hold_for_start()
    from flextui.config import ConfigError

    try:
        if command == "info":
            return cmd_info(args)
        if command == "sim":
            return cmd_sim(args)
        if command == "cache":
            return cmd_cache(args)
        if command in ("get", "report"):
            return _headless(args)
        if command in ("tui", "demo"):
            problem = _terminal_problem()
            if problem:
                _say_problem(problem)
                return EXIT_USAGE
            _setup_logging(args.debug, to_file=True)
            return cmd_tui(args, demo=command == "demo")
    except ConfigError as exc:
        print_error(exc)
        return EXIT_USAGE
    except KeyboardInterrupt:
        return 130
    finally:
        if starts_app:  # (the app has done this when it showed its first data)
            from flextui.ui.gcpause import start_done

            start_done(freeze=False)
    build_parser().print_help()
    return EXIT_USAGE


def _headless(args: argparse.Namespace) -> int:
    """`get` and `report`: their exit code; ctrl+c says, as a failure midway does, where the output stops (exit 130).

    SIGHUP (the SSH link gone) and SIGTERM end it as ctrl+c does, so what it made is undone on the way out (a token
    minted with `mint_token` is deleted), and exit 128 + the signal (129, 143)."""
    from flextui.headless.common import Tally

    _setup_logging(args.debug, to_file=False)
    tally = Tally()
    run = _HeadlessRun()
    came: list[int] = []
    code: int | None = None
    try:
        with _ending_signals(run.end, came):
            code = asyncio.run(cmd_headless(args, tally, run))
    except KeyboardInterrupt:
        print_error(f"interrupted{tally.cut_short() or f' before any {tally.what} were written'}")
        return 130
    except BaseException as exc:  # (cancelled, Ended, or an output gone with the terminal: EIO)
        if not came or isinstance(exc, SystemExit):
            raise
    if came:
        name = signal.Signals(came[0]).name
        said = (
            f"stopped by {name}{tally.cut_short() or f' before any {tally.what} were written'}"
            if not run.came_closing
            else f"stopped by {name} as it closed the session, after its output was finished (exit {code} without it)"
        )
        with contextlib.suppress(OSError, ValueError):  # (the terminal it would be said on may be gone: SIGHUP)
            print_error(said)
        return 128 + came[0]
    assert code is not None
    return code


ENDING_SIGNALS = ("SIGHUP", "SIGTERM")
"""What ends a run from outside, and should undo what it made on the way out, as ctrl+c does: SIGHUP (the SSH link or
the terminal gone), SIGTERM (`kill`, a shutdown). Their default ended the process where it stood, a token minted with
`mint_token` ("deleted on exit") left live for its hour."""


class Ended(BaseException):
    """One of ENDING_SIGNALS, raised where the run stands when it cannot wait for its next await (nothing made yet, or
    a credential prompt or command holding the event loop); `signum` says which."""

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum


@contextmanager
def _ending_signals(end: Callable[[int], None], came: list[int]) -> Iterator[None]:
    """Within: SIGHUP and SIGTERM call `end(signum)` (on the main thread, as a signal handler), which ends the run;
    `came` gets the signals that came (the exit code is 128 + the first).

    Only the first acts: another while its clean-up runs (deleting a minted token) is noted and left, not let
    cut that short. A signal ignored when flextui starts (`nohup` ignores SIGHUP) stays ignored; off the main
    thread (a test's), nothing is installed.
    """

    def handler(signum: int, _frame: Any) -> None:
        if came:
            return
        came.append(signum)
        end(signum)

    before: dict[int, Any] = {}
    if threading.current_thread() is threading.main_thread():
        for name in ENDING_SIGNALS:
            signum = getattr(signal, name, None)
            if signum is not None and signal.getsignal(signum) is not signal.SIG_IGN:
                before[signum] = signal.signal(signum, handler)
    try:
        yield
    finally:
        for signum, previous in before.items():
            signal.signal(signum, previous)


class _HeadlessRun:
    """Where a headless run stands, for SIGHUP/SIGTERM (`end`): starting (nothing made yet), working, or closing.

    Working, the run's task is cancelled, as asyncio cancels it on ctrl+c, so its `finally` closes the session
    (deleting a minted token); closing, the signal waits for that to finish. Starting, or while a credential
    prompt or command holds the event loop (a cancellation would wait for it), `Ended` is raised at once.
    """

    def __init__(self) -> None:
        self.loop: asyncio.AbstractEventLoop | None = None
        self.task: asyncio.Task[Any] | None = None
        self.working = False
        self.closing = False
        self.came_closing = False
        """Whether the signal came as the session closed: the output was finished by then."""

    def started(self) -> None:
        """Called on the run's task, once its context (its session) is made."""
        self.loop, self.task = asyncio.get_running_loop(), asyncio.current_task()
        self.working = True

    def end(self, signum: int) -> None:
        from flextui.secrets import credential_being_got

        if self.closing:
            self.came_closing = True
            return
        if not self.working or self.loop is None or credential_being_got():
            raise Ended(signum)
        self.loop.call_soon_threadsafe(self._cancel)  # (a signal handler: the loop is told, not changed under it)

    def _cancel(self) -> None:
        if self.working and not self.closing and self.task is not None:
            self.task.cancel()


# -- contexts ---------------------------------------------------------------------------------


def make_context(args: argparse.Namespace, *, demo: bool) -> Any:
    """The AppContext for the command line (the demo, an ad hoc URL, or a profile), tracing to --trace FILE if asked."""
    ctx = _make_context(args, demo=demo)
    if getattr(args, "trace", None):
        from flextui.api.trace import file_writer
        from flextui.config import ConfigError

        try:
            ctx.session.trace.writers.append(file_writer(args.trace))
        except OSError as exc:
            raise ConfigError(f"--trace {args.trace}: cannot write it: {exc.strerror or exc}") from None
    return ctx


def _make_context(args: argparse.Namespace, *, demo: bool) -> Any:
    from flextui.config import ConfigError, load_config, tls_verify
    from flextui.context import demo_context, profile_context

    config = load_config()
    settings = config.settings
    if demo:
        if args.offline:
            raise ConfigError("--offline does not apply to the demo (the simulator is in-process)")
        if given := [GLOBAL_OPTIONS[dest][0][0] for dest in IDENTITY_OPTIONS if getattr(args, dest, None)]:
            verb = "does" if len(given) == 1 else "do"
            raise ConfigError(f"{' and '.join(given)} {verb} not apply with --demo (it asks the embedded simulator, as its admin)")
        demo = demo_context(
            seed=args.seed,
            scale=args.scale,
            latency_ms=args.latency,
            read_only=args.read_only or getattr(args, "demo_read_only", False),
            as_user=getattr(args, "as_user", "admin"),
            settings=settings,
            keys=config.keys,
            theme=args.theme,
            places=config.places,
            dialects=args.dialect,
            sim_thread=args.command == "demo",  # the TUI: its loop must not wait on the simulator
        )
        if args.theme:
            demo.theme_from = "--theme"
        return demo
    lacking: list[str] = []
    unfound: list[tuple[frozenset[str], str]] = []  # offline: the services whose stored pages cannot be found, and why
    tls = None
    if args.url:
        profile, creds = _adhoc(args)
        if args.offline and args.user and creds.holds("access token") and not creds.holds("password"):
            said = (
                f"offline, the token API's and reports' pages are looked for as asked with the access token in "
                f"{args.token_env or 'FLEXTUI_TOKEN'}; those asked with the password are found with FLEXTUI_PASSWORD set, "
                "as it was when they were stored (its value is not read offline)"
            )
            unfound.append((frozenset({"tokens", "data"}), said))
    else:
        profile = config.profile(args.profile or os.environ.get("FLEXTUI_PROFILE"))
        tls = tls_verify(profile, config.places)  # a CA bundle that cannot be used is told before any prompt
        if args.registry_tenant:
            profile = profile.model_copy(update={"registry_tenant": args.registry_tenant})
        from flextui.secrets import credentials_for_tui, deferred_credentials, offline_credentials  # (not for the demo)

        if args.offline:  # the identity its pages were stored under online, with nothing asked (its token, if at hand)
            creds, unfound = offline_credentials(profile)
        elif args.command in ("get", "report"):  # each credential when a request needs it: a command asks only for what it uses
            creds = deferred_credentials(profile)
        else:  # the TUI: every prompt before it starts; one that cannot be had is said there, not fatal
            creds, lacking = credentials_for_tui(profile)
    ctx = profile_context(
        profile, creds, settings, keys=config.keys, offline=args.offline, read_only=args.read_only, places=config.places, tls=tls
    )
    ctx.extras["said_at_start"] = lacking + [said for _, said in unfound]
    ctx.extras["offline_unfound"] = unfound
    if args.theme:
        ctx.theme, ctx.theme_from = args.theme, "--theme"
    return ctx


def _adhoc(args: argparse.Namespace) -> tuple[Any, Any]:
    """An ad hoc profile from --url: a password (FLEXTUI_PASSWORD or a prompt) with --user, and/or a token from --token-env.

    Offline, the identity the same command line had online with the same variables (its pages are filed under it,
    `Session.identity_for`): the token from its variable, and a password held but never read nor asked for where
    online would have used one (FLEXTUI_PASSWORD set, or no token: the prompt)."""
    from flextui.api.auth import Credentials
    from flextui.config import ConfigError, Profile
    from flextui.secrets import not_read_offline, prompt_secret

    token_var = args.token_env or "FLEXTUI_TOKEN"
    token = os.environ.get(token_var) or None
    if args.token_env and not token:
        raise ConfigError(f"--token-env {args.token_env}: that environment variable is not set")
    if not args.user and not token:
        raise ConfigError(f"--url needs --user (password from FLEXTUI_PASSWORD or a prompt), or an access token in {token_var}")
    from pydantic import ValidationError

    try:
        profile = Profile(name="adhoc", url=args.url, user=args.user, registry_tenant=args.registry_tenant)
    except ValidationError as exc:  # its text's last line is a link to pydantic's docs: the reason is in its errors
        first = exc.errors()[0]
        option = {"user": "--user", "registry_tenant": "--registry-tenant"}.get(str(first["loc"][0]) if first["loc"] else "", "--url")
        raise ConfigError(f"{option} {first.get('input')!s}: {first['msg'].removeprefix('Value error, ')}") from None
    password: Any = None
    if args.user and args.offline:  # never read nor asked offline; only whether one would be used, for the pages' identity
        password = not_read_offline("password") if os.environ.get("FLEXTUI_PASSWORD") or not token else None
    elif args.user:
        password = os.environ.get("FLEXTUI_PASSWORD") or (None if token else prompt_secret(f"Password for {args.user} at {args.url}: "))
    return profile, Credentials(args.user, password, token)


def _terminal_gone() -> None:
    """The terminal hung up (SIGHUP): standard input, output and error now lead to /dev/null.

    Textual writes the screen from a thread of its own, which ends at the first write that fails (EIO on a terminal
    gone) and leaves its queue of 30 writes to fill; the app's exit then waited for ever to put its last one, so the
    session was never closed and a minted token never deleted (an SSH link dropped while a request was in flight)."""
    try:
        null = os.open(os.devnull, os.O_RDWR)
    except OSError:
        return
    for fd in (0, 1, 2):
        with contextlib.suppress(OSError):
            os.dup2(null, fd)
    os.close(null)


def cmd_tui(args: argparse.Namespace, *, demo: bool) -> int:
    """The app on the context; then its session is closed (a token minted with `mint_token` deleted).

    SIGHUP (the SSH link gone) and SIGTERM end the app as `q` does, so that close still runs (Textual leaves them
    to their default, which ended the process there and then), and exit 128 + the signal.
    """
    ctx = make_context(args, demo=demo)
    ctx.start = list(getattr(args, "area", []) or [])
    from flextui.ui.app import FlexApp

    app = FlexApp(ctx)
    came: list[int] = []
    closing = False

    def end(signum: int) -> None:
        if closing:  # the session is closing: let it finish
            return
        if signum == getattr(signal, "SIGHUP", None):
            _terminal_gone()
        try:
            loop = asyncio.get_running_loop()  # (the app's: a signal handler runs on the main thread, where the app runs)
        except RuntimeError:  # the app's loop has not started (or has ended): it will not start its screen
            app.exit(return_code=128 + signum)
        else:
            loop.call_soon_threadsafe(app.exit, None, 128 + signum)

    with _ending_signals(end, came):
        try:
            try:
                app.run()
            except Exception:
                if not came:
                    raise  # (ended by a signal: a terminal gone may fail the app's last writes; the close below matters)
        finally:
            closing = True
            try:
                asyncio.run(ctx.aclose())
            except RuntimeError:
                pass
    if came:
        return 128 + came[0]
    return app.return_code or 0


# -- simple commands ------------------------------------------------------------------------------


def listable_kinds() -> list[str]:
    """What `flextui get` lists (the registry's kinds with a lister): its help and its error say the same."""
    from flextui import kinds

    return [kind.id for kind in kinds.KINDS if kind.has_lister]


def cmd_info(args: argparse.Namespace) -> int:
    import platform

    from flextui.config import ConfigError, cache_path, config_path, filters_path, load_config, log_path
    from flextui.render.text import clean, clean_lines

    cfg = config_path()
    print(f"flextui {__version__} (Python {platform.python_version()})")
    try:
        import textual

        print(f"textual {textual.__version__}")
    except Exception:
        pass
    print(f"config file: {cfg} ({'exists' if cfg.exists() else 'not created yet'})")
    cache = cache_path()
    size = cache.stat().st_size if cache.exists() else 0
    print(f"cache file:  {cache} ({size:,} bytes)" if cache.exists() else f"cache file:  {cache} (empty)")
    print(f"log file:    {log_path()}")
    filters = filters_path()
    print(f"filter sets: {filters} ({'exists' if filters.exists() else 'none saved yet'})")
    print(f"themes:      {cfg.parent / 'themes'} (your own *.toml themes)")
    try:
        config = load_config()
    except ConfigError as exc:
        print(f"config problem: {clean_lines(str(exc))}")
        return EXIT_USAGE
    print(f"cache limit: {config.settings.cache_max_mb:g} MB (cache_max_mb; over it, what was used longest ago goes first)")
    if config.profiles:
        print("profiles:")
        for name, profile in config.profiles.items():
            holds = [
                what
                for what, source in (("password", profile.password_source()), ("access token", profile.token_source()))
                if source is not None
            ]
            flags = (
                [" + ".join(holds) or "no credentials"]
                + (["mints a token"] if profile.mint_token and not profile.read_only else [])
                + (["read-only"] if profile.read_only else [])
            )
            default = " (default)" if name == config.settings.default_profile else ""
            print(clean(f"  {name}{default}: {profile.url} as {profile.user or '-'} [{', '.join(flags)}]"))
    else:
        print('profiles: none yet (see the README, "Using it with your instance"); try `flextui demo`')
    return 0


def cmd_cache(args: argparse.Namespace) -> int:
    """`cache clear`: every page (--all), or the pages of one identity (the profile's instance and user)."""
    from flextui.config import ConfigError, load_config
    from flextui.context import open_cache
    from flextui.render.text import clean

    identity = None
    if args.all and (given := [option for option in ("--profile", "--url", "--user") if getattr(args, option[2:])]):
        verb = "makes" if len(given) == 1 else "make"
        raise ConfigError(f"cache clear --all clears every identity's pages, so {' and '.join(given)} {verb} no sense with it")
    if args.user and not args.url:  # a user of which instance: it would clear the default profile's pages instead
        raise ConfigError("cache clear --user needs --url (the cache keeps pages per instance and user), or use --profile or --all")
    if not args.all:
        if args.url:
            if not (args.user or "").strip():  # pages are kept per instance and user: without one it would clear nothing
                raise ConfigError("cache clear --url needs --user (the cache keeps pages per instance and user), or use --all")
            identity = f"{args.url.rstrip('/').lower()}|{args.user.strip().lower()}"
        else:
            name = args.profile or os.environ.get("FLEXTUI_PROFILE")
            if name is None and not load_config().settings.default_profile:
                raise ConfigError("cache clear: name the profile (--profile P), the instance (--url U --user X), or --all")
            profile = load_config().profile(name)
            identity = f"{profile.url.lower()}|{(profile.user or '').strip().lower()}"
            if not (profile.user or "").strip():  # no user: its pages are its token's (`Session.identity`)
                identity = _token_only_identity(profile)
    cache = open_cache()
    try:
        if cache.disabled_reason:
            sys.stderr.write(f"flextui: the cache cannot be changed: {cache.disabled_reason}\n")
            return 1
        removed = cache.clear(identity)
        if cache.disabled_reason:
            sys.stderr.write(f"flextui: the cache was not cleared: {cache.disabled_reason}\n")
            return 1
    finally:
        cache.close()
    whose = f" of {identity.replace('|', ' as ')}" if identity else ""
    print(clean(f"removed {plural(removed, 'cached page')}{whose}"))
    return 0


def _token_only_identity(profile: Any) -> str:
    """Whose pages a profile with no user has: its instance and its access token's digest (`Session.identity`),
    the token got as `--offline` gets it, asking nobody (its value in the file, or an environment variable)."""
    from flextui.api.http import token_identity
    from flextui.config import ConfigError
    from flextui.secrets import offline_credentials

    token = offline_credentials(profile)[0].token
    if not token:
        source = profile.token_source()
        if source is None:
            where = "it has none"
        elif not isinstance(source, str) and source.env:
            where = f"{source.env} is not set"
        else:
            where = "it is not got here"
        raise ConfigError(
            f"cache clear: profile {profile.name!r} has no user, so its pages are its access token's, and {where} "
            "(nothing is asked for here): set it, or use --all"
        )
    return f"{profile.url.lower()}|{token_identity(token)}"


def cmd_sim(args: argparse.Namespace) -> int:
    from flextui.sim.app import create_app
    from flextui.sim.dialects import DEFAULT, DIALECTS, STRICT
    from flextui.sim.world import ADMIN, CUSTOMER, PRODUCER, World

    if args.list_dialects:
        for name, what in DIALECTS.items():
            mark = " (default)" if name in DEFAULT else ""
            print(f"{name:<28}{what}{mark}")
        print(f"{'lenient':<28}(not a dialect) drop the defaults, e.g. --dialect lenient,zero-based")
        return 0
    spoken = DEFAULT if args.dialect is None else args.dialect
    base = f"http://{args.host}:{args.port}"
    try:
        import socket

        with socket.socket() as probe:  # say so before printing credentials for a server that cannot start
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            probe.bind((args.host, args.port))
    except OSError as exc:
        sys.stderr.write(f"flextui sim: cannot listen on {args.host}:{args.port}: {exc.strerror or exc}; try another --port\n")
        return 6
    import uvicorn

    world = World(seed=args.seed, scale=args.scale)
    app = create_app(world, latency_ms=args.latency, dialects=spoken)
    tokens = {user: world.seed_token(user) for user, _ in (ADMIN, PRODUCER, CUSTOMER)}
    strict = "the strictest reading of the docs" if spoken == STRICT else ", ".join(sorted(spoken)) or "lenient"
    print(f"FlexNet Operations simulator (seed {args.seed}, scale {world.scale:g}, dialect: {strict}) at {base}")
    print(f"  tokens        {base}/flexnet/uar/v1/…")
    print(f"  registry      {base}/registry/api/v1/…   x-publisherid: {world.tenant_id}")
    print(f"  data reports  {base}/data/api/v1/report/…")
    print(f"  beta APIs     {base}/entitlements-api/v1, /products-api/v1, /users-accounts-api/v1 (access tokens)")
    print("users (simulated; not secrets):")
    for role, (user, password) in (("privileged", ADMIN), ("producer", PRODUCER), ("customer", CUSTOMER)):
        print(f"  {role:<10} {user}  password {password}  access token {tokens[user]}")
    print(
        f"try: FLEXTUI_PASSWORD={ADMIN[1]} FLEXTUI_TOKEN={tokens[ADMIN[0]]} flextui --url {base} --user {ADMIN[0]} --registry-tenant {world.tenant_id}"
    )
    sys.stdout.flush()
    uvicorn.run(app, host=args.host, port=args.port, log_level="warning", lifespan="off")
    return 0


# -- headless -------------------------------------------------------------------------------------


async def cmd_headless(args: argparse.Namespace, tally: Tally | None = None, run: _HeadlessRun | None = None) -> int:
    """`get` or `report`, writing to stdout; `tally` counts the rows written as they go; `run` is told when the
    session is made and when it closes (what SIGHUP/SIGTERM do depends on it)."""
    from flextui.api.errors import ApiError, Offline
    from flextui.headless.common import Tally

    try:
        ctx = make_context(args, demo=args.demo)
    except ValueError as exc:
        print_error(exc)
        return EXIT_USAGE
    from flextui import kinds

    tally = tally or Tally()
    if run is not None:
        run.started()
    try:
        if args.command == "report":
            from flextui.headless.reports import run_report

            code = await run_report(ctx, args, tally=tally)
            for note in ctx.session.notices:  # (what `_listing_end` says: the password not had, the token asked instead)
                print_error(note)
            return code
        kind = kinds.lookup(args.kind)
        if kind is None or not kind.has_lister:
            print_error(f"cannot list {args.kind!r}; try one of: {', '.join(listable_kinds())}")
            return EXIT_USAGE
        lister = kind.lister_function()
        rows = lister(ctx, args) if getattr(lister, "wants_context", False) else lister(ctx.session, args)
        count = await emit(rows, args.format, kind.fields, limit=args.limit, tally=tally)
        return _listing_end(ctx.session, count)
    except ApiError as exc:
        print_error(f"{exc}{tally.cut_short()}")
        if isinstance(exc, Offline):  # why a page stored online may not be found here (a token not got offline)
            service = "data" if args.command == "report" else getattr(kinds.lookup(args.kind), "service", "")
            for services, said in ctx.extras.get("offline_unfound", ()):
                if service in services:
                    print_error(said)
        return exc.exit_code
    except ValueError as exc:
        print_error(exc)
        return int(getattr(exc, "exit_code", EXIT_USAGE))  # (the registry's missing password: 3, as every missing credential)
    finally:
        if run is not None:
            run.closing = True  # a SIGHUP or SIGTERM from here waits: the session's close deletes a minted token
        await ctx.aclose()


def _listing_end(session: Any, count: int) -> int:
    """What a headless listing says at its end (minted tokens, shortfalls) and its exit code."""
    from flextui.api.errors import EXIT_INCOMPLETE

    for note in session.notices:  # (through the sanitiser: a notice or a shortfall may quote a server's words)
        print_error(note)
    if session.shortfalls:
        for outcome in session.shortfalls:
            print_error(f"incomplete: {outcome.describe()}")
        return EXIT_INCOMPLETE
    if count == 0:
        sys.stderr.write("no rows\n")
    return 0


async def emit(
    rows: AsyncIterator[dict[str, Any]],
    fmt: str,
    columns: Sequence[str],
    *,
    limit: int | None = None,
    out: Any = None,
    tally: Tally | None = None,
) -> int:
    """Stream rows to stdout in a format, as `columns` (the kind's fields); return how many were written (also kept
    in `tally` as they go).

    The columns are the kind's, never the first row's, so an empty listing has
    the header (csv, table) of a full one; JSON is `[]`, JSON Lines nothing.
    A failure or ctrl+c midway leaves the document unfinished (a JSON array
    without its `]`), so the part printed cannot pass for a whole answer.
    """
    from flextui.render.export import format_for
    from flextui.render.tableout import TableWriter

    out = out or sys.stdout
    writer = TableWriter(out, list(columns)) if fmt == "table" else format_for(fmt).open(out, columns)
    count = 0
    try:
        async for row in rows:
            if limit is not None and count >= limit:
                break
            writer.write([row])
            count += 1
            if tally is not None:
                tally.count = count
    except BaseException:  # ctrl+c too: the caller says where the output stops
        if isinstance(writer, TableWriter) and count:  # a table is laid out at the end: show the rows read (stderr says it stops there)
            writer.close()
        raise
    writer.close()
    return count
