"""The read-only page behind an answer permalink: question, answer, rule cards, chain and the graph."""
from __future__ import annotations

from collections.abc import Callable
from urllib.parse import urlencode

from core.render.chain import chain_segments
from core.render.compare import Comparison
from core.render.graph_html import graph_html
from core.render.source_view import SourceView
from core.render.templating import render
from core.render.view import AnswerView

# srcdoc iframes inherit this policy, so inline scripts are allowed (the graph needs them) but nothing loads
# from another origin and the graph's sandbox keeps it away from the app's cookies.
CONTENT_SECURITY_POLICY = (
    "default-src 'self'; script-src 'unsafe-inline'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; "
    "font-src 'self'; connect-src 'none'; frame-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'self'"
)


def share_page_html(view: AnswerView, *, shared_by: str, created_at: str, revoke_url: str | None = None,
                    token: str = "") -> str:
    return render(
        "share_page.html.j2", view=view, segments=chain_segments(view.chain, view.labels), graph=graph_html(view),
        shared_by=shared_by, created_at=created_at, revoke_url=revoke_url, token=token,
        source_href=_source_href(token), source_base=f"/answers/{token}/source?unit=",
    )


def _source_href(token: str, shared: frozenset[str] | None = None) -> Callable[[str], str]:
    """A unit's source page under the permalink; "" (no link) for a unit the shared answer does not show."""
    return lambda unit_id: (f"/answers/{token}/source?{urlencode({'unit': unit_id})}"
                            if shared is None or unit_id in shared else "")


def source_page_html(view: SourceView | None, *, token: str, question: str, shared: frozenset[str], problem: str = "",
                     whole: bool = False, version: str | None = None, comparison: Comparison | None = None) -> str:
    """The permalink's read-only source view of one unit; `problem` says why none is shown. Its citation links
    lead only to the `shared` answer's units: the permalink opens no others. `version` (a date in force) shows
    that wording of the unit, `comparison` two of its wordings side by side."""
    href = _source_href(token, shared)
    whole_href = href(view.unit_id) + ("" if whole else "&whole=1") if view else ""
    page_href = f"/answers/{token}/source/page?{urlencode({'unit': view.unit_id})}" if view else ""
    shown = next((v for v in view.versions if v.valid_from == version), None) if view and version else None
    return render("source_page.html.j2", view=view, token=token, question=question, problem=problem,
                  href=href, whole_href=whole_href, page_href=page_href, shown_version=shown, comparison=comparison,
                  version_href=lambda day: href(view.unit_id if view else "") + "&" + urlencode({"version": day}),
                  compare_action=f"/answers/{token}/source")


def message_page_html(title: str, message: str, sign_in_link: bool = False) -> str:
    """Small page for 401/403/404 so a browser user sees words, not JSON."""
    return render("message_page.html.j2", title=title, message=message, sign_in_link=sign_in_link)
