"""Headless token listing: `flextui get tokens` by user/creator or by search criteria."""

from __future__ import annotations

import argparse
from collections.abc import AsyncIterator
from typing import Any

from flextui.api.http import Session
from flextui.api.tokens import Token, TokenSearch, TokensService
from flextui.headless.common import iso


def token_row(token: Token) -> dict[str, Any]:
    return {
        "name": token.name,
        "type": token.token_type,
        "username": token.username,
        "creator": token.creator,
        "description": token.description,
        "expiryStr": token.expiry_str,
        "issued": iso(token.issued),
        "expires": iso(token.expires),
        "masked": token.masked,
    }


async def get_tokens(session: Session, args: argparse.Namespace) -> AsyncIterator[dict[str, Any]]:
    service = TokensService(session)
    if args.search:
        criteria = TokenSearch.parse_expression(args.search)
        if args.username and not criteria.username:
            criteria = criteria.model_copy(update={"username": args.username})
        if args.creator and not criteria.creator:
            criteria = criteria.model_copy(update={"creator": args.creator})
        async for page in service.search_all(criteria, page_size=args.page_size):
            for token in page:
                yield token_row(token)
        return
    if not (args.username or args.creator):
        raise ValueError("give --username or --creator (or both), or --search 'name=api*'")
    number = 0
    while True:
        page = None
        async for page in service.list_page(args.username, args.creator, number, args.page_size):
            pass  # the freshest answer: the cache's alone when offline or fresh enough
        assert page is not None
        for token in page.items:
            yield token_row(token)
        if len(page.items) < args.page_size:
            return
        number += 1
