"""See the source against the real graph (HIPAA ingested, plus a small amended act written by the project's
writer): neighbours in document order, headings, citation links both ways, lines in the source file, history
from current law, and the HTTP routes of the chat and the permalink page (JSON, pages, exports)."""
from __future__ import annotations

import asyncio
import io
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from core.answer.models import AnswerEnvelope, AttributedAnswer, Claim, RuleClaims
from core.app_db import make_engine
from core.chat.evidence import answer_view
from core.chat.source_routes import install_source_routes
from core.domain import Edge
from core.render import source_view
from core.render.highlight import Quote
from core.render.source_view import answer_quotes, card_sources, read_source_view
from core.render.view import AnswerView, ClaimView, RuleCardView
from core.settings import Settings
from core.sharing import create_link
from core.stores.queries import fetch_units, neighbours
from tests.render_support import HOSTILE
from tests.route_support import AUTH_SECRET, share_app, sign_in
from tests.source_support import (
    AMENDED,
    AMENDED_TEXT,
    AMENDING,
    EFFECTIVE,
    NEW_TEXT,
    PDF_UNIT,
    remove_amended_pair,
    remove_pdf_document,
    write_amended_pair,
    write_pdf_document,
)


@pytest.fixture(scope="module")
def cited(neo4j_driver, hipaa_corpus, test_settings: Settings) -> Iterator[str]:
    """A HIPAA paragraph that cites and is cited; the test act's article 3 cites it too."""
    records, _, _ = neo4j_driver.execute_query(
        "MATCH (u:Unit {corpus: 'hipaa', type: 'paragraph'})-[:REFERENCES]->(:Unit) WHERE u.text <> '' "
        "AND u.order > 2 AND EXISTS { (:Unit)-[:REFERENCES]->(u) } RETURN u.id AS id ORDER BY u.id LIMIT 1",
        database_=test_settings.neo4j_database,
    )
    unit_id = records[0]["id"]
    write_amended_pair(neo4j_driver, test_settings.neo4j_database, cited_unit=unit_id)
    yield unit_id
    remove_amended_pair(neo4j_driver, test_settings.neo4j_database)


def test_unit_in_its_document_with_links_and_lines(neo4j_driver, test_settings: Settings, cited: str):
    db = test_settings.neo4j_database
    unit = fetch_units(neo4j_driver, db, [cited])[cited]
    quote = unit.text[5:60]
    view = read_source_view(neo4j_driver, db, cited, [Quote(text=quote)], above=2, below=2)
    assert view is not None and view.document_id == unit.document_id
    ids = [u.id for u in view.units]
    assert len(ids) == 5 and ids[2] == cited and [u.target for u in view.units] == [False, False, True, False, False]
    orders, _, _ = neo4j_driver.execute_query("MATCH (u:Unit) WHERE u.id IN $ids RETURN u.id AS id, u.order AS o",
                                              ids=ids, database_=db)
    order = {r["id"]: r["o"] for r in orders}
    assert [order[i] for i in ids] == sorted(order[i] for i in ids)
    marked = "".join(s.text for s in view.units[2].segments if s.mark)
    assert " ".join(marked.split()) == " ".join(quote.split())
    assert view.headings and view.headings[-1].startswith(fetch_units(neo4j_driver, db, [unit.parent_id or ""])
                                                         .get(unit.parent_id or "", unit).label)
    out = {e.target for e in neighbours(neo4j_driver, db, [cited], ["REFERENCES"], direction="out")}
    assert out <= {link.id for link in view.cites}
    assert AMENDED in {link.id for link in view.cited_by}
    assert view.location.kind == "text" and view.location.file_name.endswith(".md")
    docs, _, _ = neo4j_driver.execute_query("MATCH (d:Document {id: $id}) RETURN d.source_path AS path",
                                            id=unit.document_id, database_=db)
    lines = Path(docs[0]["path"]).read_text().splitlines()
    first, last = view.location.first_line, view.location.last_line
    assert first is not None and last is not None
    named = "".join(re.findall(r"[^\W_]+", " ".join(lines[first - 1:last]))).casefold()
    assert "".join(re.findall(r"[^\W_]+", unit.text)).casefold()[:40] in named
    whole = read_source_view(neo4j_driver, db, cited, above=2000, below=2000)
    assert whole is not None and whole.hidden_above == whole.hidden_below == 0
    assert view.hidden_above + 2 + view.hidden_below + 3 == len(whole.units)
    assert read_source_view(neo4j_driver, db, "no/such/unit") is None


def test_amended_unit_shows_its_history_and_current_words(neo4j_driver, test_settings: Settings, cited: str):
    view = read_source_view(neo4j_driver, test_settings.neo4j_database, AMENDED, [Quote(text=HOSTILE)])
    assert view is not None and view.history is not None
    assert [(e.action, e.date, e.by) for e in view.history.events] == [("replaced", EFFECTIVE, "Amending Act Art 1")]
    assert view.history.current_text == NEW_TEXT and view.history.latest_id == AMENDING
    assert view.history.headline == "Superseded: the current words are in Amending Act Art 1."
    assert [u.label for u in view.units] == ["Test Act", "Test Act Art 2", "Test Act Art 3", "Test Act Art 4"]
    assert [s.text for s in view.units[2].segments if s.mark] == [HOSTILE]
    assert view.cites[0].id == cited and view.cited_by[0].id == AMENDING and view.cited_by[0].relation == "amends"


def _envelope(unit_id: str, text: str) -> AnswerEnvelope:
    return AnswerEnvelope(
        question=f"What changed? {HOSTILE}", corpus="source-view-test", mode="extractive", model="extractive",
        answer=AttributedAnswer(answer=f"It was replaced. {HOSTILE}", rules=[
            RuleClaims(unit_id=unit_id, label="Test Act Art 3", claims=[Claim(text=text)])],
            chain=[Edge(source=AMENDING, type="AMENDS", target=unit_id)]),
        seed_ids=[unit_id], evidence_ids=[unit_id, AMENDING],
    )


def test_answer_view_carries_card_history_and_document_ingest(neo4j_driver, test_settings: Settings, cited: str):
    view = answer_view(neo4j_driver, test_settings.neo4j_database, _envelope(AMENDED, AMENDED_TEXT[:40]))
    card = view.cards[0]
    assert card.history is not None and card.history.current_text == NEW_TEXT
    assert [d.id for d in view.documents] == ["a-source-test/act"] and view.documents[0].ingested_at[:2] == "20"
    assert view.answered_at.endswith("UTC")


@pytest.fixture()
def served(tmp_path: Path, monkeypatch, neo4j_driver, test_settings: Settings,
           cited: str) -> Iterator[tuple[TestClient, str, str]]:
    """The routes, signed in, with two shared answers: the amended article's (its token second) and one that cites
    the PDF act's article 2 (third)."""
    monkeypatch.setenv("CHAINLIT_AUTH_SECRET", AUTH_SECRET)
    engine = make_engine(test_settings.model_copy(update={"data_dir": tmp_path}))
    view = answer_view(neo4j_driver, test_settings.neo4j_database, _envelope(AMENDED, AMENDED_TEXT[:40]))
    app, token = share_app(engine, "alice@example.org", "message-7", view)
    pdf_view = AnswerView(question="How long are records kept?", corpus="source-view-test", answer="Six years.",
                          mode="extractive", model="extractive",
                          cards=[RuleCardView(unit_id=PDF_UNIT, label="PDF Act Art 2",
                                              claims=[ClaimView(text="keep records of every transaction")])])
    pdf_token = asyncio.run(create_link(engine, "alice@example.org", "message-8", pdf_view))
    install_source_routes(app, engine, test_settings, public_links=False)
    with TestClient(app) as client:
        sign_in(client, "bob@example.org")
        yield client, token, pdf_token


def test_api_source_returns_the_view_and_404s_unknown_units(served):
    client, *_ = served
    response = client.post("/api/source", json={"unit_id": AMENDED, "quotes": [{"text": "the rule that stood"}]})
    assert response.status_code == 200, response.text
    body = response.json()
    assert body["unit_id"] == AMENDED and body["history"]["headline"].startswith("Superseded")
    target = next(u for u in body["units"] if u["target"])
    assert [s["text"] for s in target["segments"] if s["mark"]] == ["the rule that stood"]
    assert client.post("/api/source", json={"unit_id": "no/such"}).status_code == 404
    assert client.post("/api/source", json={"unit_id": AMENDED, "above": 10**6}).status_code == 422


def test_card_views_read_with_the_answer_are_what_a_click_reads(served, neo4j_driver, test_settings: Settings, monkeypatch):
    """The chat sends each card's source view with the answer (core.chat.answer_message); the element shows it on
    the first click instead of asking /api/source, so it must be the very view that request returns."""
    client, *_ = served
    view = answer_view(neo4j_driver, test_settings.neo4j_database, _envelope(AMENDED, AMENDED_TEXT[:40]))
    sent = card_sources(neo4j_driver, test_settings.neo4j_database, view)
    assert list(sent) == [AMENDED]
    quotes = [q.model_dump(mode="json") for q in answer_quotes(view)]
    clicked = client.post("/api/source", json={"unit_id": AMENDED, "quotes": quotes})
    assert clicked.status_code == 200, clicked.text
    assert sent[AMENDED].model_dump(mode="json") == clicked.json()
    history = sent[AMENDED].history
    assert history is not None and history.current_text == NEW_TEXT
    assert any(s.mark for u in sent[AMENDED].units for s in u.segments)
    # A view longer than the cap does not ride with the answer; the click fetches it.
    shown = sum(len(s.text) for u in sent[AMENDED].units for s in u.segments)
    monkeypatch.setattr(source_view, "EMBED_MAX_CHARS", shown - 1)
    assert card_sources(neo4j_driver, test_settings.neo4j_database, view) == {}


def test_pdf_unit_view_names_its_page_and_the_page_renders(served, neo4j_driver, test_settings: Settings, tmp_path: Path,
                                                           cited: str):
    client, token, pdf_token = served
    db = test_settings.neo4j_database
    write_pdf_document(neo4j_driver, db, tmp_path / "pdf-act.pdf", cited_unit=cited)
    try:
        view = read_source_view(neo4j_driver, db, PDF_UNIT, [Quote(text="keep records of every transaction")])
        assert view is not None
        assert (view.location.kind, view.location.page, view.location.page_image) == ("pdf", 2, True)
        shown = client.get("/api/source/page", params={"unit": PDF_UNIT, "quote": ["keep records of every transaction"]})
        assert shown.status_code == 200 and shown.headers["content-type"] == "image/png"
        assert shown.content.startswith(b"\x89PNG")
        not_pdf = client.get("/api/source/page", params={"unit": AMENDED})
        assert not_pdf.status_code == 404 and "not a PDF" in not_pdf.json()["detail"]
        assert client.get("/api/source/page", params={"unit": "no/such"}).status_code == 404
        assert client.get("/api/source/page", params={"unit": PDF_UNIT, "quote": ["x"] * 21}).status_code == 422
        # The permalink of an answer citing the unit shows the same page on its read-only source page ...
        shared = client.get(f"/answers/{pdf_token}/source", params={"unit": PDF_UNIT})
        page_src = f'/answers/{pdf_token}/source/page?unit={PDF_UNIT.replace("/", "%2F")}'
        assert shared.status_code == 200 and f'src="{page_src}"' in shared.text and "page 2" in shared.text
        assert client.get(page_src).content.startswith(b"\x89PNG")
        # ... and a permalink of another answer renders neither the unit's source nor its page.
        other = client.get(f"/answers/{token}/source", params={"unit": PDF_UNIT})
        assert other.status_code == 404 and "not part of the shared answer" in other.text and "page 2" not in other.text
        other_page = client.get(f"/answers/{token}/source/page", params={"unit": PDF_UNIT})
        assert other_page.status_code == 404 and "not part of the shared answer" in other_page.json()["detail"]
    finally:
        remove_pdf_document(neo4j_driver, db)


def test_permalink_source_page_and_exports(served, cited: str):
    from docx import Document

    client, token, _ = served
    page = client.get(f"/answers/{token}")
    assert f'href="/answers/{token}/source?unit=a-source-test%2Fact%2Fart-3"' in page.text
    card = page.text[page.text.index('<article class="rule-card"'):page.text.index("</article>")]
    assert "Superseded: the current words are in Amending Act Art 1." in card and NEW_TEXT in card
    source = client.get(f"/answers/{token}/source", params={"unit": AMENDED})
    assert source.status_code == 200 and "default-src 'self'" in source.headers["content-security-policy"]
    assert "<mark>Article 3 words before the change &lt;scrip</mark>t&gt;alert(&quot;x&quot;)" in source.text
    assert "Superseded: the current words are in Amending Act Art 1." in source.text and NEW_TEXT in source.text
    assert "<script>alert" not in source.text
    assert client.get(f"/answers/{token}/source", params={"unit": "no/such"}).status_code == 404
    # The article cites a HIPAA paragraph the answer does not show: named, not linked, and not opened by this link.
    assert "/source?unit=" + cited.replace("/", "%2F") not in source.text
    another = client.get(f"/answers/{token}/source", params={"unit": cited})
    assert another.status_code == 404 and "not part of the shared answer" in another.text
    assert client.get(f"/answers/{token}/source", params={"unit": AMENDING}).status_code == 200  # the chain's other end
    docx = client.get(f"/answers/{token}/export", params={"format": "docx"})
    assert docx.status_code == 200 and "attachment" in docx.headers["content-disposition"]
    text = "\n".join(p.text for p in Document(io.BytesIO(docx.content)).paragraphs)
    assert AMENDED_TEXT[:40] in text and "Test Act Art 3" in text and "Answer id: message-7" in text
    markdown = client.get(f"/answers/{token}/export", params={"format": "md"})
    assert markdown.headers["content-type"].startswith("text/markdown") and "message\\-7" in markdown.text
    assert client.get(f"/answers/{token}/export", params={"format": "exe"}).status_code == 422
    client.cookies.clear()
    assert client.get(f"/answers/{token}/source", params={"unit": AMENDED}).status_code == 401
    assert client.get(f"/answers/{token}/export").status_code == 401


def test_chat_export_needs_the_answer_in_ones_own_chats(served):
    client, *_ = served
    response = client.get("/api/answers/not-a-message/export", params={"format": "md"})
    assert response.status_code == 404 and "no such answer in your chats" in response.json()["detail"]
