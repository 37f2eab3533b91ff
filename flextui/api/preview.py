"""The request a report's first page sends, as text: the GET URL with its query encoded exactly as httpx sends it, and the POST body.

The report builder shows it (and copies the URL) before anything is sent;
encoding it here, with the client's own HTTP library, keeps the preview
true to the wire and keeps httpx out of the UI.
"""

from __future__ import annotations

import json

import httpx

from flextui.api.filters import (
    FilterSet,
)


def request_preview(base: str, path: str, fs: FilterSet) -> tuple[str, str]:
    """(GET URL with the query encoded as sent, POST body as pretty JSON) of the first page."""
    url = str(httpx.URL(base + path, params=fs.query_params(1)))
    body = json.dumps(fs.body(1), ensure_ascii=False)
    return url, body
