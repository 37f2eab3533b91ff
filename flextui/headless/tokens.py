"""Headless token listing: `flextui get tokens` by user/creator or by search criteria."""

from __future__ import annotations

import argparse
from collections.abc import AsyncIterator
from typing import Any

from flextui.api.http import Session
from flextui.api.tokens import TokenSearch, TokensService
from flextui.headless.common import page_size
from flextui.render.tokens import token_row


async def get_tokens(session: Session, args: argparse.Namespace) -> AsyncIterator[dict[str, Any]]:
    service = TokensService(session)
    if args.search:
        criteria = TokenSearch.parse_expression(args.search, username=args.username, creator=args.creator)
        pages = service.search_all(criteria, page_size=page_size(args), max_items=args.limit)
    else:
        if not (args.username or args.creator):
            raise ValueError("give --username or --creator (or both), or --search 'name=api*'")
        pages = await service.iterate(args.username, args.creator, page_size(args), max_items=args.limit)
    async for batch in pages:
        for token in batch:
            yield token_row(token)
