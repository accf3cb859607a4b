"""See the source and Export without a server: quoted words marked, positions in source files, history lines,
the audit-file export (Markdown and DOCX read back with python-docx), and hostile text kept as text."""
from __future__ import annotations

import html
import io
import re

import pytest
from markdown_it import MarkdownIt

from core.current_law import AmendmentEvent, CurrentLaw
from core.render.export import answer_export, export_docx, export_markdown, render_export
from core.render.highlight import Quote, quote_spans, segments
from core.render.history import HistoryEventView, HistoryView, history_view
from core.render.pdf_page import PageUnavailable, page_png
from core.render.share_page import source_page_html
from core.render.source_location import locate
from core.render.source_view import LinkView, SourceUnitView, SourceView, answer_quotes
from core.stores.queries import DocumentRecord
from ingest.parsers.generic.format import GenericParser
from tests.render_support import HOSTILE, hostile_view
from tests.source_support import PDF_PAGES, PDF_UNIT_TEXT, write_pdf

TEXT = "A covered entity must obtain an authorization.\nThe authorization must be in writing; it must be signed."


def docx_text(data: bytes) -> str:
    from docx import Document

    return "\n".join(p.text for p in Document(io.BytesIO(data)).paragraphs)


def test_span_marks_the_quoted_words_and_text_is_kept_whole():
    parts = segments(TEXT, [Quote(text="must obtain an authorization", span=(18, 46))])
    assert "".join(p.text for p in parts) == TEXT
    assert [p.text for p in parts if p.mark] == ["must obtain an authorization"]


def test_quote_found_across_whitespace_and_case_and_by_sentence():
    start = TEXT.index("authorization.\nThe")
    assert quote_spans(TEXT, [Quote(text="AUTHORIZATION.  The authorization")]) == [(start, start + 32)]
    # A model's claim joining two sentences the text does not hold together: each sentence is marked.
    spans = quote_spans(TEXT, [Quote(text="A covered entity must obtain an authorization. It must be signed in ink.")])
    assert [TEXT[a:b] for a, b in spans] == ["A covered entity must obtain an authorization."]
    assert quote_spans(TEXT, [Quote(text="nothing of the sort appears here at all")]) == []


def test_a_wrong_span_falls_back_to_finding_the_words():
    assert quote_spans(TEXT, [Quote(text="in writing", span=(0, 10))]) == [(TEXT.index("in writing"), TEXT.index("in writing") + 10)]


def test_overlapping_quotes_merge():
    spans = quote_spans(TEXT, [Quote(text="must obtain an"), Quote(text="an authorization")])
    assert [TEXT[a:b] for a, b in spans] == ["must obtain an authorization"]


def test_line_numbers_in_markdown_despite_marks_and_wrapping(tmp_path):
    source = tmp_path / "act.md"
    source.write_text("# Act\n\n## Article 2\n\n**①** A covered *entity* must\nobtain an\\. authorization.\n\nNext.\n")
    where = locate(str(source), "① A covered entity must obtain an. authorization.")
    assert (where.kind, where.first_line, where.last_line, where.line) == ("text", 5, 6, "lines 5–6")
    assert locate(str(source), "words that are not there").first_line is None
    assert locate(str(tmp_path / "gone.md"), "A covered").first_line is None


def test_pdf_page_and_html_url(tmp_path):
    from pypdf import PdfWriter

    writer = PdfWriter()
    writer.add_blank_page(width=200, height=200)
    pdf = tmp_path / "blank.pdf"
    with pdf.open("wb") as out:
        writer.write(out)
    assert locate(str(pdf), "anything").kind == "pdf"  # no text layer: a PDF without a page number, not an error
    web = locate("/data/page.html", "x", {"source_url": "https://example.org/reg#p1"})
    assert (web.kind, web.url) == ("html", "https://example.org/reg#p1")
    assert locate("/data/page.html", "x", {"source_url": "javascript:alert(1)"}).url is None


PDF_UNIT = "Article 2 Records " + PDF_UNIT_TEXT


def _marked_rows(png: bytes, colour: tuple[int, int, int]) -> list[int]:
    """Rows of the image holding pixels of about `colour` (the marks blended over white)."""
    from PIL import Image

    image = Image.open(io.BytesIO(png)).convert("RGB")
    width = image.width
    pixels = [p for p in image.get_flattened_data() if isinstance(p, tuple)]  # RGB: every pixel a tuple
    return sorted({i // width for i in range(0, len(pixels), 3)
                   if all(abs(a - b) <= 12 for a, b in zip(pixels[i], colour, strict=True))})


def test_pdf_unit_page_found_and_rendered_with_its_words_marked(tmp_path):
    (tmp_path / "corpus").mkdir()
    pdf = write_pdf(tmp_path / "corpus" / "act.pdf", PDF_PAGES)
    where = locate(str(pdf), PDF_UNIT)
    assert (where.kind, where.page, where.page_image) == ("pdf", 2, True)
    # As ingest reads the file: the article's unit keeps the path, and its words are found on page 2.
    (document,) = GenericParser().parse([tmp_path / "corpus"], corpus="t").documents
    article = next(u for u in document.units if "keep records" in u.text)
    assert locate(document.source_path, article.text).page == 2
    plain = page_png(str(pdf), 2, "words that are not on the page")
    marked = page_png(str(pdf), 2, PDF_UNIT, ["keep records of every transaction"])
    unit_rows = _marked_rows(marked, (255, 247, 218))  # UNIT_FILL over white
    quote_rows = _marked_rows(marked, (255, 227, 120))  # QUOTE_FILL over white
    assert not _marked_rows(plain, (255, 247, 218)) and not _marked_rows(plain, (255, 227, 120))
    # Three lines of the unit shaded, the quote on its second line only; the next article is left alone.
    assert unit_rows and quote_rows and min(unit_rows) < min(quote_rows) and max(quote_rows) < max(unit_rows)
    next_article = _marked_rows(page_png(str(pdf), 2, PDF_PAGES[1][3]), (255, 247, 218))
    assert next_article and max(unit_rows) < min(next_article)
    with pytest.raises(PageUnavailable, match="has no page 3"):
        page_png(str(pdf), 3, PDF_UNIT)
    with pytest.raises(PageUnavailable, match="not an available PDF"):
        page_png(str(tmp_path / "gone.pdf"), 1, PDF_UNIT)
    (tmp_path / "fake.pdf").write_bytes(b"not a pdf")
    with pytest.raises(PageUnavailable, match="cannot be opened"):
        page_png(str(tmp_path / "fake.pdf"), 1, PDF_UNIT)


def test_history_headlines():
    law = CurrentLaw(unit_id="u", label="Art 3", status="repealed", repealed_by="Act 9", repealed_on="2024-01-01",
                     events=[AmendmentEvent(action="repealed", date="2024-01-01", by="Act 9")])
    view = history_view(law)
    assert view is not None and view.repealed
    assert view.headline == "Repealed by Act 9 on 2024-01-01: this text is no longer current law."
    assert view.events[0].line == "Repealed by Act 9, in force 2024-01-01"
    newer = CurrentLaw(unit_id="u", events=[AmendmentEvent(action="replaced", by="Art 1 of Act 9", source_id="n")],
                       latest_id="n")
    superseded = history_view(newer, {"n": ("Act 9 Art 1", "new words")}, quoted_text="old words")
    assert superseded is not None and superseded.current_text == "new words"
    assert superseded.headline == "Superseded: the current words are in Act 9 Art 1."
    assert history_view(CurrentLaw(unit_id="u")) is None


def test_answer_quotes_name_the_unit_each_claim_quotes():
    view = hostile_view()
    view.cards[0].claims[0].unit_id = "u1/a"
    quotes = answer_quotes(view)
    assert [(q.unit_id, q.text) for q in quotes] == [("u1/a", f"claim {HOSTILE}")]


def _exported_view():
    view = hostile_view()
    view.cards[0].history = HistoryView(status="repealed", repealed=True, repealed_by=f"R {HOSTILE}",
                                        events=[HistoryEventView(action="repealed", by="R")])
    view.documents = [DocumentRecord(id="d1", title=f"D {HOSTILE}", source_path="/x/act.md", ingested_at="2026-12-01T10:00:00Z")]
    view.answered_at = "2026-12-02 10:00:00 UTC"
    return view


def test_markdown_export_holds_everything_and_renders_markup_as_text():
    text = export_markdown(answer_export(_exported_view(), "msg-1"))
    rendered = MarkdownIt("commonmark").render(text)
    assert "<script" not in rendered and "<img" not in rendered and 'href="javascript' not in rendered
    plain = html.unescape(re.sub(r"<[^>]+>", "", rendered))
    for expected in (f"Q {HOSTILE}", f"A {HOSTILE}", f"claim {HOSTILE}", f"L {HOSTILE}", "(a)", "msg-1", "hipaa",
                     "2026-12-02 10:00:00 UTC", "act.md", "ingested 2026-12-01T10:00:00Z", "Repealed by R",
                     "—references→"):
        assert expected in plain, expected


def test_docx_export_holds_every_claim_and_citation_as_plain_text():
    view = _exported_view()
    view.cards[0].claims[0].text += " \x0b\x00control"  # characters XML cannot carry are dropped, not fatal
    body, media, name = render_export(view, "msg-1", "docx")
    assert media.endswith("wordprocessingml.document") and name == "citewalk-answer-msg-1.docx"
    text = docx_text(body)
    for expected in (f"Q {HOSTILE}", f"A {HOSTILE}", f"claim {HOSTILE} control", f"L {HOSTILE}", "Answer id: msg-1",
                     "Corpus: hipaa", "Answered: 2026-12-02 10:00:00 UTC", f"D {HOSTILE}", "—references→ U2"):
        assert expected in text, expected
    assert docx_text(export_docx(answer_export(hostile_view(), "x"))).count("claim") == 1


def test_unknown_export_format_is_refused_by_name():
    try:
        render_export(hostile_view(), "m", "pdf")
    except ValueError as exc:
        assert "choose md or docx" in str(exc)
    else:
        raise AssertionError("pdf accepted")


def test_source_page_escapes_document_text():
    view = SourceView(unit_id="u1", label=f"L {HOSTILE}", document_title=f"D {HOSTILE}", headings=[f"H {HOSTILE}"],
                      units=[SourceUnitView(id="u1", label=f"L {HOSTILE}", target=True,
                                            segments=segments(f"before {HOSTILE} after", [Quote(text=HOSTILE)]))],
                      history=HistoryView(status="repealed", repealed=True, repealed_by=HOSTILE))
    page = source_page_html(view, token="T" * 32, question=f"Q {HOSTILE}", shared=frozenset({"u1"}))
    assert "<script" not in page and 'onerror="' not in page and 'href="javascript:' not in page
    assert f"<mark>{html.escape(HOSTILE)}</mark>" in page
    assert "/answers/TTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTT" in page


def test_permalink_source_page_links_only_the_shared_answers_units():
    """The page of a shared answer's unit names every unit it cites, but links only those the answer shows: the
    link opens nothing else."""
    view = SourceView(unit_id="u1", label="Art 1", units=[SourceUnitView(id="u1", label="Art 1", target=True)],
                      cites=[LinkView(id="u2", label="Art 2", relation="references"),
                             LinkView(id="u9", label="Art 9", relation="references")])
    page = source_page_html(view, token="T" * 32, question="Q", shared=frozenset({"u1", "u2"}))
    assert 'href="/answers/TTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTT/source?unit=u2"' in page
    assert "unit=u9" not in page and ">Art 9</span>" in page
