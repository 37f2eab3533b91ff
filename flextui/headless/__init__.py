"""Headless listers for `flextui get KIND` and `flextui report`, one module per service.

Each lister is an async generator of flat, JSON-friendly row dicts, so the
CLI can stream any number of rows to any format without holding them all.
Listers take `(session, args)`; those that need the whole context (the
registry's credentials) set `wants_context = True` and take `(ctx, args)`.
"""
