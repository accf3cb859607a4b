"""Chainlit's index.html loads Google Fonts and a KaTeX stylesheet from CDNs; the app must make no request
outside its own origin (compliance users are often behind strict proxies), so those tags are removed.

Chainlit builds the page in `chainlit.server.get_html_template`, looked up at request time by its catch-all
route; wrapping that one function is the smallest hook that survives the page being rebuilt per request.
"""
from __future__ import annotations

import re
from collections.abc import Callable

_EXTERNAL = re.compile(
    r"<link\b[^>]*\bhref=\"https?://[^\"]*\"[^>]*/?>|<script\b[^>]*\bsrc=\"https?://[^\"]*\"[^>]*>\s*</script>",
    re.IGNORECASE,
)
_OG_IMAGE = re.compile(r"<meta property=\"og:image\"[^>]*>", re.IGNORECASE)


def strip_external_assets(page: str) -> str:
    return _OG_IMAGE.sub("", _EXTERNAL.sub("", page))


def install() -> None:
    import chainlit.server as server

    original: Callable[[str], str] = server.get_html_template
    if getattr(original, "_citewalk_offline", False):
        return

    def offline_template(root_path: str) -> str:
        return strip_external_assets(original(root_path))

    offline_template._citewalk_offline = True  # type: ignore[attr-defined]
    server.get_html_template = offline_template
