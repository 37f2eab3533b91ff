"""Headless tokens: `flextui get tokens` by user/creator or by search criteria, or `flextui get tokens NAME` (one token)."""

from __future__ import annotations

import argparse
from collections.abc import AsyncIterator
from typing import Any

from flextui.api.http import Session
from flextui.api.tokens import TokenSearch, TokensService
from flextui.headless.common import page_size
from flextui.render.tokens import token_row


async def get_tokens(session: Session, args: argparse.Namespace) -> AsyncIterator[dict[str, Any]]:
    """Tokens by `--username` and/or `--creator`, by `--search` criteria, or TARGET: the one token of that name
    (its details, `GET /uar/v1/token/{name}`; token names are unique), as one row."""
    service = TokensService(session)
    name = (getattr(args, "target", None) or "").strip()
    if name:
        if args.search or args.username or args.creator:
            raise ValueError(f"give a token's name ({name}) or --username, --creator or --search, not both")
        yield token_row(await service.get(name))
        return
    if args.search:
        criteria = TokenSearch.parse_expression(args.search, username=args.username, creator=args.creator)
        pages = service.search_all(criteria, page_size=page_size(args), max_items=args.limit)
    else:
        if not (args.username or args.creator):
            raise ValueError("give --username or --creator (or both), --search 'name=api*', or a token's name")
        pages = await service.iterate(args.username, args.creator, page_size(args), max_items=args.limit)
    async for batch in pages:
        for token in batch:
            yield token_row(token)
