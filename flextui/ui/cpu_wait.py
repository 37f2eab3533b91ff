"""How long the app has waited for a CPU: the part of a wait that a loaded machine, not the app, took.

Why: keys typed in a burst are handed on one at a time, each once the app
has settled after the one before, and at most `KEY_WAIT_LIMIT` seconds
later, so that something that never settles cannot hold the keys for ever
(`FlexApp._wait_until_settled`). On a jump host whose cores other work keeps
busy, the same settling takes several times as long on the wall clock: the
app's main thread spends most of the wait runnable but not running. Counted
on the wall clock, `:products⏎:features⏎` typed at once handed `:features`
on while the catalogue was still being built, and the tab never came (the
suite under two busy loops). The limit is counted on the wall clock less the
time the main thread waited for a CPU, which Linux keeps per thread in
`/proc/self/schedstat` (its second field, nanoseconds). Where that is not
available (another system, a kernel without schedstats) nothing is taken
off: the wall clock, as before.
"""

from __future__ import annotations

_SCHEDSTAT = "/proc/self/schedstat"
"""The main thread's scheduler statistics (the thread group leader's): time run, time waited to run, slices (ns)."""


def waited_for_cpu() -> float:
    """Seconds the main thread has spent runnable but waiting for a CPU since it started; 0.0 where unknown."""
    try:
        with open(_SCHEDSTAT, "rb") as stats:
            return int(stats.read().split()[1]) / 1e9
    except (OSError, IndexError, ValueError):
        return 0.0


__all__ = ["waited_for_cpu"]
